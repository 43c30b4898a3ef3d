//! Validation of a state document: every error names the file and the field path
//! (`active_tasks[2].status`).

use std::borrow::Cow;
use std::path::Path;

use jiff::Timestamp;
use serde_json::Value;

use super::{Stamp, Task, TaskStatus};
use crate::support::error::{Error, Result};

pub(super) fn field_error(file: &Path, field: &str, message: &str) -> Error {
    Error::InvalidField {
        file: file.to_owned(),
        field: field.to_owned(),
        message: message.to_owned(),
    }
}

/// A field path, formatted only when an error needs it: `active_tasks[2].status`.
pub(super) struct Field<'a> {
    task: Option<usize>,
    name: &'a str,
}

impl std::fmt::Display for Field<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.task, self.name) {
            (Some(i), "") => write!(f, "active_tasks[{i}]"),
            (Some(i), name) => write!(f, "active_tasks[{i}].{name}"),
            (None, name) => f.write_str(name),
        }
    }
}

pub(super) fn top(name: &str) -> Field<'_> {
    Field { task: None, name }
}

pub(super) struct Validator<'a> {
    pub(super) file: &'a Path,
    pub(super) warnings: Vec<crate::support::error::Msg>,
}

impl Validator<'_> {
    pub(super) fn err(&self, field: &Field<'_>, message: &str) -> Error {
        field_error(self.file, &field.to_string(), message)
    }

    /// A string field: moved out of a value the caller gave up, copied from one it
    /// keeps (the document).
    pub(super) fn string(
        &self,
        value: Option<Cow<'_, Value>>,
        field: &Field<'_>,
    ) -> Result<Option<String>> {
        match value {
            None => Ok(None),
            Some(Cow::Owned(Value::String(s))) => Ok(Some(s)),
            Some(Cow::Borrowed(Value::String(s))) => Ok(Some(s.clone())),
            Some(v) if v.is_null() => Ok(None),
            Some(_) => Err(self.err(field, "must be a string")),
        }
    }

    pub(super) fn strings(
        &self,
        value: Option<Cow<'_, Value>>,
        field: &Field<'_>,
    ) -> Result<Vec<String>> {
        let bad = |i: usize| field_error(self.file, &format!("{field}[{i}]"), "must be a string");
        match value {
            None => Ok(Vec::new()),
            Some(Cow::Owned(Value::Array(items))) => items
                .into_iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Ok(s),
                    _ => Err(bad(i)),
                })
                .collect(),
            Some(Cow::Borrowed(Value::Array(items))) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Ok(s.clone()),
                    _ => Err(bad(i)),
                })
                .collect(),
            Some(v) if v.is_null() => Ok(Vec::new()),
            Some(_) => Err(self.err(field, "must be an array of strings")),
        }
    }

    pub(super) fn stamp(
        &mut self,
        value: Option<Cow<'_, Value>>,
        field: &Field<'_>,
    ) -> Result<Option<Stamp>> {
        let Some(raw) = self.string(value, field)? else {
            return Ok(None);
        };
        match parse_stamp(&raw) {
            Some((at, None)) => Ok(Some(Stamp { at, raw })),
            Some((at, Some(what))) => {
                let word = if what == "a bare date" {
                    crate::k!("stamp.bare_date")
                } else {
                    crate::k!("stamp.naive")
                };
                self.warnings.push(
                    crate::support::error::msg(
                        crate::k!("warn.local_time"),
                        &[
                            ("file", &self.file.display()),
                            ("field", &field),
                            ("raw", &format!("{raw:?}")),
                        ],
                    )
                    .word("what", word),
                );
                Ok(Some(Stamp { at, raw }))
            }
            None => Err(self.err(field, &format!("is {raw:?}, not an RFC 3339 timestamp"))),
        }
    }

    pub(super) fn task(&mut self, item: &Value, index: usize) -> Result<Task> {
        let Value::Object(t) = item else {
            return Err(self.err(
                &Field {
                    task: Some(index),
                    name: "",
                },
                "must be an object",
            ));
        };
        self.task_fields(&mut |key| t.get(key).map(Cow::Borrowed), index)
    }

    /// A task from its fields (`take`, asked once per key): for the document, which
    /// lends them, and for the typed reading, which gives them up.
    pub(super) fn task_fields<'v>(
        &mut self,
        take: &mut dyn FnMut(&str) -> Option<Cow<'v, Value>>,
        index: usize,
    ) -> Result<Task> {
        let t = take;
        let field = |name| Field {
            task: Some(index),
            name,
        };
        let id = match t("id") {
            None => String::new(),
            Some(Cow::Owned(Value::String(s))) => s,
            Some(Cow::Borrowed(Value::String(s))) => s.clone(),
            Some(v) => match &*v {
                Value::Null => String::new(),
                Value::Number(n) => n.to_string(),
                _ => return Err(self.err(&field("id"), "must be a string")),
            },
        };
        Ok(Task {
            id,
            description: self
                .string(t("description"), &field("description"))?
                .unwrap_or_default(),
            status: TaskStatus::parse(
                &self
                    .string(t("status"), &field("status"))?
                    .unwrap_or_default(),
            ),
            commit_sha: self
                .string(t("commit_sha"), &field("commit_sha"))?
                .filter(|s| !s.trim().is_empty()),
            file_paths: self.strings(t("file_paths"), &field("file_paths"))?,
            next_action: self.string(t("next_action"), &field("next_action"))?,
            blockers: self.strings(t("blockers"), &field("blockers"))?,
            last_touched: self.stamp(t("last_touched"), &field("last_touched"))?,
            claim: match t(crate::model::claim::KEY) {
                None => None,
                Some(v) if v.is_null() => None,
                Some(v) => Some(
                    crate::model::claim::Claim::from_value(&v)
                        .map_err(|why| self.err(&field("claim"), why))?,
                ),
            },
            // Read leniently: a notice the tool wrote, never a reason to refuse a file.
            lost: t(crate::model::claim::LOST_KEY)
                .and_then(|v| crate::model::claim::Lost::from_value(&v)),
        })
    }
}

