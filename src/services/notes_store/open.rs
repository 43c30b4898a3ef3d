//! The open part of the notes index (`.open`, see [`super::open_file`]): what the
//! hook, `continue` and `status` list the store's sessions from, read alone when it is
//! of the ref's commit; kept up to date at the cost of the change (only the groups
//! whose newest record or sides moved have their records read from their notes, the
//! rest carried from the previous `.open`); and the hook's rule for an index that
//! would have to be built: only within a budget, otherwise answered without the store
//! and said.

use std::collections::BTreeMap;

use super::index::{Within, within};
use super::index_file::{Files, Heads};
use super::note_texts::Texts;
use super::open_file::{self as file, Open, OpenEntry, OpenFile, Unheld};
use crate::git::{NoteText, Repo};
use crate::support::error::Result;

/// The open part, as read from its file (its body read only when asked for), as made
/// just now, or (a run under a deadline, many open groups, a file of an older commit)
/// answered from `.heads` and made only when its groups are asked for.
pub enum Part {
    File(OpenFile),
    Made(Open),
    Pending(Box<Pending>),
}

/// What making `.open` takes, put off: the index of the ref's commit and the file of an
/// older one to carry from.
pub struct Pending {
    commit: crate::git::CommitId,
    heads: Heads,
    said: Vec<(String, usize, String)>,
    previous: Option<OpenFile>,
    files: Files,
    notes_ref: String,
}

impl Part {
    /// The lines passed over, as the readers say them.
    pub fn said(&self) -> &[(String, usize, String)] {
        match self {
            Part::File(f) => &f.said,
            Part::Made(o) => &o.said,
            Part::Pending(p) => &p.said,
        }
    }

    /// Every open group; `None` when the file does not hold, or (put off) a located
    /// record does not read back as one of its group (the index is then forgotten).
    pub fn groups(self, repo: &Repo) -> Option<BTreeMap<String, OpenEntry>> {
        match self {
            Part::File(f) => f.groups(),
            Part::Made(o) => Some(o.groups),
            Part::Pending(p) => {
                let carry = p.previous.and_then(|f| f.groups()).unwrap_or_default();
                let Some(open) = made(repo, &p.heads, carry) else {
                    super::index::forget(repo, &p.notes_ref);
                    return None;
                };
                file::write_open(&p.files, &p.notes_ref, p.commit, &open);
                super::index_delta::reset(&p.files, &p.notes_ref, p.commit, &p.heads, &open);
                Some(open.groups)
            }
        }
    }

    /// Group `group`'s entry when it diverged (`None`: it did not); [`Unheld`] when
    /// the file does not hold.
    pub fn diverged(&self, group: &str) -> std::result::Result<Option<OpenEntry>, Unheld> {
        match self {
            Part::File(f) => f.diverged(group),
            Part::Made(o) => Ok(o.groups.get(group).filter(|e| !e.sides.is_empty()).cloned()),
            // Where the records are, as `.open` would say it; no copy (a side is read
            // back from its note, never from a copy).
            Part::Pending(p) => Ok(file::open_groups(&p.heads)
                .into_iter()
                .find(|(g, e)| g.as_str() == group && !e.sides.is_empty())
                .and_then(|(_, e)| {
                    Some(OpenEntry {
                        newest: e.newest.clone()?,
                        sides: e.sides.clone(),
                        key: e.key.clone(),
                        finished: e.finished,
                        lines: Vec::new(),
                    })
                })),
        }
    }
}

/// The open part of the index of `notes_ref`: what a listing of the sessions to
/// resume reads.
pub enum OpenAt {
    /// The ref has no commit: nothing in the store.
    NoRef,
    At(Part),
    /// No index this run may use: it would have to be built from every note, and this
    /// run (the hook, under its deadline) could not do that within its budget; the
    /// next command that is not a hook builds it.
    Unindexed,
    /// The index located a record that does not read back as one of its group: it is
    /// forgotten, and the store is read whole.
    Damaged,
}

