//! What changed since the notes index's files were written whole, laid over them
//! (issue 36: an update costs the change, not the index). `<name>.heads`, `.times` and
//! `.open` are written whole by a build, or by an update that takes the long way, all
//! of one notes commit (the base); `<name>.delta` then says the notes commit the index
//! is of and, since the base, every group whose entry changed (its entry, or none), the
//! newest time of every note that changed, every open group whose `.open` entry changed
//! (with its records' lines), the blob each changed note has now, and in whole the
//! small rest (the notes' lines passed over, what the readers say of them, the diverged
//! groups, how many are open). A reader of each file applies it only when it was laid
//! over that very file: its header names the base commit and the base files' own
//! header lines (each sums its file), so a delta over another base, of another ref, torn
//! or forged is not applied, and an index file written since by another process is read
//! as what it is.
//!
//! An update after a few records (`bring_up`) reads none of the base files (their
//! headers only, and the times of the changed notes by binary search): the entries of
//! the groups it touches come from their members' parts (`index_members.rs`, which keep
//! each group's entry), and it writes those parts, their manifest, then the delta.
//! Anything it does not know how to lay over (a store with records without a session
//! id, whose listing depends on every group; lines passed over that change; a delta
//! grown past [`FOLD`]) takes the long way: the base and the delta read whole, the
//! update made, every file written again whole (folded), and a new empty delta.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::index_file::{
    self as file, Files, GroupEntry, Heads, MAGIC, NoteSkip, Times, TimesFile,
};
use super::index_members::Parts;
use super::note_texts::Texts;
use super::open_file::{Laid, Open, OpenEntry, OpenFile};
use crate::git::{CommitId, NoteChange, NoteText, Repo};
use crate::support::error::Result;

/// The largest delta read back: far beyond any delta kept (see [`FOLD`]).
const DELTA_LIMIT: u64 = 64 << 20;
/// The size past which a delta is folded into the files: every reader of the index
/// reads it, and every update writes it again. At 1,000,000 records a touched open
/// session adds about 4 KB.
const FOLD: usize = 128 << 10;

/// What changed since the base (see the module's doc).
#[derive(Debug, Default, Clone, Serialize, Deserialize)]
pub(super) struct Delta {
    /// The notes commit the base files are of.
    base: String,
    /// The base files' fourth header lines: `.heads`, `.times`, `.open`.
    bound: [String; 3],
    /// The store has groups of records without a session id (whose listing depends on
    /// every group): no update is laid over it.
    legacy: bool,
    groups: BTreeMap<String, Option<GroupEntry>>,
    /// Every note's lines passed over, in whole.
    notes: BTreeMap<String, Vec<NoteSkip>>,
    /// Newest time (ns) by note; none: the note has no record.
    times: BTreeMap<String, Option<i128>>,
    /// The open groups' entries of `.open`; none: no longer open.
    open: BTreeMap<String, Option<OpenEntry>>,
    said: Vec<(String, usize, String)>,
    diverged: Vec<String>,
    /// How many groups are open.
    count: usize,
    /// The blob of every note changed since the base.
    moved: BTreeMap<String, String>,
}

impl Delta {
    /// Whether this delta was laid over the file of the base commit `base` whose fourth
    /// header line is `line` (`which`: 0 `.heads`, 1 `.times`, 2 `.open`).
    fn over(&self, base: CommitId, which: usize, line: &str) -> bool {
        self.base == base.to_string() && self.bound.get(which).is_some_and(|b| b == line)
    }

    /// The base's heads brought to the delta's commit.
    fn apply_heads(&self, heads: &mut Heads) {
        if !self.moved.is_empty() {
            for e in heads.groups.values_mut() {
                for l in e.newest.iter_mut().chain(e.sides.iter_mut()) {
                    file::relocate(&self.moved, l);
                }
            }
        }
        for (g, e) in &self.groups {
            match e {
                Some(e) => heads.groups.insert(g.clone(), e.clone()),
                None => heads.groups.remove(g),
            };
        }
        heads.notes.clone_from(&self.notes);
    }

