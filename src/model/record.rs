//! The notes store's record layout (SPEC section 8), without git: one JSON object per
//! line, read record-wise, merged the way `git notes merge -s cat_sort_uniq` merges.
//!
//! A note is untrusted input (it may come from any remote): a line that is not a valid
//! record is passed over with a reason, and never stops the others from being read.

use jiff::Timestamp;
use serde_json::{Map, Value};

/// Longest note the tool reads; a longer blob is passed over whole.
pub const MAX_NOTE_SIZE: usize = 64 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RecordKind {
    Session,
    ContinueHere,
}

impl RecordKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RecordKind::Session => "session",
            RecordKind::ContinueHere => "continue-here",
        }
    }
}

/// One record of a note.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub key: String,
    pub worktree: Option<String>,
    pub branch: Option<String>,
    pub saved_at: Timestamp,
    pub kind: RecordKind,
    /// The whole `project-state.json` document, for a session.
    pub state: Option<Map<String, Value>>,
    /// The note's text, for a continue-here record.
    pub text: Option<String>,
}

impl Record {
    /// The record as one line of JSON, without the line break. Keys in the order of
    /// SPEC section 8.
    pub fn to_line(&self) -> String {
        let mut m = Map::new();
        m.insert("key".into(), Value::from(self.key.clone()));
        m.insert(
            "worktree".into(),
            self.worktree.clone().map_or(Value::Null, Value::from),
        );
        m.insert(
            "branch".into(),
            self.branch.clone().map_or(Value::Null, Value::from),
        );
        m.insert(
            "saved_at".into(),
            Value::from(crate::model::session::format_time(self.saved_at)),
        );
        m.insert("kind".into(), Value::from(self.kind.as_str()));
        match self.kind {
            RecordKind::Session => {
                m.insert(
                    "state".into(),
                    Value::Object(self.state.clone().unwrap_or_default()),
                );
            }
            RecordKind::ContinueHere => {
                m.insert(
                    "text".into(),
                    Value::from(self.text.clone().unwrap_or_default()),
                );
            }
        }
        Value::Object(m).to_string()
    }
}

/// A record read from a note, or why a line of it is not one.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedLine {
    /// 1-based line number in the note.
    pub line: usize,
    pub record: Result<Record, String>,
}

/// Every non-empty line of a note, read as a record.
pub fn parse_note(bytes: &[u8]) -> Vec<ParsedLine> {
    if bytes.len() > MAX_NOTE_SIZE {
        return vec![ParsedLine {
            line: 1,
            record: Err(format!(
                "the note is {} bytes, over the limit of {MAX_NOTE_SIZE}",
                bytes.len()
            )),
        }];
    }
    bytes
        .split(|b| *b == b'\n')
        .enumerate()
        .filter(|(_, l)| !l.iter().all(u8::is_ascii_whitespace))
        .map(|(i, l)| ParsedLine {
            line: i + 1,
            record: parse_record(l),
        })
        .collect()
}

/// One line of a note as a record.
pub fn parse_record(line: &[u8]) -> Result<Record, String> {
    let line = std::str::from_utf8(line).map_err(|_| "not valid UTF-8".to_owned())?;
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let Value::Object(mut m) = value else {
        return Err("not a JSON object".into());
    };
    let string = |m: &Map<String, Value>, field: &str| -> Result<Option<String>, String> {
        match m.get(field) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(format!("field `{field}` is not a string")),
        }
    };
    let key = string(&m, "key")?.ok_or("field `key` is missing")?;
    crate::support::paths::check_relative(crate::k!("what.session_key"), &key)
        .map_err(|e| format!("field `key`: {e}"))?;
    let saved_raw = string(&m, "saved_at")?.ok_or("field `saved_at` is missing")?;
    let saved_at = saved_raw
        .parse::<Timestamp>()
        .map_err(|_| format!("field `saved_at` is not an RFC 3339 timestamp: {saved_raw:?}"))?;
    let kind = match string(&m, "kind")?.as_deref() {
        Some("session") => RecordKind::Session,
        Some("continue-here") => RecordKind::ContinueHere,
        Some(other) => return Err(format!("field `kind` is unknown: {other:?}")),
        None => return Err("field `kind` is missing".into()),
    };
    let worktree = string(&m, "worktree")?;
    let branch = string(&m, "branch")?;
    let (state, text) = match kind {
        RecordKind::Session => match m.remove("state") {
            Some(Value::Object(state)) => (Some(state), None),
            Some(_) => return Err("field `state` is not an object".into()),
            None => return Err("field `state` is missing".into()),
        },
        RecordKind::ContinueHere => (
            None,
            Some(string(&m, "text")?.ok_or("field `text` is missing")?),
        ),
    };
    Ok(Record {
        key,
        worktree,
        branch,
        saved_at,
        kind,
        state,
        text,
    })
}

