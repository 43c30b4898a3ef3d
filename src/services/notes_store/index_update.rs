//! Bringing the notes index up to date (issue 36): what changed between the indexed
//! notes commit and the ref's is read from a diff of the two notes trees, and an update
//! costs that change, not the index: the members are read and written back only in the
//! parts of the groups whose notes changed (`index_members.rs`), and a group that gained
//! one record written on top of its newest (the usual write: its parent is the newest's
//! state, its number higher, its state never seen in the group) takes it as its newest
//! without its notes being read, and so do several such records written one on top of
//! the other. Anything else about a group (lines removed or rewritten, a divergence, a
//! name the group has seen) has its
//! entry worked out again from all of its notes, as the store's reader would.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::index_file::{Files, GroupEntry, Heads, Located, Times};
use super::index_members::{Parts, seen};
use super::index_scan::{entries_of, group_name, newest_time, oversize, scan};
use super::note_texts::Texts;
use crate::git::{CommitId, NoteChange, NoteText, Repo};
use crate::model::record::{Group, Head, MAX_NOTE_SIZE, RecordKind};
use crate::support::error::Result;

/// A record line appended to a note.
struct Appended {
    note: CommitId,
    blob: NoteText,
    line_no: usize,
    line: Vec<u8>,
    head: Head,
}

/// What the diff left to do: the groups to work out again from their notes, the lines
/// appended by group, and the notes whose blob moved with lines only appended.
#[derive(Default)]
struct Changed {
    again: BTreeSet<String>,
    on_top: BTreeMap<String, Vec<Appended>>,
    moved: HashMap<String, NoteText>,
    /// Every note the diff changed.
    touched: BTreeSet<String>,
    /// Bytes of the appended lines held in `on_top`.
    held: usize,
}

/// The most bytes of note text an update holds (the appended lines it keeps, then the
/// notes of the groups it works out again); past it the index is built afresh, which
/// holds far less (a build at 1,000,000 records: 37 MiB, 45 s). Unbounded, the update
/// after a fetch of 2,000 notes commits into a store of 1,000,000 records held 12.9 GB.
const HELD: usize = 24 << 20;