    /// The base's times brought to the delta's commit; `None`: the delta does not hold.
    fn apply_times(&self, times: &mut Times) -> Option<()> {
        for (note, at) in &self.times {
            let id = CommitId::from_hex(note)?;
            match at {
                Some(ns) => times.insert(id, jiff::Timestamp::from_nanosecond(*ns).ok()?),
                None => times.remove(&id),
            };
        }
        Some(())
    }
}

/// The readers' half of the index (see [`file::read_heads`]) as of the notes commit it
/// is of: its file's, or the delta's laid over that very file.
pub(super) fn heads(files: &Files, notes_ref: &str) -> Option<(CommitId, Heads)> {
    let (commit, mut heads, line) = file::read_heads(files, notes_ref)?;
    match read(files, notes_ref) {
        Some((now, d, _)) if d.over(commit, 0, &line) => {
            d.apply_heads(&mut heads);
            Some((now, heads))
        }
        _ => Some((commit, heads)),
    }
}

/// The times as of `commit`: its file's when of that commit, or under the delta of that
/// commit laid over that very file.
pub(super) fn times(files: &Files, notes_ref: &str, commit: CommitId) -> Option<Times> {
    let (of, mut times, line) = file::read_times(files, notes_ref)?;
    if of != commit {
        let (now, d, _) = read(files, notes_ref)?;
        if now != commit || !d.over(of, 1, &line) {
            return None;
        }
        d.apply_times(&mut times)?;
    }
    Some(times)
}

/// `.open` (see [`OpenFile::read`]), when it is not of `now` with the delta laid over
/// it, if one was laid over that very file.
pub(super) fn open_file(files: &Files, notes_ref: &str, now: CommitId) -> Option<OpenFile> {
    let mut f = OpenFile::read(files, notes_ref)?;
    if f.commit != now
        && let Some((of, d, _)) = read(files, notes_ref)
        && d.over(f.commit, 2, f.sizes())
    {
        f.lay(Laid {
            commit: of,
            said: d.said,
            diverged: d.diverged,
            open: d.open,
            count: d.count,
            moved: d.moved,
        });
    }
    Some(f)
}

/// The delta and the notes commit it brings the index to, with its size, when it is
/// there, whole and of `notes_ref`.
fn read(files: &Files, notes_ref: &str) -> Option<(CommitId, Delta, usize)> {
    let bytes = crate::support::read::read_regular(&files.delta, DELTA_LIMIT).ok()?;
    let (commit, body) = file::unwrap(&bytes, "delta", notes_ref)?;
    Some((commit, serde_json::from_slice(&body).ok()?, bytes.len()))
}

fn write(files: &Files, notes_ref: &str, commit: CommitId, d: &Delta) -> bool {
    let Ok(body) = serde_json::to_vec(d) else {
        return false;
    };
    let bytes = file::wrap("delta", notes_ref, commit, &body);
    crate::support::fsio::write_cache(&files.delta, &bytes).is_ok()
}

/// Remove the delta (the files are about to be written whole).
pub(super) fn remove(files: &Files) {
    let _ = std::fs::remove_file(&files.delta);
}

/// The base files' fourth header lines, when all three are of `base` and `notes_ref`.
fn bounds(files: &Files, notes_ref: &str, base: CommitId) -> Option<[String; 3]> {
    let mut out: [String; 3] = Default::default();
    let each = [
        (&files.heads, "heads"),
        (&files.times, "times"),
        (&files.open, "open"),
    ];
    for (i, (path, kind)) in each.into_iter().enumerate() {
        let (_, first, _) = file::first_bytes(path)?;
        let [k, r, c, line] = file::header(&first)?;
        if k != format!("{MAGIC} {kind}") || r != notes_ref || c != base.to_string() {
            return None;
        }
        line.clone_into(&mut out[i]);
    }
    Some(out)
}

