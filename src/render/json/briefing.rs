//! `continue --json` (`git-handover/continue/1`).

use serde::Serialize;

use super::{CommitLineV1, HandoverV1, handover};

#[derive(Serialize)]
pub struct ContinueV1 {
    pub schema: &'static str,
    /// `briefing`, `all_complete`, `nothing`, `choose` or `diverged`
    pub outcome: &'static str,
    pub announcements: Vec<String>,
    pub handover: Option<ResumedV1>,
    pub recent_commits: Vec<CommitLineV1>,
    pub open_tasks: Vec<OpenTaskV1>,
    /// Ids of the unfinished tasks that are not open (pending and the like).
    pub other_tasks: Vec<String>,
    /// Those tasks whole, in order.
    pub pending_tasks: Vec<OpenTaskV1>,
    pub decisions: Vec<DecisionV1>,
    pub known_issues: Vec<IssueV1>,
    pub observations: Vec<ObservationV1>,
    pub session_notes: Vec<SessionNoteV1>,
    pub note: Option<NoteBodyV1>,
    /// `ask_approval` or `start_now`, for a briefing
    pub proceed: Option<&'static str>,
    /// For a briefing on a session with unfinished tasks: the caller's name for claims
    /// and the command that claims its next task (SPEC section 10).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<ClaimCommandV1>,
    pub candidates: Vec<CandidateV1>,
    /// For `diverged`: every side, newest first (`continue --take HASH` picks one).
    pub sides: Vec<super::SideV1>,
    pub effects: Vec<EffectV1>,
    pub skipped: Vec<String>,
}

#[derive(Serialize)]
pub struct ClaimCommandV1 {
    pub holder: String,
    pub command: Vec<String>,
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
    /// What was tried and why it failed: `approach → result: reason (learnings)`.
    pub tried: Vec<String>,
    /// The task's claim, if any (another holder's, or the caller's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<super::ClaimV1>,
}

#[derive(Serialize)]
pub struct DecisionV1 {
    pub decision: String,
    pub rationale: Option<String>,
}

#[derive(Serialize)]
pub struct IssueV1 {
    pub severity: Option<String>,
    pub description: String,
}

#[derive(Serialize)]
pub struct ObservationV1 {
    pub phase: String,
    pub criteria_id: String,
    pub observation: String,
    pub recommendation: Option<String>,
}