/// Bring the index up to `now` by `diff`, the notes that changed since its commit
/// (an ancestor); `None` when that cannot be done safely (a blob gone, a part that
/// does not hold): build it afresh.
pub(super) fn update(
    repo: &Repo,
    files: &Files,
    (now, diff): (CommitId, Vec<NoteChange>),
    (index, texts): ((Heads, Parts, Times), &mut Texts),
) -> Result<Option<(Heads, Parts, Times)>> {
    let (mut heads, mut members, mut times) = index;
    let mut changed = Changed::default();
    // Through a reader that maps a bounded part of the packs (after a large fetch the
    // changed notes are much of them), its first notes through the repository's own
    // store (the usual update reads two: a store opened costs what they do).
    let mut reader = repo.note_reader_here();
    for change in diff {
        texts.trim();
        let (Ok(()), Ok(())) = (
            texts.load(&mut reader, change.old),
            texts.load(&mut reader, change.new),
        ) else {
            return Ok(None);
        };
        let old = change.old.and_then(|b| texts.text(b));
        let new = change.new.and_then(|b| texts.text(b));
        let note = change.object.to_string();
        changed.touched.insert(note.clone());
        // Lines appended to a note (the usual write), or a new note: no other line
        // moved, so only the appended lines are read; what the old lines said is in the
        // index already, and only the appended records' groups change.
        let appended = match (change.old, old, change.new, new) {
            (None, _, Some(blob), Some(n)) => Some((blob, 0, n)),
            (Some(_), Some(o), Some(blob), Some(n))
                if n.starts_with(o) && (o.is_empty() || o.ends_with(b"\n")) =>
            {
                Some((blob, memchr::memchr_iter(b'\n', o).count(), &n[o.len()..]))
            }
            _ => None,
        };
        if let Some((blob, kept, suffix)) = appended {
            crate::support::testing::note("notes-index-appended");
            let groups = appended_only(
                (&mut heads, &mut times, &mut changed),
                (change.object, blob),
                (kept, suffix),
            );
            for g in &groups {
                let Some(()) = member(&mut members, files, g, change.object, true) else {
                    return Ok(None);
                };
            }
            if changed.held > HELD {
                crate::support::testing::note("notes-index-update-too-large");
                return Ok(None);
            }
            continue;
        }
        heads.notes.remove(&note);
        let (old_heads, _) = scan(old.unwrap_or_default());
        let (new_heads, skips) = scan(new.unwrap_or_default());
        let skips = match (new, change.new) {
            (None, Some(b)) => vec![oversize(repo.note_size(b).unwrap_or_default())],
            _ => skips,
        };
        if !skips.is_empty() {
            heads.notes.insert(note.clone(), skips);
        }
        match newest_time(&new_heads) {
            Some(t) => times.insert(change.object, t),
            None => times.remove(&change.object),
        };
        let groups = |h: &[(usize, &[u8], Head)]| -> BTreeSet<String> {
            h.iter().map(|(_, _, h)| group_name(Group::of(h))).collect()
        };
        let (old_groups, new_groups) = (groups(&old_heads), groups(&new_heads));
        (changed.again).extend(old_groups.iter().chain(&new_groups).cloned());
        // A part is rewritten only when one of its groups gains or loses a note.
        for (g, gained) in (old_groups.difference(&new_groups).map(|g| (g, false)))
            .chain(new_groups.iter().map(|g| (g, true)))
        {
            let Some(()) = member(&mut members, files, g, change.object, gained) else {
                return Ok(None);
            };
        }
    }
    // An update laid over the files as a delta holds only the groups it asks for.
    members.fill(&mut heads, files);
    let Some(()) = settle(
        repo,
        files,
        (now, texts),
        changed,
        (&mut heads, &mut members),
    )?
    else {
        return Ok(None);
    };
    Ok(Some((heads, members, times)))
}

/// Group `g` gains note `object` (or loses it, `gained` false), its part marked changed
/// only when that changes it; `None`: its part does not hold (the caller builds afresh).
fn member(
    members: &mut Parts,
    files: &Files,
    g: &str,
    object: CommitId,
    gained: bool,
) -> Option<()> {
    let found = members.get(files, g)?.notes.binary_search(&object);
    if found.is_ok() == gained {
        return Some(());
    }
    let m = members.get_mut(files, g)?;
    match found {
        Ok(i) => drop(m.notes.remove(i)),
        Err(i) => m.notes.insert(i, object),
    }
    Some(())
}

/// Lines `suffix` appended after the first `kept` lines of note `object` (now `blob`):
/// the note's lines passed over and newest time extended by them, each appended record
/// put on top of its group (`changed.on_top`). The groups the appended records are of.
fn appended_only(
    (heads, times, changed): (&mut Heads, &mut Times, &mut Changed),
    (object, blob): (CommitId, NoteText),
    (kept, suffix): (usize, &[u8]),
) -> BTreeSet<String> {
    let note = object.to_string();
    let (added, added_skips) = scan(suffix);
    let mut skips = heads.notes.remove(&note).unwrap_or_default();
    skips.extend(
        added_skips
            .into_iter()
            .map(|s| super::index_file::NoteSkip {
                line: s.line + kept,
                why: s.why,
            }),
    );
    if !skips.is_empty() {
        heads.notes.insert(note.clone(), skips);
    }
    let newest = (times.get(&object).copied())
        .into_iter()
        .chain(newest_time(&added))
        .max();
    if let Some(t) = newest {
        times.insert(object, t);
    }
    changed.moved.insert(note, blob);
    let mut groups = BTreeSet::new();
    for (line_no, line, head) in added {
        let g = group_name(Group::of(&head));
        groups.insert(g.clone());
        changed.on_top.entry(g).or_default().push(Appended {
            note: object,
            blob,
            line_no: line_no + kept,
            line: line.to_vec(),
            head,
        });
        changed.held += line.len();
    }
    groups
}

