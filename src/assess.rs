//! Checking every handover found against git: the facts `status` reports and
//! `continue` briefs on. Reads files and the repository; writes nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::Timestamp;

use crate::config::Settings;
use crate::continue_here::{Known, Note};
use crate::error::Result;
use crate::git::{CommitId, NewerCommits, NewerQuery, Repo, Worktree};
use crate::scan::{self, Found};
use crate::state::State;
use crate::verdict::{self, CommitCheck, Freshness, Presence, RegisteredWorktree};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Session,
    Legacy,
    ContinueHere,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Session => "session",
            Kind::Legacy => "legacy",
            Kind::ContinueHere => "continue-here",
        }
    }
}

/// One handover found in a worktree, checked.
#[derive(Debug, Clone)]
pub struct Handover {
    pub kind: Kind,
    /// The session key, or the file's path relative to the worktree.
    pub key: String,
    /// The handover root a session lives in (relative to the worktree).
    pub root: Option<String>,
    /// The file read (`project-state.json` or the note).
    pub file: PathBuf,
    /// What is wrong with the file, when it could not be read.
    pub error: Option<String>,
    pub assessment: Option<Assessment>,
    /// Where a session found only in the notes store was read from.
    pub stored: Option<Stored>,
}

/// A session read from the notes store rather than from a file.
#[derive(Debug, Clone)]
pub struct Stored {
    /// The commit whose note holds the record.
    pub commit: String,
    pub saved_at: Timestamp,
    /// The worktree the record was saved in.
    pub worktree: Option<String>,
    /// The whole state document, for `continue` to restore.
    pub state: serde_json::Map<String, serde_json::Value>,
}

#[derive(Debug, Clone)]
pub struct TaskBrief {
    pub id: String,
    pub description: String,
    pub status: String,
}

#[derive(Debug, Clone)]
pub struct StaleTask {
    pub id: String,
    pub untouched_for: Duration,
}

#[derive(Debug, Clone, Default)]
pub struct NoteBrief {
    pub objective: Option<String>,
    pub in_progress: Vec<String>,
    pub next_steps: Vec<String>,
    pub user_items: Vec<String>,
    pub missing_sections: Vec<&'static str>,
    pub missing_header: Vec<&'static str>,
}

#[derive(Debug, Clone)]
pub struct Assessment {
    /// `READY` or `ALL_COMPLETE` for structured state; `None` for a note.
    pub status: Option<String>,
    pub session_id: Option<String>,
    /// A team session (a structured session without `workspace.branch`).
    pub team: bool,
    /// The branch the handover was written on, when it says.
    pub branch: Option<String>,
    pub written_at: Option<Timestamp>,
    /// True when the time comes from the file's modification time.
    pub written_from_mtime: bool,
    pub age: Option<Duration>,
    pub freshness: Option<Freshness>,
    pub branch_matches: bool,
    pub newer: NewerCommits,
    pub workspace_root: Option<String>,
    pub presence: Presence,
    pub done: usize,
    pub total: usize,
    pub next: Option<TaskBrief>,
    pub commits: Vec<CommitCheck>,
    pub stale_tasks: Vec<StaleTask>,
    pub note: Option<NoteBrief>,
    pub warnings: Vec<crate::error::Msg>,
}

impl Assessment {
    /// Whether this handover needs a person's (or an agent's) attention: an open
    /// handover that is superseded, orphaned, has a commit that does not check out, or
    /// has stale tasks. Finished sessions need none; offline worktrees are deliberate.
    pub fn needs_attention(&self) -> bool {
        if self.status.as_deref() == Some(crate::state::ALL_COMPLETE) {
            return false;
        }
        self.freshness == Some(Freshness::Superseded)
            || self.presence == Presence::Orphan
            || self.commits.iter().any(CommitCheck::needs_attention)
            || !self.stale_tasks.is_empty()
    }
}

impl Handover {
    pub fn needs_attention(&self) -> bool {
        self.error.is_some()
            || self
                .assessment
                .as_ref()
                .is_some_and(Assessment::needs_attention)
    }
}

