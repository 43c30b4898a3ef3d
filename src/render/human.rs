//! Human output. The only place that colours; everything read from handover files is
//! escaped before it is printed.

use std::fmt::Write as _;

use owo_colors::{OwoColorize as _, Style};

use crate::assess::{Assessment, Handover, Kind};
use crate::commands::status;
use crate::config::Lang;
use crate::git::Worktree;
use crate::text::{escape, one_line};
use crate::verdict::{CommitState, Freshness, Presence};

/// Width of the labels of detail lines, so values line up.
const LABEL: usize = 10;
/// Descriptions are cut to this many characters in one-line summaries.
const SUMMARY_WIDTH: usize = 72;

/// How human output looks: colour or not, and its language.
pub struct Painter {
    color: bool,
    lang: Lang,
}

impl Painter {
    pub fn new(color: bool, lang: Lang) -> Self {
        Painter { color, lang }
    }

    /// A message of the catalog.
    pub fn t<'a>(&self, key: &'a str) -> &'a str {
        crate::i18n::text(self.lang, key)
    }

    fn duration(&self, d: std::time::Duration) -> String {
        crate::i18n::duration(self.lang, d)
    }

    fn separator(&self) -> &'static str {
        crate::i18n::list_separator(self.lang)
    }

    /// A message of the catalog with its `{name}` arguments filled in.
    pub fn f(&self, key: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
        crate::i18n::fill(self.lang, key, args)
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
            let _ = writeln!(out, "{}", p.t("status.none_here"));
        } else if n == 1 {
            let _ = writeln!(out, "{}", p.t("status.none_only"));
        } else {
            let _ = writeln!(out, "{}", p.f("status.none_any", &[("n", &n)]));
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
                p.t("wt.offline")
            } else {
                p.t("wt.prunable")
            };
            let _ = writeln!(
                out,
                "  {}",
                p.dim(&p.f("status.not_scanned", &[("why", &why)]))
            );
            continue;
        }
        if wt.handovers.is_empty() {
            let _ = writeln!(out, "  {}", p.dim(p.t("status.no_handovers")));
        }
        for h in &wt.handovers {
            handover(&mut out, h, &wt.worktree, p, false);
        }
    }
    if let (false, Some(main)) = (report.stored.is_empty(), report.worktrees.first()) {
        let _ = writeln!(
            out,
            "\n{} {}",
            p.bold(p.t("status.store")),
            p.t("status.store_note")
        );
        for h in &report.stored {
            handover(&mut out, h, &main.worktree, p, false);
        }
    }
    out
}

fn worktree_header(out: &mut String, wt: &Worktree, current: bool, p: &Painter) {
    let mut flags = vec![if wt.is_main {
        p.t("wt.main").to_owned()
    } else {
        p.t("wt.linked").to_owned()
    }];
    if current {
        flags.push(p.t("wt.current").into());
    }
    if wt.is_bare {
        flags.push(p.t("wt.bare").into());
    }
    if let Some(reason) = &wt.locked {
        flags.push(if reason.is_empty() {
            p.t("wt.locked").into()
        } else {
            p.f("wt.locked_why", &[("reason", &one_line(reason, 40))])
        });
    }
    if wt.prunable {
        flags.push(p.t("wt.prunable").into());
    }
    let separator = p.separator();
    let _ = writeln!(
        out,
        "{} ({})",
        p.bold(&escape(&wt.path.display().to_string())),
        flags.join(separator)
    );
    if wt.is_bare {
        return;
    }
    let head = wt
        .head
        .map_or_else(|| p.t("wt.no_commits").to_owned(), |h| h.short());
    let line = match (&wt.branch, wt.detached) {
        (Some(b), false) => p.f("wt.on_branch", &[("branch", &escape(b)), ("head", &head)]),
        _ => p.f("wt.detached", &[("head", &head)]),
    };
    let _ = writeln!(out, "  {line}");
}

