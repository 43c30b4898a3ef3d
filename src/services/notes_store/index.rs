//! The notes index (issue 36): what the store's readers need — the newest record of
//! each group (session, or old key) and its sides, where they are, and the lines passed
//! over — kept under the tool's directory as of one notes commit, so that a reader pays
//! for what changed since, not for every record ever written.
//!
//! Never trusted blindly: a file whose header, ref, commit or checksum does not hold is
//! not used; a notes ref that no longer descends from the indexed commit (rewritten)
//! is indexed afresh; a located record that does not read back as a record of its
//! group makes the reader answer from the store itself. Up to date is reached by a
//! diff of the two notes trees: only the changed notes are read, and of them only the
//! groups whose lines changed are worked out again (from their own notes). Nothing is
//! locked: two readers updating at once each write a whole index (the last rename
//! wins), and a writer of the store never waits for either.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::index_file::{
    self as file, Files, GroupEntry, Heads, Located, Members, NoteSkip, Times,
};
use crate::git::{CommitId, NoteText, Repo};
use crate::model::record::{Group, Head, HeadLine, MAX_NOTE_SIZE, RecordKind};
use crate::support::error::Result;

/// The test knob that makes the readers answer from the store itself, as before the
/// index: what every index answer is compared with.
pub const NO_INDEX: &str = "GIT_HANDOVER_TEST_NO_INDEX";

fn group_name(g: Group<'_>) -> String {
    match g {
        Group::Id(id) => format!("i:{id}"),
        Group::Key(key) => format!("k:{key}"),
    }
}

/// A note's lines that are records (line number, line, head) and those that are not.
type Scanned<'a> = (Vec<(usize, &'a [u8], Head)>, Vec<NoteSkip>);

fn scan(text: &[u8]) -> Scanned<'_> {
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

fn oversize(size: u64) -> NoteSkip {
    NoteSkip {
        line: 1,
        why: format!("the note is {size} bytes, over the limit of {MAX_NOTE_SIZE}"),
    }
}

/// A note's text; `Ok(None)` when it is over the size limit; `Err(())` when its blob
/// is not in the object database (the index is then built afresh).
fn text_of(repo: &Repo, blob: NoteText) -> std::result::Result<Option<Vec<u8>>, ()> {
    let size = repo.note_size(blob).ok_or(())?;
    if usize::try_from(size).map_or(true, |n| n > MAX_NOTE_SIZE) {
        return Ok(None);
    }
    repo.note_text(blob, MAX_NOTE_SIZE).map(Some).ok_or(())
}

/// One group's entry from its records' lines (in the store's order; `notes` names the
/// note of each line's index).
fn entry_of(
    lines: Vec<HeadLine<'_>>,
    notes: &[(CommitId, NoteText)],
    fetch: &mut dyn FnMut(usize, usize) -> Option<Vec<u8>>,
) -> GroupEntry {
    let mut keys: Vec<String> = lines
        .iter()
        .filter(|l| l.head.kind == RecordKind::Session && l.head.session_id.is_some())
        .map(|l| l.head.key.clone())
        .collect();
    keys.sort();
    keys.dedup();
    let mut other_keys: Vec<String> = (lines.iter())
        .map(|l| &l.head.key)
        .filter(|k| keys.binary_search(k).is_err())
        .cloned()
        .collect();
    other_keys.sort();
    other_keys.dedup();
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

/// The entries of `groups` worked out from `notes` (in the store's order) and their
/// texts.
fn entries_of(
    notes: &[(CommitId, NoteText)],
    texts: &[Option<Vec<u8>>],
    only: &BTreeSet<String>,
) -> BTreeMap<String, GroupEntry> {
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
        .map(|(g, l)| (g, entry_of(l, notes, &mut |_, _| None)))
        .collect()
}

/// The line `line_no` of note `ni` of `notes`, read again (the full build keeps heads
/// only); the last note read is kept, as a session's sides are often on one note.
fn refetch<'a>(
    repo: &'a Repo,
    notes: &'a [(CommitId, NoteText)],
) -> impl FnMut(usize, usize) -> Option<Vec<u8>> + 'a {
    let mut last: Option<(usize, Vec<u8>)> = None;
    move |ni, line_no| {
        if last.as_ref().is_none_or(|(n, _)| *n != ni) {
            last = Some((ni, repo.note_text(notes.get(ni)?.1, MAX_NOTE_SIZE)?));
        }
        let text = &last.as_ref()?.1;
        Some(
            text.split(|b| *b == b'\n')
                .nth(line_no.checked_sub(1)?)?
                .to_vec(),
        )
    }
}

