//! The verdicts of SPEC section 4, as pure functions of what was read from files and
//! from git. The repository side (`git.rs`) supplies the facts; this module decides.

use std::time::Duration;

use jiff::Timestamp;

use crate::model::state::Task;

/// How current a handover is, looked at from a worktree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// Younger than `handover.freshFor` and on the worktree's branch.
    Fresh,
    /// Older, or written on another branch.
    Stale,
    /// The branch has commits newer than the handover that it does not record.
    Superseded,
    /// Dated ahead of this clock by more than [`SKEW`]: a wrong clock or a forged
    /// date; never taken as fresh.
    Future,
}

/// How far ahead of this clock a time may be and still be taken as now (clocks of
/// machines that share a repository differ a little).
pub const SKEW: Duration = Duration::from_secs(5 * 60);

/// How far ahead of `now` `written` lies, when that is more than [`SKEW`].
pub fn ahead(written: Timestamp, now: Timestamp) -> Option<Duration> {
    Duration::try_from(written.duration_since(now))
        .ok()
        .filter(|d| *d > SKEW)
}

impl Freshness {
    pub fn as_str(self) -> &'static str {
        match self {
            Freshness::Fresh => "fresh",
            Freshness::Stale => "stale",
            Freshness::Superseded => "superseded",
            Freshness::Future => "future",
        }
    }
}

/// The age of something written at `written`, seen at `now`; zero for a future time
/// (a clock ahead of this one), so skew never makes a handover look older.
pub fn age(written: Timestamp, now: Timestamp) -> Duration {
    Duration::try_from(now.duration_since(written)).unwrap_or(Duration::ZERO)
}

/// The freshness verdict. A handover with no branch of its own (legacy state, a team
/// session, a note without a `Branch:` header) is taken to belong to the worktree it is
/// in, so only its age and the newer commits count. Superseded wins.
pub fn freshness(
    age: Duration,
    fresh_for: Duration,
    handover_branch: Option<&str>,
    worktree_branch: Option<&str>,
    newer_commits: usize,
) -> Freshness {
    if newer_commits > 0 {
        Freshness::Superseded
    } else if age < fresh_for && branches_match(handover_branch, worktree_branch) {
        Freshness::Fresh
    } else {
        Freshness::Stale
    }
}

/// Whether a handover written on `handover_branch` matches the worktree's branch.
pub fn branches_match(handover_branch: Option<&str>, worktree_branch: Option<&str>) -> bool {
    match handover_branch {
        None => true,
        Some(b) => worktree_branch == Some(b),
    }
}

/// An open task (`in_progress`, `blocked`) untouched for `stale_after` or more.
/// A task without `last_touched` is not called stale: there is nothing to go on.
pub fn is_stale_task(task: &Task, now: Timestamp, stale_after: Duration) -> bool {
    task.status.is_open()
        && task
            .last_touched
            .as_ref()
            .is_some_and(|t| age(t.at, now) >= stale_after)
}

/// What git says of a recorded commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitState {
    /// Reachable from the session's branch (or HEAD).
    Ok,
    /// The object exists but is not in that history.
    Unreachable,
    /// No such object.
    Missing,
    /// An abbreviated sha that matches several objects.
    Ambiguous,
    /// Nothing to check it against: the handover's branch is neither here nor on a
    /// remote, and it has no worktree.
    Unchecked,
}

impl CommitState {
    pub fn as_str(self) -> &'static str {
        match self {
            CommitState::Ok => "ok",
            CommitState::Unreachable => "unreachable",
            CommitState::Missing => "missing",
            CommitState::Ambiguous => "ambiguous",
            CommitState::Unchecked => "unchecked",
        }
    }
}

/// The commit check of one task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitCheck {
    pub task_id: String,
    /// The sha as the handover records it.
    pub recorded: String,
    pub state: CommitState,
    /// The full id, when the sha resolved to one object.
    pub full: Option<String>,
    /// The equivalent commit now on the branch, for an amended or rebased one.
    pub rewritten: Option<String>,
}

impl CommitCheck {
    /// Anything but `ok` needs a look; a rewritten commit too (the record is out of date).
    pub fn needs_attention(&self) -> bool {
        self.state != CommitState::Ok
    }

    /// The commit this check is about: its full id, else the sha as recorded.
    pub fn commit(&self) -> &str {
        self.full.as_deref().unwrap_or(&self.recorded)
    }

    /// The word for what this check found: `rewritten` for a commit rewritten on the
    /// branch (a notice, whatever its state), else the state.
    pub fn verdict(&self) -> &'static str {
        if self.rewritten.is_some() {
            "rewritten"
        } else {
            self.state.as_str()
        }
    }
}

/// The commits needing attention, each once (however many tasks record it) with the
/// ids of the tasks that record it, in the order they first appear: what the long and
/// the short `status` count and list, so that their numbers agree.
pub fn attention_by_commit(commits: &[CommitCheck]) -> Vec<(&CommitCheck, Vec<&str>)> {
    let mut out: Vec<(&CommitCheck, Vec<&str>)> = Vec::new();
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for c in commits.iter().filter(|c| c.needs_attention()) {
        if let Some(&i) = at.get(c.commit()) {
            let tasks = &mut out[i].1;
            if !tasks.contains(&c.task_id.as_str()) {
                tasks.push(&c.task_id);
            }
        } else {
            at.insert(c.commit(), out.len());
            out.push((c, vec![&c.task_id]));
        }
    }
    out
}

/// Whether the worktree a handover belongs to is still there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    Present,
    /// The worktree is gone: its directory no longer exists, or it is prunable.
    Orphan,
    /// A locked worktree whose directory is missing (say, on an unplugged disk).
    Offline,
}