/// The open part as of the notes ref's current commit: its file when it is of that
/// commit (its header and head read, nothing else), otherwise made from the index
/// brought up to date or built (see [`super::index::current`]) — under a deadline
/// (the hook), a build only within a budget.
pub fn open(repo: &Repo, notes_ref: &str) -> Result<OpenAt> {
    let Some(now) = repo.notes_commit_of(notes_ref)? else {
        return Ok(OpenAt::NoRef);
    };
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    let previous = super::index_delta::open_file(&files, notes_ref, now);
    if let Some(f) = previous.as_ref()
        && f.commit == now
    {
        return Ok(OpenAt::At(Part::File(previous.expect("read"))));
    }
    // A few records since: laid over the files as a delta, none of them read whole.
    if super::index_delta::bring_up(repo, &files, notes_ref, (None, now), Texts::default())?
        && let Some(f) = super::index_delta::open_file(&files, notes_ref, now)
        && f.commit == now
    {
        return Ok(OpenAt::At(Part::File(f)));
    }
    // The hook builds an index only as far as its budget goes (a small store's);
    // otherwise it answers without the store, and the next command builds it.
    let budget = repo
        .has_deadline()
        .then(|| std::time::Instant::now() + build_budget());
    Ok(match within(repo, notes_ref, budget, false)? {
        Within::NoRef => OpenAt::NoRef,
        Within::At(commit, heads) if budget.is_some() && many_open(&heads) => {
            // The hook, and `.open` would be long to make (reading the older file whole
            // and writing it again): answered from `.heads` (whether its session
            // diverged, the lines passed over), made only if the groups are asked for.
            OpenAt::At(Part::Pending(Box::new(Pending {
                commit,
                said: super::index_file::said(&heads),
                heads,
                previous,
                files,
                notes_ref: notes_ref.to_owned(),
            })))
        }
        Within::At(commit, heads) => {
            // Of the ref's commit, and our file was not: made for the next reader,
            // carrying what did not move from the one there was.
            let carry = previous.and_then(|f| f.groups()).unwrap_or_default();
            let Some(open) = made(repo, &heads, carry) else {
                super::index::forget(repo, notes_ref);
                return Ok(OpenAt::Damaged);
            };
            // A test stops here, the index of the new commit written and this file
            // not, to kill the process mid-update.
            crate::support::testing::pause("notes-index-write-open");
            file::write_open(&files, notes_ref, commit, &open);
            super::index_delta::reset(&files, notes_ref, commit, &heads, &open);
            OpenAt::At(Part::Made(open))
        }
        Within::OverBudget => {
            UNINDEXED.store(true, std::sync::atomic::Ordering::Relaxed);
            OpenAt::Unindexed
        }
    })
}

/// Open groups past which a run under a deadline does not make `.open` unless it lists
/// them: at 100,000 open groups (a 270 MB file) making it took the hook 2.5 s and
/// 1.1 GiB after any new notes commit.
const OPEN_MADE_BY_HOOK: usize = 5_000;

/// Whether `heads` has more open groups than a hook makes `.open` for.
fn many_open(heads: &Heads) -> bool {
    let limit = crate::support::testing::knob("GIT_HANDOVER_TEST_OPEN_MADE_BY_HOOK")
        .and_then(|n| n.parse().ok())
        .unwrap_or(OPEN_MADE_BY_HOOK);
    file::open_groups(heads).len() > limit
}

/// [`open`] with the `.open` there is dropped first: one whose body or records did not
/// hold is made again from the index (the rest of the index is kept).
pub fn remade(repo: &Repo, notes_ref: &str) -> Result<OpenAt> {
    let files = Files::at(&repo.tool_dir().notes_index(notes_ref));
    let _ = std::fs::remove_file(&files.open);
    crate::support::testing::note("notes-index-open-dropped");
    open(repo, notes_ref)
}

/// The open part of `heads`: each open group's entry carried from `carry` when it
/// locates the same records, otherwise its records' lines read from their notes (one
/// note held at a time: open groups rarely share one); `None` when a located record
/// does not read back as one of its group.
fn made(repo: &Repo, heads: &Heads, mut carry: BTreeMap<String, OpenEntry>) -> Option<Open> {
    let mut texts: Option<(NoteText, Option<Vec<u8>>)> = None;
    // Through a reader that maps a bounded part of the packs: after a build, every open
    // group is read (1,000 notes at 1,000,000 records: 11 MB of pack pages kept
    // resident through the repository's own store).
    let mut reader = repo.note_reader();
    let mut groups = BTreeMap::new();
    let mut read = 0usize;
    for (g, e) in file::open_groups(heads) {
        // Taken, not copied: at 100,000 open groups the carried copies are most of
        // what a run holds.
        if let Some(c) = carry.remove(g.as_str())
            && c.same_place(e)
        {
            groups.insert(g.clone(), c);
            continue;
        }
        let newest = e.newest.clone()?;
        let text = &mut |b| reader.text(b, crate::model::record::MAX_NOTE_SIZE);
        let mut lines = vec![file::line_at(text, &mut texts, &newest, g)?];
        for side in &e.sides {
            lines.push(file::line_at(text, &mut texts, side, g)?);
        }
        read += 1;
        groups.insert(
            g.clone(),
            OpenEntry {
                newest,
                sides: e.sides.clone(),
                key: e.key.clone(),
                finished: e.finished,
                lines,
            },
        );
    }
    crate::support::testing::note(&format!("notes-index-open-read:{read}"));
    Some(Open {
        groups,
        said: super::index_file::said(heads),
    })
}

/// Set when this run answered without the store for want of an index ([`open`]).
static UNINDEXED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether this run answered without the store for want of an index.
pub fn unindexed() -> bool {
    UNINDEXED.load(std::sync::atomic::Ordering::Relaxed)
}

/// How long a run under a deadline (the hook) may spend building the index: a store
/// of a few thousand records is built in it; a larger one is left to the next command.
fn build_budget() -> std::time::Duration {
    crate::support::testing::knob("GIT_HANDOVER_TEST_INDEX_BUDGET_MS")
        .and_then(|ms| ms.parse().ok())
        .map_or(
            std::time::Duration::from_millis(300),
            std::time::Duration::from_millis,
        )
}