fn detail(out: &mut String, label: &str, value: &str) {
    let _ = writeln!(out, "      {} {value}", crate::i18n::pad(label, LABEL));
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
                .map(|r| p.f("kind.in_root", &[("root", &escape(r))]))
                .unwrap_or_default();
            let key = if team {
                "kind.team_session"
            } else {
                "kind.session"
            };
            p.f(key, &[("key", &escape(&h.key)), ("root", &root)])
        }
        Kind::Legacy => p.f("kind.legacy", &[("key", &escape(&h.key))]),
        Kind::ContinueHere => p.f("kind.note", &[("key", &escape(&h.key))]),
    };
    let _ = writeln!(out, "  {}", p.bold(&title));
    if let Some(stored) = &h.stored {
        let from = stored
            .worktree
            .as_deref()
            .map(|w| p.f("stored.from", &[("path", &escape(w))]))
            .unwrap_or_default();
        detail(
            out,
            p.t("label.stored"),
            &p.f(
                "stored.value",
                &[
                    ("commit", &&stored.commit[..stored.commit.len().min(7)]),
                    ("time", &crate::session::format_time(stored.saved_at)),
                    ("from", &from),
                ],
            ),
        );
    }
    if let Some(err) = &h.error {
        detail(out, p.t("label.invalid"), &p.bad(&escape(err)));
        return;
    }
    let Some(a) = &h.assessment else { return };
    if let Some(status) = &a.status {
        let counts = p.f(
            "status.counts",
            &[
                ("status", &escape(status)),
                ("done", &a.done),
                ("total", &a.total),
            ],
        );
        let counts = if status == crate::state::ALL_COMPLETE {
            p.good(&counts)
        } else {
            counts
        };
        detail(out, p.t("label.status"), &counts);
        if let Some(next) = &a.next {
            detail(
                out,
                p.t("label.next"),
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
            detail(
                out,
                p.t("label.objective"),
                &one_line(objective, SUMMARY_WIDTH),
            );
        }
        if let Some(step) = note.next_steps.first() {
            detail(out, p.t("label.next"), &one_line(step, SUMMARY_WIDTH));
        }
    }
    freshness(out, a, wt, p);
    presence(out, a, p);
    commits(out, a, p);
    for stale in &a.stale_tasks {
        detail(
            out,
            p.t("label.stale"),
            &p.warn(&p.f(
                "stale.untouched",
                &[
                    ("id", &escape(&stale.id)),
                    ("age", &p.duration(stale.untouched_for)),
                ],
            )),
        );
    }
    if let Some(note) = &a.note {
        for item in note.user_items.iter().filter(|_| !briefing) {
            detail(
                out,
                p.t("label.user"),
                &p.warn(&one_line(item, SUMMARY_WIDTH)),
            );
        }
        let mut missing: Vec<String> = note
            .missing_header
            .iter()
            .map(|h| p.f("partial.header", &[("name", h)]))
            .collect();
        missing.extend(note.missing_sections.iter().map(|s| format!("## {s}")));
        if !missing.is_empty() {
            detail(
                out,
                p.t("label.partial"),
                &p.dim(&p.f("partial.missing", &[("list", &missing.join(", "))])),
            );
        }
    }
}

fn freshness(out: &mut String, a: &Assessment, wt: &Worktree, p: &Painter) {
    let Some(f) = a.freshness else {
        detail(out, p.t("label.freshness"), &p.dim(p.t("fresh.unknown")));
        return;
    };
    let word = match f {
        Freshness::Fresh => p.good(p.t("fresh.fresh")),
        Freshness::Stale => p.warn(p.t("fresh.stale")),
        Freshness::Superseded => p.bad(p.t("fresh.superseded")),
    };
    let mut text = word;
    if let Some(age) = a.age {
        let key = match (a.written_from_mtime, a.note.is_some()) {
            (true, _) => "fresh.age_file",
            (false, true) => "fresh.age_updated",
            (false, false) => "fresh.age_written",
        };
        text.push_str(&p.f(key, &[("age", &p.duration(age))]));
    }
    if let Some(branch) = &a.branch {
        text.push_str(&p.f("fresh.on", &[("branch", &escape(branch))]));
    }
    if !a.branch_matches {
        let here = wt
            .branch
            .as_deref()
            .filter(|_| !wt.detached)
            .map_or_else(|| p.t("wt.a_detached_head").to_owned(), escape);
        text.push_str(&p.f("fresh.worktree_on", &[("here", &here)]));
    }
    detail(out, p.t("label.freshness"), &text);
    if a.newer.count > 0 {
        let n = a.newer.count;
        more(
            out,
            &if n == 1 {
                p.t("fresh.newer_one").to_owned()
            } else {
                p.f("fresh.newer_many", &[("n", &n)])
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
                &p.f("fresh.and_more", &[("n", &(n - a.newer.newest.len()))]),
            );
        }
    }
}

