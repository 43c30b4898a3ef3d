//! The briefing itself, as blocks in reading order, each with a priority: everything
//! the successor needs, whole (descriptions, next actions and approaches are never cut
//! to a line here). `continue` prints every block; the hook fits them into the agent's
//! budget by priority and says what it left out.

use std::fmt::Write as _;

use super::Painter;
use super::handover::{detail, handover, more};
use crate::commands::r#continue::Briefing;
use crate::facts::assessed::{Assessment, Kind};
use crate::model::extras::Extras;
use crate::model::note::Note;
use crate::model::state::{Task, TaskStatus};
use crate::model::verdict::Freshness;
use crate::support::text::{escape, one_line};

/// How much a block matters when the briefing must be cut.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// Never left out: where, what state, the open work, what to do next.
    Must,
    /// Known issues and decisions: what keeps the successor from repeating mistakes.
    Knowledge,
    /// The rest of the work: pending tasks (the last ones go first).
    Work,
    /// Observations, session notes, a note's completed list, recent commits.
    Background,
}

/// A part of the briefing: its text (whole lines) and, for a part that may be left
/// out, what to call it in the "cut" line.
#[derive(Debug, Clone)]
pub struct Block {
    pub priority: Priority,
    pub name: Option<String>,
    pub text: String,
    /// For a pending task's block: its id (cut tasks are named as one range).
    pub task: Option<String>,
}

impl Block {
    fn must(text: String) -> Block {
        Block {
            priority: Priority::Must,
            name: None,
            text,
            task: None,
        }
    }
}

/// `text` (possibly several lines) indented by `indent` under a first line that starts
/// with `first`: line breaks in a description stay, each line escaped.
fn indented(out: &mut String, first: &str, text: &str, indent: &str) {
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let _ = writeln!(
        out,
        "{first}{}",
        escape(lines.next().unwrap_or_default().trim_end())
    );
    for line in lines {
        let _ = writeln!(out, "{indent}{}", escape(line.trim_end()));
    }
}

/// Each task id's first place in the state's `active_tasks` (where its approaches are
/// found): made once, so that a long task list is briefed in linear time.
type Index<'a> = std::collections::HashMap<&'a str, usize>;

fn index(b: &Briefing) -> Index<'_> {
    let mut at = Index::new();
    if let Some(s) = b.state.as_ref() {
        for (i, t) in s.tasks.iter().enumerate() {
            at.entry(t.id.as_str()).or_insert(i);
        }
    }
    at
}

/// One task, whole: description, files, next action, blockers, what was tried.
fn task(
    out: &mut String,
    b: &Briefing,
    at: &Index<'_>,
    t: &Task,
    stale: Option<String>,
    p: &Painter,
) {
    let head = format!("  [{}] {} ", escape(&t.id), escape(t.status.as_str()));
    let mut first = String::new();
    indented(&mut first, &head, &t.description, "      ");
    if let Some(mark) = stale {
        // The stale mark goes at the end of the description's first line.
        if let Some(end) = first.find('\n') {
            first.insert_str(end, &mark);
        }
    }
    out.push_str(&first);
    if !t.file_paths.is_empty() {
        let list = escape(&t.file_paths.join(", "));
        let _ = writeln!(
            out,
            "      {}",
            p.f(crate::k!("cont.files"), &[("list", &list)])
        );
    }
    if let Some(next) = t.next_action.as_deref().filter(|n| !n.trim().is_empty()) {
        let label = p.f(crate::k!("cont.next"), &[("what", &"")]);
        indented(out, &format!("      {label}"), next, "        ");
    }
    if !t.blockers.is_empty() {
        let list = escape(&t.blockers.join(", "));
        let _ = writeln!(
            out,
            "      {}",
            p.f(crate::k!("cont.blockers"), &[("list", &list)])
        );
    }
    let tried = b.state.as_ref().and_then(|s| {
        let index = *at.get(t.id.as_str())?;
        Some(s.extras.tried(index))
    });
    for a in tried.unwrap_or_default() {
        let label = p.f(crate::k!("cont.tried"), &[("what", &"")]);
        indented(
            out,
            &format!("      {label}"),
            &a.line(str::to_owned),
            "        ",
        );
    }
}

