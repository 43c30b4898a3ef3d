//! `handover.md`: the generated view of a session (SPEC section 2). Byte-stable: the
//! same state renders the same bytes.

use std::fmt::Write as _;

use serde_json::Value;

use crate::model::state::{State, TaskStatus};
use crate::support::i18n::Lang;
use crate::support::text;

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

/// One line of text: line breaks inside a field would break the list layout. Control,
/// bidirectional and invisible characters are escaped as on the terminal (agents that
/// follow the original procedure read this file, and people read it in a terminal or
/// an editor); tabs are kept.
fn flat(s: &str) -> String {
    let line = s
        .split(['\r', '\n'])
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    line.split('\t')
        .map(text::escape)
        .collect::<Vec<_>>()
        .join("\t")
}

pub fn render(state: &State, lang: Lang) -> String {
    let w = words(lang);
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
    section("Completed", completed(state));
    section("Remaining", remaining(state, &w));
    section("Blockers", blockers(state));
    section("Context", decisions(state, lang));
    section("Architecture Changes (Recent)", architecture_changes(state));
    if state.version >= 4 {
        section("Observations (from Audit)", observations(state, lang));
        section("Session Notes", session_notes(state, lang));
    }
    section("Known Issues", known_issues(state));
    out
}

/// The opening and closing of a parenthesis in the language's own punctuation.
fn parens(lang: Lang) -> (&'static str, &'static str) {
    match lang {
        Lang::En => (" (", ")"),
        Lang::Ja => ("（", "）"),
    }
}

fn completed(state: &State) -> Vec<String> {
    let done = state.tasks.iter().filter(|t| t.status == TaskStatus::Done);
    done.map(|t| {
        format!(
            "- [{}] {} ({})",
            flat(&t.id),
            flat(&t.description),
            flat(t.commit_sha.as_deref().unwrap_or("no-sha"))
        )
    })
    .collect()
}

fn remaining(state: &State, w: &Words) -> Vec<String> {
    let remaining = state
        .tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.status != TaskStatus::Done);
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
            for a in state.extras.tried(i) {
                let _ = write!(item, "\n  - tried: {}", a.line(flat));
            }
            item
        })
        .collect()
}

fn blockers(state: &State) -> Vec<String> {
    state
        .tasks
        .iter()
        .filter(|t| !t.blockers.is_empty())
        .map(|t| format!("- [{}] {}", flat(&t.id), flat(&t.blockers.join(", "))))
        .collect()
}

fn decisions(state: &State, lang: Lang) -> Vec<String> {
    state
        .extras
        .decisions
        .iter()
        .map(|d| {
            let decision = flat(&d.decision);
            match (&d.rationale, lang) {
                (Some(r), Lang::En) => format!("- {decision} (reason: {})", flat(r)),
                (Some(r), Lang::Ja) => format!("- {decision}（理由: {}）", flat(r)),
                (None, _) => format!("- {decision}"),
            }
        })
        .collect()
}

fn architecture_changes(state: &State) -> Vec<String> {
    let doc = state.document();
    let Some(changes) = doc.get("architecture_changes").and_then(Value::as_array) else {
        return Vec::new();
    };
    changes
        .iter()
        .filter_map(|c| {
            let text = |key: &str| c.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
            let summary = text("summary").map(flat).unwrap_or_default();
            Some(format!("- {}: {summary}", flat(text("commit_sha")?)))
        })
        .collect()
}

fn observations(state: &State, lang: Lang) -> Vec<String> {
    let (open, close) = parens(lang);
    state
        .extras
        .observations
        .iter()
        .map(|o| {
            let mut line = format!(
                "- [Phase {}] {}: {}",
                flat(&o.phase),
                flat(&o.criteria_id),
                flat(&o.observation)
            );
            if let Some(r) = &o.recommendation {
                let _ = write!(line, "{open}{}{close}", flat(r));
            }
            line
        })
        .collect()
}

fn session_notes(state: &State, lang: Lang) -> Vec<String> {
    let (open, close) = parens(lang);
    state
        .extras
        .session_notes
        .iter()
        .map(|n| {
            let phase = n.phase.as_deref().map_or_else(|| "N/A".to_owned(), flat);
            format!(
                "- [{}] {}{open}Phase {phase}{close}",
                flat(&n.category),
                flat(&n.content)
            )
        })
        .collect()
}

fn known_issues(state: &State) -> Vec<String> {
    state
        .extras
        .known_issues
        .iter()
        .map(|i| match &i.severity {
            Some(s) => format!("- [{}] {}", flat(s), flat(&i.description)),
            None => format!("- {}", flat(&i.description)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::render;
    use crate::model::state::State;
    use crate::support::i18n::Lang;

    /// Terminal controls, bidirectional overrides and line separators written by an agent
    /// never reach handover.md raw: the next agent (and the person) reads that file.
    #[test]
    fn controls_and_bidi_are_escaped_tabs_are_kept() {
        let json = "{\"version\": 4, \"status\": \"READY\", \"active_tasks\": [\
            {\"id\": \"T1\", \"description\": \"a\\tb \\u001b[31mred\", \"status\": \"pending\"}],\
            \"recent_decisions\": [{\"decision\": \"use \\u0007bell \\u2028 and \\u202eevil\"}],\
            \"known_issues\": [{\"description\": \"x\\u001b]0;title\\u0007\"}]}";
        let state = State::parse(json.as_bytes(), Path::new("/w/s/project-state.json")).unwrap();
        let md = render(&state, Lang::En);
        for raw in ['\u{1b}', '\u{7}', '\u{2028}', '\u{202e}'] {
            assert!(!md.contains(raw), "{raw:?} kept raw in:\n{md}");
        }
        assert!(md.contains("a\tb \\u{1b}[31mred"), "{md}");
        assert!(
            md.contains("use \\u{7}bell \\u{2028} and \\u{202e}evil"),
            "{md}"
        );
        assert!(md.contains("x\\u{1b}]0;title\\u{7}"), "{md}");
    }
}
