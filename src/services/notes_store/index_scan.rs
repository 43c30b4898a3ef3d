//! What a note's lines say, for the notes index (issue 36): the lines that are
//! records (their heads) and those that are not, each group's entry worked out from its
//! records' lines, the names its records carry; shared by the build (`index.rs`) and
//! the update (`index_update.rs`).

use std::collections::{BTreeMap, BTreeSet};

use super::index_file::{GroupEntry, Located, NoteSkip};
use super::index_kept::{Kept, KeptRecord, summary_of};
use crate::git::{CommitId, NoteText};
use crate::model::changes::Summary;
use crate::model::record::{Group, Head, HeadLine, MAX_NOTE_SIZE, RecordKind};

pub(super) fn group_name(g: Group<'_>) -> String {
    match g {
        Group::Id(id) => format!("i:{id}"),
        Group::Key(key) => format!("k:{key}"),
    }
}

/// A note's lines that are records (line number, line, head) and those that are not.
/// Line `n` of `text`, counted from 1 (found by `memchr`: a note is up to 64 MiB).
pub(super) fn nth_line(text: &[u8], n: usize) -> Option<&[u8]> {
    let start = match n.checked_sub(1)? {
        0 => 0,
        k => memchr::memchr_iter(b'\n', text).nth(k - 1)? + 1,
    };
    let rest = &text[start..];
    Some(&rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())])
}

pub(super) type Scanned<'a> = (Vec<(usize, &'a [u8], Head)>, Vec<NoteSkip>);

pub(super) fn scan(text: &[u8]) -> Scanned<'_> {
    let mut heads = Vec::new();
    let mut skips = Vec::new();
    for (li, line) in text.split(|b| *b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match crate::model::record::parse_head(line) {
            Some(head) => heads.push((li + 1, line, head)),
            None => {
                if let Err(why) = crate::model::record::parse_record(line) {
                    skips.push(NoteSkip { line: li + 1, why });
                }
            }
        }
    }
    (heads, skips)
}

pub(super) fn oversize(size: u64) -> NoteSkip {
    NoteSkip {
        line: 1,
        why: format!("the note is {size} bytes, over the limit of {MAX_NOTE_SIZE}"),
    }
}

/// One group's entry from its records' lines (in the store's order; `notes` names the
/// note of each line's index).
pub(super) fn entry_of(
    lines: Vec<HeadLine<'_>>,
    notes: &[(CommitId, NoteText)],
    fetch: &mut dyn FnMut(usize, usize) -> Option<Vec<u8>>,
) -> GroupEntry {
    // Each key once (a set, not a copy per record): the entry is kept to the end of a
    // build, and a vector of a copy per record deduplicated keeps its capacity (3 KB a
    // group of 100 records, 30 MB at 1,000,000 records).
    let keys: BTreeSet<&str> = (lines.iter())
        .filter(|l| l.head.kind == RecordKind::Session && l.head.session_id.is_some())
        .map(|l| l.head.key.as_str())
        .collect();
    let other_keys: BTreeSet<&str> = (lines.iter())
        .map(|l| l.head.key.as_str())
        .filter(|k| !keys.contains(k))
        .collect();
    let keys: Vec<String> = keys.into_iter().map(str::to_owned).collect();
    let other_keys: Vec<String> = other_keys.into_iter().map(str::to_owned).collect();
    let lines: Vec<HeadLine<'_>> = lines
        .into_iter()
        .filter(|l| l.head.kind == RecordKind::Session)
        .collect();
    let (found, skipped) = crate::model::record::newest_of_heads(lines, fetch);
    let at = |note: usize, line: usize| Located {
        note: notes[note].0.to_string(),
        blob: notes[note].1.to_hex(),
        line,
    };
    let mut entry = GroupEntry {
        keys,
        other_keys,
        skipped: skipped
            .into_iter()
            .map(|(n, line, why)| (notes[n].0.to_string(), line, why))
            .collect(),
        ..GroupEntry::default()
    };
    if let Some(n) = found.into_iter().next() {
        entry.key.clone_from(&n.record.key);
        entry.finished = n
            .record
            .state
            .as_ref()
            .and_then(crate::model::record::StateText::status)
            .as_deref()
            == Some(crate::model::state::ALL_COMPLETE);
        entry.newest = Some(at(n.note, n.lines[0]));
        entry.sides = (n.diverged.iter().zip(&n.lines[1..]))
            .map(|((note, _), line)| at(*note, *line))
            .collect();
    }
    entry
}

