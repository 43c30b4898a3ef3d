//! JSON output: versioned structs, kept apart from internal types so that the schema
//! changes only on purpose. Every document names its schema.

use serde::Serialize;

use crate::assess::{Assessment, Handover};
use crate::commands::status;
use crate::git::Worktree;

pub const STATUS_SCHEMA: &str = "git-handover/status/1";

#[derive(Serialize)]
pub struct StatusV1 {
    pub schema: &'static str,
    pub now: String,
    pub needs_attention: bool,
    pub worktrees: Vec<WorktreeV1>,
    /// Sessions found only in the notes store.
    pub stored: Vec<HandoverV1>,
}

#[derive(Serialize)]
pub struct WorktreeV1 {
    pub path: String,
    pub main: bool,
    pub current: bool,
    pub bare: bool,
    pub exists: bool,
    pub branch: Option<String>,
    pub head: Option<String>,
    pub detached: bool,
    pub locked: bool,
    pub lock_reason: Option<String>,
    pub prunable: bool,
    pub handovers: Vec<HandoverV1>,
}

#[derive(Serialize)]
pub struct HandoverV1 {
    pub kind: &'static str,
    pub key: String,
    pub root: Option<String>,
    pub path: String,
    pub valid: bool,
    pub error: Option<String>,
    pub needs_attention: bool,
    /// Only for a session read from the notes store.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stored: Option<StoredV1>,
    #[serde(flatten)]
    pub details: Option<DetailsV1>,
}

#[derive(Serialize)]
pub struct StoredV1 {
    /// The commit whose note holds the record.
    pub commit: String,
    pub saved_at: String,
    pub worktree: Option<String>,
}

#[derive(Serialize)]
pub struct DetailsV1 {
    pub status: Option<String>,
    pub session_id: Option<String>,
    pub team: bool,
    pub branch: Option<String>,
    pub written_at: Option<String>,
    pub written_from_mtime: bool,
    pub age_seconds: Option<u64>,
    pub freshness: Option<&'static str>,
    pub branch_matches: bool,
    pub newer_commits: NewerV1,
    pub workspace_root: Option<String>,
    pub presence: &'static str,
    /// `null` for a continue-here note, which has no task list.
    pub tasks: Option<TasksV1>,
    pub next_task: Option<TaskV1>,
    pub commits: Vec<CommitV1>,
    pub stale_tasks: Vec<StaleTaskV1>,
    pub note: Option<NoteV1>,
    pub warnings: Vec<String>,
}

#[derive(Serialize)]
pub struct NewerV1 {
    pub count: usize,
    pub newest: Vec<CommitLineV1>,
}

#[derive(Serialize)]
pub struct CommitLineV1 {
    pub sha: String,
    pub subject: String,
}

#[derive(Serialize)]
pub struct TasksV1 {
    pub done: usize,
    pub total: usize,
}

#[derive(Serialize)]
pub struct TaskV1 {
    pub id: String,
    pub status: String,
    pub description: String,
}

#[derive(Serialize)]
pub struct CommitV1 {
    pub task: String,
    pub recorded: String,
    pub state: &'static str,
    pub sha: Option<String>,
    pub rewritten: Option<String>,
}

#[derive(Serialize)]
pub struct StaleTaskV1 {
    pub id: String,
    pub untouched_seconds: u64,
}

#[derive(Serialize)]
pub struct NoteV1 {
    pub objective: Option<String>,
    pub in_progress: Vec<String>,
    pub next_steps: Vec<String>,
    pub user_items: Vec<String>,
    pub missing_sections: Vec<&'static str>,
    pub missing_header: Vec<&'static str>,
}

pub fn status(report: &status::Report) -> StatusV1 {
    StatusV1 {
        schema: STATUS_SCHEMA,
        now: report.now.to_string(),
        needs_attention: report.attention_count() > 0,
        worktrees: report
            .worktrees
            .iter()
            .map(|w| WorktreeV1 {
                handovers: w.handovers.iter().map(handover).collect(),
                current: w.current,
                ..worktree(&w.worktree)
            })
            .collect(),
        stored: report.stored.iter().map(handover).collect(),
    }
}

