//! `handover.md`: the generated view of a session (SPEC section 2). Byte-stable: the
//! same state renders the same bytes.

use std::fmt::Write as _;

use serde_json::Value;

use crate::model::state::{State, TaskStatus};
use crate::support::i18n::Lang;

struct Words {
    none: &'static str,
    undefined: &'static str,
}

fn words(lang: Lang) -> Words {
    match lang {
        Lang::En => Words {
            none: "none",
            undefined: "undefined",
        },
        Lang::Ja => Words {
            none: "なし",
            undefined: "未定義",
        },
    }
}

/// One line of text: line breaks inside a field would break the list layout.
fn flat(s: &str) -> String {
    s.split(['\r', '\n'])
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// An attempted approach as a `tried:` line: `{approach} → {result}: {reason}
/// ({learnings})`, leaving out what is not there.
fn tried(a: &Value) -> Option<String> {
    let mut line = flat(text(a, "approach")?);
    if let Some(result) = text(a, "result") {
        let _ = write!(line, " → {}", flat(result));
    }
    if let Some(reason) = text(a, "reason") {
        let _ = write!(line, ": {}", flat(reason));
    }
    if let Some(learnings) = text(a, "learnings") {
        let _ = write!(line, " ({})", flat(learnings));
    }
    Some(line)
}

pub fn render(state: &State, lang: Lang) -> String {
    let w = words(lang);
    let doc = state.document();
    let mut out = String::new();
    out.push_str("# Session Handover\n");
    let generated = state
        .generated_at
        .as_ref()
        .map_or("unknown", |g| g.raw.as_str());
    let _ = writeln!(out, "> Generated: {}", flat(generated));
    let _ = writeln!(
        out,
        "> Session: {}",
        flat(state.session_id.as_deref().unwrap_or("unknown"))
    );
    let _ = writeln!(out, "> Status: {}", state.status);

    let mut section = |title: &str, lines: Vec<String>| {
        let _ = writeln!(out, "\n## {title}");
        if lines.is_empty() {
            let _ = writeln!(out, "- {}", w.none);
        }
        for l in lines {
            out.push_str(&l);
            out.push('\n');
        }
    };

    let done = state.tasks.iter().filter(|t| t.status == TaskStatus::Done);
    section(
        "Completed",
        done.map(|t| {
            format!(
                "- [{}] {} ({})",
                flat(&t.id),
                flat(&t.description),
                flat(t.commit_sha.as_deref().unwrap_or("no-sha"))
            )
        })
        .collect(),
    );

    // The document's task objects, in the same order as the view's tasks.
    let task_docs: Vec<Value> = doc
        .get("active_tasks")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let remaining = state
        .tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.status != TaskStatus::Done);
    section(
        "Remaining",
        remaining
            .map(|(i, t)| {
                // An empty list leaves nothing after the colon, as the original writes it.
                let files = flat(&t.file_paths.join(", "));
                let next = t
                    .next_action
                    .as_deref()
                    .filter(|n| !n.is_empty())
                    .map_or_else(|| w.undefined.to_owned(), flat);
                let mut item = format!(
                    "- [{}] **{}** {}\n  - files: {files}\n  - next: {next}",
                    flat(&t.id),
                    flat(t.status.as_str()),
                    flat(&t.description)
                );
                if !t.blockers.is_empty() {
                    let _ = write!(item, "\n  - blocker: {}", flat(&t.blockers.join(", ")));
                }
                let approaches = task_docs
                    .get(i)
                    .and_then(|d| d.get("attempted_approaches"))
                    .and_then(Value::as_array);
                for a in approaches.into_iter().flatten() {
                    if let Some(line) = tried(a) {
                        let _ = write!(item, "\n  - tried: {line}");
                    }
                }
                item
            })
            .collect(),
    );

    section(
        "Blockers",
        state
            .tasks
            .iter()
            .filter(|t| !t.blockers.is_empty())
            .map(|t| format!("- [{}] {}", flat(&t.id), flat(&t.blockers.join(", "))))
            .collect(),
    );

    let list = |key: &str| {
        doc.get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    section(
        "Context",
        list("recent_decisions")
            .iter()
            .filter_map(|d| {
                let decision = flat(text(d, "decision")?);
                Some(match (text(d, "rationale"), lang) {
                    (Some(r), Lang::En) => format!("- {decision} (reason: {})", flat(r)),
                    (Some(r), Lang::Ja) => format!("- {decision}（理由: {}）", flat(r)),
                    (None, _) => format!("- {decision}"),
                })
            })
            .collect(),
    );
    section(
        "Architecture Changes (Recent)",
        list("architecture_changes")
            .iter()
            .filter_map(|c| {
                let summary = text(c, "summary").map(flat).unwrap_or_default();
                Some(format!("- {}: {summary}", flat(text(c, "commit_sha")?)))
            })
            .collect(),
    );
    if state.version >= 4 {
        let (open, close) = match lang {
            Lang::En => (" (", ")"),
            Lang::Ja => ("（", "）"),
        };
        section(
            "Observations (from Audit)",
            list("phase_observations")
                .iter()
                .flat_map(|phase| {
                    let name = text(phase, "phase").map(flat).unwrap_or_default();
                    phase
                        .get("observations")
                        .and_then(Value::as_array)
                        .cloned()
                        .unwrap_or_default()
                        .into_iter()
                        .map(move |o| {
                            let id = text(&o, "criteria_id").map(flat).unwrap_or_default();
                            let what = text(&o, "observation").map(flat).unwrap_or_default();
                            let mut line = format!("- [Phase {name}] {id}: {what}");
                            if let Some(r) = text(&o, "recommendation") {
                                let _ = write!(line, "{open}{}{close}", flat(r));
                            }
                            line
                        })
                        .collect::<Vec<_>>()
                })
                .collect(),
        );
        section(
            "Session Notes",
            list("session_notes")
                .iter()
                .map(|n| {
                    let category = text(n, "category").map(flat).unwrap_or_default();
                    let content = text(n, "content").map(flat).unwrap_or_default();
                    let phase = text(n, "relates_to_phase").map_or_else(|| "N/A".to_owned(), flat);
                    format!("- [{category}] {content}{open}Phase {phase}{close}")
                })
                .collect(),
        );
    }
    section(
        "Known Issues",
        list("known_issues")
            .iter()
            .filter_map(|i| {
                let description = flat(text(i, "description")?);
                Some(match text(i, "severity") {
                    Some(s) => format!("- [{}] {description}", flat(s)),
                    None => format!("- {description}"),
                })
            })
            .collect(),
    );
    out
}
