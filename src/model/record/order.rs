//! The order of a notes store's records (SPEC section 8): grouped by `session_id`,
//! newest by `seq`, divergences found from `parent`; old records by key and time.

use jiff::Timestamp;
use serde_json::Value;

use super::{MAX_NOTE_SIZE, Record, RecordKind, parse_record};

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
    // A session record's state must be an object for its head to read (its whole read
    // refuses any other); a continue-here record's state is not read whole.
    if kind == RecordKind::Session && raw.state.as_ref().is_some_and(|s| !s.object) {
        return None;
    }
    crate::support::paths::check_relative(crate::k!("what.session_key"), &raw.key).ok()?;
    Some(Head {
        key: raw.key,
        // As the whole read parses it (a time past the last instant is that instant).
        saved_at: crate::model::state::parse_rfc3339(&raw.saved_at)?,
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

/// The state's `session_hash`, read as the whole read reads the state (a map: a field
/// given twice is its last value), every other field skipped unbuilt; and whether the
/// state is an object at all (a continue-here record's whole read does not look at
/// its state, so its head must read whatever the state is).
struct StateHead {
    session_hash: Option<Value>,
    object: bool,
}

impl<'de> serde::Deserialize<'de> for StateHead {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = StateHead;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a state object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut m: A,
            ) -> Result<StateHead, A::Error> {
                let mut session_hash = None;
                while let Some(k) = m.next_key::<std::borrow::Cow<'de, str>>()? {
                    if k == "session_hash" {
                        session_hash = Some(m.next_value::<Value>()?);
                    } else {
                        m.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                Ok(StateHead {
                    session_hash,
                    object: true,
                })
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut s: A,
            ) -> Result<StateHead, A::Error> {
                while s.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(NOT_AN_OBJECT)
            }
            fn visit_bool<E>(self, _: bool) -> Result<StateHead, E> {
                Ok(NOT_AN_OBJECT)
            }
            fn visit_i64<E>(self, _: i64) -> Result<StateHead, E> {
                Ok(NOT_AN_OBJECT)
            }
            fn visit_u64<E>(self, _: u64) -> Result<StateHead, E> {
                Ok(NOT_AN_OBJECT)
            }
            fn visit_f64<E>(self, _: f64) -> Result<StateHead, E> {
                Ok(NOT_AN_OBJECT)
            }
            fn visit_str<E>(self, _: &str) -> Result<StateHead, E> {
                Ok(NOT_AN_OBJECT)
            }
        }
        const NOT_AN_OBJECT: StateHead = StateHead {
            session_hash: None,
            object: false,
        };
        d.deserialize_any(Fields)
    }
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
    /// The line numbers (1-based) of the newest record, then of each side.
    pub lines: Vec<usize>,
}

/// One record's place, for ordering a session's records.
#[derive(Debug)]
struct Placed<'a> {
    head: Head,
    note: usize,
    line_no: usize,
    /// Reading order: the later of two equal records wins.
    order: usize,
    /// `None`: fetched when it must be parsed whole.
    line: Option<&'a [u8]>,
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
    // A head written on from a state a settle set aside is a side again, whatever its
    // number: the settle did not see it, and nothing of it may be passed over. The walk
    // up its parents stops at a settle (the line a settle chose is not set aside).
    let set_aside: HashSet<&str> = by_identity
        .values()
        .flat_map(|&i| records[i].head.set_aside.iter().map(String::as_str))
        .collect();
    let parent_of: std::collections::HashMap<&str, &str> = by_identity
        .iter()
        .filter(|(_, i)| records[**i].head.set_aside.is_empty())
        .filter_map(|(id, &i)| Some((id.as_str(), records[i].head.parent.as_deref()?)))
        .collect();
    let from_set_aside = |i: usize| {
        let id = records[i].identity();
        let mut at = id.as_str();
        // Bounded: a forged cycle of parents ends the walk.
        for _ in 0..=parent_of.len() {
            match parent_of.get(at) {
                Some(p) if set_aside.contains(p) => return true,
                Some(p) => at = p,
                None => return false,
            }
        }
        false
    };
    heads
        .iter()
        .enumerate()
        .filter(|(n, i)| {
            let seq = records[**i].head.seq.unwrap_or(0);
            *n == 0
                || seq == newest_seq
                || seqs.get(&seq).is_some_and(|ids| ids.len() > 1)
                || from_set_aside(**i)
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
    newest_of(notes, None)
}

/// One group of records the reader orders on its own: a session's (by id), or the
/// records of one key written before ids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group<'a> {
    Id(&'a str),
    Key(&'a str),
}

impl<'a> Group<'a> {
    /// The group a record's head belongs to.
    pub fn of(head: &'a Head) -> Group<'a> {
        match &head.session_id {
            Some(id) => Group::Id(id),
            None => Group::Key(&head.key),
        }
    }
}

/// [`newest_sessions`] for the one session `id`: every line's head is read, but only
/// that session's sides are parsed whole (what `continue` and the hook ask for one
/// session, without building every state of the store).
pub fn newest_session_of(notes: &[&[u8]], id: &str) -> Option<Newest> {
    newest_of(notes, Some(Group::Id(id))).0.into_iter().next()
}

fn newest_of(notes: &[&[u8]], only: Option<Group<'_>>) -> (Vec<Newest>, Vec<Skipped>) {
    let mut skipped = Vec::new();
    let mut placed = Vec::new();
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
                Some(head)
                    if only.is_some_and(|g| Group::of(&head) != g)
                        || head.kind != RecordKind::Session => {}
                Some(head) => placed.push(HeadLine {
                    note: ni,
                    line_no: li + 1,
                    line: Some(line),
                    head,
                }),
                None if only.is_some() => {}
                None => {
                    if let Err(why) = parse_record(line) {
                        skipped.push((ni, li + 1, why));
                    }
                }
            }
        }
    }
    let (found, more) = newest_of_heads(placed, &mut |_, _| None);
    skipped.extend(more);
    (found, skipped)
}

