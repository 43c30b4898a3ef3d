//! Human output. The only place that colours; everything read from handover files is
//! escaped before it is printed.

use std::fmt::Write as _;

use owo_colors::{OwoColorize as _, Style};

use crate::assess::{Assessment, Handover, Kind};
use crate::commands::status;
use crate::config::human_duration;
use crate::git::Worktree;
use crate::text::{escape, one_line};
use crate::verdict::{CommitState, Freshness, Presence};

/// Width of the labels of detail lines, so values line up.
const LABEL: usize = 10;
/// Descriptions are cut to this many characters in one-line summaries.
const SUMMARY_WIDTH: usize = 72;

pub struct Painter {
    color: bool,
}

impl Painter {
    pub fn new(color: bool) -> Self {
        Painter { color }
    }

    fn paint(&self, text: &str, style: Style) -> String {
        if self.color {
            text.style(style).to_string()
        } else {
            text.to_owned()
        }
    }

    fn bold(&self, t: &str) -> String {
        self.paint(t, Style::new().bold())
    }
    fn good(&self, t: &str) -> String {
        self.paint(t, Style::new().green())
    }
    fn warn(&self, t: &str) -> String {
        self.paint(t, Style::new().yellow())
    }
    fn bad(&self, t: &str) -> String {
        self.paint(t, Style::new().red().bold())
    }
    fn dim(&self, t: &str) -> String {
        self.paint(t, Style::new().dimmed())
    }
}

pub fn status(report: &status::Report, p: &Painter) -> String {
    let mut out = String::new();
    if report.handover_count() == 0 {
        let n = report.worktrees.len();
        if report.here {
            out.push_str("no handovers in this worktree\n");
        } else if n == 1 {
            out.push_str("no handovers in the repository's only worktree\n");
        } else {
            let _ = writeln!(out, "no handovers in any of {n} worktrees");
        }
        return out;
    }
    for (i, wt) in report.worktrees.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        worktree_header(&mut out, &wt.worktree, wt.current, p);
        if !wt.worktree.exists {
            let why = if wt.worktree.locked.is_some() {
                "offline"
            } else {
                "prunable"
            };
            let _ = writeln!(
                out,
                "  {}",
                p.dim(&format!("directory missing ({why}): not scanned"))
            );
            continue;
        }
        if wt.handovers.is_empty() {
            let _ = writeln!(out, "  {}", p.dim("no handovers"));
        }
        for h in &wt.handovers {
            handover(&mut out, h, &wt.worktree, p, false);
        }
    }
    if let (false, Some(main)) = (report.stored.is_empty(), report.worktrees.first()) {
        let _ = writeln!(
            out,
            "\n{} (sessions no worktree has files for)",
            p.bold("notes store"),
        );
        for h in &report.stored {
            handover(&mut out, h, &main.worktree, p, false);
        }
    }
    out
}

fn worktree_header(out: &mut String, wt: &Worktree, current: bool, p: &Painter) {
    let mut flags = vec![if wt.is_main {
        "main".to_owned()
    } else {
        "linked".to_owned()
    }];
    if current {
        flags.push("current".into());
    }
    if wt.is_bare {
        flags.push("bare".into());
    }
    if let Some(reason) = &wt.locked {
        flags.push(if reason.is_empty() {
            "locked".into()
        } else {
            format!("locked: {}", one_line(reason, 40))
        });
    }
    if wt.prunable {
        flags.push("prunable".into());
    }
    let _ = writeln!(
        out,
        "{} ({})",
        p.bold(&escape(&wt.path.display().to_string())),
        flags.join(", ")
    );
    if wt.is_bare {
        return;
    }
    let head = wt
        .head
        .map_or_else(|| "no commits yet".to_owned(), |h| h.short());
    let line = match (&wt.branch, wt.detached) {
        (Some(b), false) => format!("branch {}, HEAD {head}", escape(b)),
        _ => format!("detached HEAD {head}"),
    };
    let _ = writeln!(out, "  {line}");
}

fn detail(out: &mut String, label: &str, value: &str) {
    let _ = writeln!(out, "      {label:<LABEL$} {value}");
}