/// The index of notes commit `now`, read whole from the store.
/// `Ok(None)` when `budget` passed before it was done (nothing is kept).
fn build(
    repo: &Repo,
    now: CommitId,
    budget: Option<std::time::Instant>,
) -> Result<Option<(Heads, Members, Times)>> {
    let notes = repo.notes_listing(now)?;
    let mut heads = Heads::default();
    let mut members = Members::new();
    let mut times = Times::new();
    // Heads only: the lines are read again for the few records parsed whole, so a
    // store of any size is built in the memory of its heads.
    let mut lines: BTreeMap<String, Vec<HeadLine<'static>>> = BTreeMap::new();
    for (ni, (object, blob)) in notes.iter().enumerate() {
        if budget.is_some_and(|b| std::time::Instant::now() >= b) {
            return Ok(None);
        }
        // Unreadable: as the store's own reader would fail, say it from there.
        let Ok(text) = text_of(repo, *blob) else {
            return Err(missing(object));
        };
        let skips = match &text {
            None => vec![oversize(repo.note_size(*blob).unwrap_or_default())],
            Some(t) => {
                let (found, skips) = scan(t);
                if let Some(at) = newest_time(&found) {
                    times.insert(*object, at);
                }
                for (line_no, _, head) in found {
                    let g = group_name(Group::of(&head));
                    let m = members.entry(g.clone()).or_default();
                    if m.last() != Some(object) {
                        m.push(*object);
                    }
                    lines.entry(g).or_default().push(HeadLine {
                        note: ni,
                        line_no,
                        line: None,
                        head,
                    });
                }
                skips
            }
        };
        if !skips.is_empty() {
            heads.notes.insert(object.to_string(), skips);
        }
    }
    let mut fetch = refetch(repo, &notes);
    heads.groups = lines
        .into_iter()
        .map(|(g, l)| (g, entry_of(l, &notes, &mut fetch)))
        .collect();
    Ok(Some((heads, members, times)))
}

/// The newest `saved_at` of a note's records.
fn newest_time(heads: &[(usize, &[u8], Head)]) -> Option<jiff::Timestamp> {
    heads.iter().map(|(_, _, h)| h.saved_at).max()
}

fn missing(object: &CommitId) -> crate::support::error::Error {
    crate::support::error::Error::git(
        crate::support::error::msg(crate::k!("git.read_note_of"), &[("object", object)]),
        "the note's blob is not in the object database",
    )
}

