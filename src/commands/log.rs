//! `log [KEY]`: the records of the notes store, newest first (SPEC sections 5 and 8).

use clap::Args;

use crate::services::context::Context;
pub use crate::services::notes_store::{LogStream, StoredRecord};
use crate::support::error::Result;

#[derive(Debug, Args)]
pub struct LogArgs {
    /// Only the records of this session key.
    pub key: Option<String>,

    /// Show at most N records.
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub max_count: Option<usize>,
}

/// The long help of `log`, after its options.
pub const LOG_HELP: &str = "\
The notes store (handover.store = notes or both) keeps a record of every save, task
change and consumed continue-here note on the commit that was HEAD at that moment, in
handover.notesRef (refs/notes/handover). Each note is one JSON record per line; this
lists them all, newest first. Records that cannot be read are named on stderr.

Examples:
  git handover log
  git handover log main/20261130-120000
  git notes --ref=handover show HEAD";

pub struct Report {
    pub notes_ref: String,
    /// The key asked for, if one was.
    pub key: Option<String>,
    /// With a key that has no records: keys of the store that are close to it.
    pub close: Vec<String>,
    pub records: Vec<StoredRecord>,
    /// Lines of notes that are not records, named.
    pub skipped: Vec<String>,
    /// For each record, what changed since the previous record of its session.
    pub changes: Vec<Vec<crate::model::changes::Change>>,
}

pub fn run(ctx: &Context, args: &LogArgs) -> Result<Report> {
    if let Some(key) = &args.key {
        crate::support::paths::check_relative(crate::k!("what.session_key"), key)
            .map_err(crate::support::error::Error::usage)?;
    }
    let store = ctx.store();
    let history = store.history(args.key.as_deref(), args.max_count)?;
    let mut close = Vec::new();
    if let Some(key) = &args.key
        && history.records.is_empty()
    {
        // Only keys that have a record that reads: from the index, the store's keys
        // include those of lines that do not (what it knows of them is their head).
        let keys: Vec<&str> = history.keys.iter().map(String::as_str).collect();
        for k in close_keys(key, &keys, usize::MAX) {
            if close.len() == CLOSE {
                break;
            }
            if history.keys_read || !store.history(Some(&k), Some(1))?.records.is_empty() {
                close.push(k);
            }
        }
    }
    // Each record against the state it replaced (each shown state is
    // parsed only for this comparison: a store holds many; the older one is a summary,
    // often the index's).
    let changes = (history.records.iter().zip(&history.before))
        .map(|(r, before)| {
            let Some(after) = r.record.state.as_ref() else {
                return Vec::new();
            };
            let after = crate::model::changes::Summary::of(&after.doc());
            // Against the state it replaced, never another side's (none told when
            // the store cannot say which that was).
            before.changes(&after)
        })
        .collect::<Vec<_>>();
    let (records, skipped) = (history.records, history.skipped);
    Ok(Report {
        notes_ref: ctx.settings.notes_ref.clone(),
        key: args.key.clone(),
        close,
        records,
        skipped,
        changes,
    })
}

/// Plain `log` (no key, no count).
pub enum Listing<'a> {
    /// The store read whole (the index could not give the order of reading).
    Whole(Report),
    /// The records as they are read, newest first.
    Stream {
        notes_ref: String,
        records: LogStream<'a>,
    },
}

/// Plain `log`: its records as a stream (issue 36), or, when the store must be read
/// whole, its report.
pub fn stream(ctx: &Context) -> Result<Listing<'_>> {
    if let Some(records) = ctx.store().history_stream()? {
        return Ok(Listing::Stream {
            notes_ref: ctx.settings.notes_ref.clone(),
            records,
        });
    }
    let plain = LogArgs {
        key: None,
        max_count: None,
    };
    run(ctx, &plain).map(Listing::Whole)
}

/// How many keys close to one without records are named.
const CLOSE: usize = 5;

/// Keys of the store close to `key`: sharing its first component (the branch or team),
/// or one containing the other; at most `max`.
fn close_keys(key: &str, keys: &[&str], max: usize) -> Vec<String> {
    let first = key.split('/').next().unwrap_or(key);
    keys.iter()
        .filter(|k| **k != key)
        .filter(|k| k.split('/').next() == Some(first) || k.contains(key) || key.contains(**k))
        .take(max)
        .map(|k| (*k).to_owned())
        .collect()
}