/// After the files were written whole for `commit` (`.open` last): an empty delta over
/// them, which the next update lays its changes in. When the three files are not all
/// of `commit` (`.open` made again over `.heads` and `.times` brought up by the delta
/// there is), the delta there is left: each reader checks it is laid over its file,
/// and the next update takes the long way (without it, `.heads` would be of an older
/// commit than the members: a build).
pub(super) fn reset(files: &Files, notes_ref: &str, commit: CommitId, heads: &Heads, open: &Open) {
    let Some(bound) = bounds(files, notes_ref, commit) else {
        return;
    };
    let d = Delta {
        base: commit.to_string(),
        bound,
        legacy: heads.groups.keys().any(|g| !g.starts_with("i:")),
        notes: heads.notes.clone(),
        said: open.said.clone(),
        diverged: (open.groups.iter())
            .filter(|(_, e)| !e.sides.is_empty())
            .map(|(g, _)| g.clone())
            .collect(),
        count: open.groups.len(),
        ..Delta::default()
    };
    if !write(files, notes_ref, commit, &d) {
        remove(files);
    }
}

/// Bring the index up to `now` by a delta laid over its files, when the index is of an
/// older commit by a delta and the change is one it can lay over (see the module's
/// doc); `false`: it could not (the caller takes the long way). Only the changed notes,
/// the members' parts of their groups and the delta are read and written. With `from`
/// (a write's own record, `index::after_write`), only when the index is of that very
/// commit; `texts`: the note texts already in hand (the write's), not read again.
pub(super) fn bring_up(
    repo: &Repo,
    files: &Files,
    notes_ref: &str,
    (from, now): (Option<CommitId>, CommitId),
    mut texts: Texts,
) -> Result<bool> {
    let Some((at, delta, size)) = read(files, notes_ref) else {
        return Ok(false);
    };
    if at == now {
        return Ok(true);
    }
    if from.is_some_and(|f| f != at) {
        return Ok(false);
    }
    let Some(base) = CommitId::from_hex(&delta.base) else {
        return Ok(false);
    };
    if delta.legacy || bounds(files, notes_ref, base).as_ref() != Some(&delta.bound) {
        return Ok(false);
    }
    if size > fold() {
        crate::support::testing::note("notes-index-fold");
        return Ok(false);
    }
    let Some(changes) = repo.notes_descent(at, now)? else {
        return Ok(false);
    };
    if changes.len() > most_changed() {
        return Ok(false);
    }
    let Some(members) = Parts::open(files, notes_ref, at) else {
        return Ok(false);
    };
    let Some(times) = old_times(files, notes_ref, (base, &delta), &changes) else {
        return Ok(false);
    };
    let heads = Heads {
        groups: BTreeMap::new(),
        notes: delta.notes.clone(),
        partial: true,
    };
    let index = (heads, members, times);
    let Some((heads, mut members, times)) =
        super::index_update::update(repo, files, (now, changes.clone()), (index, &mut texts))?
    else {
        return Ok(false);
    };
    let Some(next) = next(
        (repo, &texts),
        files,
        (&delta, &heads, &mut members, &times),
        &changes,
    ) else {
        return Ok(false);
    };
    if members.take_entries(files, &heads).is_none()
        || members.write(files, notes_ref, now).is_none()
    {
        return Ok(false);
    }
    // A test stops here, the members' parts and manifest of the new commit written and
    // the delta not, to race another updater or kill the process.
    crate::support::testing::pause("notes-index-delta");
    if !write(files, notes_ref, now, &next) {
        return Ok(false);
    }
    crate::support::testing::note("notes-index-delta-written");
    Ok(true)
}

/// The most notes an update may find changed; past it the index is built afresh, which
/// is both faster and smaller then: an update reads every changed note and the
/// members of every group they hold. After a fetch of 2,000 notes commits (2,000 notes
/// changed, every one of the 10,000 groups gaining records) into a store of 1,000,000
/// records the update took 50-85 s and 194 MiB, the build 44 s and 37 MiB.
const MOST_CHANGED: usize = 500;

/// [`MOST_CHANGED`], or what the test knob `GIT_HANDOVER_TEST_MOST_CHANGED` says.
pub(super) fn most_changed() -> usize {
    crate::support::testing::knob("GIT_HANDOVER_TEST_MOST_CHANGED")
        .and_then(|n| n.parse().ok())
        .unwrap_or(MOST_CHANGED)
}

/// [`FOLD`], or what the test knob `GIT_HANDOVER_TEST_INDEX_FOLD` says.
fn fold() -> usize {
    crate::support::testing::knob("GIT_HANDOVER_TEST_INDEX_FOLD")
        .and_then(|n| n.parse().ok())
        .unwrap_or(FOLD)
}