fn worktree(w: &Worktree) -> WorktreeV1 {
    WorktreeV1 {
        path: w.path.display().to_string(),
        main: w.is_main,
        current: false,
        bare: w.is_bare,
        exists: w.exists,
        branch: w.branch.clone(),
        head: w.head.map(|h| h.to_string()),
        detached: w.detached,
        locked: w.locked.is_some(),
        lock_reason: w.locked.clone(),
        prunable: w.prunable,
        handovers: Vec::new(),
    }
}

fn handover(h: &Handover) -> HandoverV1 {
    HandoverV1 {
        kind: h.kind.as_str(),
        key: h.key.clone(),
        root: h.root.clone(),
        path: h.file.display().to_string(),
        valid: h.error.is_none(),
        error: h.error.clone(),
        needs_attention: h.needs_attention(),
        stored: h.stored.as_ref().map(|s| StoredV1 {
            commit: s.commit.clone(),
            saved_at: s.saved_at.to_string(),
            worktree: s.worktree.clone(),
        }),
        details: h.assessment.as_ref().map(details),
    }
}

fn details(a: &Assessment) -> DetailsV1 {
    DetailsV1 {
        status: a.status.clone(),
        session_id: a.session_id.clone(),
        team: a.team,
        branch: a.branch.clone(),
        written_at: a.written_at.map(|t| t.to_string()),
        written_from_mtime: a.written_from_mtime,
        age_seconds: a.age.map(|d| d.as_secs()),
        freshness: a.freshness.map(crate::verdict::Freshness::as_str),
        branch_matches: a.branch_matches,
        newer_commits: NewerV1 {
            count: a.newer.count,
            newest: a
                .newer
                .newest
                .iter()
                .map(|c| CommitLineV1 {
                    sha: c.id.to_string(),
                    subject: c.subject.clone(),
                })
                .collect(),
        },
        workspace_root: a.workspace_root.clone(),
        presence: a.presence.as_str(),
        tasks: a.status.is_some().then_some(TasksV1 {
            done: a.done,
            total: a.total,
        }),
        next_task: a.next.as_ref().map(|t| TaskV1 {
            id: t.id.clone(),
            status: t.status.clone(),
            description: t.description.clone(),
        }),
        commits: a
            .commits
            .iter()
            .map(|c| CommitV1 {
                task: c.task_id.clone(),
                recorded: c.recorded.clone(),
                state: c.state.as_str(),
                sha: c.full.clone(),
                rewritten: c.rewritten.clone(),
            })
            .collect(),
        stale_tasks: a
            .stale_tasks
            .iter()
            .map(|s| StaleTaskV1 {
                id: s.id.clone(),
                untouched_seconds: s.untouched_for.as_secs(),
            })
            .collect(),
        note: a.note.as_ref().map(|n| NoteV1 {
            objective: n.objective.clone(),
            in_progress: n.in_progress.clone(),
            next_steps: n.next_steps.clone(),
            user_items: n.user_items.clone(),
            missing_sections: n.missing_sections.clone(),
            missing_header: n.missing_header.clone(),
        }),
        warnings: a.warnings.iter().map(ToString::to_string).collect(),
    }
}

/// Pretty JSON and a final newline.
pub fn to_string(v: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(v).expect("output structs serialise");
    s.push('\n');
    s
}

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
}

