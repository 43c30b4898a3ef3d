//! One handover's summary block, as `status` lists it and a briefing opens with: what
//! it is, where it came from, and each verdict in a labelled line.

use std::fmt::Write as _;

use super::{LABEL, Painter, SUMMARY_WIDTH};
use crate::facts::assessed::{Assessment, Handover, Kind, NoteBrief};
use crate::git::Worktree;
use crate::model::verdict::{CommitState, Freshness, Presence};
use crate::support::text::{escape, one_line};

pub(super) fn detail(out: &mut String, label: &str, value: &str) {
    let _ = writeln!(
        out,
        "      {} {value}",
        crate::support::i18n::pad(label, LABEL)
    );
}

pub(super) fn more(out: &mut String, value: &str) {
    let _ = writeln!(out, "      {:<LABEL$} {value}", "");
}

/// What a handover is: a (team) session and its root, a legacy state, a note.
fn title(h: &Handover, p: &Painter) -> String {
    match h.kind {
        Kind::Session => {
            let team = h
                .assessment()
                .and_then(|a| a.session())
                .is_some_and(|s| s.team);
            let default_root = h.root.as_deref() == Some(crate::support::config::DEFAULT_DIR);
            let root = h
                .root
                .as_deref()
                .filter(|_| !default_root)
                .map(|r| p.f(crate::k!("kind.in_root"), &[("root", &escape(r))]))
                .unwrap_or_default();
            let key = if team {
                crate::k!("kind.team_session")
            } else {
                crate::k!("kind.session")
            };
            p.f(key, &[("key", &escape(&h.key)), ("root", &root)])
        }
        Kind::Legacy => p.f(crate::k!("kind.legacy"), &[("key", &escape(&h.key))]),
        Kind::ContinueHere => p.f(crate::k!("kind.note"), &[("key", &escape(&h.key))]),
    }
}

/// Where a handover came from, when it is not simply its worktree's: the notes store,
/// another worktree (a copy), git's index (a tracked file).
fn origin(out: &mut String, h: &Handover, p: &Painter) {
    if let Some(stored) = &h.stored {
        let from = stored
            .worktree
            .as_deref()
            .map(|w| p.f(crate::k!("stored.from"), &[("path", &escape(w))]))
            .unwrap_or_default();
        detail(
            out,
            p.t(crate::k!("label.stored")),
            &p.f(
                crate::k!("stored.value"),
                &[
                    ("commit", &stored.commit.short()),
                    ("time", &crate::model::session::format_time(stored.saved_at)),
                    ("from", &from),
                ],
            ),
        );
    }
    if let Some(of) = &h.copy_of {
        let of = escape(&of.display().to_string());
        detail(
            out,
            p.t(crate::k!("label.copy")),
            &p.warn(&p.f(
                crate::k!("copy.of"),
                &[("path", &of), ("key", &escape(&h.key))],
            )),
        );
    }
    if h.tracked {
        detail(
            out,
            p.t(crate::k!("label.tracked")),
            &p.warn(p.t(crate::k!("tracked.value"))),
        );
    }
}

/// One handover's summary block. `briefing` leaves out what a briefing shows in full
/// below it (a note's objective, next step and `[USER]` items).
pub(super) fn handover(out: &mut String, h: &Handover, wt: &Worktree, p: &Painter, briefing: bool) {
    let title = title(h, p);
    let _ = writeln!(out, "  {}", p.bold(&title));
    origin(out, h, p);
    if let Some(err) = h.error() {
        detail(
            out,
            p.t(crate::k!("label.invalid")),
            &p.bad(&escape(&err.render(p.lang()))),
        );
        return;
    }
    let Some(a) = h.assessment() else { return };
    if let Some(s) = a.session() {
        let counts = p.f(
            crate::k!("status.counts"),
            &[
                ("status", &s.status),
                ("done", &s.done),
                ("total", &s.total),
            ],
        );
        let counts = if a.finished() {
            p.good(&counts)
        } else {
            counts
        };
        detail(out, p.t(crate::k!("label.status")), &counts);
        if let Some(next) = &s.next {
            // A briefing lists the open tasks whole just below: the id says which.
            let summary = if briefing {
                String::new()
            } else {
                format!(" {}", one_line(&next.description, SUMMARY_WIDTH))
            };
            detail(
                out,
                p.t(crate::k!("label.next")),
                &format!(
                    "[{}] ({}){summary}",
                    escape(&next.id),
                    escape(next.status.as_str()),
                ),
            );
        }
    }
    if let Some(note) = a.note().filter(|_| !briefing) {
        if let Some(objective) = &note.objective {
            detail(
                out,
                p.t(crate::k!("label.objective")),
                &one_line(objective, SUMMARY_WIDTH),
            );
        }
        if let Some(step) = note.next_steps.first() {
            detail(
                out,
                p.t(crate::k!("label.next")),
                &one_line(step, SUMMARY_WIDTH),
            );
        }
    }
    freshness(out, a, wt, p);
    if let (Some(to), Some(from)) = (&a.renamed_to, &a.branch) {
        detail(
            out,
            p.t(crate::k!("label.branch")),
            &p.warn(&p.f(
                crate::k!("branch.renamed"),
                &[("from", &escape(from)), ("to", &escape(to))],
            )),
        );
    }
    presence(out, a, p);
    commits(out, a, p);
    for stale in a
        .session()
        .map(|s| s.stale_tasks.as_slice())
        .unwrap_or_default()
    {
        detail(
            out,
            p.t(crate::k!("label.stale")),
            &p.warn(&p.f(
                crate::k!("stale.untouched"),
                &[
                    ("id", &escape(&stale.id)),
                    ("age", &p.duration(stale.untouched_for)),
                ],
            )),
        );
    }
    // A briefing lists the tasks others hold in a block of its own.
    let claims = a
        .session()
        .filter(|_| !briefing)
        .map(|s| s.claims.as_slice());
    for c in claims.unwrap_or_default() {
        let line = format!(
            "[{}] {}",
            escape(&c.task),
            super::claims::held(&c.claim, c.now, p)
        );
        let line = if c.expired() { p.warn(&line) } else { line };
        detail(out, p.t(crate::k!("label.claim")), &line);
    }
    if let Some(s) = a.session() {
        for (label, value) in super::linkage::lines(&s.linkage, p) {
            detail(out, label, &value);
        }
    }
    if let Some(note) = a.note() {
        note_lines(out, note, p, briefing);
    }
}

