//! Turning a pending handover and git's answers into its assessment.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jiff::Timestamp;

use super::{Parsed, Pending};
use crate::facts::assessed::{
    Assessment, Handover, Kind, NoteBrief, Of, Reading, SessionFacts, StaleTask, TaskBrief,
};
use crate::git::{CommitFound, NewerCommits, Worktree};
use crate::model::note::{Known, Note};
use crate::model::state::View;
use crate::model::verdict::{self, CommitCheck, Presence, RegisteredWorktree};
use crate::support::config::Settings;
use crate::support::error::Msg;

/// Recorded worktree roots resolved once per run: a worktree's sessions all name it,
/// and resolving a path reads every link on its way. What the verdicts need of a root
/// is kept with it, so that a thousand sessions do not each search the worktree list.
#[derive(Default)]
pub(super) struct Roots(std::cell::RefCell<HashMap<String, std::rc::Rc<Root>>>);

/// A recorded root, resolved.
pub(super) struct Root {
    /// Made canonical.
    path: PathBuf,
    /// The registered worktree at that path, if any.
    registered: Option<RegisteredWorktree>,
    /// Some worktree at that path exists.
    existing_worktree: bool,
}

impl Roots {
    /// `root` made canonical and looked up among `worktrees`.
    fn resolve(&self, root: &str, worktrees: &[Worktree]) -> std::rc::Rc<Root> {
        if let Some(known) = self.0.borrow().get(root) {
            return std::rc::Rc::clone(known);
        }
        let path = crate::git::normalize(Path::new(root));
        // The recorded path with its links resolved (worktree paths are canonical when
        // they exist): a link to elsewhere is not the worktree it names.
        let real = std::fs::canonicalize(&path).ok();
        let registered = worktrees.iter().find(|w| {
            if !w.exists {
                return w.path == path;
            }
            real.as_deref() == Some(w.path.as_path()) && is_this_worktree(w)
        });
        let resolved = std::rc::Rc::new(Root {
            registered: registered.map(|w| RegisteredWorktree {
                exists: w.exists,
                locked: w.locked.is_some(),
                prunable: w.prunable,
            }),
            existing_worktree: worktrees.iter().any(|w| w.path == path && w.exists),
            path,
        });
        self.0
            .borrow_mut()
            .insert(root.to_owned(), std::rc::Rc::clone(&resolved));
        resolved
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn judge(
    p: Pending,
    wt: &Worktree,
    worktrees: &[Worktree],
    roots: &Roots,
    settings: &Settings,
    now: Timestamp,
    commits: Vec<CommitCheck>,
    newer: NewerCommits,
) -> Handover {
    let Pending {
        mut handover,
        parsed,
        written,
        tip_ref,
        branch_gone,
        ..
    } = p;
    let Some(parsed) = parsed else {
        return handover;
    };
    let age = written.map(|(t, _)| verdict::age(t, now));
    let written_at = written.map(|(t, _)| t);
    let written_from_mtime = written.is_some_and(|(_, m)| m);
    let ahead = written.and_then(|(t, _)| verdict::ahead(t, now));
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
        // A detached worktree keeps one session across its commits (SPEC section 1):
        // a `detached-<sha7>` session in a detached worktree is on its "branch".
        let detached_here = wt.detached
            && handover.stored.is_none()
            && branch.is_some_and(|b| b.starts_with("detached-"));
        let worktree_branch = if detached_here {
            branch
        } else {
            worktree_branch
        };
        let matches = verdict::branches_match(branch, worktree_branch);
        let freshness = age.map(|a| {
            if ahead.is_some() && newer.count == 0 {
                verdict::Freshness::Future
            } else {
                verdict::freshness(a, settings.fresh_for, branch, worktree_branch, newer.count)
            }
        });
        (matches, freshness)
    };
    // What differs between a session and a note; the rest is shared below.
    let (branch, presence, checked_against, renamed_to, warnings, of) = match parsed {
        Parsed::State(state) => {
            handover.view = Some(Arc::clone(&state));
            // Gone, and every recorded commit is on this worktree's branch: renamed.
            let renamed_to = wt
                .branch
                .clone()
                .filter(|_| branch_gone && !wt.detached && handover.stored.is_none())
                .filter(|_| {
                    !commits.is_empty()
                        && commits.iter().all(|c| c.state == verdict::CommitState::Ok)
                });
            let branch = state.workspace.branch.clone();
            let presence = state
                .workspace
                .root
                .as_deref()
                .map_or(Presence::Present, |root| {
                    presence_of(root, worktrees, roots)
                });
            // A session recorded for another existing worktree is that worktree's: here
            // it is a copy (committed, then checked out or merged).
            if handover.stored.is_none()
                && let Some(root) = state.workspace.root.as_deref()
            {
                let root = roots.resolve(root, worktrees);
                if root.existing_worktree && root.path != wt.path {
                    handover.copy_of = Some(root.path.clone());
                }
            }
            (
                branch,
                presence,
                tip_ref.clone(),
                renamed_to,
                state.warnings.clone(),
                Of::Session(session_facts(&state, handover.kind, settings, now)),
            )
        }
        Parsed::Note(note) => {
            let (brief, warnings) = note_facts(&note, &handover.file);
            (
                note.branch.clone(),
                Presence::Present,
                None,
                None,
                warnings,
                Of::Note(brief),
            )
        }
    };
    let (branch_matches, freshness) = judge(branch.as_deref());
    let assessment = Assessment {
        branch,
        written_at,
        written_from_mtime,
        age,
        ahead,
        freshness,
        branch_matches,
        newer,
        presence,
        commits,
        checked_against,
        renamed_to,
        history_unreadable: false,
        history_cut_short: false,
        history_shallow: false,
        warnings,
        of,
    };
    handover.reading = Reading::Read(Box::new(assessment));
    handover
}

/// The presence verdict for a recorded `workspace.root`: present means a registered
/// worktree of this repository (in `git worktree list`, the same path after resolving
/// links, its `.git` leading back here). A directory that is none of them (another
/// repository, a link to elsewhere) is an orphan, never present.
pub(super) fn presence_of(root: &str, worktrees: &[Worktree], roots: &Roots) -> Presence {
    let root = roots.resolve(root, worktrees);
    verdict::presence(root.registered, false)
}

/// Whether the directory of `w` is still that worktree: its `.git` (a directory, or a
/// file naming one) leads to the worktree's own git directory. A worktree whose git
/// directory lives elsewhere (`--git-dir`) has no `.git`, and is taken as it is.
fn is_this_worktree(w: &Worktree) -> bool {
    if w.is_bare {
        return true;
    }
    let dot_git = w.path.join(".git");
    let target = match std::fs::symlink_metadata(&dot_git) {
        Err(_) => return true,
        Ok(m) if m.is_file() => {
            let Ok(text) = std::fs::read_to_string(&dot_git) else {
                return false;
            };
            let Some(dir) = text.trim_end().strip_prefix("gitdir:") else {
                return false;
            };
            w.path.join(dir.trim())
        }
        Ok(_) => dot_git,
    };
    match (
        std::fs::canonicalize(target),
        std::fs::canonicalize(&w.git_dir),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The verdict on a recorded commit from what the history found.
pub(super) fn commit_state(found: CommitFound) -> verdict::CommitState {
    match found {
        CommitFound::Reachable => verdict::CommitState::Ok,
        CommitFound::Unreachable => verdict::CommitState::Unreachable,
        CommitFound::Missing => verdict::CommitState::Missing,
        CommitFound::Ambiguous => verdict::CommitState::Ambiguous,
        CommitFound::Unknown => verdict::CommitState::Unchecked,
    }
}

/// What a session's reading adds to its assessment: its progress and its stale tasks.
fn session_facts(state: &View, kind: Kind, settings: &Settings, now: Timestamp) -> SessionFacts {
    let stale_tasks = state
        .tasks
        .iter()
        .filter(|t| verdict::is_stale_task(t, now, settings.stale_after))
        .map(|t| StaleTask {
            id: t.id.clone(),
            untouched_for: verdict::age(t.last_touched.as_ref().expect("stale has a time").at, now),
        })
        .collect();
    let next = state.next_task().map(|t| TaskBrief {
        id: t.id.clone(),
        description: t.description.clone(),
        status: t.status.clone(),
    });
    let claims = state
        .tasks
        .iter()
        .filter(|t| t.status != crate::model::state::TaskStatus::Done)
        .filter_map(|t| {
            t.claim.as_ref().map(|c| crate::facts::assessed::TaskClaim {
                task: t.id.clone(),
                claim: c.clone(),
                now,
            })
        })
        .collect();
    let lost = state
        .tasks
        .iter()
        .filter_map(|t| Some((t.id.clone(), t.lost.clone()?)))
        .collect();
    SessionFacts {
        status: state.status,
        session_id: state.session_id.clone(),
        team: kind == Kind::Session && !state.is_branch_session(),
        workspace_root: state.workspace.root.clone(),
        done: state.done_count(),
        total: state.tasks.len(),
        next,
        stale_tasks,
        claims,
        lost,
        linkage: Box::new(crate::facts::linkage::Linkage {
            resume: state
                .extras
                .agent_session
                .as_ref()
                .and_then(|a| a.resume_command(state.workspace.root.as_deref())),
            agent_session: state.extras.agent_session.clone(),
            pickup: None,
        }),
    }
}

/// What a note's reading adds to its assessment (its brief), and the warnings it earns.
fn note_facts(note: &Note, file: &Path) -> (NoteBrief, Vec<Msg>) {
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
            .map(crate::model::note::Section::text)
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
        warnings.push(crate::support::error::msg(
            crate::k!("warn.not_a_timestamp"),
            &[("file", &file.display()), ("raw", raw)],
        ));
    }
    (brief, warnings)
}
