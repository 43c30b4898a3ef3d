//! Reading what was found (session files, notes, legacy state, records of the notes
//! store) into pending handovers, before git is asked anything.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jiff::Timestamp;

use super::{Parsed, Pending};
use crate::facts::assessed::{Handover, Kind, Reading, Stored};
use crate::git::{CommitId, History, Repo, Worktree};
use crate::model::note::Note;
use crate::model::state::{State, View};
use crate::services::scan::{self, Found};
use crate::support::error::Result;

/// Branch tips looked up once per run of [`super::check`]: a repository's sessions
/// share a few branches, and each lookup stats and reads ref files.
pub(super) struct Tips<'a> {
    repo: &'a Repo,
    of: HashMap<String, Option<(CommitId, Option<String>)>>,
}

impl<'a> Tips<'a> {
    pub(super) fn new(repo: &'a Repo) -> Self {
        Tips {
            repo,
            of: HashMap::new(),
        }
    }

    /// [`Repo::branch_tip_or_remote`], asked once per branch.
    fn tip(&mut self, branch: &str) -> Option<(CommitId, Option<String>)> {
        if let Some(known) = self.of.get(branch) {
            return known.clone();
        }
        let found = self.repo.branch_tip_or_remote(branch);
        self.of.insert(branch.to_owned(), found.clone());
        found
    }
}

/// Read a session record of the notes store as a pending handover.
pub(super) fn read_stored(
    tips: &mut Tips<'_>,
    commit: &CommitId,
    record: &crate::model::record::Record,
    saved_as: Option<String>,
) -> Pending {
    let file = PathBuf::from(format!("notes:{}:{}", commit.prefix(12), record.key));
    let state_doc = record.state_doc();
    let mut handover = Handover {
        kind: Kind::Session,
        key: record.key.clone(),
        root: None,
        file: file.clone(),
        tracked: false,
        copy_of: None,
        view: None,
        reading: not_read_yet(),
        stored: Some(Stored {
            commit: commit.to_owned(),
            saved_at: record.saved_at,
            worktree: record.worktree.clone(),
            state: record.state.clone().unwrap_or_default(),
            saved_as,
        }),
    };
    let parsed = match State::from_doc(state_doc, &file) {
        Ok(state) => Some(Parsed::State(Arc::new(state.into_view()))),
        Err(e) => {
            handover.reading = Reading::Invalid(e.into());
            None
        }
    };
    let remote = parsed.as_ref().and_then(|p| match p {
        Parsed::State(state) => state.workspace.branch.as_deref().and_then(|b| tips.tip(b)),
        Parsed::Note(_) => None,
    });
    let tip_ref = remote.as_ref().and_then(|(_, r)| r.clone());
    let (tip, written) = match &parsed {
        Some(Parsed::State(state)) => (
            remote.map(|(tip, _)| tip),
            Some((
                state
                    .generated_at
                    .as_ref()
                    .map_or(record.saved_at, |s| s.at),
                false,
            )),
        ),
        _ => (None, None),
    };
    Pending {
        handover,
        parsed,
        tip,
        tip_ref,
        branch_gone: false,
        written,
    }
}

/// Below this many state files one thread is quicker than starting others.
const PARALLEL_FROM: usize = 64;

/// The state files among `found` (sessions' and legacy ones): where each is in
/// `found`, and its path.
fn state_files(found: &[(usize, Vec<Found>)]) -> impl Iterator<Item = (usize, usize, PathBuf)> {
    found.iter().enumerate().flat_map(|(i, (_, items))| {
        items.iter().enumerate().filter_map(move |(j, f)| match f {
            Found::Session { dir, .. } => Some((i, j, dir.join(scan::STATE_FILE))),
            Found::Legacy { path } => Some((i, j, path.clone())),
            Found::ContinueHere { .. } | Found::Stored { .. } => None,
        })
    })
}

