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
//! simply written on top of are worked out again (from their own notes); what changed
//! is laid over the files as a delta (`index_delta.rs`) rather than the files written
//! again whole, until it grows. Nothing is
//! locked: two readers updating at once each write their files (the last rename of
//! each wins); a manifest whose parts are then another reader's is not believed and
//! the index is built again; a writer of the store never waits for either. A write of
//! this tool brings the index along itself at the end of its run (`after_write`), so
//! the next reader usually finds it current.

use std::collections::HashMap;

use super::index_file::{self as file, Files, GroupEntry, Heads, Located, Times};
use super::index_members::Parts;
use super::index_scan::group_name;
use super::note_texts::Texts;
use crate::git::{CommitId, NoteText, Repo};
use crate::model::record::{Group, MAX_NOTE_SIZE, RecordKind};
use crate::support::error::Result;

/// The test knob that makes the readers answer from the store itself, as before the
/// index: what every index answer is compared with.
pub const NO_INDEX: &str = "GIT_HANDOVER_TEST_NO_INDEX";

/// Write the index of `commit`: the members' parts and manifest first, then the other
/// files (`index_file::write`). Best effort: one not written is built again next time.
fn save(files: &Files, notes_ref: &str, commit: CommitId, index: (&Heads, Parts, &Times)) {
    let (heads, mut members, times) = index;
    // A test holds a reader here, its index worked out and none of its files renamed,
    // while another updates the index.
    crate::support::testing::pause("notes-index-save");
    // Written whole: no delta is laid over these files (`.open`'s writer lays a new
    // one once `.open` is of `commit` too).
    super::index_delta::remove(files);
    let kept = members.take_entries(files, heads).is_some()
        && members.write(files, notes_ref, commit).is_some()
        && file::write(files, notes_ref, commit, (heads, times));
    if !kept && let Some(dir) = files.heads.parent() {
        let mut unkept = UNKEPT
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        unkept.get_or_insert_with(|| dir.to_owned());
    }
}

/// The index's directory when this process could not keep an index there (said once).
static UNKEPT: std::sync::Mutex<Option<std::path::PathBuf>> = std::sync::Mutex::new(None);

/// The directory an index could not be kept in by this process so far, once: every
/// command adds it to its warnings (a store without a kept index is read whole by
/// every command).
pub fn unkept() -> Option<std::path::PathBuf> {
    UNKEPT
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take()
}

/// Why no index of `notes_ref` can be kept (its directory cannot be made), with that
/// directory; `None` when it can.
pub fn cannot_keep(repo: &Repo, notes_ref: &str) -> Option<(std::path::PathBuf, String)> {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    let dir = files.heads.parent()?.to_owned();
    // Made and written to as an index is: a directory that exists but cannot be
    // written keeps no index either.
    let probe = std::fs::create_dir_all(&dir)
        .and_then(|()| tempfile::NamedTempFile::new_in(&dir).map(drop));
    probe.err().map(|e| (dir, e.to_string()))
}

