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
    /// The session's stable id (`None` in records written before ids, read by key).
    pub session_id: Option<String>,
    /// The session's write count: the previous record's plus one (`None` in old records).
    pub seq: Option<u64>,
    /// `session_hash` of the state this write replaced (`None` for a new session).
    pub parent: Option<String>,
    /// States of this session that a choice between diverged sides set aside: no longer
    /// heads, so the divergence is settled.
    pub set_aside: Vec<String>,
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
        if let Some(id) = &self.session_id {
            m.insert("session_id".into(), Value::from(id.clone()));
        }
        if let Some(seq) = self.seq {
            m.insert("seq".into(), Value::from(seq));
        }
        if self.session_id.is_some() {
            m.insert(
                "parent".into(),
                self.parent.clone().map_or(Value::Null, Value::from),
            );
        }
        if !self.set_aside.is_empty() {
            m.insert(
                "set_aside".into(),
                Value::Array(self.set_aside.iter().cloned().map(Value::from).collect()),
            );
        }
        m.insert(
            "worktree".into(),
            self.worktree.clone().map_or(Value::Null, Value::from),
        );
        m.insert(
            "branch".into(),
            self.branch.clone().map_or(Value::Null, Value::from),
        );
        // UTC with the sub-second digits the clock gave (RFC 3339).
        m.insert("saved_at".into(), Value::from(self.saved_at.to_string()));
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
    let session_id = string(&m, "session_id")?;
    let seq = match m.get("seq") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .ok_or("field `seq` is not a non-negative integer")?,
        ),
    };
    let parent = string(&m, "parent")?;
    let set_aside = match m.get("set_aside") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or("field `set_aside` is not a list of strings")?,
        Some(_) => return Err("field `set_aside` is not a list of strings".into()),
    };
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
        session_id,
        seq,
        parent,
        set_aside,
        worktree,
        branch,
        saved_at,
        kind,
        state,
        text,
    })
}

/// What places a record in its session's history, read without building its state.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    pub key: String,
    pub saved_at: Timestamp,
    pub kind: RecordKind,
    pub session_id: Option<String>,
    pub seq: Option<u64>,
    pub parent: Option<String>,
    pub set_aside: Vec<String>,
    /// The state's own `session_hash`, when it has one: what the record holds.
    pub hash: Option<String>,
}

/// A record's [`Head`]. `None` when these fields are not all there and well-formed
/// (the full parse then says what is wrong).
pub fn parse_head(line: &[u8]) -> Option<Head> {
    #[derive(serde::Deserialize)]
    struct StateHead {
        #[serde(default)]
        session_hash: Option<Value>,
    }
    #[derive(serde::Deserialize)]
    struct Raw {
        key: String,
        saved_at: String,
        kind: String,
        #[serde(default)]
        session_id: Option<String>,
        #[serde(default)]
        seq: Option<u64>,
        #[serde(default)]
        parent: Option<String>,
        #[serde(default)]
        set_aside: Option<Vec<String>>,
        #[serde(default)]
        state: Option<StateHead>,
    }
    // Unknown fields, and the state's other fields above all, are skipped unbuilt.
    let raw: Raw = serde_json::from_slice(line).ok()?;
    let kind = match raw.kind.as_str() {
        "session" => RecordKind::Session,
        "continue-here" => RecordKind::ContinueHere,
        _ => return None,
    };
    crate::support::paths::check_relative(crate::k!("what.session_key"), &raw.key).ok()?;
    Some(Head {
        key: raw.key,
        saved_at: raw.saved_at.parse().ok()?,
        kind,
        session_id: raw.session_id.filter(|s| !s.is_empty()),
        seq: raw.seq,
        parent: raw.parent,
        set_aside: raw.set_aside.unwrap_or_default(),
        hash: raw
            .state
            .and_then(|s| s.session_hash)
            .and_then(|h| h.as_str().map(str::to_owned)),
    })
}

/// A line passed over: note index, line number, why.
pub type Skipped = (usize, usize, String);

/// The newest record of a session in the notes store.
#[derive(Debug, Clone, PartialEq)]
pub struct Newest {
    /// The index of the note holding it.
    pub note: usize,
    pub record: Record,
    /// When the session diverged (written on two machines from one state): the newest
    /// record of each other side, with its note's index. Empty when it did not.
    pub diverged: Vec<(usize, Record)>,
}

/// One record's place, for ordering a session's records.
#[derive(Debug)]
struct Placed<'a> {
    head: Head,
    note: usize,
    line_no: usize,
    /// Reading order: the later of two equal records wins.
    order: usize,
    line: &'a [u8],
}

impl Placed<'_> {
    /// What the record holds: its state's hash, or, without one, the line itself.
    fn identity(&self) -> String {
        self.head
            .hash
            .clone()
            .unwrap_or_else(|| format!("line:{}:{}", self.note, self.line_no))
    }
}