#[derive(Debug, Clone)]
pub struct WorktreeHandovers {
    pub worktree: Worktree,
    pub current: bool,
    pub handovers: Vec<Handover>,
}

/// What was read from disk, before git is asked anything.
enum Parsed {
    State(Box<State>),
    Note(Note),
}

struct Pending {
    handover: Handover,
    parsed: Option<Parsed>,
    /// Where commits are checked: the handover's branch, else the worktree's HEAD.
    tip: Option<CommitId>,
    written: Option<(Timestamp, bool)>,
}

/// Read a session record of the notes store as a pending handover.
fn read_stored(repo: &Repo, commit: &str, record: &crate::notes::Record) -> Pending {
    let file = PathBuf::from(format!(
        "notes:{}:{}",
        &commit[..commit.len().min(12)],
        record.key
    ));
    let state_doc = record.state.clone().unwrap_or_default();
    let mut handover = Handover {
        kind: Kind::Session,
        key: record.key.clone(),
        root: None,
        file: file.clone(),
        error: None,
        assessment: None,
        stored: Some(Stored {
            commit: commit.to_owned(),
            saved_at: record.saved_at,
            worktree: record.worktree.clone(),
            state: state_doc.clone(),
        }),
    };
    let parsed = match State::from_doc(state_doc, &file) {
        Ok(state) => Some(Parsed::State(Box::new(state.into_view()))),
        Err(e) => {
            handover.error = Some(e.to_string());
            None
        }
    };
    let (tip, written) = match &parsed {
        Some(Parsed::State(state)) => (
            state
                .workspace
                .branch
                .as_deref()
                .and_then(|b| repo.branch_tip(b)),
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
        written,
    }
}

/// Scan `worktrees` (those with `include` true) and check everything found against git.
pub fn assess(
    repo: &Repo,
    settings: &Settings,
    now: Timestamp,
    worktrees: &[Worktree],
    include: impl Fn(&Worktree) -> bool,
    current: Option<&Path>,
) -> Result<Vec<WorktreeHandovers>> {
    let found = worktrees
        .iter()
        .enumerate()
        .filter(|(_, wt)| include(wt))
        .map(|(wi, wt)| {
            let found = if wt.exists && !wt.is_bare {
                scan::scan_worktree(&wt.path, &settings.dir)
            } else {
                Vec::new()
            };
            (wi, found)
        })
        .collect();
    check(repo, settings, now, worktrees, found, current)
}

/// Check the handovers `found` in the worktrees (by index into `worktrees`) against git:
/// every recorded commit in one walk, newer commits in one walk per branch.
pub fn check(
    repo: &Repo,
    settings: &Settings,
    now: Timestamp,
    worktrees: &[Worktree],
    found: Vec<(usize, Vec<Found>)>,
    current: Option<&Path>,
) -> Result<Vec<WorktreeHandovers>> {
    let pending_by_worktree: Vec<(usize, Vec<Pending>)> = found
        .into_iter()
        .map(|(wi, items)| {
            (
                wi,
                items
                    .iter()
                    .map(|f| read_found(repo, &worktrees[wi], f))
                    .collect(),
            )
        })
        .collect();

    // One walk for every recorded commit of every handover.
    let mut queries: Vec<(String, CommitId)> = Vec::new();
    let mut query_owner: Vec<(usize, usize, String)> = Vec::new();
    for (pi, (_, pending)) in pending_by_worktree.iter().enumerate() {
        for (hi, p) in pending.iter().enumerate() {
            let (Some(Parsed::State(state)), Some(tip)) = (&p.parsed, p.tip) else {
                continue;
            };
            for task in &state.tasks {
                if let Some(sha) = &task.commit_sha {
                    queries.push((sha.clone(), tip));
                    query_owner.push((pi, hi, task.id.clone()));
                }
            }
        }
    }
    let answers = repo.check_commits(&queries)?;
    let mut checks: HashMap<(usize, usize), Vec<CommitCheck>> = HashMap::new();
    for (((pi, hi, task_id), (sha, _)), answer) in
        query_owner.into_iter().zip(&queries).zip(answers)
    {
        checks.entry((pi, hi)).or_default().push(CommitCheck {
            task_id,
            recorded: sha.clone(),
            state: answer.state,
            full: answer.full,
            rewritten: answer.rewritten,
        });
    }

    // Newer commits, one walk per branch.
    let mut newer_index: Vec<(usize, usize)> = Vec::new();
    let mut excludes: Vec<Vec<String>> = Vec::new();
    let mut newer_inputs: Vec<(CommitId, Timestamp)> = Vec::new();
    for (pi, (_, pending)) in pending_by_worktree.iter().enumerate() {
        for (hi, p) in pending.iter().enumerate() {
            let (Some(tip), Some((written, _))) = (p.tip, p.written) else {
                continue;
            };
            let own: Vec<String> = checks
                .get(&(pi, hi))
                .into_iter()
                .flatten()
                .filter_map(|c| c.full.clone())
                .collect();
            newer_index.push((pi, hi));
            excludes.push(own);
            newer_inputs.push((tip, written));
        }
    }
    let newer_queries: Vec<NewerQuery<'_>> = newer_inputs
        .iter()
        .zip(&excludes)
        .map(|((tip, since), exclude)| NewerQuery {
            tip: *tip,
            since: *since,
            exclude,
        })
        .collect();
    let newer_answers = repo.newer_commits(&newer_queries)?;
    let mut newer: HashMap<(usize, usize), NewerCommits> =
        newer_index.into_iter().zip(newer_answers).collect();

    let mut out = Vec::new();
    for (pi, (wi, pending)) in pending_by_worktree.into_iter().enumerate() {
        let wt = &worktrees[wi];
        let handovers = pending
            .into_iter()
            .enumerate()
            .map(|(hi, p)| {
                let commits = checks.remove(&(pi, hi)).unwrap_or_default();
                let newer = newer.remove(&(pi, hi)).unwrap_or_default();
                finish(p, wt, worktrees, settings, now, commits, newer)
            })
            .collect();
        out.push(WorktreeHandovers {
            worktree: wt.clone(),
            current: current.is_some_and(|c| c == wt.path),
            handovers,
        });
    }
    Ok(out)
}

fn read_found(repo: &Repo, wt: &Worktree, found: &Found) -> Pending {
    let (kind, key, root, file) = match found {
        Found::Stored { commit, record } => return read_stored(repo, commit, record),
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
        error: None,
        assessment: None,
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
                handover.error = Some(e.to_string());
                None
            }
        },
        Kind::Session | Kind::Legacy => match State::read(&file) {
            Ok(state) => Some(Parsed::State(Box::new(state.into_view()))),
            Err(e) => {
                handover.error = Some(e.to_string());
                None
            }
        },
    };
    let (tip, written) = match &parsed {
        Some(Parsed::State(state)) => {
            let tip = state
                .workspace
                .branch
                .as_deref()
                .and_then(|b| repo.branch_tip(b))
                .or(wt.head);
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
                .and_then(|b| repo.branch_tip(b))
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
        written,
    }
}