/// A titled list of items, each possibly several lines.
fn list(title: &str, items: &[String], p: &Painter) -> String {
    let mut out = format!("\n{}\n", p.bold(title));
    for item in items {
        indented(&mut out, "  - ", item, "    ");
    }
    out
}

pub fn blocks(b: &Briefing, p: &Painter) -> Vec<Block> {
    let mut blocks = Vec::new();
    let chosen = &b.candidate;
    let mut head = String::new();
    let path = p.bold(&escape(&chosen.worktree.path.display().to_string()));
    let _ = writeln!(
        head,
        "{}",
        p.f(crate::k!("cont.resuming"), &[("path", &path)])
    );
    handover(&mut head, &chosen.handover, &chosen.worktree, p, true);
    blocks.push(Block::must(head));
    let Some(assessment) = chosen.handover.assessment() else {
        return blocks;
    };
    blocks.extend(recent(b, p));
    tasks(&mut blocks, b, assessment, p);
    if let Some(state) = &b.state {
        extras(&mut blocks, &state.extras, p);
    }
    if let Some(note) = &b.note {
        sections(&mut blocks, note, p);
    }
    blocks.push(last(b, assessment, p));
    blocks
}

/// The commits since the handover, newest first.
fn recent(b: &Briefing, p: &Painter) -> Option<Block> {
    if b.recent.is_empty() {
        return None;
    }
    let mut recent = String::new();
    detail(
        &mut recent,
        p.t(crate::k!("label.recent")),
        &format!(
            "{} {}",
            b.recent[0].id.short(),
            one_line(&b.recent[0].subject, super::SUMMARY_WIDTH)
        ),
    );
    for commit in &b.recent[1..] {
        more(
            &mut recent,
            &format!(
                "{} {}",
                commit.id.short(),
                one_line(&commit.subject, super::SUMMARY_WIDTH)
            ),
        );
    }
    Some(Block {
        priority: Priority::Background,
        name: Some(p.t(crate::k!("cut.recent")).to_owned()),
        text: recent,
        task: None,
    })
}

/// The tasks: open ones first (in progress, blocked), whole; then the pending ones,
/// whole too, each a block of its own so that the last ones go first when cut.
fn tasks(blocks: &mut Vec<Block>, b: &Briefing, assessment: &Assessment, p: &Painter) {
    let pending: Vec<&Task> = b.state.as_ref().map_or_else(Vec::new, |s| {
        s.tasks
            .iter()
            .filter(|t| !t.status.is_open() && t.status != TaskStatus::Done)
            .collect()
    });
    if !b.open_tasks.is_empty() || !pending.is_empty() || !b.other_tasks.is_empty() {
        let at = index(b);
        // By id: thousands of open tasks, all stale, made a search each quadratic.
        let stale_by_id: std::collections::HashMap<&str, _> = assessment
            .session()
            .iter()
            .flat_map(|f| f.stale_tasks.iter())
            .rev()
            .map(|s| (s.id.as_str(), s))
            .collect();
        let mut open = format!("\n{}\n", p.bold(p.t(crate::k!("cont.open_tasks"))));
        for t in &b.open_tasks {
            let stale = stale_by_id.get(t.id.as_str()).map(|s| {
                p.warn(&p.f(
                    crate::k!("cont.stale_mark"),
                    &[("age", &p.duration(s.untouched_for))],
                ))
            });
            task(&mut open, b, &at, t, stale, p);
        }
        blocks.push(Block::must(open));
        if pending.is_empty() && !b.other_tasks.is_empty() {
            // No state to read them from (never the case for a session): ids at least.
            let ids: Vec<String> = b
                .other_tasks
                .iter()
                .map(|i| format!("[{}]", escape(i)))
                .collect();
            blocks.push(Block::must(format!(
                "  {}\n",
                p.f(crate::k!("cont.not_started"), &[("list", &ids.join(", "))])
            )));
        }
        for t in pending {
            let mut text = String::new();
            task(&mut text, b, &at, t, None, p);
            blocks.push(Block {
                priority: Priority::Work,
                name: Some(p.f(crate::k!("cut.task"), &[("id", &escape(&t.id))])),
                text,
                task: Some(escape(&t.id)),
            });
        }
    }
    blocks.extend(super::claims::held_by_others(b, assessment, p).map(Block::must));
    blocks.extend(super::claims::lost_told(b, assessment, p).map(Block::must));
}

