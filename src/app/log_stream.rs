//! Plain `log` printed as its records are read (issue 36): the first lines go out
//! before the store is read to its end, and a reader that goes away (`| head`) ends
//! the run at once.

use std::io::Write;

use super::{ProcessOutput, Stdout, Tail};
use crate::commands::{Context, log};
use crate::render::human::{self, Painter};
use crate::render::{Notices, Output, json};
use crate::support::error::{Error, Result, exit};

/// `log` without a key or a count: its records streamed, or its report when the store
/// is read whole.
pub(super) fn plain_log(ctx: Context, json: bool, painter: Painter) -> Result<ProcessOutput> {
    // The run ends once this is printed: the context lives as long as the stream that
    // reads through it (a context holds no lock).
    let ctx: &'static Context = Box::leak(Box::new(ctx));
    let (notes_ref, mut records) = match log::stream(ctx)? {
        log::Listing::Whole(report) => {
            let text = if json {
                report.json()
            } else {
                report.human(&painter)
            };
            let mut notices = report.notices(&painter);
            (notices.warnings).extend(super::run_warnings(&painter));
            return Ok(ProcessOutput {
                stdout: Stdout::Text(text.into_bytes()),
                notices,
                code: report.code(),
            });
        }
        log::Listing::Stream { notes_ref, records } => (notes_ref, records),
    };
    let lang = ctx.lang;
    // Stale locks the opening took over (the stream's own are added at its end).
    let notices = Notices {
        warnings: super::run_warnings(&painter),
        ..Notices::default()
    };
    let write = move |out: &mut dyn Write| -> std::io::Result<Tail> {
        // The document starts with its first record, or at the end: a failure before
        // any record prints the error document alone, as any command's error.
        let mut any = false;
        let mut text = String::new();
        let failed = loop {
            let (stored, changes) = match records.next_record() {
                Ok(Some(next)) => next,
                Ok(None) => break None,
                Err(e) => break Some(e),
            };
            if json {
                if !any {
                    json::log_start(out, &notes_ref)?;
                }
                json::log_record(out, !any, &stored)?;
            } else {
                text.clear();
                human::log_entry(&mut text, &stored, &changes, &painter);
                out.write_all(text.as_bytes())?;
            }
            any = true;
        };
        let skipped = records.skipped();
        let error = failed.as_ref().map(Error::to_json);
        match (&error, json) {
            // The records printed are closed into their document, with the error.
            (Some(doc), true) if any => json::log_end(out, true, &skipped, Some(&doc["error"]))?,
            (Some(doc), true) => writeln!(out, "{doc}")?,
            (None, true) => {
                if !any {
                    json::log_start(out, &notes_ref)?;
                }
                json::log_end(out, any, &skipped, None)?;
            }
            (None, false) if !any => {
                out.write_all(human::log_none(None, &notes_ref, &painter).as_bytes())?;
            }
            // The records printed stay (each whole); the error goes to stderr.
            (_, false) => {}
        }
        let mut tail = failed.map_or_else(Tail::default, |e| failure(&e, lang));
        tail.notices.warnings = skipped;
        tail.notices.warnings.extend(super::run_warnings(&painter));
        Ok(tail)
    };
    Ok(ProcessOutput {
        stdout: Stdout::Stream(Box::new(write)),
        notices,
        code: exit::OK,
    })
}

/// The store could not be read to its end: said, with its exit status.
fn failure(e: &Error, lang: crate::support::i18n::Lang) -> Tail {
    Tail {
        notices: Notices {
            errors: vec![e.message(lang)],
            hints: e.hint_in(lang).into_iter().collect(),
            ..Notices::default()
        },
        code: Some(e.exit_code()),
    }
}