/// Whether a group with entry `e` is listed open (a store without groups of records
/// without a session id shows every group).
fn is_open(e: &GroupEntry) -> bool {
    e.newest.is_some() && (!e.finished || !e.sides.is_empty())
}

/// The delta after an update that left `heads` (the groups it touched) and `times`
/// (the changed notes'): `None` when it cannot be laid over (see the module's doc) or
/// a located record does not read back as one of its group.
fn next(
    (repo, texts): (&Repo, &Texts),
    files: &Files,
    (delta, heads, members, times): (&Delta, &Heads, &mut Parts, &Times),
    changes: &[NoteChange],
) -> Option<Delta> {
    if heads.notes != delta.notes {
        return None;
    }
    let mut d = delta.clone();
    // From the notes the update read, else through the repository's own store: a few
    // notes (a store opened costs about what the rest of the update does).
    let read = &mut |b| repo.note_text(b, crate::model::record::MAX_NOTE_SIZE);
    let mut last: Option<(NoteText, Option<Vec<u8>>)> = None;
    let mut line_at = |l: &file::Located, g: &str| match file::parse_located(l)
        .and_then(|(_, b)| texts.text(b))
    {
        Some(text) => super::open_file::line_in(text, l, g),
        None => super::open_file::line_at(read, &mut last, l, g),
    };
    let asked: Vec<String> = members.asked().iter().cloned().collect();
    for g in asked {
        let old = members.get(files, &g)?.entry.clone();
        let new = heads.groups.get(&g);
        let skipped = |e: Option<&GroupEntry>| e.is_some_and(|e| !e.skipped.is_empty());
        if !g.starts_with("i:") || skipped(old.as_ref()) || skipped(new) {
            return None;
        }
        if old.as_ref() == new {
            continue;
        }
        let was_open = old.as_ref().is_some_and(is_open);
        let open = match new.filter(|e| is_open(e)) {
            Some(e) => {
                let newest = e.newest.clone()?;
                let mut lines = vec![line_at(&newest, &g)?];
                for side in &e.sides {
                    lines.push(line_at(side, &g)?);
                }
                Some(OpenEntry {
                    newest,
                    sides: e.sides.clone(),
                    key: e.key.clone(),
                    finished: e.finished,
                    lines,
                })
            }
            None => None,
        };
        d.count = (d.count + usize::from(open.is_some())).checked_sub(usize::from(was_open))?;
        d.diverged.retain(|x| *x != g);
        if open.as_ref().is_some_and(|o| !o.sides.is_empty()) {
            d.diverged.push(g.clone());
            d.diverged.sort();
        }
        if was_open || open.is_some() {
            d.open.insert(g.clone(), open);
        }
        d.groups.insert(g, new.cloned());
    }
    for c in changes {
        let note = c.object.to_string();
        match c.new {
            Some(b) => d.moved.insert(note.clone(), b.to_hex()),
            None => d.moved.remove(&note),
        };
        let at = times.get(&c.object).map(|t| t.as_nanosecond());
        d.times.insert(note, at);
    }
    Some(d)
}

/// The newest time of each changed note as of the delta's commit: from the delta, else
/// from the base `.times` (binary search, its header checked, its body not summed: a
/// reader of the times sums it).
fn old_times(
    files: &Files,
    notes_ref: &str,
    (base, delta): (CommitId, &Delta),
    changes: &[NoteChange],
) -> Option<Times> {
    let mut out = Times::new();
    let mut base_times: Option<TimesFile> = None;
    for c in changes {
        let ns = match delta.times.get(&c.object.to_string()) {
            Some(ns) => *ns,
            None => {
                let f = match &mut base_times {
                    Some(f) => f,
                    None => {
                        base_times.insert(TimesFile::open(files, notes_ref, base, &delta.bound[1])?)
                    }
                };
                f.find(c.object).ok()?
            }
        };
        if let Some(ns) = ns {
            out.insert(c.object, jiff::Timestamp::from_nanosecond(ns).ok()?);
        }
    }
    Some(out)
}