fn presence(out: &mut String, a: &Assessment, p: &Painter) {
    let root = a.workspace_root.as_deref().map(escape).unwrap_or_default();
    match a.presence {
        Presence::Present => {}
        Presence::Orphan => detail(
            out,
            p.t("label.orphan"),
            &p.bad(&p.f("presence.orphan", &[("root", &root)])),
        ),
        Presence::Offline => detail(
            out,
            p.t("label.offline"),
            &p.warn(&p.f("presence.offline", &[("root", &root)])),
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
            let text = p.f(&format!("commit.{}", s.as_str()), &[("n", &n)]);
            parts.push(if s == CommitState::Ok {
                p.good(&text)
            } else {
                p.bad(&text)
            });
        }
    }
    let rewritten = a.commits.iter().filter(|c| c.rewritten.is_some()).count();
    if rewritten > 0 {
        parts.push(p.warn(&p.f("commit.rewritten", &[("n", &rewritten)])));
    }
    detail(out, p.t("label.commits"), &parts.join(p.separator()));
    for c in a.commits.iter().filter(|c| c.needs_attention()) {
        let sha = escape(&c.recorded.chars().take(12).collect::<String>());
        let mut line = p.f(
            &format!("commit.line_{}", c.state.as_str()),
            &[("task", &escape(&c.task_id)), ("sha", &sha)],
        );
        if let Some(new) = &c.rewritten {
            line.push_str(&p.f("commit.rewritten_to", &[("sha", &&new[..7.min(new.len())])]));
        }
        more(out, &line);
    }
}

/// `save` prints the session key alone, for scripts and agents.
pub fn save(w: &crate::store::Written) -> String {
    format!("{}\n", escape(&w.session.key))
}

pub fn task(r: &crate::commands::task::Report, p: &Painter) -> String {
    let status = r
        .written
        .state
        .tasks
        .iter()
        .find(|t| t.id == r.task)
        .map_or("?", |t| t.status.as_str());
    let line = p.f(
        "task.done",
        &[
            ("id", &escape(&r.task)),
            ("status", &escape(status)),
            ("key", &escape(&r.written.session.key)),
            ("session", &escape(&r.written.state.status)),
        ],
    );
    format!("{line}\n")
}

pub fn render(r: &crate::commands::render::Report, p: &Painter) -> String {
    let path = r.session.dir().join(crate::store::MARKDOWN_FILE);
    let path = escape(&path.display().to_string());
    let key = if r.changed {
        "render.done"
    } else {
        "render.same"
    };
    format!("{}\n", p.f(key, &[("path", &path)]))
}

pub fn here(r: &crate::commands::here::Report, p: &Painter) -> String {
    let key = if r.replaced {
        "here.replaced"
    } else {
        "here.wrote"
    };
    let path = escape(&r.path.display().to_string());
    format!("{}\n", p.f(key, &[("path", &path)]))
}

pub fn migrate(r: &crate::commands::migrate::Report, p: &Painter) -> String {
    let mut out = p.f(
        "migrate.done",
        &[
            ("from", &escape(&r.from.display().to_string())),
            ("key", &escape(&r.session.key)),
        ],
    );
    out.push('\n');
    if r.removed_markdown {
        let _ = writeln!(out, "{}", p.t("migrate.removed_md"));
    }
    out
}

/// Removals were announced as they happened; this is the closing line.
pub fn clean(r: &crate::commands::clean::Report, p: &Painter) -> String {
    let n = r.removed.len();
    let kept: Vec<String> = r
        .removed
        .iter()
        .filter(|x| x.kept_other_files)
        .map(|x| {
            let path = escape(&x.path.display().to_string());
            format!("{}\n", p.f("clean.kept", &[("path", &path)]))
        })
        .collect();
    let summary = match (n, r.dry_run) {
        (0, _) => p.t("clean.nothing").to_owned(),
        (1, true) => p.t("clean.would_one").to_owned(),
        (n, true) => p.f("clean.would_many", &[("n", &n)]),
        (1, false) => p.t("clean.removed_one").to_owned(),
        (n, false) => p.f("clean.removed_many", &[("n", &n)]),
    };
    kept.concat() + &summary + "\n"
}