/// Each changed group's entry: on top of its newest when it can be, else from its notes.
fn settle(
    repo: &Repo,
    files: &Files,
    (now, texts): (CommitId, &Texts),
    changed: Changed,
    (heads, members): (&mut Heads, &mut Parts),
) -> Result<Option<()>> {
    let Changed {
        mut again,
        on_top,
        moved,
        touched,
        held,
    } = changed;
    let mut done: BTreeSet<String> = BTreeSet::new();
    for (g, added) in on_top {
        if again.contains(&g) {
            continue;
        }
        let Some(old) = heads.groups.get(&g) else {
            again.insert(g);
            continue;
        };
        match on_top_of((repo, texts), files, members, (&g, old), &added) {
            Some(entry) => {
                crate::support::testing::note("notes-index-on-top");
                heads.groups.insert(g.clone(), entry);
                done.insert(g);
            }
            None => drop(again.insert(g)),
        }
    }
    for (g, e) in &mut heads.groups {
        if again.contains(g) || done.contains(g) {
            continue;
        }
        for l in e.newest.iter_mut().chain(e.sides.iter_mut()) {
            if let Some(blob) = moved.get(&l.note) {
                l.blob = blob.to_hex();
            }
        }
    }
    if again.is_empty() {
        return Ok(Some(()));
    }
    let mut notes: Vec<CommitId> = Vec::new();
    for g in &again {
        let Some(m) = members.get(files, g) else {
            return Ok(None);
        };
        // The notes its entry names are among its members, or changed by this diff:
        // members that lack them were not written by this tool (a forged part).
        if let Some(e) = heads.groups.get(g)
            && !super::index_scan::members_hold(e, &m.notes, &touched)
        {
            return Ok(None);
        }
        notes.extend_from_slice(&m.notes);
    }
    notes.sort();
    notes.dedup();
    let mut listed = Vec::with_capacity(notes.len());
    let mut texts = Vec::with_capacity(notes.len());
    // What the appended lines held counts too: `HELD` bounds the update whole.
    let mut held = held;
    // Through a reader that maps a bounded part of the packs, as `update` reads: the
    // groups worked out again may have their notes all over the store.
    let mut reader = repo.note_reader();
    for object in notes {
        let Some(blob) = reader.blob_at(now, object)? else {
            return Ok(None);
        };
        let Ok(text) = super::index_build::text_of(&mut reader, blob) else {
            return Ok(None);
        };
        // Only the lines of the groups worked out again are held, the others blanked
        // (their numbers kept): a note holds records of many sessions, and at 1,000,000
        // records the notes of one session's 100 writes are 30 MB.
        let text = text.map(|t| super::index_scan::lines_of(&t, &again));
        held += text.as_ref().map_or(0, Vec::len);
        if held > HELD {
            crate::support::testing::note("notes-index-update-too-large");
            return Ok(None);
        }
        listed.push((object, blob));
        texts.push(text);
    }
    let mut fresh = entries_of(&listed, &texts, &again);
    for g in &again {
        let Some(m) = members.get_mut(files, g) else {
            return Ok(None);
        };
        match fresh.remove(g) {
            Some((e, seen, kept)) => {
                m.seen = seen;
                m.kept = kept;
                heads.groups.insert(g.clone(), e);
            }
            None => {
                heads.groups.remove(g);
                m.notes.clear();
                m.seen.clear();
                m.kept = super::index_kept::Kept::default();
            }
        }
    }
    Ok(Some(()))
}