/// The state's known issues, decisions, observations and notes, a block each.
fn extras(blocks: &mut Vec<Block>, extras: &Extras, p: &Painter) {
    if !extras.known_issues.is_empty() {
        let items: Vec<String> = extras
            .known_issues
            .iter()
            .map(|i| match &i.severity {
                Some(s) => format!("[{s}] {}", i.description),
                None => i.description.clone(),
            })
            .collect();
        blocks.push(Block {
            priority: Priority::Knowledge,
            name: Some(p.f(crate::k!("cut.issues"), &[("n", &items.len())])),
            text: list(p.t(crate::k!("section.known_issues")), &items, p),
            task: None,
        });
    }
    if !extras.decisions.is_empty() {
        let items: Vec<String> = extras
            .decisions
            .iter()
            .map(|d| match &d.rationale {
                Some(r) => p.f(
                    crate::k!("cont.decision_why"),
                    &[("decision", &d.decision), ("why", r)],
                ),
                None => d.decision.clone(),
            })
            .collect();
        blocks.push(Block {
            priority: Priority::Knowledge,
            name: Some(p.f(crate::k!("cut.decisions"), &[("n", &items.len())])),
            text: list(p.t(crate::k!("section.decisions")), &items, p),
            task: None,
        });
    }
    if !extras.observations.is_empty() {
        let items: Vec<String> = extras
            .observations
            .iter()
            .map(|o| {
                let mut line = format!("[{}] {}: {}", o.phase, o.criteria_id, o.observation);
                if let Some(r) = &o.recommendation {
                    let _ = write!(line, " → {r}");
                }
                line
            })
            .collect();
        blocks.push(Block {
            priority: Priority::Background,
            name: Some(p.f(crate::k!("cut.observations"), &[("n", &items.len())])),
            text: list(p.t(crate::k!("section.observations")), &items, p),
            task: None,
        });
    }
    if !extras.session_notes.is_empty() {
        let items: Vec<String> = extras
            .session_notes
            .iter()
            .map(|n| format!("[{}] {}", n.category, n.content))
            .collect();
        blocks.push(Block {
            priority: Priority::Background,
            name: Some(p.f(crate::k!("cut.notes"), &[("n", &items.len())])),
            text: list(p.t(crate::k!("section.session_notes")), &items, p),
            task: None,
        });
    }
}

/// A continue-here note's sections, a block each.
fn sections(blocks: &mut Vec<Block>, note: &Note, p: &Painter) {
    use crate::model::note::Known;
    for section in &note.sections {
        if section.text().trim().is_empty() {
            continue;
        }
        let (title, priority) = match section.known {
            Some(Known::Objective) => (p.t(crate::k!("section.objective")), Priority::Must),
            Some(Known::InProgress) => (p.t(crate::k!("section.in_progress")), Priority::Must),
            Some(Known::NextSteps) => (p.t(crate::k!("section.next_steps")), Priority::Must),
            Some(Known::Completed) => (p.t(crate::k!("section.completed")), Priority::Background),
            Some(Known::Context) => (p.t(crate::k!("section.context")), Priority::Knowledge),
            None => (section.title.as_str(), Priority::Knowledge),
        };
        let mut text = format!("\n{}\n", p.bold(&escape(title)));
        for line in section.lines.iter().filter(|l| !l.trim().is_empty()) {
            let _ = writeln!(text, "  {}", escape(line.trim_end()));
        }
        blocks.push(Block {
            priority,
            name: Some(escape(title)),
            text,
            task: None,
        });
    }
}