/// The state files among `found`, read and parsed ahead of [`read_found`], which takes
/// each result from here: on several threads when there are many (with many sessions,
/// reading and parsing is a large share of `status`), in order. Meanwhile `history` reads
/// its commit-graph's records for the long walk that many recorded commits make.
pub(super) fn parse_states(
    history: &mut History<'_>,
    found: &[(usize, Vec<Found>)],
) -> Vec<Vec<Option<Result<View>>>> {
    const MAX_THREADS: usize = 8;
    /// Files a thread takes at a time.
    const BATCH: usize = 8;
    let files: Vec<(usize, usize, PathBuf)> = state_files(found).collect();
    let threads = if files.len() < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
    };
    // Files are taken a few at a time from a shared counter, by this thread too, so
    // that every thread ends at about the same time whatever the files' sizes and
    // whatever else the machine runs (the commit-graph read ahead beside them). A
    // thread that cannot be started (a process limit in a sandbox) leaves its part to
    // the others.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || -> Vec<(usize, Result<View>)> {
        let mut done = Vec::new();
        loop {
            let from = next.fetch_add(BATCH, std::sync::atomic::Ordering::Relaxed);
            if from >= files.len() {
                return done;
            }
            let to = (from + BATCH).min(files.len());
            for (k, (_, _, path)) in files[from..to].iter().enumerate() {
                done.push((from + k, View::read(path)));
            }
        }
    };
    let mut results: Vec<Option<Result<View>>> = files.iter().map(|_| None).collect();
    let mut keep = |done: Vec<(usize, Result<View>)>| {
        for (k, r) in done {
            results[k] = Some(r);
        }
    };
    if threads <= 1 {
        keep(work());
    } else {
        std::thread::scope(|s| {
            let ahead = history.read_graph_ahead(s);
            let others: Vec<_> = (1..threads)
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(s, work).ok())
                .collect();
            keep(work());
            for t in others {
                keep(t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            history.take_graph_ahead(ahead);
        });
    }
    let mut out: Vec<Vec<Option<Result<View>>>> = found
        .iter()
        .map(|(_, items)| items.iter().map(|_| None).collect())
        .collect();
    for ((i, j, _), result) in files.iter().zip(results) {
        out[*i][*j] = result;
    }
    out
}

/// A handover `found` in `wt` as a pending one; `parsed` is its state file's reading
/// when [`parse_states`] made it.
pub(super) fn read_found(
    tips: &mut Tips<'_>,
    wt: &Worktree,
    found: &Found,
    parsed: Option<Result<View>>,
) -> Pending {
    let (kind, key, root, file) = match found {
        Found::Stored {
            commit,
            record,
            saved_as,
        } => return read_stored(tips, commit, record, saved_as.clone()),
        Found::Session { root, key, dir } => (
            Kind::Session,
            key.clone(),
            Some(root.clone()),
            dir.join(scan::STATE_FILE),
        ),
        Found::Legacy { path } => (Kind::Legacy, relative(&wt.path, path), None, path.clone()),
        Found::ContinueHere { path } => (
            Kind::ContinueHere,
            relative(&wt.path, path),
            None,
            path.clone(),
        ),
    };
    let mut handover = Handover {
        kind,
        key,
        root,
        file: file.clone(),
        tracked: false,
        copy_of: None,
        view: None,
        reading: not_read_yet(),
        stored: None,
    };
    let mtime = || {
        std::fs::metadata(&file)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| Timestamp::try_from(t).ok())
    };
    let parsed = match kind {
        Kind::ContinueHere => match read_note(&file) {
            Ok(note) => Some(Parsed::Note(note)),
            Err(e) => {
                handover.reading = Reading::Invalid(e.into());
                None
            }
        },
        Kind::Session | Kind::Legacy => match parsed.unwrap_or_else(|| View::read(&file)) {
            Ok(view) => Some(Parsed::State(Arc::new(view))),
            Err(e) => {
                handover.reading = Reading::Invalid(e.into());
                None
            }
        },
    };
    let mut tip_ref = None;
    let mut branch_gone = false;
    let (tip, written) = match &parsed {
        Some(Parsed::State(state)) => {
            let found = state.workspace.branch.as_deref().and_then(|b| tips.tip(b));
            tip_ref = found.as_ref().and_then(|(_, r)| r.clone());
            branch_gone = state.workspace.branch.is_some() && found.is_none();
            let tip = found.map(|(tip, _)| tip).or(wt.head);
            let written = match &state.generated_at {
                Some(s) => Some((s.at, false)),
                None => mtime().map(|t| (t, true)),
            };
            (tip, written)
        }
        Some(Parsed::Note(note)) => {
            let tip = note
                .branch
                .as_deref()
                .and_then(|b| tips.tip(b).filter(|(_, remote)| remote.is_none()))
                .map(|(tip, _)| tip)
                .or(wt.head);
            let written = match note.updated_at {
                Some(t) => Some((t, false)),
                None => mtime().map(|t| (t, true)),
            };
            (tip, written)
        }
        None => (None, None),
    };
    Pending {
        handover,
        parsed,
        tip,
        tip_ref,
        branch_gone,
        written,
    }
}

pub(super) fn read_note(path: &Path) -> Result<Note> {
    let bytes = crate::support::fsio::read_limited(path)?;
    Ok(Note::parse(&String::from_utf8_lossy(&bytes)))
}

pub(super) fn relative(base: &Path, path: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// The reading of a handover before it is judged: replaced by the judgement, or by why
/// the file could not be read.
fn not_read_yet() -> Reading {
    Reading::Invalid(
        crate::support::error::Error::usage(crate::support::error::msg(
            crate::k!("err.not_read"),
            &[],
        ))
        .into(),
    )
}