fn read_note(path: &Path) -> Result<Note> {
    let bytes = crate::fsio::read_limited(path)?;
    Ok(Note::parse(&String::from_utf8_lossy(&bytes)))
}

fn relative(base: &Path, path: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .display()
        .to_string()
}

fn finish(
    p: Pending,
    wt: &Worktree,
    worktrees: &[Worktree],
    settings: &Settings,
    now: Timestamp,
    commits: Vec<CommitCheck>,
    newer: NewerCommits,
) -> Handover {
    let Pending {
        mut handover,
        parsed,
        written,
        ..
    } = p;
    let Some(parsed) = parsed else {
        return handover;
    };
    let age = written.map(|(t, _)| verdict::age(t, now));
    let written_at = written.map(|(t, _)| t);
    let written_from_mtime = written.is_some_and(|(_, m)| m);
    // A session from the notes store has no worktree of its own: it is judged against
    // its own branch (by age and newer commits only).
    let stored_branch = match (&handover.stored, &parsed) {
        (Some(_), Parsed::State(state)) => state.workspace.branch.clone(),
        _ => None,
    };
    let worktree_branch = if handover.stored.is_some() {
        stored_branch.as_deref()
    } else {
        wt.branch.as_deref().filter(|_| !wt.detached)
    };
    // Freshness is judged the same way for a session and a note.
    let judge = |branch: Option<&str>| {
        let matches = verdict::branches_match(branch, worktree_branch);
        let freshness = age.map(|a| {
            verdict::freshness(a, settings.fresh_for, branch, worktree_branch, newer.count)
        });
        (matches, freshness)
    };
    let assessment = match parsed {
        Parsed::State(state) => {
            let branch = state.workspace.branch.clone();
            let (branch_matches, freshness) = judge(branch.as_deref());
            let presence = state
                .workspace
                .root
                .as_deref()
                .map_or(Presence::Present, |root| presence_of(root, worktrees));
            let stale_tasks = state
                .tasks
                .iter()
                .filter(|t| verdict::is_stale_task(t, now, settings.stale_after))
                .map(|t| StaleTask {
                    id: t.id.clone(),
                    untouched_for: verdict::age(
                        t.last_touched.as_ref().expect("stale has a time").at,
                        now,
                    ),
                })
                .collect();
            let next = state.next_task().map(|t| TaskBrief {
                id: t.id.clone(),
                description: t.description.clone(),
                status: t.status.as_str().to_owned(),
            });
            Assessment {
                status: Some(state.status.clone()),
                session_id: state.session_id.clone(),
                team: handover.kind == Kind::Session && !state.is_branch_session(),
                branch,
                written_at,
                written_from_mtime,
                age,
                freshness,
                branch_matches,
                newer,
                workspace_root: state.workspace.root.clone(),
                presence,
                done: state.done_count(),
                total: state.tasks.len(),
                next,
                commits,
                stale_tasks,
                note: None,
                warnings: state.warnings.clone(),
            }
        }
        Parsed::Note(note) => {
            let branch = note.branch.clone();
            let (branch_matches, freshness) = judge(branch.as_deref());
            let mut missing_header = Vec::new();
            if note.updated_raw.is_none() {
                missing_header.push("Last updated");
            }
            if note.branch.is_none() {
                missing_header.push("Branch");
            }
            let brief = NoteBrief {
                objective: note
                    .section(Known::Objective)
                    .map(crate::continue_here::Section::text)
                    .filter(|s| !s.is_empty()),
                in_progress: note.in_progress_items(),
                next_steps: note.next_steps(),
                user_items: note.user_items(),
                missing_sections: note
                    .missing_sections()
                    .into_iter()
                    .map(Known::title)
                    .collect(),
                missing_header,
            };
            let mut warnings = Vec::new();
            if let (Some(raw), None) = (&note.updated_raw, note.updated_at) {
                warnings.push(crate::error::msg(
                    "warn.not_a_timestamp",
                    &[("file", &handover.file.display()), ("raw", raw)],
                ));
            }
            Assessment {
                status: None,
                session_id: None,
                team: false,
                branch,
                written_at,
                written_from_mtime,
                age,
                freshness,
                branch_matches,
                newer,
                workspace_root: None,
                presence: Presence::Present,
                done: 0,
                total: 0,
                next: None,
                commits,
                stale_tasks: Vec::new(),
                note: Some(brief),
                warnings,
            }
        }
    };
    handover.assessment = Some(assessment);
    handover
}

/// The presence verdict for a recorded `workspace.root`.
fn presence_of(root: &str, worktrees: &[Worktree]) -> Presence {
    let root_path = crate::git::normalize(Path::new(root));
    let registered = worktrees
        .iter()
        .find(|w| w.path == root_path)
        .map(|w| RegisteredWorktree {
            exists: w.exists,
            locked: w.locked.is_some(),
            prunable: w.prunable,
        });
    verdict::presence(registered, root_path.is_dir())
}
