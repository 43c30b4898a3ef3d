//! `here`: write `CONTINUE_HERE.md` (SPEC section 3) with a stamped header.

use clap::Args;

use std::path::PathBuf;

use crate::services::context::Context;
use crate::services::input::read_input;
use crate::services::scan::NOTE_PLACES;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio::{self, Lock};

#[derive(Debug, Args)]
pub struct HereArgs {
    /// Read the note's sections from FILE instead of stdin.
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,

    /// Replace a note that has not been consumed yet.
    #[arg(long)]
    pub force: bool,
}

/// The long help of `here`, after its options.
pub const HERE_HELP: &str = "\
The input is the note's sections in Markdown (## Objective, ## Completed, ## In Progress,
## Next Steps, ## Context); the tool adds the title, `Last updated:` and `Branch:`. A note
that was not consumed yet is replaced only with --force.

Examples:
  git handover here --from notes.md
  printf '## Objective\\nShip the parser\\n' | git handover here";

pub struct Report {
    pub path: PathBuf,
    pub replaced: bool,
    /// Sections of SPEC section 3 the note does not have (said as a warning).
    pub missing: Vec<&'static str>,
}

pub fn run(ctx: &Context, args: &HereArgs) -> Result<Report> {
    let wt = ctx.current_worktree()?;
    let (bytes, name) = read_input(args.from.as_deref()).map_err(Error::of_input)?;
    let body = String::from_utf8(bytes).map_err(|_| {
        Error::InvalidField {
            file: name.clone(),
            field: "(text)".into(),
            message: "is not UTF-8 text".into(),
        }
        .of_input()
    })?;
    let stripped = strip_header(&body);
    if stripped.trim().is_empty() {
        return Err(Error::usage_hint(
            msg(crate::k!("err.note_empty"), &[("input", &name.display())]),
            msg(crate::k!("err.note_empty_hint"), &[]),
        ));
    }
    let missing: Vec<&'static str> = crate::model::note::Note::parse(&stripped)
        .missing_sections()
        .into_iter()
        .map(crate::model::note::Known::title)
        .collect();
    let path = NOTE_PLACES
        .iter()
        .map(|p| wt.path.join(p))
        .find(|p| std::fs::symlink_metadata(p).is_ok())
        .unwrap_or_else(|| wt.path.join(NOTE_PLACES[0]));
    // Confined to the worktree after resolving links: a note found behind a `docs/`
    // link that leads elsewhere is refused by name, never written through.
    if !crate::support::paths::plain_below(&wt.path, &path) {
        return Err(Error::usage(msg(
            crate::k!("err.note_behind_link"),
            &[("path", &path.display()), ("top", &wt.path.display())],
        )));
    }
    if std::fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
        return Err(Error::usage(msg(
            crate::k!("err.not_regular"),
            &[("path", &path.display())],
        )));
    }
    let _lock = Lock::acquire(&path, ctx.settings.lock_timeout)?;
    let replaced = path.exists();
    if replaced && !args.force {
        return Err(Error::usage_hint(
            msg(
                crate::k!("err.note_unconsumed"),
                &[("path", &path.display())],
            ),
            msg(crate::k!("err.note_unconsumed_hint"), &[]),
        ));
    }
    let branch = wt.branch_key().unwrap_or_else(|| "unknown".into());
    let stamp = ctx.now.strftime("%Y-%m-%dT%H:%M:%SZ");
    let text = format!(
        "# Continue Here

> Last updated: {stamp} | Branch: {branch}

{stripped}
"
    );
    fsio::write_atomic(&path, text.as_bytes())?;
    Ok(Report {
        path,
        replaced,
        missing,
    })
}

/// The body without a title or header of its own (the tool stamps a new one) and
/// without surrounding blank lines; line endings made `\n`.
fn strip_header(body: &str) -> String {
    let body = body
        .strip_prefix('\u{feff}')
        .unwrap_or(body)
        .replace("\r\n", "\n");
    let lines: Vec<&str> = body.lines().collect();
    let first_section = lines
        .iter()
        .position(|l| l.starts_with("## "))
        .unwrap_or(lines.len());
    let preamble_is_header = lines[..first_section]
        .iter()
        .all(|l| l.trim().is_empty() || l.starts_with("# ") || l.starts_with('>'));
    let start = if preamble_is_header { first_section } else { 0 };
    lines[start..].join("\n").trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::strip_header;

    #[test]
    fn header_of_the_input_is_replaced() {
        assert_eq!(
            strip_header(
                "# Continue Here\r\n\r\n> Last updated: x | Branch: y\r\n\r\n## Objective\r\ngo\r\n"
            ),
            "## Objective\ngo"
        );
        assert_eq!(
            strip_header("Some intro\n## Objective\ngo\n"),
            "Some intro\n## Objective\ngo"
        );
        assert_eq!(
            strip_header("\n\n## Next Steps\n1. a\n\n"),
            "## Next Steps\n1. a"
        );
    }
}