fn more(out: &mut String, value: &str) {
    let _ = writeln!(out, "      {:<LABEL$} {value}", "");
}

/// One handover's summary block. `briefing` leaves out what a briefing shows in full
/// below it (a note's objective, next step and `[USER]` items).
fn handover(out: &mut String, h: &Handover, wt: &Worktree, p: &Painter, briefing: bool) {
    let title = match h.kind {
        Kind::Session => {
            let team = h.assessment.as_ref().is_some_and(|a| a.team);
            let default_root = h.root.as_deref() == Some(crate::config::DEFAULT_DIR);
            let root = h
                .root
                .as_deref()
                .filter(|_| !default_root)
                .map(|r| format!(" in {r}"))
                .unwrap_or_default();
            format!(
                "{} {}{}",
                if team { "team session" } else { "session" },
                escape(&h.key),
                escape(&root)
            )
        }
        Kind::Legacy => format!("legacy state {}", escape(&h.key)),
        Kind::ContinueHere => format!("continue-here {}", escape(&h.key)),
    };
    let _ = writeln!(out, "  {}", p.bold(&title));
    if let Some(stored) = &h.stored {
        let from = stored
            .worktree
            .as_deref()
            .map(|w| format!(" from {}", escape(w)))
            .unwrap_or_default();
        detail(
            out,
            "stored",
            &format!(
                "note on {}, saved {}{from}",
                &stored.commit[..stored.commit.len().min(7)],
                crate::session::format_time(stored.saved_at)
            ),
        );
    }
    if let Some(err) = &h.error {
        detail(out, "invalid", &p.bad(&escape(err)));
        return;
    }
    let Some(a) = &h.assessment else { return };
    if let Some(status) = &a.status {
        let counts = format!("{status}, {}/{} done", a.done, a.total);
        let counts = if status == crate::state::ALL_COMPLETE {
            p.good(&counts)
        } else {
            counts
        };
        detail(out, "status", &counts);
        if let Some(next) = &a.next {
            detail(
                out,
                "next",
                &format!(
                    "{} ({}) {}",
                    escape(&next.id),
                    escape(&next.status),
                    one_line(&next.description, SUMMARY_WIDTH)
                ),
            );
        }
    }
    if let Some(note) = a.note.as_ref().filter(|_| !briefing) {
        if let Some(objective) = &note.objective {
            detail(out, "objective", &one_line(objective, SUMMARY_WIDTH));
        }
        if let Some(step) = note.next_steps.first() {
            detail(out, "next", &one_line(step, SUMMARY_WIDTH));
        }
    }
    freshness(out, a, wt, p);
    presence(out, a, p);
    commits(out, a, p);
    for stale in &a.stale_tasks {
        detail(
            out,
            "stale",
            &p.warn(&format!(
                "{} untouched for {}",
                escape(&stale.id),
                human_duration(stale.untouched_for)
            )),
        );
    }
    if let Some(note) = &a.note {
        for item in note.user_items.iter().filter(|_| !briefing) {
            detail(out, "[USER]", &p.warn(&one_line(item, SUMMARY_WIDTH)));
        }
        let mut missing: Vec<String> = note
            .missing_header
            .iter()
            .map(|h| format!("`{h}:` header"))
            .collect();
        missing.extend(note.missing_sections.iter().map(|s| format!("## {s}")));
        if !missing.is_empty() {
            detail(
                out,
                "partial",
                &p.dim(&format!("missing {}", missing.join(", "))),
            );
        }
    }
}