#[derive(Serialize)]
pub struct SessionNoteV1 {
    pub category: String,
    pub content: String,
    pub phase: Option<String>,
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

pub fn continue_(r: &crate::commands::r#continue::Report) -> ContinueV1 {
    use crate::commands::r#continue::Outcome;
    let mut v = ContinueV1 {
        schema: "git-handover/continue/1",
        outcome: "nothing",
        announcements: r.announcements.iter().map(ToString::to_string).collect(),
        handover: None,
        recent_commits: Vec::new(),
        open_tasks: Vec::new(),
        other_tasks: Vec::new(),
        pending_tasks: Vec::new(),
        decisions: Vec::new(),
        known_issues: Vec::new(),
        observations: Vec::new(),
        session_notes: Vec::new(),
        note: None,
        proceed: None,
        claim: None,
        candidates: Vec::new(),
        sides: Vec::new(),
        effects: r.effects.iter().map(effect).collect(),
        skipped: r.skipped.iter().map(ToString::to_string).collect(),
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
        Outcome::Diverged { candidate, sides } => {
            v.outcome = "diverged";
            v.handover = Some(resumed(candidate));
            v.sides = sides.iter().map(super::side).collect();
        }
        Outcome::AllComplete(c) => {
            v.outcome = "all_complete";
            v.handover = Some(resumed(c));
        }
        Outcome::Briefing(b) => {
            v.handover = Some(resumed(&b.candidate));
            briefing(&mut v, b);
        }
    }
    v
}

/// One effect of `continue`, as the document says it.
fn effect(e: &crate::commands::r#continue::Effect) -> EffectV1 {
    use crate::commands::r#continue::Effect;
    match e {
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
        Effect::Kept {
            path,
            copy,
            why,
            detail,
        } => EffectV1 {
            kind: "kept",
            path: path.display().to_string(),
            detail: Some(
                [
                    Some(
                        crate::support::i18n::text(crate::support::i18n::Lang::En, why).to_owned(),
                    ),
                    copy.as_ref().map(|c| format!("a copy is in {c}")),
                    (!detail.is_empty()).then(|| detail.clone()),
                ]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join("; "),
            ),
        },
        Effect::Excluded { file, patterns } => EffectV1 {
            kind: "excluded",
            path: file.display().to_string(),
            detail: Some(patterns.join(" ")),
        },
        Effect::Adopted { key, from } => EffectV1 {
            kind: "adopted",
            path: key.clone(),
            detail: Some(format!("a copy of the session in {}", from.display())),
        },
        Effect::Took { key, hash } => EffectV1 {
            kind: "took",
            path: key.clone(),
            detail: Some(format!("side {hash}; the other sides are set aside")),
        },
        Effect::Restored {
            key,
            path,
            commit,
            saved_as,
            other_branch,
        } => EffectV1 {
            kind: "restored",
            path: path.display().to_string(),
            detail: Some({
                let mut d = match saved_as {
                    Some(old) => format!(
                        "{key} from the note on {commit} (saved as {old}, a key another session has here)"
                    ),
                    None => format!("{key} from the note on {commit}"),
                };
                if let Some((branch, here)) = other_branch {
                    let here = here.as_deref().unwrap_or("a detached HEAD");
                    d = format!(
                        "{d}; the session is on branch {branch} and this worktree on {here}: judged against {branch}, switch with `git switch {branch}`"
                    );
                }
                d
            }),
        },
    }
}

/// What a briefing's document holds beyond the handover resumed.
fn briefing(v: &mut ContinueV1, b: &crate::commands::r#continue::Briefing) {
    v.outcome = "briefing";
    v.recent_commits = b
        .recent
        .iter()
        .map(|c| CommitLineV1 {
            sha: c.id.to_string(),
            subject: c.subject.clone(),
        })
        .collect();
    // Sets and an index by id: a state of many tasks made lists' lookups quadratic.
    let stale: std::collections::HashSet<&str> = b
        .candidate
        .handover
        .assessment()
        .and_then(|a| a.session())
        .iter()
        .flat_map(|s| s.stale_tasks.iter().map(|s| s.id.as_str()))
        .collect();
    let mut first_of: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, t) in b.state.iter().flat_map(|s| s.tasks.iter().enumerate()) {
        first_of.entry(t.id.as_str()).or_insert(i);
    }
    let tried = |id: &str| -> Vec<String> {
        b.state
            .as_ref()
            .and_then(|s| {
                let i = *first_of.get(id)?;
                Some(
                    s.extras
                        .tried(i)
                        .iter()
                        .map(|a| a.line(str::to_owned))
                        .collect(),
                )
            })
            .unwrap_or_default()
    };
    let task = |t: &crate::model::state::Task| OpenTaskV1 {
        id: t.id.clone(),
        description: t.description.clone(),
        status: t.status.as_str().to_owned(),
        file_paths: t.file_paths.clone(),
        next_action: t.next_action.clone(),
        blockers: t.blockers.clone(),
        last_touched: t.last_touched.as_ref().map(|s| s.raw.clone()),
        stale: stale.contains(t.id.as_str()),
        tried: tried(&t.id),
        claim: t.claim.as_ref().map(super::claim_v1),
    };
    v.open_tasks = b.open_tasks.iter().map(task).collect();
    if let Some(state) = &b.state {
        let other: std::collections::HashSet<&str> =
            b.other_tasks.iter().map(String::as_str).collect();
        v.pending_tasks = state
            .tasks
            .iter()
            .filter(|t| other.contains(t.id.as_str()))
            .map(task)
            .collect();
        extras(v, &state.extras);
    }
    v.other_tasks.clone_from(&b.other_tasks);
    let session = &b.candidate.handover;
    if matches!(
        session.kind,
        crate::facts::assessed::Kind::Session | crate::facts::assessed::Kind::Legacy
    ) && (!b.open_tasks.is_empty() || !b.other_tasks.is_empty())
    {
        let command = [
            "git",
            "handover",
            "task",
            "next",
            "--claim",
            "--session",
            &session.key,
            "--as",
            &b.holder,
        ];
        v.claim = Some(ClaimCommandV1 {
            holder: b.holder.clone(),
            command: command.iter().map(|s| (*s).to_owned()).collect(),
        });
    }
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

/// The decisions, known issues, observations and notes of the state resumed.
fn extras(v: &mut ContinueV1, x: &crate::model::extras::Extras) {
    v.decisions = x
        .decisions
        .iter()
        .map(|d| DecisionV1 {
            decision: d.decision.clone(),
            rationale: d.rationale.clone(),
        })
        .collect();
    v.known_issues = x
        .known_issues
        .iter()
        .map(|i| IssueV1 {
            severity: i.severity.clone(),
            description: i.description.clone(),
        })
        .collect();
    v.observations = x
        .observations
        .iter()
        .map(|o| ObservationV1 {
            phase: o.phase.clone(),
            criteria_id: o.criteria_id.clone(),
            observation: o.observation.clone(),
            recommendation: o.recommendation.clone(),
        })
        .collect();
    v.session_notes = x
        .session_notes
        .iter()
        .map(|n| SessionNoteV1 {
            category: n.category.clone(),
            content: n.content.clone(),
            phase: n.phase.clone(),
        })
        .collect();
}
