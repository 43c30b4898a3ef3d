//! The write and notes-store commands' JSON documents.

use serde::Serialize;

#[derive(Serialize)]
pub struct SaveV1 {
    pub schema: &'static str,
    pub key: String,
    pub path: String,
    pub created: bool,
    pub changed: bool,
    pub status: String,
    /// The commit whose note in the notes store got the record (store enabled only).
    pub noted: Option<String>,
    /// The write went into a finished session (of this branch, finished within
    /// `handover.freshFor`, or the team's), reopening it.
    pub reopened: bool,
    /// A new session was started although this branch has a finished one, finished
    /// longer than `handover.freshFor` ago: that one's key (null otherwise).
    pub passed_over: Option<String>,
    /// Keys and task statuses of the input the format does not know (kept as written).
    pub warnings: Vec<InputWarningV1>,
}

/// A name of the input the format does not know, with the nearest one it knows.
#[derive(Serialize)]
pub struct InputWarningV1 {
    /// `unknown_key` or `unknown_status`.
    pub kind: &'static str,
    /// Where, in the input: `active_tasks[0].descripton`, `active_tasks[0].status`.
    pub field: String,
    /// The key or the status as written.
    pub found: String,
    pub nearest: &'static str,
    /// The warning in English, as stderr says it.
    pub message: String,
}

/// The warning about one unknown name, in `lang`.
pub fn unknown_message(
    u: &crate::model::state::known::Unknown,
    lang: crate::support::i18n::Lang,
) -> String {
    let key = if u.status {
        crate::k!("save.unknown_status")
    } else {
        crate::k!("save.unknown_key")
    };
    crate::support::i18n::fill(
        lang,
        key,
        &[
            ("field", &crate::support::text::escape(&u.field)),
            (
                "found",
                &crate::support::text::escape(&format!("{:?}", u.found)),
            ),
            ("nearest", &u.nearest),
        ],
    )
}

pub fn save(w: &crate::facts::written::Saved) -> SaveV1 {
    SaveV1 {
        schema: "git-handover/save/1",
        key: w.key.clone(),
        path: w.dir.display().to_string(),
        created: w.created,
        changed: w.changed,
        status: w.state.status.as_str().to_owned(),
        noted: w.noted.map(|c| c.to_string()),
        warnings: w
            .unknown
            .iter()
            .map(|u| InputWarningV1 {
                kind: if u.status {
                    "unknown_status"
                } else {
                    "unknown_key"
                },
                field: u.field.clone(),
                found: u.found.clone(),
                nearest: u.nearest,
                message: unknown_message(u, crate::support::i18n::Lang::En),
            })
            .collect(),
        reopened: w.reopened,
        passed_over: w.passed_over.clone(),
    }
}

#[derive(Serialize)]
pub struct TaskEditV1 {
    pub schema: &'static str,
    pub key: String,
    pub task: String,
    pub task_status: Option<String>,
    pub session_status: String,
    pub changed: bool,
    /// The commit whose note in the notes store got the record (store enabled only).
    pub noted: Option<String>,
    /// `task add` made the session.
    pub created: bool,
    /// See [`SaveV1::reopened`].
    pub reopened: bool,
    /// See [`SaveV1::passed_over`].
    pub passed_over: Option<String>,
    /// `task done`: the commit recorded, resolved in the worktree the command ran in.
    pub commit: Option<CommitV1>,
    /// The claims of the session's tasks lost to another clone's (SPEC section 10),
    /// told to their holders; absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lost_claims: Vec<super::lost::TaskLostClaimV1>,
}

#[derive(Serialize)]
pub struct CommitV1 {
    pub sha: String,
    pub short: String,
    pub subject: String,
}

pub fn task(r: &crate::commands::task::Report) -> TaskEditV1 {
    TaskEditV1 {
        schema: "git-handover/task/1",
        key: r.written.key.clone(),
        task: r.task.clone(),
        task_status: r
            .written
            .state
            .tasks
            .iter()
            .find(|t| t.id == r.task)
            .map(|t| t.status.as_str().to_owned()),
        session_status: r.written.state.status.as_str().to_owned(),
        changed: r.written.changed,
        noted: r.written.noted.map(|c| c.to_string()),
        created: r.written.created,
        reopened: r.written.reopened,
        passed_over: r.written.passed_over.clone(),
        commit: r.commit.as_ref().map(|(id, subject)| CommitV1 {
            sha: id.to_string(),
            short: id.short(),
            subject: subject.clone(),
        }),
        lost_claims: super::lost::lost_claims_v1(&r.written.state),
    }
}

#[derive(Serialize)]
pub struct RenderV1 {
    pub schema: &'static str,
    pub key: String,
    pub path: String,
    pub changed: bool,
}

pub fn render(r: &crate::commands::render::Report) -> RenderV1 {
    RenderV1 {
        schema: "git-handover/render/1",
        key: r.session.key.clone(),
        path: r.markdown.display().to_string(),
        changed: r.changed,
    }
}

