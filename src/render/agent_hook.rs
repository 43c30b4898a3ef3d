//! What `hook session-start` prints: the briefing as the agent's `SessionStart`
//! context, within the agent's budget.

use std::fmt::Write as _;

use crate::commands::r#continue::{Outcome, Report};
use crate::render::human::{Block, Painter, Priority};
use crate::support::i18n::Lang;

/// The most context an agent takes inline (Claude Code replaces more with a file path).
pub const MAX_CONTEXT: usize = 10_000;

/// How much context an agent takes inline, in its own measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// Characters: Claude Code (10,000, then a file and a preview); Gemini CLI documents
    /// none, so it gets the same.
    Chars(usize),
    /// UTF-8 bytes, as Codex counts tokens (about bytes / 4: 2,500 tokens, then a
    /// file): a Japanese character is three bytes, so Japanese text gets a third of
    /// the characters English text gets.
    Bytes(usize),
}

impl Budget {
    /// The budget of `agent` (Claude Code's when it is not said).
    pub fn of(agent: Option<crate::cli::HookAgent>) -> Budget {
        match agent {
            Some(crate::cli::HookAgent::Codex) => Budget::Bytes(CODEX_BYTES),
            _ => Budget::Chars(MAX_CONTEXT),
        }
    }

    pub fn cost(self, s: &str) -> usize {
        match self {
            Budget::Chars(_) => s.chars().count(),
            Budget::Bytes(_) => s.len(),
        }
    }

    pub fn max(self) -> usize {
        match self {
            Budget::Chars(n) | Budget::Bytes(n) => n,
        }
    }
}

/// Codex's inline limit, about 2,500 tokens of about 4 bytes, with a margin.
pub const CODEX_BYTES: usize = 9_600;

/// The agent's context for a read-only `continue` report; `None` when there is nothing
/// to resume and nothing wrong.
pub fn context(report: &Report, lang: Lang, budget: Budget) -> Option<String> {
    let mut text = String::new();
    let p = Painter::new(false, lang);
    for problem in &report.skipped {
        let line = p.f(
            crate::k!("hook.unreadable"),
            &[("why", &crate::support::text::escape(&problem.render(lang)))],
        );
        let _ = writeln!(text, "git-handover: {line}");
    }
    // History left unchecked at the hook's deadline is said first: it must not be cut.
    if let Outcome::Briefing(b) = &report.outcome
        && b.candidate
            .handover
            .assessment()
            .is_some_and(|a| a.history_cut_short)
    {
        let _ = writeln!(
            text,
            "git-handover: {}",
            p.t(crate::k!("warn.history_cut_short"))
        );
    }
    match &report.outcome {
        Outcome::Nothing if text.is_empty() => return None,
        Outcome::Nothing => {}
        Outcome::Choose(_) => {
            text.push_str(p.t(crate::k!("hook.choose")));
            text.push('\n');
        }
        Outcome::Diverged { .. } => {
            text.push_str(p.t(crate::k!("hook.diverged")));
            text.push('\n');
        }
        Outcome::AllComplete(_) | Outcome::Briefing(_) => {
            text.push_str(p.t(crate::k!("hook.from_previous")));
            text.push('\n');
            // What follows is the repository's, not the user's: said as such.
            text.push_str(p.t(crate::k!("hook.from_repository")));
            text.push('\n');
        }
    }
    let must = |text: String| Block {
        priority: Priority::Must,
        name: None,
        text,
        task: None,
    };
    let mut blocks = vec![must(text)];
    match &report.outcome {
        // A briefing in blocks, so that what must be cut is cut by priority.
        Outcome::Briefing(b) => {
            blocks.push(must(crate::render::human::announcements(report, &p)));
            blocks.extend(crate::render::human::briefing_blocks(b, &p));
        }
        _ => blocks.push(must(crate::render::human::continue_(report, &p))),
    }
    // A note the hook briefs on stays (the hook changes nothing): say how to use it up.
    if let Outcome::Briefing(b) = &report.outcome
        && b.candidate.handover.kind == crate::facts::assessed::Kind::ContinueHere
    {
        // The note's whole path: the command runs as printed from any directory.
        let path =
            crate::support::text::shell_word(&b.candidate.handover.file.display().to_string());
        blocks.push(must(format!(
            "{}\n",
            p.f(crate::k!("cont.consume_note"), &[("path", &path)])
        )));
    }
    if let Some(fitted) = crate::render::human::fit(&blocks, budget.max(), |s| budget.cost(s), &p) {
        return Some(fitted);
    }
    let text: String = blocks.iter().map(|b| b.text.as_str()).collect();
    Some(cut_to(&text, budget, &p))
}

/// `text` cut at a line end so that it, with a closing note, is at most `max` characters.
#[cfg(test)]
pub fn cut(text: &str, max: usize, p: &Painter) -> String {
    cut_to(text, Budget::Chars(max), p)
}

/// `text` cut at a line end so that it, with a closing note, fits `budget`.
pub fn cut_to(text: &str, budget: Budget, p: &Painter) -> String {
    if budget.cost(text) <= budget.max() {
        return text.to_owned();
    }
    let note = format!("{}\n", p.t(crate::k!("hook.cut")));
    let note = note.as_str();
    let room = budget.max() - budget.cost(note);
    let mut out = String::new();
    let mut used = 0;
    for line in text.split_inclusive('\n') {
        let n = budget.cost(line);
        if used + n > room {
            break;
        }
        out.push_str(line);
        used += n;
    }
    out.push_str(note);
    out
}

/// The hook's output: one line of JSON in the shape agents document. GitHub Copilot
/// CLI reads a top-level `additionalContext` from a `sessionStart` hook and drops
/// Claude Code's `hookSpecificOutput` shape (ENGINEERING-NOTES, "More agents", seen in
/// Copilot 1.0.x's own code; GitHub's hooks reference, "sessionStart" output).
pub fn hook_output(agent: Option<crate::cli::HookAgent>, context: &str) -> String {
    let v = if agent == Some(crate::cli::HookAgent::Copilot) {
        serde_json::json!({ "additionalContext": context })
    } else {
        serde_json::json!({
            "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": context}
        })
    };
    format!("{v}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn cut_at_a_line_end_within_the_limit() {
        let text: String = (0..2000).fold(String::new(), |mut t, i| {
            let _ = writeln!(t, "line {i:04} of the briefing");
            t
        });
        let out = cut(&text, MAX_CONTEXT, &Painter::new(false, Lang::En));
        assert!(out.chars().count() <= MAX_CONTEXT);
        assert!(out.ends_with("to see all of it]\n"));
        let body = out.rsplit_once("[cut:").unwrap().0;
        assert!(body.ends_with("of the briefing\n"), "cut at a line end");
        assert!(text.starts_with(body));
        assert_eq!(
            cut("short\n", MAX_CONTEXT, &Painter::new(false, Lang::En)),
            "short\n"
        );
        let japanese: String = (0..3000).map(|_| "日本語の行\n").collect();
        assert!(
            cut(&japanese, MAX_CONTEXT, &Painter::new(false, Lang::Ja))
                .chars()
                .count()
                <= MAX_CONTEXT
        );
    }

    #[test]
    fn output_has_the_documented_shape() {
        let v: Value = serde_json::from_str(&hook_output(None, "a\n\"b\"")).unwrap();
        assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
        assert_eq!(v["hookSpecificOutput"]["additionalContext"], "a\n\"b\"");
        assert_eq!(v.as_object().unwrap().len(), 1);
    }
}