fn freshness(out: &mut String, a: &Assessment, wt: &Worktree, p: &Painter) {
    let Some(f) = a.freshness else {
        detail(out, "freshness", &p.dim("unknown (no time recorded)"));
        return;
    };
    let word = match f {
        Freshness::Fresh => p.good("fresh"),
        Freshness::Stale => p.warn("stale"),
        Freshness::Superseded => p.bad("superseded"),
    };
    let mut text = word;
    if let Some(age) = a.age {
        let source = match (a.written_from_mtime, a.note.is_some()) {
            (true, _) => "file changed",
            (false, true) => "updated",
            (false, false) => "written",
        };
        let _ = write!(text, ", {source} {} ago", human_duration(age));
    }
    if let Some(branch) = &a.branch {
        let _ = write!(text, " on {}", escape(branch));
    }
    if !a.branch_matches {
        let here = wt
            .branch
            .as_deref()
            .filter(|_| !wt.detached)
            .map_or_else(|| "a detached HEAD".to_owned(), escape);
        let _ = write!(text, " (worktree is on {here})");
    }
    detail(out, "freshness", &text);
    if a.newer.count > 0 {
        let n = a.newer.count;
        more(
            out,
            &format!(
                "{n} newer commit{} on the branch:",
                if n == 1 { "" } else { "s" }
            ),
        );
        for c in &a.newer.newest {
            more(
                out,
                &format!("  {} {}", c.id.short(), one_line(&c.subject, SUMMARY_WIDTH)),
            );
        }
        if n > a.newer.newest.len() {
            more(out, &format!("  … and {} more", n - a.newer.newest.len()));
        }
    }
}

fn presence(out: &mut String, a: &Assessment, p: &Painter) {
    let root = a.workspace_root.as_deref().map(escape).unwrap_or_default();
    match a.presence {
        Presence::Present => {}
        Presence::Orphan => detail(
            out,
            "orphan",
            &p.bad(&format!("⚠ worktree deleted: {root}")),
        ),
        Presence::Offline => detail(
            out,
            "offline",
            &p.warn(&format!("locked worktree not present: {root}")),
        ),
    }
}

fn commits(out: &mut String, a: &Assessment, p: &Painter) {
    if a.commits.is_empty() {
        return;
    }
    let count = |s: CommitState| a.commits.iter().filter(|c| c.state == s).count();
    let mut parts = Vec::new();
    for s in [
        CommitState::Ok,
        CommitState::Unreachable,
        CommitState::Missing,
        CommitState::Ambiguous,
    ] {
        let n = count(s);
        if n > 0 {
            let text = format!("{n} {}", s.as_str());
            parts.push(if s == CommitState::Ok {
                p.good(&text)
            } else {
                p.bad(&text)
            });
        }
    }
    let rewritten = a.commits.iter().filter(|c| c.rewritten.is_some()).count();
    if rewritten > 0 {
        parts.push(p.warn(&format!("{rewritten} rewritten")));
    }
    detail(out, "commits", &parts.join(", "));
    for c in a.commits.iter().filter(|c| c.needs_attention()) {
        let sha = escape(&c.recorded.chars().take(12).collect::<String>());
        let mut line = format!("{} {sha} {}", escape(&c.task_id), c.state.as_str());
        if let Some(new) = &c.rewritten {
            let _ = write!(line, ", rewritten → {}", &new[..7.min(new.len())]);
        }
        more(out, &line);
    }
}

/// `save` prints the session key alone, for scripts and agents.
pub fn save(w: &crate::store::Written) -> String {
    format!("{}\n", escape(&w.session.key))
}

pub fn task(r: &crate::commands::task::Report) -> String {
    let status = r
        .written
        .state
        .tasks
        .iter()
        .find(|t| t.id == r.task)
        .map_or("?", |t| t.status.as_str());
    format!(
        "{} {} in {} ({})\n",
        escape(&r.task),
        escape(status),
        escape(&r.written.session.key),
        r.written.state.status
    )
}

pub fn render(r: &crate::commands::render::Report) -> String {
    let path = r.session.dir().join(crate::store::MARKDOWN_FILE);
    let path = escape(&path.display().to_string());
    if r.changed {
        format!("rendered {path}\n")
    } else {
        format!("{path} is up to date\n")
    }
}

pub fn here(r: &crate::commands::here::Report) -> String {
    let verb = if r.replaced { "replaced" } else { "wrote" };
    format!("{verb} {}\n", escape(&r.path.display().to_string()))
}

pub fn migrate(r: &crate::commands::migrate::Report) -> String {
    let mut out = format!(
        "migrated {} to session {}\n",
        escape(&r.from.display().to_string()),
        escape(&r.session.key)
    );
    if r.removed_markdown {
        out.push_str("removed the old .claude/handover.md\n");
    }
    out
}