/// The index of `notes_ref` as of its current commit (read, brought up to date, or
/// built afresh, and then written back, best effort), with that commit; `None` when
/// the ref does not exist.
pub fn current(repo: &Repo, notes_ref: &str) -> Result<Option<(CommitId, Heads)>> {
    match within(repo, notes_ref, None, true)? {
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

/// [`current`], a build given up when `budget` passes; `by_delta`: first try bringing
/// it up by a delta (`index_delta.rs`), which reads none of the files whole.
pub(super) fn within(
    repo: &Repo,
    notes_ref: &str,
    budget: Option<std::time::Instant>,
    by_delta: bool,
) -> Result<Within> {
    let Some(now) = repo.notes_commit_of(notes_ref)? else {
        return Ok(Within::NoRef);
    };
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    if by_delta {
        super::index_delta::bring_up(repo, &files, notes_ref, (None, now), Texts::default())?;
    }
    if let Some((at, heads)) = super::index_delta::heads(&files, notes_ref) {
        if at == now {
            return Ok(Within::At(now, heads));
        }
        if let Some(changes) = repo.notes_descent(at, now)?
            && small(&changes)
            && let Some(members) = Parts::open(&files, notes_ref, at)
            && let Some(times) = super::index_delta::times(&files, notes_ref, at)
            && let Some((heads, members, times)) = super::index_update::update(
                repo,
                &files,
                (now, changes),
                ((heads, members, times), &mut Texts::default()),
            )?
        {
            crate::support::testing::note("notes-index-updated");
            save(&files, notes_ref, now, (&heads, members, &times));
            return Ok(Within::At(now, heads));
        }
    }
    let Some((heads, members, times)) = super::index_build::build(repo, &files, now, budget)?
    else {
        crate::support::testing::note("notes-index-not-built");
        return Ok(Within::OverBudget);
    };
    crate::support::testing::note("notes-index-built");
    save(&files, notes_ref, now, (&heads, members, &times));
    Ok(Within::At(now, heads))
}

/// Whether `changes` are few enough to bring the index up to date by (the test knob
/// `GIT_HANDOVER_TEST_MOST_CHANGED` lowers the bound).
fn small(changes: &[crate::git::NoteChange]) -> bool {
    let small = changes.len() <= super::index_delta::most_changed();
    if !small {
        crate::support::testing::note("notes-index-update-too-large");
    }
    small
}

/// After this tool's write `made` moved `notes_ref` (a record appended to a note): the
/// index brought along, at the end of the run ([`bring_writes_along`]), when it was of
/// the commit the write was made on, by a delta from the texts the write made (no note
/// read again); so the next reader (an agent's start) finds it current, and the write
/// pays for its own record: about 0.5 ms at 1,000,000 records and the repository
/// opened again, against 2 ms for the reader after it. Anything else (no index, one of
/// another commit, a change a delta does not lay over) is left to the next reader, as a
/// write by another tool is; so is an error: it is not the write's. Only the run's
/// last write keeps its note's text (a run of many writes would hold every one): the
/// ones before read what they need, one after the other, each from the index the one
/// before left.
pub fn after_write(repo: &Repo, notes_ref: &str, made: &mut crate::git::NotesEdited) {
    // The note's text is taken from the write whatever happens.
    let text = std::mem::take(&mut made.note.text);
    if made.parent.is_none() {
        return;
    }
    let n = &made.note;
    let given = ((n.was, n.now, n.before), text);
    let mut pending = WRITTEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for before in pending.iter_mut() {
        before.3 = None;
    }
    let write = (
        repo.reopen_later(),
        notes_ref.to_owned(),
        made.clone(),
        Some(given),
    );
    pending.push(write);
}

/// A write whose index is still to be brought along: the repository, the notes ref,
/// the write, and its note's texts while it is the run's last.
type Pending = (
    crate::git::Reopen,
    String,
    crate::git::NotesEdited,
    Option<((Option<NoteText>, NoteText, usize), Vec<u8>)>,
);
static WRITTEN: std::sync::Mutex<Vec<Pending>> = std::sync::Mutex::new(Vec::new());

/// Bring the index along for the writes of the run ([`after_write`]): called once the
/// run's work is done and its output given (`app::main`), so that no lock a reader may
/// wait for (a session's, a branch's) is held meanwhile.
pub fn bring_writes_along() {
    let mut pending = WRITTEN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for (reopen, notes_ref, made, text) in std::mem::take(&mut *pending) {
        let (Some(repo), Some(parent)) = (reopen.open(), made.parent) else {
            continue;
        };
        let files = Files::at(&repo.tool_dir().notes_index(&notes_ref));
        let texts = text.map_or_else(Texts::default, |((was, now, before), text)| {
            Texts::given(was, (now, text), before)
        });
        let at = (Some(parent), made.commit);
        let _ = super::index_delta::bring_up(&repo, &files, &notes_ref, at, texts);
    }
}

/// The members of the index of `notes_ref` at one commit, read part by part as groups
/// are asked for (`log -n` and `log KEY` ask for a few; reading every part is reading
/// 36 MB at 1,000,000 records).
pub struct MembersOf {
    files: Files,
    parts: Parts,
}

impl MembersOf {
    /// When the manifest is there, whole and of `commit`.
    pub fn open(repo: &Repo, notes_ref: &str, commit: CommitId) -> Option<MembersOf> {
        let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
        let parts = Parts::open(&files, notes_ref, commit)?;
        Some(MembersOf { files, parts })
    }

    /// The notes of group `g` (whose entry is `e`); `None` when its part does not hold
    /// or lacks the notes its entry names.
    pub fn of(&mut self, g: &str, e: &GroupEntry) -> Option<Vec<CommitId>> {
        let notes = &self.parts.get(&self.files, g)?.notes;
        let none = std::collections::BTreeSet::new();
        super::index_scan::members_hold(e, notes, &none).then(|| notes.clone())
    }
}

impl MembersOf {
    /// The records group `g` (whose entry is `e`) keeps for `log` (`index_kept.rs`);
    /// `None` as for [`MembersOf::of`].
    pub fn kept(&mut self, g: &str, e: &GroupEntry) -> Option<super::index_kept::Kept> {
        let m = self.parts.get(&self.files, g)?;
        let none = std::collections::BTreeSet::new();
        super::index_scan::members_hold(e, &m.notes, &none).then(|| m.kept.clone())
    }
}

/// The times of the index of `notes_ref` at `commit`, when its file holds them.
pub fn times(repo: &Repo, notes_ref: &str, commit: CommitId) -> Option<Times> {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    super::index_delta::times(&files, notes_ref, commit)
}

/// Remove the index of `notes_ref` (one found not to hold): the next reader builds it.
pub fn forget(repo: &Repo, notes_ref: &str) {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    let _ = std::fs::remove_file(&files.heads);
    super::index_members::forget(&files);
    let _ = std::fs::remove_file(&files.times);
    let _ = std::fs::remove_file(&files.open);
    super::index_delta::remove(&files);
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
        let line = super::index_scan::nth_line(text, l.line)?;
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

/// The note of `note` as of `commit`: `Err(())` when the index named a note the
/// store does not have (the index is then not used); `Ok(None)` over the size limit.
/// Read through `reader`'s stores: a session's notes are all over the packs, and read
/// through the repository's own store their pages stayed resident (`log KEY` at
/// 1,000,000 records: 86 MiB).
pub(super) fn note_text(
    reader: &mut crate::git::NoteReader<'_>,
    commit: CommitId,
    note: CommitId,
) -> crate::support::error::Result<std::result::Result<Option<Vec<u8>>, ()>> {
    let Some(blob) = reader.blob_at(commit, note)? else {
        return Ok(Err(()));
    };
    Ok(super::index_build::text_of(reader, blob))
}
