//! The notes store's record layout (SPEC section 8), without git: one JSON object per
//! line, read record-wise, merged the way `git notes merge -s cat_sort_uniq` merges.
//!
//! A note is untrusted input (it may come from any remote): a line that is not a valid
//! record is passed over with a reason, and never stops the others from being read.

use jiff::Timestamp;
use serde_json::{Map, Value};

/// Longest note the tool reads; a longer blob is passed over whole.
pub const MAX_NOTE_SIZE: usize = 64 << 20;

/// The values a record may hold besides its state (its own fields, `set_aside`).
const RECORD_VALUES: usize = 10_000;

/// A session record's state as the record holds it: its JSON text, parsed only when it
/// is used. A store holds many states (every write of every session); kept as text, a
/// state costs its size in memory, not the hundreds of bytes per value a parsed one
/// does, so reading a store costs about its size whatever it holds.
#[derive(Debug, Clone)]
pub struct StateText(Box<serde_json::value::RawValue>);

impl StateText {
    /// The text of `doc` (compact JSON), without its claims' `confirmed` (this clone's
    /// own knowledge: a record read anywhere holds claims that reached the store).
    pub fn of(doc: &Map<String, Value>) -> StateText {
        let stripped = crate::model::claim::without_confirmed(doc);
        let text = serde_json::to_string(stripped.as_ref().unwrap_or(doc))
            .expect("a JSON map always serialises");
        StateText(serde_json::value::RawValue::from_string(text).expect("it was just written"))
    }

    /// The document. Fails only where the text, though well-formed, is nested deeper
    /// than the parser goes.
    pub fn parse(&self) -> Result<Map<String, Value>, String> {
        serde_json::from_str(self.0.get()).map_err(|e| format!("field `state`: {e}"))
    }

    /// The document, or an empty one where it cannot be parsed (said where it is read).
    pub fn doc(&self) -> Map<String, Value> {
        self.parse().unwrap_or_default()
    }

    pub fn text(&self) -> &str {
        self.0.get()
    }

    /// The state's `status` when it is a string, read without parsing the rest.
    pub fn status(&self) -> Option<String> {
        #[derive(serde::Deserialize)]
        struct Status {
            #[serde(default)]
            status: Option<Value>,
        }
        let s: Status = serde_json::from_str(self.0.get()).ok()?;
        s.status?.as_str().map(str::to_owned)
    }

    /// The state's own `session_hash` when it is a string, read without parsing the
    /// rest (what a later record names as its `parent`).
    pub fn session_hash(&self) -> Option<String> {
        #[derive(serde::Deserialize)]
        struct Hash {
            #[serde(default)]
            session_hash: Option<Value>,
        }
        let s: Hash = serde_json::from_str(self.0.get()).ok()?;
        s.session_hash?.as_str().map(str::to_owned)
    }
}

impl Default for StateText {
    /// An empty document.
    fn default() -> Self {
        StateText::of(&Map::new())
    }
}

impl PartialEq for StateText {
    fn eq(&self, other: &Self) -> bool {
        self.text() == other.text()
    }
}

impl serde::Serialize for StateText {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

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
    /// The whole `project-state.json` document, for a session, as its text.
    pub state: Option<StateText>,
    /// The note's text, for a continue-here record.
    pub text: Option<String>,
}

impl Record {
    /// The state's document (empty for a continue-here record), parsed now.
    pub fn state_doc(&self) -> Map<String, Value> {
        self.state.as_ref().map(StateText::doc).unwrap_or_default()
    }

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
                // The state goes last, as its text: `{…,"state":TEXT}`.
                let mut line = Value::Object(m).to_string();
                line.pop();
                line.push_str(",\"state\":");
                line.push_str(self.state.as_ref().map_or("{}", StateText::text));
                line.push('}');
                line
            }
            RecordKind::ContinueHere => {
                m.insert(
                    "text".into(),
                    Value::from(self.text.clone().unwrap_or_default()),
                );
                Value::Object(m).to_string()
            }
        }
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

/// The largest `seq` a record may carry: the largest integer every JSON reader keeps
/// exactly (2^53 - 1), far beyond any real count of writes.
pub const MAX_SEQ: u64 = (1 << 53) - 1;