/// Removals were announced as they happened; this is the closing line.
pub fn clean(r: &crate::commands::clean::Report) -> String {
    let n = r.removed.len();
    let kept: Vec<String> = r
        .removed
        .iter()
        .filter(|x| x.kept_other_files)
        .map(|x| {
            format!(
                "kept {}: it holds files git-handover did not write\n",
                escape(&x.path.display().to_string())
            )
        })
        .collect();
    let summary = match (n, r.dry_run) {
        (0, _) => "nothing to clean\n".to_owned(),
        (n, true) => format!(
            "{n} session{} would be removed\n",
            if n == 1 { "" } else { "s" }
        ),
        (n, false) => format!("removed {n} session{}\n", if n == 1 { "" } else { "s" }),
    };
    kept.concat() + &summary
}

/// The numbered list `continue` offers when several handovers could be resumed.
pub fn candidates(list: &[crate::commands::r#continue::Candidate]) -> String {
    let mut out = String::new();
    for (i, c) in list.iter().enumerate() {
        let h = &c.handover;
        let mut parts = vec![format!("{:>2}) {}", i + 1, escape(&c.handle))];
        if let Some(a) = &h.assessment {
            if let Some(branch) = &a.branch {
                parts.push(format!("branch {}", escape(branch)));
            }
            if h.kind == Kind::Session && a.branch.is_some() {
                if let Some(fingerprint) = h.key.rsplit('/').next() {
                    parts.push(format!("fingerprint {}", escape(fingerprint)));
                }
            }
            match h.kind {
                Kind::ContinueHere => parts.push("continue-here note".into()),
                _ => parts.push(format!("{} done / {} remaining", a.done, a.total - a.done)),
            }
            if let Some(next) = &a.next {
                parts.push(format!(
                    "next: [{}] {}",
                    escape(&next.id),
                    one_line(&next.description, 48)
                ));
            } else if let Some(step) = a.note.as_ref().and_then(|n| n.next_steps.first()) {
                parts.push(format!("next: {}", one_line(step, 48)));
            }
            if a.presence == Presence::Orphan {
                parts.push("⚠ worktree deleted".into());
            }
        }
        // A handle that is a key or a relative path is this worktree's; say where others are.
        if c.handle.starts_with('/') {
            parts.push(format!(
                "in {}",
                escape(&c.worktree.path.display().to_string())
            ));
        }
        out.push_str(&parts.join("  "));
        out.push('\n');
    }
    out
}

pub fn continue_(r: &crate::commands::r#continue::Report, p: &Painter) -> String {
    use crate::commands::r#continue::Outcome;
    let mut out = String::new();
    for a in &r.announcements {
        let _ = writeln!(out, "{}", escape(a));
    }
    match &r.outcome {
        Outcome::Nothing => {
            out.push_str("nothing to resume: no ready session, legacy state or continue-here note in any worktree\n");
        }
        Outcome::Choose(list) => out.push_str(&candidates(list)),
        Outcome::AllComplete(c) => {
            let _ = writeln!(
                out,
                "All tasks of {} are done. Waiting for new work.",
                escape(&c.handover.key)
            );
        }
        Outcome::Briefing(b) => briefing(&mut out, b, p),
    }
    if !r.effects.is_empty() && matches!(r.outcome, Outcome::Briefing(_)) {
        out.push('\n');
    }
    for e in &r.effects {
        out.push_str(&effect(e));
    }
    out
}

fn briefing(out: &mut String, b: &crate::commands::r#continue::Briefing, p: &Painter) {
    let c = &b.candidate;
    let _ = writeln!(
        out,
        "Resuming in {}",
        p.bold(&escape(&c.worktree.path.display().to_string()))
    );
    handover(out, &c.handover, &c.worktree, p, true);
    let Some(a) = &c.handover.assessment else {
        return;
    };
    if !b.recent.is_empty() {
        detail(
            out,
            "recent",
            &format!(
                "{} {}",
                b.recent[0].id.short(),
                one_line(&b.recent[0].subject, SUMMARY_WIDTH)
            ),
        );
        for commit in &b.recent[1..] {
            more(
                out,
                &format!(
                    "{} {}",
                    commit.id.short(),
                    one_line(&commit.subject, SUMMARY_WIDTH)
                ),
            );
        }
    }
    if !b.open_tasks.is_empty() {
        let _ = writeln!(out, "\n{}", p.bold("Open tasks"));
        for t in &b.open_tasks {
            let stale = a.stale_tasks.iter().find(|s| s.id == t.id).map(|s| {
                p.warn(&format!(
                    "  ⚠ stale ({} untouched)",
                    human_duration(s.untouched_for)
                ))
            });
            let _ = writeln!(
                out,
                "  [{}] {} {}{}",
                escape(&t.id),
                escape(t.status.as_str()),
                one_line(&t.description, SUMMARY_WIDTH),
                stale.unwrap_or_default()
            );
            if !t.file_paths.is_empty() {
                let _ = writeln!(out, "      files: {}", escape(&t.file_paths.join(", ")));
            }
            if let Some(next) = t.next_action.as_deref().filter(|n| !n.is_empty()) {
                let _ = writeln!(out, "      next: {}", one_line(next, SUMMARY_WIDTH));
            }
            if !t.blockers.is_empty() {
                let _ = writeln!(out, "      blockers: {}", escape(&t.blockers.join(", ")));
            }
        }
    }
    if !b.other_tasks.is_empty() {
        let ids: Vec<String> = b.other_tasks.iter().map(|i| escape(i)).collect();
        let _ = writeln!(out, "  not started: {}", ids.join(", "));
    }
    if let Some(note) = &b.note {
        use crate::continue_here::Known;
        for known in [
            Known::Objective,
            Known::Completed,
            Known::InProgress,
            Known::NextSteps,
            Known::Context,
        ] {
            let Some(section) = note.section(known) else {
                continue;
            };
            if section.text().is_empty() {
                continue;
            }
            let _ = writeln!(out, "\n{}", p.bold(known.title()));
            for line in section.lines.iter().filter(|l| !l.trim().is_empty()) {
                let _ = writeln!(out, "  {}", escape(line.trim_end()));
            }
        }
    }
    let user_items = a
        .note
        .as_ref()
        .map(|n| n.user_items.clone())
        .unwrap_or_default();
    if !user_items.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            p.warn("Needs the user (do not start these without them):")
        );
        for item in &user_items {
            let _ = writeln!(out, "  - {}", escape(item));
        }
    }
    let first = b
        .open_tasks
        .first()
        .map(|t| {
            format!(
                "[{}] {}",
                escape(&t.id),
                one_line(&t.description, SUMMARY_WIDTH)
            )
        })
        .or_else(|| {
            a.note
                .as_ref()
                .and_then(|n| n.next_steps.first())
                .map(|s| one_line(s, SUMMARY_WIDTH))
        });
    let _ = writeln!(out);
    match (b.successor, first) {
        (true, Some(first)) => {
            let _ = writeln!(out, "Successor: start now with {first}, without waiting for approval.");
        }
        (true, None) => out.push_str("Successor: start now, without waiting for approval.\n"),
        (false, _) if a.freshness != Some(Freshness::Fresh) => {
            out.push_str(
                "Next: this handover is not fresh; show the user the evidence above and ask whether to continue \
                 from it or start afresh. Start no work before they answer.\n",
            );
        }
        (false, _) => out.push_str(
            "Next: ask the user whether to work through these tasks in this order. Start no work before they approve.\n",
        ),
    }
}