/// A placed record parsed whole, its line fetched when it was not kept.
fn parse_placed(
    r: &Placed<'_>,
    fetch: &mut dyn FnMut(usize, usize) -> Option<Vec<u8>>,
) -> Result<Record, String> {
    match r.line {
        Some(line) => parse_record(line),
        None => parse_record(&fetch(r.note, r.line_no).unwrap_or_default()),
    }
}

/// A session record's line and head, where the store holds it.
#[derive(Debug, Clone)]
pub struct HeadLine<'a> {
    /// The index of its note, in the store's order.
    pub note: usize,
    /// 1-based.
    pub line_no: usize,
    /// `None` when the caller did not keep it: `fetch` then reads it, for the few
    /// lines parsed whole.
    pub line: Option<&'a [u8]>,
    pub head: Head,
}

/// [`newest_sessions`] of records whose heads are already read (session records only,
/// in the store's order): the newest of each group, and the lines of them passed over.
/// Given one group's records, it answers for that group alone.
pub fn newest_of_heads(
    lines: Vec<HeadLine<'_>>,
    fetch: &mut dyn FnMut(usize, usize) -> Option<Vec<u8>>,
) -> (Vec<Newest>, Vec<Skipped>) {
    use std::collections::BTreeMap;
    let mut skipped = Vec::new();
    let mut by_id: BTreeMap<String, Vec<Placed<'_>>> = BTreeMap::new();
    let mut by_key: BTreeMap<String, Vec<Placed<'_>>> = BTreeMap::new();
    for (i, l) in lines.into_iter().enumerate() {
        let placed = Placed {
            note: l.note,
            line_no: l.line_no,
            order: i + 1,
            line: l.line,
            head: l.head,
        };
        match placed.head.session_id.clone() {
            Some(id) => by_id.entry(id).or_default().push(placed),
            None => by_key
                .entry(placed.head.key.clone())
                .or_default()
                .push(placed),
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
                .map(|&i| (i, parse_placed(&records[i], fetch)))
                .collect();
            if let Some((bad, Err(why))) = parsed.iter().find(|(_, r)| r.is_err()) {
                let r = records.remove(*bad);
                skipped.push((r.note, r.line_no, why.clone()));
                continue;
            }
            let lines = found.iter().map(|&i| records[i].line_no).collect();
            let mut sides = parsed
                .into_iter()
                .map(|(i, r)| (records[i].note, r.expect("all parsed")));
            let (note, record) = sides.next().expect("a session has a newest record");
            out.push(Newest {
                note,
                record,
                diverged: sides.collect(),
                lines,
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
            match parse_placed(&r, fetch) {
                Ok(record) => {
                    out.push(Newest {
                        note: r.note,
                        record,
                        diverged: Vec::new(),
                        lines: vec![r.line_no],
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