/// Group `g`'s entry with the records `added` written on top of its newest one after
/// another (each names the one before as parent, the first the newest; each numbered
/// after the one before), when the store's reader is sure to answer so: none sets
/// anything aside, each carries a state the group has never seen named and reads whole;
/// the group had no sides and nothing passed over. Then the last is the newest and no
/// side appears: every state before it is named as a parent, and every number is above
/// the old newest's, so none is a rival of a record the group had. Their seen names and
/// kept records are added. `None`: work it out from its notes.
fn on_top_of(
    (repo, texts): (&Repo, &Texts),
    files: &Files,
    members: &mut Parts,
    (g, old): (&str, &GroupEntry),
    added: &[Appended],
) -> Option<GroupEntry> {
    if !g.starts_with("i:") || !old.sides.is_empty() || !old.skipped.is_empty() {
        return None;
    }
    let newest = newest_head(repo, texts, old.newest.as_ref()?)?;
    if group_name(Group::of(&newest)) != g || newest.kind != RecordKind::Session {
        return None;
    }
    let chain = chain_on(&newest, added)?;
    let seen_before = &members.get(files, g)?.seen;
    let mut named: Vec<u64> = Vec::with_capacity(chain.len());
    let mut records = Vec::with_capacity(chain.len());
    for r in &chain {
        let n = seen(r.head.hash.as_deref()?);
        if seen_before.binary_search(&n).is_ok() || named.contains(&n) {
            return None;
        }
        named.push(n);
        records.push(crate::model::record::parse_record(&r.line).ok()?);
    }
    let m = members.get_mut(files, g)?;
    let parent = seen(newest.hash.as_deref()?);
    for n in named.iter().copied().chain([parent]) {
        if let Err(i) = m.seen.binary_search(&n) {
            m.seen.insert(i, n);
        }
    }
    let mut entry = old.clone();
    for (r, record) in chain.iter().zip(&records) {
        let h = &r.head;
        let kept = super::index_kept::KeptRecord {
            saved_at: h.saved_at,
            key: h.key.clone(),
            seq: h.seq,
            note: r.note,
            line: r.line_no,
            hash: h.hash.clone(),
            read: Ok(crate::model::changes::Summary::of(&record.state_doc())),
        };
        super::index_kept::on_top(&mut m.kept, kept);
        if let Err(i) = entry.keys.binary_search(&h.key) {
            entry.keys.insert(i, h.key.clone());
        }
        entry.other_keys.retain(|k| *k != h.key);
    }
    let (top, record) = (chain.last()?, records.last()?);
    entry.key.clone_from(&record.key);
    entry.finished = (record.state.as_ref())
        .and_then(crate::model::record::StateText::status)
        .as_deref()
        == Some(crate::model::state::ALL_COMPLETE);
    entry.newest = Some(Located {
        note: top.note.to_string(),
        blob: top.blob.to_hex(),
        line: top.line_no,
    });
    Some(entry)
}

/// `added` in the order they were written on top of `newest`: each a session record
/// with a state hash of 64 hex digits, setting nothing aside, naming the one before it
/// (the first: `newest`) as parent and numbered after it; `None` when they are not one
/// such line (two on one state, one on a state not among them, a number not above).
fn chain_on<'a>(newest: &Head, added: &'a [Appended]) -> Option<Vec<&'a Appended>> {
    let mut chain: Vec<&Appended> = Vec::with_capacity(added.len());
    let (mut hash, mut seq) = (newest.hash.as_deref()?, newest.seq.unwrap_or(0));
    while chain.len() < added.len() {
        let mut next = added
            .iter()
            .filter(|r| r.head.parent.as_deref() == Some(hash));
        let (r, None) = (next.next()?, next.next()) else {
            return None;
        };
        let h = &r.head;
        let own = h.hash.as_deref()?;
        let hex = own.len() == 64 && own.bytes().all(|b| b.is_ascii_hexdigit());
        if h.kind != RecordKind::Session || !h.set_aside.is_empty() || !hex || h.seq? <= seq {
            return None;
        }
        chain.push(r);
        (hash, seq) = (own, h.seq?);
    }
    Some(chain)
}

/// The head of the record at `l` (its note's text from `texts` when the update read it).
fn newest_head(repo: &Repo, texts: &Texts, l: &Located) -> Option<Head> {
    let (_, blob) = super::index_file::parse_located(l)?;
    let read;
    let text = match texts.text(blob) {
        Some(t) => t,
        None => {
            read = repo.note_text(blob, MAX_NOTE_SIZE)?;
            &read
        }
    };
    crate::model::record::parse_head(super::index_scan::nth_line(text, l.line)?)
}