fn effect(e: &crate::commands::r#continue::Effect) -> String {
    use crate::commands::r#continue::Effect;
    let path = |p: &std::path::Path| escape(&p.display().to_string());
    match e {
        Effect::Migrated { from, key } => {
            format!("migrated {} to session {}\n", path(from), escape(key))
        }
        Effect::Rendered { path: p } => format!("regenerated {}\n", path(p)),
        Effect::Cleaned { path: p } => format!("removed finished session {}\n", path(p)),
        Effect::Consumed {
            path: p,
            copy,
            committed,
        } => format!(
            "consumed {} (a copy is in {}{})\n",
            path(p),
            escape(copy),
            if *committed {
                "; its removal was committed"
            } else {
                ""
            }
        ),
        Effect::Restored {
            key,
            path: p,
            commit,
        } => format!(
            "restored session {} from the notes store (note on {}) into {}\n",
            escape(key),
            &commit[..commit.len().min(7)],
            path(p)
        ),
    }
}

pub fn hook(r: &crate::commands::hook::InstallReport, install: bool) -> String {
    let path = escape(&r.settings.display().to_string());
    let mut out = match (install, r.changed) {
        (true, true) => format!("added the SessionStart hook to {path}\n"),
        (true, false) => format!("{path} already has the SessionStart hook\n"),
        (false, true) => format!("removed the SessionStart hook from {path}\n"),
        (false, false) => format!("{path} has no SessionStart hook of git-handover\n"),
    };
    if let Some((file, changed)) = &r.instructions {
        let file = escape(&file.display().to_string());
        let _ = match (install, changed) {
            (true, true) => writeln!(out, "added a Session continuity section to {file}"),
            (true, false) => writeln!(out, "{file} already has a Session continuity section"),
            (false, true) => writeln!(out, "removed the Session continuity section from {file}"),
            (false, false) => writeln!(
                out,
                "{file} has no Session continuity section written by git-handover"
            ),
        };
    }
    out
}