#[derive(Serialize)]
pub struct HereV1 {
    pub schema: &'static str,
    pub path: String,
    pub replaced: bool,
}

pub fn here(r: &crate::commands::here::Report) -> HereV1 {
    HereV1 {
        schema: "git-handover/here/1",
        path: r.path.display().to_string(),
        replaced: r.replaced,
    }
}

#[derive(Serialize)]
pub struct MigrateV1 {
    pub schema: &'static str,
    pub from: String,
    pub key: String,
    pub path: String,
}

pub fn migrate(r: &crate::commands::migrate::Report) -> MigrateV1 {
    MigrateV1 {
        schema: "git-handover/migrate/1",
        from: r.from.display().to_string(),
        key: r.session.key.clone(),
        path: r.session.dir().display().to_string(),
    }
}

#[derive(Serialize)]
pub struct CleanV1 {
    pub schema: &'static str,
    pub dry_run: bool,
    pub removed: Vec<RemovedV1>,
    pub skipped: Vec<SkippedV1>,
}

#[derive(Serialize)]
pub struct RemovedV1 {
    pub path: String,
    pub key: String,
    pub kept_other_files: bool,
    /// What was left in the directory, not written by git-handover.
    pub left: Vec<String>,
}

#[derive(Serialize)]
pub struct SkippedV1 {
    pub path: String,
    pub reason: String,
}

pub fn clean(r: &crate::commands::clean::Report) -> CleanV1 {
    CleanV1 {
        schema: "git-handover/clean/1",
        dry_run: r.dry_run,
        removed: r
            .removed
            .iter()
            .map(|x| RemovedV1 {
                path: x.path.display().to_string(),
                key: x.key.clone(),
                kept_other_files: x.kept_other_files,
                left: x.left.clone(),
            })
            .collect(),
        skipped: r
            .skipped
            .iter()
            .map(|(p, why)| SkippedV1 {
                path: p.display().to_string(),
                reason: why.to_string(),
            })
            .collect(),
    }
}

#[derive(Serialize)]
pub struct HookV1 {
    pub schema: &'static str,
    pub agent: &'static str,
    pub settings: String,
    pub changed: bool,
    pub instructions: Option<InstructionsV1>,
    /// What the user must still do for the hook to run (Codex: trust it), if anything.
    pub next_step: Option<&'static str>,
    /// Codex run in a linked worktree: the main worktree, whose `.codex/hooks.json`
    /// got the hook (Codex reads project hooks only there); else null.
    pub main_worktree: Option<String>,
}

#[derive(Serialize)]
pub struct InstructionsV1 {
    pub path: String,
    pub changed: bool,
}

pub fn hook(r: &crate::commands::agent_hook::InstallReport) -> HookV1 {
    HookV1 {
        schema: "git-handover/hook/1",
        agent: match r.agent {
            crate::cli::HookAgent::Claude => "claude",
            crate::cli::HookAgent::Codex => "codex",
            crate::cli::HookAgent::Gemini => "gemini",
            crate::cli::HookAgent::Copilot => "copilot",
        },
        settings: r.settings.display().to_string(),
        changed: r.changed,
        main_worktree: r.main_worktree.as_ref().map(|m| m.display().to_string()),
        next_step: r
            .next_step()
            .map(|key| crate::support::i18n::text(crate::support::i18n::Lang::En, key)),
        instructions: r.instructions.as_ref().map(|(p, changed)| InstructionsV1 {
            path: p.display().to_string(),
            changed: *changed,
        }),
    }
}

#[derive(Serialize)]
pub struct LogV1 {
    pub schema: &'static str,
    pub notes_ref: String,
    pub records: Vec<RecordV1>,
    pub skipped: Vec<String>,
}