impl Presence {
    pub fn as_str(self) -> &'static str {
        match self {
            Presence::Present => "present",
            Presence::Orphan => "orphan",
            Presence::Offline => "offline",
        }
    }
}

/// What is known of the registered worktree at a handover's `workspace.root`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RegisteredWorktree {
    pub exists: bool,
    pub locked: bool,
    pub prunable: bool,
}

/// The presence verdict for a handover recording `workspace.root`: `registered` is the
/// registered worktree at that path, if any, and `root_exists` whether the directory is
/// there. A locked worktree is never orphaned (git never prunes it).
pub fn presence(registered: Option<RegisteredWorktree>, root_exists: bool) -> Presence {
    match registered {
        Some(w) if w.locked && !w.exists => Presence::Offline,
        Some(w) if w.prunable || !w.exists => Presence::Orphan,
        Some(_) => Presence::Present,
        None if root_exists => Presence::Present,
        None => Presence::Orphan,
    }
}

#[cfg(test)]
mod attention_tests {
    use super::*;

    #[test]
    fn a_commit_two_tasks_record_is_one_row() {
        let check = |task: &str, sha: &str, rewritten: Option<&str>| CommitCheck {
            task_id: task.into(),
            recorded: sha.into(),
            state: CommitState::Unreachable,
            full: Some(format!("{sha}full")),
            rewritten: rewritten.map(Into::into),
        };
        let commits = [
            check("T1", "a", Some("x")),
            check("T2", "a", Some("x")),
            check("T3", "b", Some("y")),
            check("T3", "b", Some("y")),
            CommitCheck {
                state: CommitState::Ok,
                ..check("T4", "c", None)
            },
        ];
        let rows = attention_by_commit(&commits);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].1, ["T1", "T2"]);
        assert_eq!(rows[1].1, ["T3"]);
        assert_eq!(rows[0].0.verdict(), "rewritten");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::state::{Stamp, TaskStatus};

    const H: u64 = 3600;

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    #[test]
    fn fresh_until_exactly_fresh_for() {
        let day = Duration::from_secs(24 * H);
        let just_under = Duration::from_secs(24 * H - 1);
        assert_eq!(
            freshness(just_under, day, Some("main"), Some("main"), 0),
            Freshness::Fresh
        );
        assert_eq!(
            freshness(day, day, Some("main"), Some("main"), 0),
            Freshness::Stale
        );
        assert_eq!(
            freshness(Duration::ZERO, day, Some("main"), Some("feature/x"), 0),
            Freshness::Stale
        );
        assert_eq!(
            freshness(Duration::ZERO, day, Some("main"), None, 0),
            Freshness::Stale
        );
        assert_eq!(
            freshness(Duration::ZERO, day, None, Some("any"), 0),
            Freshness::Fresh
        );
    }

    #[test]
    fn superseded_wins() {
        let day = Duration::from_secs(24 * H);
        assert_eq!(
            freshness(Duration::ZERO, day, Some("main"), Some("main"), 1),
            Freshness::Superseded
        );
        assert_eq!(
            freshness(day * 9, day, Some("a"), Some("b"), 3),
            Freshness::Superseded
        );
    }

    #[test]
    fn age_of_future_times_is_zero() {
        assert_eq!(
            age(ts("2026-11-30T12:00:00Z"), ts("2026-11-30T11:00:00Z")),
            Duration::ZERO
        );
        assert_eq!(
            age(ts("2026-11-30T10:00:00+09:00"), ts("2026-11-30T02:00:00Z")),
            Duration::from_secs(H)
        );
    }

    fn task(status: TaskStatus, touched: Option<&str>) -> Task {
        Task {
            id: "T1".into(),
            description: String::new(),
            status,
            commit_sha: None,
            file_paths: vec![],
            next_action: None,
            blockers: vec![],
            last_touched: touched.map(|t| Stamp {
                at: ts(t),
                raw: t.into(),
            }),
            claim: None,
            lost: None,
        }
    }

    #[test]
    fn stale_task_from_exactly_stale_after() {
        let now = ts("2026-11-30T12:00:00Z");
        let limit = Duration::from_secs(48 * H);
        let exactly = Some("2026-11-28T12:00:00Z");
        let a_second_less = Some("2026-11-28T12:00:01Z");
        assert!(is_stale_task(
            &task(TaskStatus::InProgress, exactly),
            now,
            limit
        ));
        assert!(is_stale_task(
            &task(TaskStatus::Blocked, exactly),
            now,
            limit
        ));
        assert!(!is_stale_task(
            &task(TaskStatus::InProgress, a_second_less),
            now,
            limit
        ));
        assert!(!is_stale_task(&task(TaskStatus::Done, exactly), now, limit));
        assert!(!is_stale_task(
            &task(TaskStatus::Other("pending".into()), exactly),
            now,
            limit
        ));
        assert!(!is_stale_task(
            &task(TaskStatus::InProgress, None),
            now,
            limit
        ));
    }

    #[test]
    fn orphan_versus_offline() {
        let w = |exists, locked, prunable| {
            Some(RegisteredWorktree {
                exists,
                locked,
                prunable,
            })
        };
        assert_eq!(presence(w(true, false, false), true), Presence::Present);
        assert_eq!(presence(w(false, false, true), false), Presence::Orphan);
        assert_eq!(presence(w(false, true, false), false), Presence::Offline);
        assert_eq!(presence(w(true, true, false), true), Presence::Present);
        assert_eq!(presence(None, true), Presence::Present);
        assert_eq!(presence(None, false), Presence::Orphan);
    }
}