pub fn log(r: &crate::commands::log::Report) -> String {
    let mut out = String::new();
    if r.records.is_empty() {
        let _ = writeln!(out, "no records in {}", escape(&r.notes_ref));
        return out;
    }
    for s in &r.records {
        let rec = &s.record;
        let what = match rec.kind {
            crate::notes::RecordKind::Session => {
                let state = rec.state.as_ref();
                let status = state
                    .and_then(|m| m.get("status"))
                    .and_then(serde_json::Value::as_str)
                    .unwrap_or("?");
                let tasks = state
                    .and_then(|m| m.get("active_tasks"))
                    .and_then(serde_json::Value::as_array);
                let done = tasks.map_or(0, |t| {
                    t.iter()
                        .filter(|t| {
                            t.get("status").and_then(serde_json::Value::as_str) == Some("done")
                        })
                        .count()
                });
                format!(
                    "{}, {done}/{} done",
                    escape(status),
                    tasks.map_or(0, Vec::len)
                )
            }
            crate::notes::RecordKind::ContinueHere => "consumed note".to_owned(),
        };
        let _ = writeln!(
            out,
            "{}  {}  {}  {}",
            crate::session::format_time(rec.saved_at),
            rec.kind.as_str(),
            escape(&rec.key),
            what
        );
        let mut place = format!("note on {}", &s.commit[..s.commit.len().min(7)]);
        if let Some(b) = &rec.branch {
            let _ = write!(place, ", branch {}", escape(b));
        }
        if let Some(w) = &rec.worktree {
            let _ = write!(place, ", worktree {}", escape(w));
        }
        let _ = writeln!(out, "    {place}");
    }
    out
}

pub fn sync(r: &crate::commands::sync::Report) -> String {
    use crate::git::NotesMerge;
    let mut out = String::new();
    if r.rewrite_ref == Some(true) {
        let _ = writeln!(out, "added {} to notes.rewriteRef", escape(&r.notes_ref));
    }
    if !r.remote_had_notes {
        let _ = writeln!(
            out,
            "{} has no {} yet",
            escape(&r.remote),
            escape(&r.notes_ref)
        );
    }
    for m in &r.merges {
        match m {
            NotesMerge::NoOther | NotesMerge::UpToDate => {}
            NotesMerge::FastForward => {
                let _ = writeln!(out, "took the remote's records (fast-forward)");
            }
            NotesMerge::Merged { combined } => {
                let _ = writeln!(
                    out,
                    "merged the remote's records ({combined} note{} joined line by line)",
                    if *combined == 1 { "" } else { "s" }
                );
            }
        }
    }
    match (&r.local, r.pushed) {
        (None, _) => {
            let _ = writeln!(out, "nothing to exchange: neither side has records");
        }
        (Some(_), true) => {
            let _ = writeln!(
                out,
                "pushed {} to {}",
                escape(&r.notes_ref),
                escape(&r.remote)
            );
        }
        (Some(_), false) => {
            let _ = writeln!(
                out,
                "{} is up to date with {}",
                escape(&r.notes_ref),
                escape(&r.remote)
            );
        }
    }
    out
}