#[derive(Serialize)]
pub struct RecordV1 {
    /// The commit whose note holds the record.
    pub commit: String,
    pub key: String,
    pub kind: &'static str,
    /// The session and its write count (null in records written before ids).
    pub session_id: Option<String>,
    pub seq: Option<u64>,
    /// `session_hash` of the state this write replaced (null for a new session).
    pub parent: Option<String>,
    /// The sides a settle set aside (empty for every other write).
    pub set_aside: Vec<String>,
    pub worktree: Option<String>,
    pub branch: Option<String>,
    /// UTC with the sub-second digits of the write, as the record holds it.
    pub saved_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<crate::model::record::StateText>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

/// One record of `log`.
pub fn record_v1(s: &crate::commands::log::StoredRecord) -> RecordV1 {
    RecordV1 {
        commit: s.commit.to_string(),
        key: s.record.key.clone(),
        kind: s.record.kind.as_str(),
        session_id: s.record.session_id.clone(),
        seq: s.record.seq,
        parent: s.record.parent.clone(),
        set_aside: s.record.set_aside.clone(),
        worktree: s.record.worktree.clone(),
        branch: s.record.branch.clone(),
        saved_at: s.record.saved_at.to_string(),
        state: s.record.state.clone(),
        text: s.record.text.clone(),
    }
}

pub fn log(r: &crate::commands::log::Report) -> LogV1 {
    LogV1 {
        schema: "git-handover/log/1",
        notes_ref: r.notes_ref.clone(),
        records: r.records.iter().map(record_v1).collect(),
        skipped: r.skipped.clone(),
    }
}

#[derive(Serialize)]
pub struct SyncV1 {
    pub schema: &'static str,
    pub remote: String,
    pub notes_ref: String,
    pub tracking_ref: String,
    pub remote_had_notes: bool,
    /// One per round: `none`, `up-to-date`, `fast-forward` or `merged`.
    pub merges: Vec<&'static str>,
    pub pushed: bool,
    pub rounds: usize,
    pub local: Option<String>,
    pub rewrite_ref_added: Option<bool>,
    /// With `--record`: the keys of the sessions recorded (null otherwise).
    pub recorded: Option<Vec<String>>,
    pub claims: super::settled::SettledV1,
}

pub fn sync(r: &crate::commands::sync::Report) -> SyncV1 {
    use crate::git::NotesMerge;
    SyncV1 {
        schema: "git-handover/sync/1",
        remote: r.remote.clone(),
        notes_ref: r.notes_ref.clone(),
        tracking_ref: r.tracking.clone(),
        remote_had_notes: r.remote_had_notes,
        merges: r
            .merges
            .iter()
            .map(|m| match m {
                NotesMerge::NoOther => "none",
                NotesMerge::UpToDate => "up-to-date",
                NotesMerge::FastForward => "fast-forward",
                NotesMerge::Merged { .. } => "merged",
            })
            .collect(),
        pushed: r.pushed,
        rounds: r.rounds,
        local: r.local.clone(),
        rewrite_ref_added: r.rewrite_ref,
        recorded: r.recorded.as_ref().map(|rec| rec.keys.clone()),
        claims: super::settled::settled(&r.claims),
    }
}

#[derive(Serialize)]
pub struct TasksV1 {
    pub schema: &'static str,
    pub key: String,
    pub path: String,
    pub session_status: String,
    pub tasks: Vec<TaskV1>,
}

#[derive(Serialize)]
pub struct TaskShowV1 {
    pub schema: &'static str,
    pub key: String,
    pub path: String,
    pub task: TaskV1,
}

#[derive(Serialize)]
pub struct TaskV1 {
    pub id: String,
    pub status: String,
    pub description: String,
    pub next_action: Option<String>,
    pub file_paths: Vec<String>,
    pub blockers: Vec<String>,
    pub commit_sha: Option<String>,
    pub last_touched: Option<String>,
    /// What was tried and why it failed: `approach → result: reason (learnings)`.
    pub tried: Vec<String>,
    /// The task's claim (SPEC section 10); absent when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimV1>,
    /// A claim of the task lost to another clone's, until the task is claimed again;
    /// absent when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lost_claim: Option<super::lost::LostClaimV1>,
}

pub(super) fn task_v1(state: &crate::model::state::State, i: usize) -> TaskV1 {
    let t = &state.tasks[i];
    TaskV1 {
        id: t.id.clone(),
        status: t.status.as_str().to_owned(),
        description: t.description.clone(),
        next_action: t.next_action.clone(),
        file_paths: t.file_paths.clone(),
        blockers: t.blockers.clone(),
        commit_sha: t.commit_sha.clone(),
        last_touched: t.last_touched.as_ref().map(|s| s.raw.clone()),
        tried: state
            .extras
            .tried(i)
            .iter()
            .map(|a| a.line(str::to_owned))
            .collect(),
        claim: t.claim.as_ref().map(claim_v1),
        lost_claim: t.lost.as_ref().map(super::lost::lost_claim_v1),
    }
}

pub fn task_list(r: &crate::commands::task::Listing) -> String {
    let path = r.path.display().to_string();
    match r
        .show
        .as_ref()
        .and_then(|id| r.state.tasks.iter().position(|t| &t.id == id))
    {
        Some(i) => super::to_string(&TaskShowV1 {
            schema: "git-handover/task-show/1",
            key: r.key.clone(),
            path,
            task: task_v1(&r.state, i),
        }),
        None => super::to_string(&TasksV1 {
            schema: "git-handover/tasks/1",
            key: r.key.clone(),
            path,
            session_status: r.state.status.as_str().to_owned(),
            tasks: (0..r.state.tasks.len())
                .map(|i| task_v1(&r.state, i))
                .collect(),
        }),
    }
}

/// A task's claim (SPEC section 10).
#[derive(Serialize)]
pub struct ClaimV1 {
    pub holder: String,
    /// RFC 3339, UTC.
    pub since: String,
    pub expires: String,
    pub confirmed: bool,
}

pub fn claim_v1(c: &crate::model::claim::Claim) -> ClaimV1 {
    ClaimV1 {
        holder: c.holder.clone(),
        since: crate::model::claim::format_utc(c.since),
        expires: crate::model::claim::format_utc(c.expires),
        confirmed: c.confirmed,
    }
}