/// The heads of one session's records, newest first: the records no other record
/// replaced (named as `parent`) or set aside, one per state. Of these, the first is
/// the newest; the others are sides of a divergence when their sequence number was
/// also written by another state (two writes from one state), or equals the newest's.
/// A head with no rival at its number is a record whose successor was never recorded
/// (a failed store update): history, not a side.
fn sides(records: &[Placed<'_>]) -> Vec<usize> {
    use std::collections::{BTreeMap, BTreeSet, HashSet};
    // One record per state: the latest written.
    let mut by_identity: BTreeMap<String, usize> = BTreeMap::new();
    for (i, r) in records.iter().enumerate() {
        let id = r.identity();
        match by_identity.get(&id) {
            Some(&old)
                if (records[old].head.saved_at, records[old].order)
                    >= (r.head.saved_at, r.order) => {}
            _ => {
                by_identity.insert(id, i);
            }
        }
    }
    let mut replaced: HashSet<&str> = HashSet::new();
    for &i in by_identity.values() {
        let head = &records[i].head;
        if let Some(p) = &head.parent {
            replaced.insert(p);
        }
        replaced.extend(head.set_aside.iter().map(String::as_str));
    }
    let mut seqs: BTreeMap<u64, BTreeSet<&str>> = BTreeMap::new();
    for (id, &i) in &by_identity {
        seqs.entry(records[i].head.seq.unwrap_or(0))
            .or_default()
            .insert(id);
    }
    let rank = |i: usize| {
        let r = &records[i];
        (r.head.seq.unwrap_or(0), r.head.saved_at, r.order)
    };
    let mut heads: Vec<usize> = by_identity
        .iter()
        .filter(|(id, _)| !replaced.contains(id.as_str()))
        .map(|(_, &i)| i)
        .collect();
    if heads.is_empty() {
        // Only a cycle of parents (a forged store) gets here: take every record.
        heads = by_identity.values().copied().collect();
    }
    heads.sort_by_key(|&i| std::cmp::Reverse(rank(i)));
    let newest_seq = records[heads[0]].head.seq.unwrap_or(0);
    heads
        .iter()
        .enumerate()
        .filter(|(n, i)| {
            let seq = records[**i].head.seq.unwrap_or(0);
            *n == 0 || seq == newest_seq || seqs.get(&seq).is_some_and(|ids| ids.len() > 1)
        })
        .map(|(_, i)| *i)
        .collect()
}

/// The newest readable session record of each session among `notes` (each a note's
/// text), in key order, with the sides it diverged into; and why each line passed over
/// could not be read, as (note index, line number, reason).
///
/// Records are grouped by `session_id` and ordered by `seq` (SPEC section 8); records
/// written before ids are grouped by key and ordered by `saved_at`, then reading order,
/// and give way to a session with an id under the same key (the same session, written
/// again by a newer tool). Only the lines that win are parsed whole, so a long history
/// costs little more than reading it.
pub fn newest_sessions(notes: &[&[u8]]) -> (Vec<Newest>, Vec<Skipped>) {
    use std::collections::BTreeMap;
    let mut skipped = Vec::new();
    let mut by_id: BTreeMap<String, Vec<Placed<'_>>> = BTreeMap::new();
    let mut by_key: BTreeMap<String, Vec<Placed<'_>>> = BTreeMap::new();
    let mut order = 0;
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
                Some(head) if head.kind == RecordKind::Session => {
                    order += 1;
                    let placed = Placed {
                        note: ni,
                        line_no: li + 1,
                        order,
                        line,
                        head,
                    };
                    match placed.head.session_id.clone() {
                        Some(id) => by_id.entry(id).or_default().push(placed),
                        None => by_key
                            .entry(placed.head.key.clone())
                            .or_default()
                            .push(placed),
                    }
                }
                Some(_) => {}
                None => {
                    if let Err(why) = parse_record(line) {
                        skipped.push((ni, li + 1, why));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut keys_with_ids = std::collections::HashSet::new();
    for records in by_id.into_values() {
        keys_with_ids.extend(records.iter().map(|r| r.head.key.clone()));
        // A side whose line does not parse whole is passed over (said), and the sides
        // are worked out again without it: what it replaced is a head again.
        let mut records = records;
        loop {
            if records.is_empty() {
                break;
            }
            let found = sides(&records);
            let parsed: Vec<(usize, Result<Record, String>)> = found
                .iter()
                .map(|&i| (i, parse_record(records[i].line)))
                .collect();
            if let Some((bad, Err(why))) = parsed.iter().find(|(_, r)| r.is_err()) {
                let r = records.remove(*bad);
                skipped.push((r.note, r.line_no, why.clone()));
                continue;
            }
            let mut sides = parsed
                .into_iter()
                .map(|(i, r)| (records[i].note, r.expect("all parsed")));
            let (note, record) = sides.next().expect("a session has a newest record");
            out.push(Newest {
                note,
                record,
                diverged: sides.collect(),
            });
            break;
        }
    }
    for (key, mut records) in by_key {
        if keys_with_ids.contains(&key) {
            continue;
        }
        // Newest first; of equal times, the one read last wins.
        records.sort_by_key(|r| std::cmp::Reverse((r.head.saved_at, r.order)));
        for r in records {
            match parse_record(r.line) {
                Ok(record) => {
                    out.push(Newest {
                        note: r.note,
                        record,
                        diverged: Vec::new(),
                    });
                    break;
                }
                Err(why) => skipped.push((r.note, r.line_no, why)),
            }
        }
    }
    out.sort_by(|a, b| {
        (&a.record.key, &a.record.session_id).cmp(&(&b.record.key, &b.record.session_id))
    });
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
            session_id: None,
            seq: None,
            parent: None,
            set_aside: Vec::new(),
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
            (found[0].note, found[0].record.saved_at.to_string().as_str()),
            (1, "2026-11-30T12:00:00Z")
        );
        assert_eq!(found[1].record.key, "b");
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

    /// A record of session `id` at `seq`, from `parent`, holding a state hashed `hash`.
    fn write(id: &str, seq: u64, parent: Option<&str>, hash: &str) -> String {
        let mut state = Map::new();
        state.insert("session_hash".into(), Value::from(hash));
        Record {
            session_id: Some(id.into()),
            seq: Some(seq),
            parent: parent.map(str::to_owned),
            state: Some(state),
            ..record("main/1", "2026-11-30T12:00:00Z")
        }
        .to_line()
    }

    fn newest_of(note: &str) -> Newest {
        let (found, skipped) = newest_sessions(&[note.as_bytes()]);
        assert!(skipped.is_empty(), "{skipped:?}");
        assert_eq!(found.len(), 1);
        found.into_iter().next().unwrap()
    }

    fn hash_of(r: &Record) -> &str {
        r.state.as_ref().unwrap()["session_hash"].as_str().unwrap()
    }

    #[test]
    fn the_highest_sequence_wins_whatever_the_line_order_or_time() {
        // Sorted lines (what cat_sort_uniq makes) and equal times: seq decides.
        let mut lines = [
            write("s", 1, None, "h1"),
            write("s", 2, Some("h1"), "h2"),
            write("s", 3, Some("h2"), "h3"),
        ];
        lines.sort();
        let n = newest_of(&lines.join("\n"));
        assert_eq!(hash_of(&n.record), "h3");
        assert!(n.diverged.is_empty());
    }

    #[test]
    fn two_writes_from_one_state_are_a_divergence_and_both_sides_are_kept() {
        let note = [
            write("s", 1, None, "h1"),
            write("s", 2, Some("h1"), "a2"),
            write("s", 3, Some("a2"), "a3"),
            write("s", 2, Some("h1"), "b2"),
        ]
        .join("\n");
        let n = newest_of(&note);
        assert_eq!(hash_of(&n.record), "a3");
        let other: Vec<&str> = n.diverged.iter().map(|(_, r)| hash_of(r)).collect();
        assert_eq!(other, ["b2"]);
    }

    #[test]
    fn a_choice_that_sets_a_side_aside_settles_the_divergence() {
        let mut chosen = Record {
            session_id: Some("s".into()),
            seq: Some(4),
            parent: Some("b2".into()),
            set_aside: vec!["a3".into()],
            ..record("main/1", "2026-11-30T12:00:00Z")
        };
        let mut state = Map::new();
        state.insert("session_hash".into(), Value::from("c4"));
        chosen.state = Some(state);
        let note = [
            write("s", 1, None, "h1"),
            write("s", 2, Some("h1"), "a2"),
            write("s", 3, Some("a2"), "a3"),
            write("s", 2, Some("h1"), "b2"),
            chosen.to_line(),
        ]
        .join("\n");
        let n = newest_of(&note);
        assert_eq!(hash_of(&n.record), "c4");
        assert!(n.diverged.is_empty());
    }

    #[test]
    fn a_write_whose_record_was_lost_is_history_not_a_side() {
        // seq 2 was written but never recorded (a failed store update): seq 1 is no
        // record's parent, yet nothing else was written from it.
        let note = [write("s", 1, None, "h1"), write("s", 3, Some("h2"), "h3")].join("\n");
        let n = newest_of(&note);
        assert_eq!(hash_of(&n.record), "h3");
        assert!(n.diverged.is_empty());
    }

    #[test]
    fn two_sessions_under_one_key_are_both_kept_and_old_records_give_way_to_ids() {
        let legacy = record("main/1", "2026-11-30T13:00:00Z").to_line();
        let note = [
            write("s", 1, None, "h1"),
            write("t", 1, None, "t1"),
            legacy,
            record("other", "2026-11-30T13:00:00Z").to_line(),
        ]
        .join("\n");
        let (found, _) = newest_sessions(&[note.as_bytes()]);
        let ids: Vec<Option<&str>> = found
            .iter()
            .map(|n| n.record.session_id.as_deref())
            .collect();
        assert_eq!(ids, [Some("s"), Some("t"), None]);
        assert_eq!(found[2].record.key, "other");
    }

    #[test]
    fn a_sub_second_time_reads_back_exactly() {
        let r = Record {
            saved_at: "2026-11-30T12:00:00.123456789Z".parse().unwrap(),
            ..record("a", "2026-11-30T12:00:00Z")
        };
        assert!(r.to_line().contains("12:00:00.123456789Z"));
        assert_eq!(parse_record(r.to_line().as_bytes()), Ok(r));
    }
}