/// What the user must do, how to proceed, and how to record progress.
fn last(b: &Briefing, assessment: &Assessment, p: &Painter) -> Block {
    let mut last = String::new();
    let user_items = assessment
        .note()
        .map(|n| n.user_items.clone())
        .unwrap_or_default();
    if !user_items.is_empty() {
        let _ = writeln!(last, "\n{}", p.warn(p.t(crate::k!("cont.needs_user"))));
        for item in &user_items {
            let _ = writeln!(last, "  - {}", escape(item));
        }
    }
    let first = b
        .open_tasks
        .first()
        .map(|t| {
            format!(
                "[{}] {}",
                escape(&t.id),
                one_line(&t.description, super::SUMMARY_WIDTH)
            )
        })
        .or_else(|| {
            assessment
                .note()
                .and_then(|n| n.next_steps.first())
                .map(|s| one_line(s, super::SUMMARY_WIDTH))
        });
    let _ = writeln!(last);
    // First of all: claim the task, so two agents never take the same one.
    if let Some(line) = super::claims::claim_first(b, p) {
        let _ = writeln!(last, "{line}");
    }
    let session = &b.candidate.handover;
    let line = match (b.successor, first) {
        (true, Some(first)) => p.f(crate::k!("cont.successor_first"), &[("first", &first)]),
        (true, None) => p.t(crate::k!("cont.successor")).to_owned(),
        (false, _) if assessment.freshness != Some(Freshness::Fresh) => {
            p.t(crate::k!("cont.ask_not_fresh")).to_owned()
        }
        (false, _) => p.t(crate::k!("cont.ask")).to_owned(),
    };
    let _ = writeln!(last, "{line}");
    // How to record progress on exactly this session (with its key, so that it works
    // from any worktree and whichever session would be the default).
    if matches!(session.kind, Kind::Session | Kind::Legacy)
        && (!b.open_tasks.is_empty() || !b.other_tasks.is_empty())
    {
        let _ = writeln!(
            last,
            "{}",
            p.f(
                crate::k!("cont.record"),
                &[("key", &crate::support::text::shell_word(&session.key))]
            )
        );
    }
    Block::must(last)
}

/// The blocks that fit `max` (as `cost` measures), by priority then reading order,
/// shown in reading order, with a last line naming what was left out; `None` when even
/// the blocks that must stay do not fit (the caller cuts the text by lines then).
pub fn fit(
    blocks: &[Block],
    max: usize,
    cost: impl Fn(&str) -> usize,
    p: &Painter,
) -> Option<String> {
    let total: usize = blocks.iter().map(|b| cost(&b.text)).sum();
    if total <= max {
        return Some(blocks.iter().map(|b| b.text.as_str()).collect());
    }
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| (blocks[i].priority, i));
    let cut_line = |left: &[usize]| {
        // Cut pending tasks are named as one range when there are more than two.
        let tasks: Vec<&str> = left
            .iter()
            .filter_map(|&i| blocks[i].task.as_deref())
            .collect();
        let range = (tasks.len() > 2).then(|| {
            p.f(
                crate::k!("cut.tasks"),
                &[
                    ("n", &tasks.len()),
                    ("first", &tasks[0]),
                    ("last", &tasks[tasks.len() - 1]),
                ],
            )
        });
        let mut names: Vec<&str> = range.iter().map(String::as_str).collect();
        names.extend(
            left.iter()
                .filter(|&&i| range.is_none() || blocks[i].task.is_none())
                .filter_map(|&i| blocks[i].name.as_deref()),
        );
        format!(
            "\n{}\n",
            p.f(crate::k!("hook.cut_what"), &[("what", &names.join(", "))])
        )
    };
    // Take blocks while they fit with the cut line as it would read if the rest were
    // left out; the line only gets shorter as more fit.
    // Strictly in priority order: once a block does not fit, nothing after it is taken
    // (a smaller block of less weight never goes in before a larger one of more).
    let mut taken = vec![false; blocks.len()];
    let mut used = 0;
    let mut full = false;
    for &i in &order {
        if full && blocks[i].priority != Priority::Must {
            continue;
        }
        let left: Vec<usize> = order
            .iter()
            .copied()
            .filter(|&j| !taken[j] && j != i)
            .collect();
        let need = cost(&blocks[i].text);
        let fits = used + need + cost(&cut_line(&left)) <= max;
        if blocks[i].priority == Priority::Must && !fits {
            return None;
        }
        if fits {
            taken[i] = true;
            used += need;
        } else {
            full = true;
        }
    }
    let left: Vec<usize> = (0..blocks.len()).filter(|&i| !taken[i]).collect();
    let mut out: String = (0..blocks.len())
        .filter(|&i| taken[i])
        .map(|i| blocks[i].text.as_str())
        .collect();
    out.push_str(&cut_line(&left));
    Some(out)
}