pub fn save(w: &crate::store::Written) -> SaveV1 {
    SaveV1 {
        schema: "git-handover/save/1",
        key: w.session.key.clone(),
        path: w.session.dir().display().to_string(),
        created: w.created,
        changed: w.changed,
        status: w.state.status.clone(),
        noted: w.noted.map(|c| c.to_string()),
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
}

pub fn task(r: &crate::commands::task::Report) -> TaskEditV1 {
    TaskEditV1 {
        schema: "git-handover/task/1",
        key: r.written.session.key.clone(),
        task: r.task.clone(),
        task_status: r
            .written
            .state
            .tasks
            .iter()
            .find(|t| t.id == r.task)
            .map(|t| t.status.as_str().to_owned()),
        session_status: r.written.state.status.clone(),
        changed: r.written.changed,
        noted: r.written.noted.map(|c| c.to_string()),
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
        path: r
            .session
            .dir()
            .join(crate::store::MARKDOWN_FILE)
            .display()
            .to_string(),
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
            })
            .collect(),
        skipped: r
            .skipped
            .iter()
            .map(|(p, why)| SkippedV1 {
                path: p.display().to_string(),
                reason: why.clone(),
            })
            .collect(),
    }
}

#[derive(Serialize)]
pub struct ContinueV1 {
    pub schema: &'static str,
    /// `briefing`, `all_complete`, `nothing` or `choose`
    pub outcome: &'static str,
    pub announcements: Vec<String>,
    pub handover: Option<ResumedV1>,
    pub recent_commits: Vec<CommitLineV1>,
    pub open_tasks: Vec<OpenTaskV1>,
    pub other_tasks: Vec<String>,
    pub note: Option<NoteBodyV1>,
    /// `ask_approval` or `start_now`, for a briefing
    pub proceed: Option<&'static str>,
    pub candidates: Vec<CandidateV1>,
    pub effects: Vec<EffectV1>,
    pub skipped: Vec<String>,
}

#[derive(Serialize)]
pub struct ResumedV1 {
    pub worktree: String,
    pub handle: String,
    #[serde(flatten)]
    pub handover: HandoverV1,
}

#[derive(Serialize)]
pub struct OpenTaskV1 {
    pub id: String,
    pub description: String,
    pub status: String,
    pub file_paths: Vec<String>,
    pub next_action: Option<String>,
    pub blockers: Vec<String>,
    pub last_touched: Option<String>,
    pub stale: bool,
}

#[derive(Serialize)]
pub struct NoteBodyV1 {
    pub sections: Vec<NoteSectionV1>,
}

#[derive(Serialize)]
pub struct NoteSectionV1 {
    pub title: String,
    pub known: bool,
    pub text: String,
}

#[derive(Serialize)]
pub struct CandidateV1 {
    pub handle: String,
    pub worktree: String,
    #[serde(flatten)]
    pub handover: HandoverV1,
}

#[derive(Serialize)]
pub struct EffectV1 {
    /// `migrated`, `rendered`, `cleaned`, `consumed` or `restored`
    pub kind: &'static str,
    pub path: String,
    pub detail: Option<String>,
}