/// A note's `[USER]` items (not in a briefing, which shows them in full) and what it lacks.
fn note_lines(out: &mut String, note: &NoteBrief, p: &Painter, briefing: bool) {
    for item in note.user_items.iter().filter(|_| !briefing) {
        detail(
            out,
            p.t(crate::k!("label.user")),
            &p.warn(&one_line(item, SUMMARY_WIDTH)),
        );
    }
    let mut missing: Vec<String> = note
        .missing_header
        .iter()
        .map(|h| p.f(crate::k!("partial.header"), &[("name", h)]))
        .collect();
    missing.extend(note.missing_sections.iter().map(|s| format!("## {s}")));
    if !missing.is_empty() {
        detail(
            out,
            p.t(crate::k!("label.partial")),
            &p.dim(&p.f(
                crate::k!("partial.missing"),
                &[("list", &missing.join(", "))],
            )),
        );
    }
}

/// Ages from this one on are shown as the date (four weeks).
const AS_A_DATE: std::time::Duration = std::time::Duration::from_secs(28 * 86_400);

pub(super) fn freshness(out: &mut String, a: &Assessment, wt: &Worktree, p: &Painter) {
    let Some(f) = a.freshness else {
        detail(
            out,
            p.t(crate::k!("label.freshness")),
            &p.dim(p.t(crate::k!("fresh.unknown"))),
        );
        return;
    };
    let word = match f {
        Freshness::Fresh => p.good(p.t(crate::k!("fresh.fresh"))),
        Freshness::Stale => p.warn(p.t(crate::k!("fresh.stale"))),
        Freshness::Superseded => p.bad(p.t(crate::k!("fresh.superseded"))),
        Freshness::Future => p.bad(p.t(crate::k!("fresh.future"))),
    };
    let mut text = word;
    if let Some(ahead) = a.ahead {
        text.push_str(&p.f(crate::k!("fresh.ahead"), &[("ahead", &p.duration(ahead))]));
    } else if let (Some(age), Some(at)) = (a.age, a.written_at)
        && age >= AS_A_DATE
    {
        // Long ago reads better as a date than as thousands of days.
        let key = match (a.written_from_mtime, a.note().is_some()) {
            (true, _) => crate::k!("fresh.date_file"),
            (false, true) => crate::k!("fresh.date_updated"),
            (false, false) => crate::k!("fresh.date_written"),
        };
        let date = at.strftime("%Y-%m-%d").to_string();
        text.push_str(&p.f(key, &[("date", &date)]));
    } else if let Some(age) = a.age {
        let key = match (a.written_from_mtime, a.note().is_some()) {
            (true, _) => crate::k!("fresh.age_file"),
            (false, true) => crate::k!("fresh.age_updated"),
            (false, false) => crate::k!("fresh.age_written"),
        };
        text.push_str(&p.f(key, &[("age", &p.duration(age))]));
    }
    if let Some(branch) = &a.branch {
        text.push_str(&p.f(crate::k!("fresh.on"), &[("branch", &escape(branch))]));
    }
    if !a.branch_matches {
        let here = wt
            .branch
            .as_deref()
            .filter(|_| !wt.detached)
            .map_or_else(|| p.t(crate::k!("wt.a_detached_head")).to_owned(), escape);
        text.push_str(&p.f(crate::k!("fresh.worktree_on"), &[("here", &here)]));
    }
    detail(out, p.t(crate::k!("label.freshness")), &text);
    if a.newer.count > 0 {
        let n = a.newer.count;
        more(
            out,
            &if n == 1 {
                p.t(crate::k!("fresh.newer_one")).to_owned()
            } else {
                p.f(crate::k!("fresh.newer_many"), &[("n", &n)])
            },
        );
        for c in &a.newer.newest {
            more(
                out,
                &format!("  {} {}", c.id.short(), one_line(&c.subject, SUMMARY_WIDTH)),
            );
        }
        if n > a.newer.newest.len() {
            more(
                out,
                &p.f(
                    crate::k!("fresh.and_more"),
                    &[("n", &(n - a.newer.newest.len()))],
                ),
            );
        }
    }
}

