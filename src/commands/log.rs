//! `log [KEY]`: the records of the notes store, newest first (SPEC sections 5 and 8).

use crate::cli::LogArgs;
use crate::services::context::Context;
use crate::services::notes_store::StoredRecord;
use crate::support::error::Result;

pub struct Report {
    pub notes_ref: String,
    pub records: Vec<StoredRecord>,
    /// Lines of notes that are not records, named.
    pub skipped: Vec<String>,
}

pub fn run(ctx: &Context, args: &LogArgs) -> Result<Report> {
    if let Some(key) = &args.key {
        crate::support::paths::check_relative(crate::k!("what.session_key"), key)
            .map_err(crate::support::error::Error::usage)?;
    }
    let (mut records, skipped) = ctx.read_store()?;
    if let Some(key) = &args.key {
        records.retain(|r| &r.record.key == key);
    }
    // Newest first; the same instant in key order, then in the order read.
    records.sort_by(|a, b| {
        b.record
            .saved_at
            .cmp(&a.record.saved_at)
            .then_with(|| a.record.key.cmp(&b.record.key))
    });
    if let Some(n) = args.max_count {
        records.truncate(n);
    }
    Ok(Report {
        notes_ref: ctx.settings.notes_ref.clone(),
        records,
        skipped,
    })
}