/// An RFC 3339 time with any offset. A valid one past the last instant jiff represents
/// (late in the year 9999, in UTC) is read as that last instant: far in the future.
pub fn parse_rfc3339(raw: &str) -> Option<Timestamp> {
    if let Ok(ts) = raw.parse::<Timestamp>() {
        return Some(ts);
    }
    let pieces = jiff::fmt::temporal::DateTimeParser::new()
        .parse_pieces(raw)
        .ok()?;
    (pieces.date().year() >= 9999 && pieces.offset().is_some()).then_some(Timestamp::MAX)
}

/// Parse a timestamp: RFC 3339 with any offset; else a naive local date-time or a bare
/// date, read in the local time zone, with a word for the warning.
pub fn parse_stamp(raw: &str) -> Option<(Timestamp, Option<&'static str>)> {
    let raw = raw.trim();
    if let Some(ts) = parse_rfc3339(raw) {
        return Some((ts, None));
    }
    let tz = crate::support::clock::local_zone();
    if let Ok(dt) = raw.parse::<jiff::civil::DateTime>()
        && raw.contains(['T', 't', ' '])
    {
        let zoned = dt.to_zoned_datetime(tz).ok()?;
        return Some((zoned.timestamp(), Some("a naive local time")));
    }
    let date = raw.parse::<jiff::civil::Date>().ok()?;
    let zoned = date.to_zoned_datetime(tz).ok()?;
    Some((zoned.timestamp(), Some("a bare date")))
}

#[cfg(test)]
mod tests {
    use super::parse_stamp;

    #[test]
    fn times_past_the_last_instant_are_the_far_future() {
        let (t, warn) = parse_stamp("9999-12-31T23:59:59Z").unwrap();
        assert_eq!((t, warn), (jiff::Timestamp::MAX, None));
        assert!(parse_stamp("9999-12-31T23:59:59-01:00").is_some());
        assert!(parse_stamp("9999-99-99T00:00:00Z").is_none());
        assert!(parse_stamp("garbage").is_none());
    }
}