/// Bring the index of `at` up to `now` (a descendant) by the notes that changed;
/// `None` when that cannot be done safely (a blob gone): build it afresh.
fn update(
    repo: &Repo,
    at: CommitId,
    now: CommitId,
    index: (Heads, Members, Times),
) -> Result<Option<(Heads, Members, Times)>> {
    let (mut heads, mut members, mut times) = index;
    let mut affected: BTreeSet<String> = BTreeSet::new();
    let mut moved: HashMap<String, NoteText> = HashMap::new();
    for change in repo.notes_diff(at, now)? {
        let read = |b: Option<NoteText>| b.map(|b| text_of(repo, b)).transpose();
        let (Ok(old), Ok(new)) = (read(change.old), read(change.new)) else {
            return Ok(None);
        };
        let (old, new) = (old.flatten(), new.flatten());
        let note = change.object.to_string();
        heads.notes.remove(&note);
        let (old_heads, _) = scan(old.as_deref().unwrap_or_default());
        let (new_heads, skips) = scan(new.as_deref().unwrap_or_default());
        let skips = match (&new, change.new) {
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
        // Lines appended to a note move no other line: only their groups change.
        let appended = match (&old, &new) {
            (Some(o), Some(n)) if n.starts_with(o) && (o.is_empty() || o.ends_with(b"\n")) => {
                Some(memchr::memchr_iter(b'\n', o).count())
            }
            _ => None,
        };
        let old_groups: BTreeSet<String> = old_heads
            .iter()
            .map(|(_, _, h)| group_name(Group::of(h)))
            .collect();
        let new_groups: BTreeSet<String> = new_heads
            .iter()
            .map(|(_, _, h)| group_name(Group::of(h)))
            .collect();
        match (appended, change.new) {
            (Some(kept), Some(blob)) => {
                moved.insert(note.clone(), blob);
                affected.extend(
                    (new_heads.iter())
                        .filter(|(l, _, _)| *l > kept)
                        .map(|(_, _, h)| group_name(Group::of(h))),
                );
            }
            _ => affected.extend(old_groups.iter().chain(&new_groups).cloned()),
        }
        for g in old_groups.difference(&new_groups) {
            if let Some(m) = members.get_mut(g) {
                m.retain(|n| *n != change.object);
            }
        }
        for g in &new_groups {
            let m = members.entry(g.clone()).or_default();
            if let Err(i) = m.binary_search(&change.object) {
                m.insert(i, change.object);
            }
        }
    }
    for (g, e) in &mut heads.groups {
        if affected.contains(g) {
            continue;
        }
        for l in e.newest.iter_mut().chain(e.sides.iter_mut()) {
            if let Some(blob) = moved.get(&l.note) {
                l.blob = blob.to_hex();
            }
        }
    }
    let mut notes: Vec<CommitId> = affected
        .iter()
        .filter_map(|g| members.get(g))
        .flatten()
        .copied()
        .collect();
    notes.sort();
    notes.dedup();
    let mut listed = Vec::with_capacity(notes.len());
    let mut texts = Vec::with_capacity(notes.len());
    for object in notes {
        let Some(blob) = repo.note_text_at(now, object)? else {
            return Ok(None);
        };
        let Ok(text) = text_of(repo, blob) else {
            return Ok(None);
        };
        listed.push((object, blob));
        texts.push(text);
    }
    let mut fresh = entries_of(&listed, &texts, &affected);
    for g in &affected {
        match fresh.remove(g) {
            Some(e) => {
                heads.groups.insert(g.clone(), e);
            }
            None => {
                heads.groups.remove(g);
                members.remove(g);
            }
        }
    }
    members.retain(|_, m| !m.is_empty());
    Ok(Some((heads, members, times)))
}

/// The index of `notes_ref` as of its current commit (read, brought up to date, or
/// built afresh, and then written back, best effort), with that commit; `None` when
/// the ref does not exist.
pub fn current(repo: &Repo, notes_ref: &str) -> Result<Option<(CommitId, Heads)>> {
    match within(repo, notes_ref, None)? {
        Within::NoRef => Ok(None),
        Within::At(now, heads) => Ok(Some((now, heads))),
        Within::OverBudget => unreachable!("no budget was given"),
    }
}

/// What [`within`] found.
pub(super) enum Within {
    NoRef,
    At(CommitId, Heads),
    /// A build was needed and did not finish within the budget.
    OverBudget,
}

/// [`current`], a build given up when `budget` passes.
pub(super) fn within(
    repo: &Repo,
    notes_ref: &str,
    budget: Option<std::time::Instant>,
) -> Result<Within> {
    let Some(now) = repo.notes_commit_of(notes_ref)? else {
        return Ok(Within::NoRef);
    };
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    if let Some((at, heads)) = file::read_heads(&files, notes_ref) {
        if at == now {
            return Ok(Within::At(now, heads));
        }
        if repo.notes_descends(at, now)
            && let Some(members) = file::read_members(&files, notes_ref, at)
            && let Some(times) = file::read_times(&files, notes_ref, at)
            && let Some((heads, members, times)) = update(repo, at, now, (heads, members, times))?
        {
            crate::support::testing::note("notes-index-updated");
            file::write(&files, notes_ref, now, (&heads, &members, &times));
            return Ok(Within::At(now, heads));
        }
    }
    let Some((heads, members, times)) = build(repo, now, budget)? else {
        crate::support::testing::note("notes-index-not-built");
        return Ok(Within::OverBudget);
    };
    crate::support::testing::note("notes-index-built");
    file::write(&files, notes_ref, now, (&heads, &members, &times));
    Ok(Within::At(now, heads))
}

/// The members of the index of `notes_ref` at `commit`, when its file holds them.
pub fn members(repo: &Repo, notes_ref: &str, commit: CommitId) -> Option<Members> {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    file::read_members(&files, notes_ref, commit)
}

/// The times of the index of `notes_ref` at `commit`, when its file holds them.
pub fn times(repo: &Repo, notes_ref: &str, commit: CommitId) -> Option<Times> {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    file::read_times(&files, notes_ref, commit)
}

/// Remove the index of `notes_ref` (one found not to hold): the next reader builds it.
pub fn forget(repo: &Repo, notes_ref: &str) {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    let _ = std::fs::remove_file(&files.heads);
    let _ = std::fs::remove_file(&files.members);
    let _ = std::fs::remove_file(&files.times);
    let _ = std::fs::remove_file(&files.open);
}

/// Reads located records back, each note's blob once.
#[derive(Default)]
pub struct Reader {
    texts: HashMap<NoteText, Option<Vec<u8>>>,
}

impl Reader {
    /// The record at `l`, when it reads back whole as a record of group `group`.
    pub fn record(
        &mut self,
        repo: &Repo,
        l: &Located,
        group: &str,
    ) -> Option<(CommitId, crate::model::record::Record)> {
        let (note, blob) = file::parse_located(l)?;
        let text = self
            .texts
            .entry(blob)
            .or_insert_with(|| repo.note_text(blob, MAX_NOTE_SIZE))
            .as_deref()?;
        let line = text.split(|b| *b == b'\n').nth(l.line.checked_sub(1)?)?;
        let head = crate::model::record::parse_head(line)?;
        if group_name(Group::of(&head)) != group || head.kind != RecordKind::Session {
            return None;
        }
        Some((note, crate::model::record::parse_record(line).ok()?))
    }
}

/// Whether the index may be used in this run (a test compares it with the store).
pub fn wanted() -> bool {
    crate::support::testing::knob(NO_INDEX).is_none()
}