/// The names a group's records carry ([`Member::seen`]), sorted.
pub(super) fn seen_of<'a>(heads: impl Iterator<Item = &'a Head>) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for h in heads {
        let names = (h.hash.iter().chain(&h.parent)).chain(&h.set_aside);
        out.extend(names.map(|n| super::index_members::seen(n)));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A group's kept records (`index_kept.rs`) from its records' lines (`notes` names the
/// note of each line's index), `read(i)` saying what line `i` holds (`None`: not read).
pub(super) fn kept_of(
    lines: &[HeadLine<'_>],
    notes: &[(CommitId, NoteText)],
    read: &mut dyn FnMut(usize) -> Option<Result<Summary, String>>,
) -> Kept {
    let session: Vec<usize> = (0..lines.len())
        .filter(|i| lines[*i].head.kind == RecordKind::Session)
        .collect();
    let places = (session.iter())
        .map(|i| KeptRecord {
            saved_at: lines[*i].head.saved_at,
            key: lines[*i].head.key.clone(),
            seq: lines[*i].head.seq,
            note: notes[lines[*i].note].0,
            line: lines[*i].line_no,
            hash: lines[*i].head.hash.clone(),
            read: Err(String::new()),
        })
        .collect();
    super::index_kept::choose(places, &mut |i| read(session[i]))
}

/// What [`entries_of`] works out of a group: its entry, seen names and kept records.
pub(super) type Worked = (GroupEntry, Vec<u64>, Kept);

/// The entries of `groups` worked out from `notes` (in the store's order) and their
/// texts, with their seen names and kept records.
pub(super) fn entries_of(
    notes: &[(CommitId, NoteText)],
    texts: &[Option<Vec<u8>>],
    only: &BTreeSet<String>,
) -> BTreeMap<String, Worked> {
    let mut lines: BTreeMap<String, Vec<HeadLine<'_>>> = BTreeMap::new();
    for (ni, text) in texts.iter().enumerate() {
        for (line_no, line, head) in scan(text.as_deref().unwrap_or_default()).0 {
            let g = group_name(Group::of(&head));
            if !only.contains(&g) {
                continue;
            }
            lines.entry(g).or_default().push(HeadLine {
                note: ni,
                line_no,
                line: Some(line),
                head,
            });
        }
    }
    lines
        .into_iter()
        .map(|(g, l)| {
            let seen = seen_of(l.iter().map(|l| &l.head));
            let kept = kept_of(&l, notes, &mut |i| l[i].line.map(summary_of));
            (g, (entry_of(l, notes, &mut |_, _| None), seen, kept))
        })
        .collect()
}

/// `text` with only the lines whose head is of one of `groups`; every other line
/// blank, so that each kept line keeps its number.
pub(super) fn lines_of(text: &[u8], groups: &BTreeSet<String>) -> Vec<u8> {
    let mut out = Vec::new();
    for (i, line) in text.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            out.push(b'\n');
        }
        let of = |h: Head| groups.contains(&group_name(Group::of(&h)));
        if crate::model::record::parse_head(line).is_some_and(of) {
            out.extend_from_slice(line);
        }
    }
    out
}

/// The newest `saved_at` of a note's records.
pub(super) fn newest_time(heads: &[(usize, &[u8], Head)]) -> Option<jiff::Timestamp> {
    heads.iter().map(|(_, _, h)| h.saved_at).max()
}

/// Whether group entry `e`'s located records are on notes of its members `notes`
/// (sorted), or on one of `changed` (notes whose lines an update is reading anyway): a
/// part that lacks them was not written by this tool, whatever its sums say.
pub fn members_hold(e: &GroupEntry, notes: &[CommitId], changed: &BTreeSet<String>) -> bool {
    (e.newest.iter().chain(&e.sides)).all(|l| {
        changed.contains(&l.note)
            || CommitId::from_hex(&l.note).is_some_and(|n| notes.binary_search(&n).is_ok())
    })
}

/// The error of a note whose blob is not there or does not read, as the store's own
/// reader says it (the stream's too).
pub(super) fn missing(object: &CommitId) -> crate::support::error::Error {
    crate::support::error::Error::GitSaid {
        action: crate::support::error::msg(crate::k!("git.read_note_of"), &[("object", object)]),
        why: crate::support::error::msg(crate::k!("git.note_object_gone"), &[]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(note: usize, key: &str, id: Option<&str>, kind: RecordKind) -> HeadLine<'static> {
        HeadLine {
            note,
            line_no: 1,
            line: None,
            head: Head {
                key: key.into(),
                saved_at: jiff::Timestamp::from_second(i64::try_from(note).unwrap()).unwrap(),
                kind,
                session_id: id.map(str::to_owned),
                seq: None,
                parent: None,
                set_aside: Vec::new(),
                hash: None,
            },
        }
    }

    #[test]
    fn nth_line_is_the_line_a_split_on_newlines_gives() {
        for text in ["", "a", "a\n", "a\nb", "a\n\nc\n", "\n\n"] {
            for n in 0..6_usize {
                let split = n
                    .checked_sub(1)
                    .and_then(|k| text.as_bytes().split(|b| *b == b'\n').nth(k));
                assert_eq!(nth_line(text.as_bytes(), n), split, "{text:?} line {n}");
            }
        }
    }

    #[test]
    fn a_note_keeps_the_lines_of_its_groups_at_their_numbers() {
        let rec = |id: &str| {
            format!(
                r#"{{"key":"w/{id}","session_id":"{id}","saved_at":"2026-11-30T10:00:00Z","kind":"session","state":{{}}}}"#
            )
        };
        let text = format!("{}\n\nnot a record\n{}\n{}\n", rec("a"), rec("b"), rec("a"));
        let only: BTreeSet<String> = ["i:a".to_owned()].into();
        let kept = lines_of(text.as_bytes(), &only);
        let lines: Vec<&[u8]> = kept.split(|b| *b == b'\n').collect();
        assert_eq!(lines.len(), text.split('\n').count());
        assert_eq!(lines[0], rec("a").as_bytes());
        assert!(lines[1..4].iter().all(|l| l.is_empty()));
        assert_eq!(lines[4], rec("a").as_bytes());
        let (heads, skips) = scan(&kept);
        assert_eq!(heads.iter().map(|(n, _, _)| *n).collect::<Vec<_>>(), [1, 5]);
        assert!(skips.is_empty());
    }

    #[test]
    fn an_entry_holds_each_key_once_and_no_room_for_every_record() {
        // Entries are all held to the end of a build: a vector sized for a group's 100
        // records, deduplicated, was 3 KB a group (30 MB at 1,000,000 records).
        let notes: Vec<_> = (0..100)
            .map(|i| {
                let hex = format!("{i:040x}");
                (
                    CommitId::from_hex(&hex).unwrap(),
                    NoteText::from_hex(&hex).unwrap(),
                )
            })
            .collect();
        let mut lines: Vec<_> = (0..98)
            .map(|n| line(n, "w/s", Some("s"), RecordKind::Session))
            .collect();
        lines.push(line(98, "w/old", None, RecordKind::Session));
        lines.push(line(99, "w/here", Some("s"), RecordKind::ContinueHere));
        let e = entry_of(lines, &notes, &mut |_, _| None);
        assert_eq!(e.keys, ["w/s"]);
        assert_eq!(e.other_keys, ["w/here", "w/old"]);
        assert_eq!((e.keys.capacity(), e.other_keys.capacity()), (1, 2));
    }
}
