//! The notes index (issue 36): what the store's readers need — the newest record of
//! each group (session, or old key) and its sides, where they are, and the lines passed
//! over — kept under the tool's directory as of one notes commit, so that a reader pays
//! for what changed since, not for every record ever written.
//!
//! Never trusted blindly: a file whose header, ref, commit or checksum does not hold is
//! not used; a notes ref that no longer descends from the indexed commit (rewritten)
//! is indexed afresh; a located record that does not read back as a record of its
//! group makes the reader answer from the store itself. Up to date is reached by a
//! diff of the two notes trees (`index_update.rs`): only the changed notes are read,
//! only the members' parts of their groups, and of those groups only the ones not
//! simply written on top of are worked out again (from their own notes). Nothing is
//! locked: two readers updating at once each write their files (the last rename of
//! each wins); a manifest whose parts are then another reader's is not believed and
//! the index is built again; a writer of the store never waits for either.

use std::collections::{BTreeMap, HashMap};

use super::index_file::{self as file, Files, Heads, Located, Members, Times};
use super::index_members::{Member, Parts};
pub use super::index_scan::all_members_hold;
use super::index_scan::{entry_of, group_name, newest_time, oversize, scan, text_of};
use crate::git::{CommitId, NoteText, Repo};
use crate::model::record::{Group, HeadLine, MAX_NOTE_SIZE, RecordKind};
use crate::support::error::Result;

/// The test knob that makes the readers answer from the store itself, as before the
/// index: what every index answer is compared with.
pub const NO_INDEX: &str = "GIT_HANDOVER_TEST_NO_INDEX";

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

/// A whole index, as built.
type Built = (Heads, BTreeMap<String, Member>, Times);

/// The index of notes commit `now`, read whole from the store.
/// `Ok(None)` when `budget` passed before it was done (nothing is kept).
fn build(repo: &Repo, now: CommitId, budget: Option<std::time::Instant>) -> Result<Option<Built>> {
    let notes = repo.notes_listing(now)?;
    let mut heads = Heads::default();
    let mut members: BTreeMap<String, Member> = BTreeMap::new();
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
                    if m.notes.last() != Some(object) {
                        m.notes.push(*object);
                    }
                    let names = (head.hash.iter().chain(&head.parent)).chain(&head.set_aside);
                    m.seen.extend(names.map(|n| super::index_members::seen(n)));
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
    for m in members.values_mut() {
        m.seen.sort_unstable();
        m.seen.dedup();
    }
    let mut fetch = refetch(repo, &notes);
    heads.groups = lines
        .into_iter()
        .map(|(g, l)| (g, entry_of(l, &notes, &mut fetch)))
        .collect();
    Ok(Some((heads, members, times)))
}

pub(super) fn missing(object: &CommitId) -> crate::support::error::Error {
    crate::support::error::Error::git(
        crate::support::error::msg(crate::k!("git.read_note_of"), &[("object", object)]),
        "the note's blob is not in the object database",
    )
}

/// Write the index of `commit`: the members' parts and manifest first, then the other
/// files (`index_file::write`). Best effort: one not written is built again next time.
fn save(files: &Files, notes_ref: &str, commit: CommitId, index: (&Heads, Parts, &Times)) {
    let (heads, members, times) = index;
    // A test holds a reader here, its index worked out and none of its files renamed,
    // while another updates the index.
    crate::support::testing::pause("notes-index-save");
    if members.write(files, notes_ref, commit).is_some() {
        file::write(files, notes_ref, commit, (heads, times));
    }
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
            && let Some(members) = Parts::open(&files, notes_ref, at)
            && let Some(times) = file::read_times(&files, notes_ref, at)
            && let Some((heads, members, times)) =
                super::index_update::update(repo, &files, (at, now), (heads, members, times))?
        {
            crate::support::testing::note("notes-index-updated");
            save(&files, notes_ref, now, (&heads, members, &times));
            return Ok(Within::At(now, heads));
        }
    }
    let Some((heads, members, times)) = build(repo, now, budget)? else {
        crate::support::testing::note("notes-index-not-built");
        return Ok(Within::OverBudget);
    };
    crate::support::testing::note("notes-index-built");
    save(&files, notes_ref, now, (&heads, Parts::of(members), &times));
    Ok(Within::At(now, heads))
}

/// The members of the index of `notes_ref` at `commit`, when its file holds them.
pub fn members(repo: &Repo, notes_ref: &str, commit: CommitId) -> Option<Members> {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    Parts::open(&files, notes_ref, commit)?.all(&files)
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
    super::index_members::forget(&files);
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