/// What identifies a record, read without building its state: key, time and kind.
/// `None` when these fields are not all there and well-formed (the full parse then says
/// what is wrong).
pub fn parse_head(line: &[u8]) -> Option<(String, Timestamp, RecordKind)> {
    #[derive(serde::Deserialize)]
    struct Head {
        key: String,
        saved_at: String,
        kind: String,
    }
    // Unknown fields (the state above all) are skipped without being built.
    let head: Head = serde_json::from_slice(line).ok()?;
    let kind = match head.kind.as_str() {
        "session" => RecordKind::Session,
        "continue-here" => RecordKind::ContinueHere,
        _ => return None,
    };
    crate::support::paths::check_relative(crate::k!("what.session_key"), &head.key).ok()?;
    Some((head.key, head.saved_at.parse().ok()?, kind))
}

/// A line passed over: note index, line number, why.
pub type Skipped = (usize, usize, String);

/// The newest readable session record of each key among `notes` (each a note's text),
/// with its note's index, in key order; and why each line passed over could not be
/// read, as (note index, line number, reason). Only the lines that win are parsed
/// whole, so a long history costs little more than reading it.
pub fn newest_sessions(notes: &[&[u8]]) -> (Vec<(usize, Record)>, Vec<Skipped>) {
    /// A record's head: `saved_at`, note index, line number, the line.
    type Head<'a> = (Timestamp, usize, usize, &'a [u8]);
    let mut skipped = Vec::new();
    let mut by_key: std::collections::BTreeMap<String, Vec<Head<'_>>> =
        std::collections::BTreeMap::new();
    for (ni, text) in notes.iter().enumerate() {
        if text.len() > MAX_NOTE_SIZE {
            skipped.push((
                ni,
                1,
                format!(
                    "the note is {} bytes, over the limit of {MAX_NOTE_SIZE}",
                    text.len()
                ),
            ));
            continue;
        }
        for (li, line) in text.split(|b| *b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match parse_head(line) {
                Some((key, at, RecordKind::Session)) => {
                    by_key.entry(key).or_default().push((at, ni, li + 1, line));
                }
                Some((_, _, RecordKind::ContinueHere)) => {}
                None => {
                    if let Err(why) = parse_record(line) {
                        skipped.push((ni, li + 1, why));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for (_, mut heads) in by_key {
        // Newest first; of equal times, the one read last wins, as in `newest_per_key`.
        heads.reverse();
        heads.sort_by_key(|h| std::cmp::Reverse(h.0));
        for (_, ni, li, line) in heads {
            match parse_record(line) {
                Ok(record) => {
                    out.push((ni, record));
                    break;
                }
                Err(why) => skipped.push((ni, li, why)),
            }
        }
    }
    (out, skipped)
}

/// `text` with `line` appended as a line of its own.
pub fn append_line(text: &[u8], line: &str) -> Vec<u8> {
    let mut out = text.to_vec();
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    out.extend_from_slice(line.as_bytes());
    out.push(b'\n');
    out
}

/// What `git notes merge -s cat_sort_uniq` makes of two conflicting notes: the lines of
/// both, sorted bytewise, duplicates and empty lines removed, each ending in a newline.
pub fn cat_sort_uniq(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut lines: Vec<&[u8]> = a
        .split(|c| *c == b'\n')
        .chain(b.split(|c| *c == b'\n'))
        .filter(|l| !l.is_empty())
        .collect();
    lines.sort_unstable();
    lines.dedup();
    let mut out = Vec::with_capacity(a.len() + b.len());
    for l in lines {
        out.extend_from_slice(l);
        out.push(b'\n');
    }
    out
}

/// What a three-way notes merge decides for one annotated object, as git's notes merge
/// does: a side that did not change from the base gives way to the other; two changes
/// are combined with [`cat_sort_uniq`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Merged<T> {
    /// Keep the local note as it is.
    Local,
    /// Take the other side's note.
    Theirs(T),
    /// Both changed: combine the two.
    Combine,
    /// The other side removed a note this side left as it was.
    Remove,
}

pub fn merge3<T: PartialEq + Clone>(
    base: Option<&T>,
    local: Option<&T>,
    theirs: Option<&T>,
) -> Merged<T> {
    match (local, theirs) {
        (None, None) => Merged::Local,
        (Some(l), None) => {
            if base.is_some_and(|b| b == l) {
                Merged::Remove
            } else {
                Merged::Local
            }
        }
        (None, Some(t)) => {
            // Removed here since the base: removal wins only over an unchanged note.
            if base.is_some_and(|b| b == t) {
                Merged::Local
            } else {
                Merged::Theirs(t.clone())
            }
        }
        (Some(l), Some(t)) if l == t => Merged::Local,
        (Some(l), Some(t)) => match base {
            Some(b) if b == l => Merged::Theirs(t.clone()),
            Some(b) if b == t => Merged::Local,
            _ => Merged::Combine,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(key: &str, at: &str) -> Record {
        Record {
            key: key.into(),
            worktree: Some("/w".into()),
            branch: Some("main".into()),
            saved_at: at.parse().unwrap(),
            kind: RecordKind::Session,
            state: Some(Map::new()),
            text: None,
        }
    }

    #[test]
    fn a_record_reads_back_from_its_line() {
        let r = record("main/20261130-120000", "2026-11-30T12:00:00Z");
        let line = r.to_line();
        assert!(!line.contains('\n'));
        assert!(line.starts_with(r#"{"key":"main/20261130-120000","worktree":"/w""#));
        assert_eq!(parse_record(line.as_bytes()), Ok(r));
    }

    #[test]
    fn bad_lines_are_named_and_the_rest_is_read() {
        let good = record("a", "2026-11-30T12:00:00Z").to_line();
        let note = format!(
            "{good}\nnot json\n{{\"key\":\"../x\",\"saved_at\":\"2026-11-30T12:00:00Z\",\"kind\":\"session\",\"state\":{{}}}}\n\n{{\"key\":\"b\",\"saved_at\":\"yesterday\",\"kind\":\"session\",\"state\":{{}}}}\n{{\"key\":\"c\",\"saved_at\":\"2026-11-30T12:00:00Z\",\"kind\":\"session\",\"state\":[]}}\n"
        );
        let parsed = parse_note(note.as_bytes());
        assert_eq!(parsed.len(), 5);
        assert!(parsed[0].record.is_ok());
        assert_eq!(parsed[1].line, 2);
        assert!(parsed[2].record.as_ref().unwrap_err().contains("`key`"));
        assert_eq!(parsed[3].line, 5);
        assert!(parsed[3].record.as_ref().unwrap_err().contains("saved_at"));
        assert!(parsed[4].record.as_ref().unwrap_err().contains("`state`"));
    }

    #[test]
    fn cat_sort_uniq_sorts_and_drops_duplicates_and_blank_lines() {
        assert_eq!(cat_sort_uniq(b"b\na\n\n", b"c\na"), b"a\nb\nc\n".to_vec());
        assert_eq!(cat_sort_uniq(b"", b""), Vec::<u8>::new());
    }

    #[test]
    fn merge3_follows_git() {
        let (b, l, t) = ("b", "l", "t");
        assert_eq!(merge3(Some(&b), Some(&b), Some(&t)), Merged::Theirs(t));
        assert_eq!(merge3(Some(&b), Some(&l), Some(&b)), Merged::Local);
        assert_eq!(merge3(Some(&b), Some(&l), Some(&t)), Merged::Combine);
        assert_eq!(merge3(None, Some(&l), Some(&t)), Merged::Combine);
        assert_eq!(merge3(None, None, Some(&t)), Merged::Theirs(t));
        assert_eq!(merge3(Some(&t), None, Some(&t)), Merged::Local);
        assert_eq!(merge3(None, Some(&l), None), Merged::Local);
        assert_eq!(merge3(Some(&l), Some(&l), None), Merged::Remove);
        assert_eq!(merge3(Some(&b), Some(&l), None), Merged::Local);
        assert_eq!(merge3(None, Some(&l), Some(&l)), Merged::Local);
    }

    #[test]
    fn newest_sessions_parse_only_what_wins_and_fall_back_past_a_bad_newest() {
        let old = record("a", "2026-11-30T10:00:00Z").to_line();
        let new = record("a", "2026-11-30T12:00:00Z").to_line();
        let b = record("b", "2026-11-30T11:00:00Z").to_line();
        let broken_newest =
            r#"{"key":"a","saved_at":"2026-11-30T13:00:00Z","kind":"session","state":[]}"#;
        let note1 = format!("{old}\n{b}\nnot json\n");
        let note2 = format!("{new}\n{broken_newest}\n");
        let (found, skipped) = newest_sessions(&[note1.as_bytes(), note2.as_bytes()]);
        assert_eq!(found.len(), 2);
        assert_eq!(
            (found[0].0, found[0].1.saved_at.to_string().as_str()),
            (1, "2026-11-30T12:00:00Z")
        );
        assert_eq!(found[1].1.key, "b");
        assert_eq!(skipped.len(), 2, "{skipped:?}");
        assert_eq!((skipped[0].0, skipped[0].1), (0, 3));
        assert_eq!((skipped[1].0, skipped[1].1), (1, 2));
    }

    #[test]
    fn append_line_keeps_one_record_per_line() {
        assert_eq!(append_line(b"", "x"), b"x\n");
        assert_eq!(append_line(b"a", "x"), b"a\nx\n");
        assert_eq!(append_line(b"a\n", "x"), b"a\nx\n");
    }
}