pub fn continue_(
    r: &crate::commands::r#continue::Report,
    _ctx: &crate::commands::Context,
) -> ContinueV1 {
    use crate::commands::r#continue::{Effect, Outcome};
    let mut v = ContinueV1 {
        schema: "git-handover/continue/1",
        outcome: "nothing",
        announcements: r.announcements.iter().map(ToString::to_string).collect(),
        handover: None,
        recent_commits: Vec::new(),
        open_tasks: Vec::new(),
        other_tasks: Vec::new(),
        note: None,
        proceed: None,
        candidates: Vec::new(),
        effects: r
            .effects
            .iter()
            .map(|e| match e {
                Effect::Migrated { from, key } => EffectV1 {
                    kind: "migrated",
                    path: from.display().to_string(),
                    detail: Some(key.clone()),
                },
                Effect::Rendered { path } => EffectV1 {
                    kind: "rendered",
                    path: path.display().to_string(),
                    detail: None,
                },
                Effect::Cleaned { path } => EffectV1 {
                    kind: "cleaned",
                    path: path.display().to_string(),
                    detail: None,
                },
                Effect::Consumed {
                    path,
                    copy,
                    committed,
                } => EffectV1 {
                    kind: "consumed",
                    path: path.display().to_string(),
                    detail: Some(format!(
                        "copy: {}{}",
                        copy,
                        if *committed { "; committed" } else { "" }
                    )),
                },
                Effect::Restored { key, path, commit } => EffectV1 {
                    kind: "restored",
                    path: path.display().to_string(),
                    detail: Some(format!("{key} from the note on {commit}")),
                },
            })
            .collect(),
        skipped: r.skipped.clone(),
    };
    let resumed = |c: &crate::commands::r#continue::Candidate| ResumedV1 {
        worktree: c.worktree.path.display().to_string(),
        handle: c.handle.clone(),
        handover: handover(&c.handover),
    };
    match &r.outcome {
        Outcome::Nothing => {}
        Outcome::Choose(list) => {
            v.outcome = "choose";
            v.candidates = list
                .iter()
                .map(|c| CandidateV1 {
                    handle: c.handle.clone(),
                    worktree: c.worktree.path.display().to_string(),
                    handover: handover(&c.handover),
                })
                .collect();
        }
        Outcome::AllComplete(c) => {
            v.outcome = "all_complete";
            v.handover = Some(resumed(c));
        }
        Outcome::Briefing(b) => {
            v.outcome = "briefing";
            v.handover = Some(resumed(&b.candidate));
            v.recent_commits = b
                .recent
                .iter()
                .map(|c| CommitLineV1 {
                    sha: c.id.to_string(),
                    subject: c.subject.clone(),
                })
                .collect();
            let stale: Vec<&str> = b
                .candidate
                .handover
                .assessment
                .iter()
                .flat_map(|a| a.stale_tasks.iter().map(|s| s.id.as_str()))
                .collect();
            v.open_tasks = b
                .open_tasks
                .iter()
                .map(|t| OpenTaskV1 {
                    id: t.id.clone(),
                    description: t.description.clone(),
                    status: t.status.as_str().to_owned(),
                    file_paths: t.file_paths.clone(),
                    next_action: t.next_action.clone(),
                    blockers: t.blockers.clone(),
                    last_touched: t.last_touched.as_ref().map(|s| s.raw.clone()),
                    stale: stale.contains(&t.id.as_str()),
                })
                .collect();
            v.other_tasks.clone_from(&b.other_tasks);
            v.note = b.note.as_ref().map(|n| NoteBodyV1 {
                sections: n
                    .sections
                    .iter()
                    .map(|s| NoteSectionV1 {
                        title: s.title.clone(),
                        known: s.known.is_some(),
                        text: s.text(),
                    })
                    .collect(),
            });
            v.proceed = Some(if b.successor {
                "start_now"
            } else {
                "ask_approval"
            });
        }
    }
    v
}

#[derive(Serialize)]
pub struct HookV1 {
    pub schema: &'static str,
    pub settings: String,
    pub changed: bool,
    pub instructions: Option<InstructionsV1>,
}

#[derive(Serialize)]
pub struct InstructionsV1 {
    pub path: String,
    pub changed: bool,
}

pub fn hook(r: &crate::commands::hook::InstallReport) -> HookV1 {
    HookV1 {
        schema: "git-handover/hook/1",
        settings: r.settings.display().to_string(),
        changed: r.changed,
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
    pub worktree: Option<String>,
    pub branch: Option<String>,
    pub saved_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<serde_json::Map<String, serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

pub fn log(r: &crate::commands::log::Report) -> LogV1 {
    LogV1 {
        schema: "git-handover/log/1",
        notes_ref: r.notes_ref.clone(),
        records: r
            .records
            .iter()
            .map(|s| RecordV1 {
                commit: s.commit.clone(),
                key: s.record.key.clone(),
                kind: s.record.kind.as_str(),
                worktree: s.record.worktree.clone(),
                branch: s.record.branch.clone(),
                saved_at: s.record.saved_at.to_string(),
                state: s.record.state.clone(),
                text: s.record.text.clone(),
            })
            .collect(),
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
    }
}