pub(super) fn presence(out: &mut String, a: &Assessment, p: &Painter) {
    let root = a
        .session()
        .and_then(|s| s.workspace_root.as_deref())
        .map(escape)
        .unwrap_or_default();
    match a.presence {
        Presence::Present => {}
        Presence::Orphan => detail(
            out,
            p.t(crate::k!("label.orphan")),
            &p.bad(&p.f(crate::k!("presence.orphan"), &[("root", &root)])),
        ),
        Presence::Offline => detail(
            out,
            p.t(crate::k!("label.offline")),
            &p.warn(&p.f(crate::k!("presence.offline"), &[("root", &root)])),
        ),
    }
}

/// The most commits needing attention listed one by one.
const COMMITS_SHOWN: usize = 10;

pub(super) fn commits(out: &mut String, a: &Assessment, p: &Painter) {
    if a.commits.is_empty() {
        return;
    }
    // Each commit once, however many tasks record it; one that was rewritten is counted
    // as rewritten (a notice, in yellow), not as unreachable (red is for what is wrong).
    // (A set: with many recorded commits, a list's lookups were quadratic.)
    let distinct = |keep: &dyn Fn(&crate::model::verdict::CommitCheck) -> bool| {
        a.commits
            .iter()
            .filter(|c| keep(c))
            .map(|c| c.full.as_deref().unwrap_or(&c.recorded))
            .collect::<std::collections::HashSet<&str>>()
            .len()
    };
    let count = |s: CommitState| distinct(&|c| c.state == s && c.rewritten.is_none());
    let mut parts = Vec::new();
    for s in [
        CommitState::Ok,
        CommitState::Unreachable,
        CommitState::Missing,
        CommitState::Ambiguous,
        CommitState::Unchecked,
    ] {
        let n = count(s);
        if n > 0 {
            let text = p.f(&format!("commit.{}", s.as_str()), &[("n", &n)]);
            parts.push(if s == CommitState::Ok {
                p.good(&text)
            } else {
                p.bad(&text)
            });
        }
    }
    let rewritten = distinct(&|c| c.rewritten.is_some());
    if rewritten > 0 {
        parts.push(p.warn(&p.f(crate::k!("commit.rewritten"), &[("n", &rewritten)])));
    }
    let mut summary = parts.join(p.separator());
    if let Some(r) = &a.checked_against {
        summary.push_str(&p.f(crate::k!("commit.against"), &[("ref", &escape(r))]));
    }
    detail(out, p.t(crate::k!("label.commits")), &summary);
    // Ten at most, and how many more: a rebase can leave hundreds behind, and a list
    // that long would push everything else out of a briefing.
    // A row per commit, naming every task that records it: as many rows as the
    // summary counts.
    let rows = crate::model::verdict::attention_by_commit(&a.commits);
    let attention = rows.len();
    let shown = if attention > COMMITS_SHOWN + 2 {
        COMMITS_SHOWN
    } else {
        attention
    };
    for (c, tasks) in rows.iter().take(shown) {
        let sha = escape(&c.recorded.chars().take(12).collect::<String>());
        // An unchecked commit says why: no branch to check it on (the usual case),
        // history that could not be read, or the hook's deadline.
        let key = match c.state {
            CommitState::Unchecked if a.history_unreadable => {
                "commit.line_unchecked_unreadable".to_owned()
            }
            CommitState::Unchecked if a.history_cut_short => {
                "commit.line_unchecked_deadline".to_owned()
            }
            CommitState::Unchecked if a.history_shallow => {
                "commit.line_unchecked_shallow".to_owned()
            }
            s => format!("commit.line_{}", s.as_str()),
        };
        let tasks = tasks
            .iter()
            .map(|t| escape(t))
            .collect::<Vec<_>>()
            .join(", ");
        let mut line = p.f(&key, &[("task", &tasks), ("sha", &sha)]);
        if let Some(new) = &c.rewritten {
            line.push_str(&p.f(
                crate::k!("commit.rewritten_to"),
                &[("sha", &&new[..7.min(new.len())])],
            ));
        }
        more(out, &line);
    }
    if shown < attention {
        more(
            out,
            &p.f(crate::k!("commit.more"), &[("n", &(attention - shown))]),
        );
    }
}
