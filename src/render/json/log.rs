//! `log --json` written as its records come (issue 36): the document of
//! [`super::log`], byte for byte, a record at a time.

use std::io::Write;

use super::{record_v1, to_string};
use crate::commands::log::StoredRecord;

/// The document's start, up to its records.
pub fn log_start(out: &mut dyn Write, notes_ref: &str) -> std::io::Result<()> {
    let notes_ref = serde_json::to_string(notes_ref).map_err(std::io::Error::from)?;
    write!(
        out,
        "{{\n  \"schema\": \"git-handover/log/1\",\n  \"notes_ref\": {notes_ref},\n  \"records\": ["
    )
}

/// One record (`first`: the first of the document).
pub fn log_record(out: &mut dyn Write, first: bool, s: &StoredRecord) -> std::io::Result<()> {
    let text = to_string(&record_v1(s));
    out.write_all(if first { b"\n    " } else { b",\n    " })?;
    out.write_all(indented(text.trim_end(), "    ").as_bytes())
}

/// The document's end: the records' array closed (`any`: it has some), the lines that
/// are no record, and the error that stopped the reading midway (the `error` object of
/// `git-handover/error/1`; only when some records were printed, else the error
/// document is printed alone).
pub fn log_end(
    out: &mut dyn Write,
    any: bool,
    skipped: &[String],
    error: Option<&serde_json::Value>,
) -> std::io::Result<()> {
    out.write_all(if any {
        b"\n  ],\n  \"skipped\": "
    } else {
        b"],\n  \"skipped\": "
    })?;
    let skipped = to_string(&skipped);
    out.write_all(indented(skipped.trim_end(), "  ").as_bytes())?;
    if let Some(error) = error {
        out.write_all(b",\n  \"error\": ")?;
        out.write_all(indented(to_string(error).trim_end(), "  ").as_bytes())?;
    }
    out.write_all(b"\n}\n")
}

/// `text` (pretty JSON, whose strings hold no raw newline) one level deeper.
fn indented(text: &str, by: &str) -> String {
    text.replace('\n', &format!("\n{by}"))
}