/// The numbered list `continue` offers when several handovers could be resumed.
pub fn candidates(list: &[crate::commands::r#continue::Candidate], p: &Painter) -> String {
    let mut out = String::new();
    for (i, c) in list.iter().enumerate() {
        let h = &c.handover;
        let mut parts = vec![format!("{:>2}) {}", i + 1, escape(&c.handle))];
        if let Some(a) = &h.assessment {
            if let Some(branch) = &a.branch {
                parts.push(p.f("cand.branch", &[("branch", &escape(branch))]));
            }
            if h.kind == Kind::Session && a.branch.is_some() {
                if let Some(fingerprint) = h.key.rsplit('/').next() {
                    parts.push(p.f("cand.fingerprint", &[("fp", &escape(fingerprint))]));
                }
            }
            match h.kind {
                Kind::ContinueHere => parts.push(p.t("cand.note").into()),
                _ => parts.push(p.f(
                    "cand.counts",
                    &[("done", &a.done), ("left", &(a.total - a.done))],
                )),
            }
            if let Some(next) = &a.next {
                let what = format!("[{}] {}", escape(&next.id), one_line(&next.description, 48));
                parts.push(p.f("cand.next", &[("what", &what)]));
            } else if let Some(step) = a.note.as_ref().and_then(|n| n.next_steps.first()) {
                parts.push(p.f("cand.next", &[("what", &one_line(step, 48))]));
            }
            if a.presence == Presence::Orphan {
                parts.push(p.t("cand.orphan").into());
            }
        }
        // A handle that is a key or a relative path is this worktree's; say where others are.
        if c.handle.starts_with('/') {
            let path = escape(&c.worktree.path.display().to_string());
            parts.push(p.f("cand.in", &[("path", &path)]));
        }
        out.push_str(&parts.join("  "));
        out.push('\n');
    }
    out
}

pub fn continue_(r: &crate::commands::r#continue::Report, p: &Painter) -> String {
    use crate::commands::r#continue::{Announcement, Outcome};
    let mut out = String::new();
    for a in &r.announcements {
        let line = match a {
            Announcement::OtherWorktree { path, keys } => p.f(
                "cont.other_worktree",
                &[
                    ("path", &escape(&path.display().to_string())),
                    ("keys", &escape(&keys.join(", "))),
                ],
            ),
            Announcement::Store { keys } => {
                p.f("cont.store", &[("keys", &escape(&keys.join(", ")))])
            }
        };
        let _ = writeln!(out, "{line}");
    }
    match &r.outcome {
        Outcome::Nothing => {
            let _ = writeln!(out, "{}", p.t("cont.nothing"));
        }
        Outcome::Choose(list) => out.push_str(&candidates(list, p)),
        Outcome::AllComplete(c) => {
            let _ = writeln!(
                out,
                "{}",
                p.f("cont.all_complete", &[("key", &escape(&c.handover.key))])
            );
        }
        Outcome::Briefing(b) => briefing(&mut out, b, p),
    }
    if !r.effects.is_empty() && matches!(r.outcome, Outcome::Briefing(_)) {
        out.push('\n');
    }
    for e in &r.effects {
        out.push_str(&effect(e, p));
    }
    out
}

fn briefing(out: &mut String, b: &crate::commands::r#continue::Briefing, p: &Painter) {
    let c = &b.candidate;
    let path = p.bold(&escape(&c.worktree.path.display().to_string()));
    let _ = writeln!(out, "{}", p.f("cont.resuming", &[("path", &path)]));
    handover(out, &c.handover, &c.worktree, p, true);
    let Some(a) = &c.handover.assessment else {
        return;
    };
    if !b.recent.is_empty() {
        detail(
            out,
            p.t("label.recent"),
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
        let _ = writeln!(out, "\n{}", p.bold(p.t("cont.open_tasks")));
        for t in &b.open_tasks {
            let stale =
                a.stale_tasks.iter().find(|s| s.id == t.id).map(|s| {
                    p.warn(&p.f("cont.stale_mark", &[("age", &p.duration(s.untouched_for))]))
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
                let list = escape(&t.file_paths.join(", "));
                let _ = writeln!(out, "      {}", p.f("cont.files", &[("list", &list)]));
            }
            if let Some(next) = t.next_action.as_deref().filter(|n| !n.is_empty()) {
                let what = one_line(next, SUMMARY_WIDTH);
                let _ = writeln!(out, "      {}", p.f("cont.next", &[("what", &what)]));
            }
            if !t.blockers.is_empty() {
                let list = escape(&t.blockers.join(", "));
                let _ = writeln!(out, "      {}", p.f("cont.blockers", &[("list", &list)]));
            }
        }
    }
    if !b.other_tasks.is_empty() {
        let ids: Vec<String> = b.other_tasks.iter().map(|i| escape(i)).collect();
        let list = ids.join(", ");
        let _ = writeln!(out, "  {}", p.f("cont.not_started", &[("list", &list)]));
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
            let title = match known {
                Known::Objective => p.t("section.objective"),
                Known::Completed => p.t("section.completed"),
                Known::InProgress => p.t("section.in_progress"),
                Known::NextSteps => p.t("section.next_steps"),
                Known::Context => p.t("section.context"),
            };
            let _ = writeln!(out, "\n{}", p.bold(title));
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
        let _ = writeln!(out, "\n{}", p.warn(p.t("cont.needs_user")));
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
    let line = match (b.successor, first) {
        (true, Some(first)) => p.f("cont.successor_first", &[("first", &first)]),
        (true, None) => p.t("cont.successor").to_owned(),
        (false, _) if a.freshness != Some(Freshness::Fresh) => p.t("cont.ask_not_fresh").to_owned(),
        (false, _) => p.t("cont.ask").to_owned(),
    };
    let _ = writeln!(out, "{line}");
}

fn effect(e: &crate::commands::r#continue::Effect, p: &Painter) -> String {
    use crate::commands::r#continue::Effect;
    let path = |x: &std::path::Path| escape(&x.display().to_string());
    let line = match e {
        Effect::Migrated { from, key } => p.f(
            "migrate.done",
            &[("from", &path(from)), ("key", &escape(key))],
        ),
        Effect::Rendered { path: x } => p.f("effect.rendered", &[("path", &path(x))]),
        Effect::Cleaned { path: x } => p.f("effect.cleaned", &[("path", &path(x))]),
        Effect::Consumed {
            path: x,
            copy,
            committed,
        } => p.f(
            if *committed {
                "effect.consumed_committed"
            } else {
                "effect.consumed"
            },
            &[("path", &path(x)), ("copy", &escape(copy))],
        ),
        Effect::Restored {
            key,
            path: x,
            commit,
        } => p.f(
            "effect.restored",
            &[
                ("key", &escape(key)),
                ("commit", &&commit[..commit.len().min(7)]),
                ("path", &path(x)),
            ],
        ),
    };
    format!("{line}\n")
}

pub fn hook(r: &crate::commands::hook::InstallReport, install: bool, p: &Painter) -> String {
    let path = escape(&r.settings.display().to_string());
    let key = match (install, r.changed) {
        (true, true) => "hook.added",
        (true, false) => "hook.present",
        (false, true) => "hook.removed",
        (false, false) => "hook.absent",
    };
    let mut out = format!("{}\n", p.f(key, &[("path", &path)]));
    if let Some((file, changed)) = &r.instructions {
        let file = escape(&file.display().to_string());
        let key = match (install, changed) {
            (true, true) => "hook.instr_added",
            (true, false) => "hook.instr_present",
            (false, true) => "hook.instr_removed",
            (false, false) => "hook.instr_absent",
        };
        let _ = writeln!(out, "{}", p.f(key, &[("path", &file)]));
    }
    out
}

pub fn log(r: &crate::commands::log::Report, p: &Painter) -> String {
    let mut out = String::new();
    if r.records.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            p.f("log.none", &[("notes_ref", &escape(&r.notes_ref))])
        );
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
                p.f(
                    "status.counts",
                    &[
                        ("status", &escape(status)),
                        ("done", &done),
                        ("total", &tasks.map_or(0, Vec::len)),
                    ],
                )
            }
            crate::notes::RecordKind::ContinueHere => p.t("log.consumed").to_owned(),
        };
        let _ = writeln!(
            out,
            "{}  {}  {}  {}",
            crate::session::format_time(rec.saved_at),
            rec.kind.as_str(),
            escape(&rec.key),
            what
        );
        let mut place = p.f(
            "log.note_on",
            &[("commit", &&s.commit[..s.commit.len().min(7)])],
        );
        if let Some(b) = &rec.branch {
            place.push_str(&p.f("log.branch", &[("branch", &escape(b))]));
        }
        if let Some(w) = &rec.worktree {
            place.push_str(&p.f("log.worktree", &[("path", &escape(w))]));
        }
        let _ = writeln!(out, "    {place}");
    }
    out
}

pub fn sync(r: &crate::commands::sync::Report, p: &Painter) -> String {
    use crate::git::NotesMerge;
    let mut out = String::new();
    let notes_ref = escape(&r.notes_ref);
    let remote = escape(&r.remote);
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    if r.rewrite_ref == Some(true) {
        line(p.f("sync.rewrite_added", &[("notes_ref", &notes_ref)]));
    }
    if !r.remote_had_notes {
        line(p.f(
            "sync.remote_empty",
            &[("remote", &remote), ("notes_ref", &notes_ref)],
        ));
    }
    for m in &r.merges {
        match m {
            NotesMerge::NoOther | NotesMerge::UpToDate => {}
            NotesMerge::FastForward => line(p.t("sync.fast_forward").to_owned()),
            NotesMerge::Merged { combined } => line(p.f("sync.merged", &[("n", combined)])),
        }
    }
    let key = match (&r.local, r.pushed) {
        (None, _) => "sync.nothing",
        (Some(_), true) => "sync.pushed",
        (Some(_), false) => "sync.same",
    };
    line(p.f(key, &[("notes_ref", &notes_ref), ("remote", &remote)]));
    out
}