/// A record's fields in the order written, duplicates kept so that they can be refused.
struct Fields(Vec<(String, Box<serde_json::value::RawValue>)>);

impl<'de> serde::Deserialize<'de> for Fields {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Fields;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Fields, A::Error> {
                let mut fields = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    fields.push(entry);
                }
                Ok(Fields(fields))
            }
        }
        d.deserialize_map(Visit)
    }
}

/// One line of a note as a record.
pub fn parse_record(line: &[u8]) -> Result<Record, String> {
    let line = std::str::from_utf8(line).map_err(|_| "not valid UTF-8".to_owned())?;
    // A record holds one state and a few fields of its own: refused unparsed when it
    // holds more values than a state may (a note from a remote is anyone's text).
    let limit = crate::model::state::MAX_VALUES + RECORD_VALUES;
    if crate::model::state::over_value_limit(line.as_bytes(), limit) {
        return Err(format!("the record holds more than {limit} JSON values"));
    }
    // The record's fields parsed, its state kept as text (checked well-formed).
    let fields: Fields = match serde_json::from_str(line) {
        Ok(fields) => fields,
        Err(e) if e.is_data() => return Err("not a JSON object".into()),
        Err(e) => return Err(format!("not JSON: {e}")),
    };
    let mut state_text = None;
    let mut m = Map::new();
    for (k, v) in fields.0 {
        // A field given twice has no one meaning: which value a reader takes depends on
        // the reader, so the record is refused by name rather than half read.
        if m.contains_key(&k) || (k == "state" && state_text.is_some()) {
            return Err(format!("field `{k}` is given more than once"));
        }
        if k == "state" {
            state_text = Some(v);
            continue;
        }
        let v: Value = serde_json::from_str(v.get()).map_err(|e| format!("not JSON: {e}"))?;
        m.insert(k, v);
    }
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
    let saved_at = crate::model::state::parse_rfc3339(&saved_raw)
        .ok_or_else(|| format!("field `saved_at` is not an RFC 3339 timestamp: {saved_raw:?}"))?;
    let kind = match string(&m, "kind")?.as_deref() {
        Some("session") => RecordKind::Session,
        Some("continue-here") => RecordKind::ContinueHere,
        Some(other) => return Err(format!("field `kind` is unknown: {other:?}")),
        None => return Err("field `kind` is missing".into()),
    };
    let worktree = string(&m, "worktree")?;
    let branch = string(&m, "branch")?;
    // An empty id is no id, as the head reads it (the index groups by the head).
    let session_id = string(&m, "session_id")?.filter(|s| !s.is_empty());
    let seq = match m.get("seq") {
        None | Some(Value::Null) => None,
        Some(v) => {
            let seq = v
                .as_u64()
                .ok_or("field `seq` is not a non-negative integer")?;
            // A forged number near the top would leave no room for the writes after it.
            if seq > MAX_SEQ {
                return Err(format!("field `seq` is over {MAX_SEQ}"));
            }
            Some(seq)
        }
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
        RecordKind::Session => match state_text {
            Some(raw) if raw.get().starts_with('{') => {
                let state = StateText(raw);
                // Well-formed, and within the parser's depth: checked once here, so
                // that every later parse of it succeeds.
                state.parse()?;
                (Some(state), None)
            }
            Some(raw) if raw.get() == "null" => return Err("field `state` is missing".into()),
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

/// `text` with `line` appended as a line of its own.
pub fn append_line(text: Vec<u8>, line: &str) -> Vec<u8> {
    let mut out = text;
    out.reserve(line.len() + 2);
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

mod order;
pub use order::{
    Group, Head, HeadLine, Newest, Skipped, newest_of_heads, newest_session_of, newest_sessions,
    parse_head,
};

#[cfg(test)]
mod tests;

/// The readable records of session `id` written with `seq` in `notes` (more than one:
/// the session diverged there).
pub fn records_at(notes: &[Vec<u8>], id: &str, seq: u64) -> Vec<Record> {
    notes
        .iter()
        .flat_map(|n| n.split(|b| *b == b'\n'))
        .filter(|line| {
            parse_head(line)
                .is_some_and(|h| h.session_id.as_deref() == Some(id) && h.seq == Some(seq))
        })
        .filter_map(|line| parse_record(line).ok())
        .collect()
}
