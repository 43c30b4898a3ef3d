//! The write commands (`save`, `task`, `render`, `here`, `migrate`, `clean`, `hook`)
//! and the notes store commands (`log`, `sync`).

use std::fmt::Write as _;

use super::Painter;
use crate::support::text::escape;

/// `save` prints the session key alone, for scripts and agents.
pub fn save(w: &crate::facts::written::Saved) -> String {
    format!("{}\n", escape(&w.key))
}

pub fn task(r: &crate::commands::task::Report, p: &Painter) -> String {
    let Some(status) = r
        .written
        .state
        .tasks
        .iter()
        .find(|t| t.id == r.task)
        .map(|t| t.status.as_str())
    else {
        let line = p.f(
            crate::k!("task.removed"),
            &[
                ("id", &escape(&r.task)),
                ("key", &escape(&r.written.key)),
                ("session", &r.written.state.status),
            ],
        );
        return format!("{line}\n");
    };
    let mut args: Vec<(&str, &dyn std::fmt::Display)> = Vec::new();
    let (id, status, key) = (escape(&r.task), escape(status), escape(&r.written.key));
    args.extend([
        ("id", &id as &dyn std::fmt::Display),
        ("status", &status),
        ("key", &key),
        ("session", &r.written.state.status),
    ]);
    let Some((sha, subject)) = &r.commit else {
        return format!("{}\n", p.f(crate::k!("task.done"), &args));
    };
    let (sha, subject) = (sha.short(), format!("{:?}", escape(subject)));
    args.extend([
        ("sha", &sha as &dyn std::fmt::Display),
        ("subject", &subject),
    ]);
    format!("{}\n", p.f(crate::k!("task.done_at"), &args))
}

pub fn render(r: &crate::commands::render::Report, p: &Painter) -> String {
    let path = escape(&r.markdown.display().to_string());
    let key = if r.changed {
        crate::k!("render.done")
    } else {
        crate::k!("render.same")
    };
    format!("{}\n", p.f(key, &[("path", &path)]))
}

pub fn here(r: &crate::commands::here::Report, p: &Painter) -> String {
    let key = if r.replaced {
        crate::k!("here.replaced")
    } else {
        crate::k!("here.wrote")
    };
    let path = escape(&r.path.display().to_string());
    format!("{}\n", p.f(key, &[("path", &path)]))
}

pub fn migrate(r: &crate::commands::migrate::Report, p: &Painter) -> String {
    let mut out = p.f(
        crate::k!("migrate.done"),
        &[
            ("from", &escape(&r.from.display().to_string())),
            ("key", &escape(&r.session.key)),
        ],
    );
    out.push('\n');
    if r.removed_markdown {
        let _ = writeln!(out, "{}", p.t(crate::k!("migrate.removed_md")));
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
            let left: Vec<String> = x.left.iter().map(|n| escape(n)).collect();
            format!(
                "{}\n",
                p.f(
                    crate::k!("clean.kept"),
                    &[("path", &path), ("left", &left.join(p.separator()))]
                )
            )
        })
        .collect();
    let summary = match (n, r.dry_run) {
        (0, _) => p.t(crate::k!("clean.nothing")).to_owned(),
        (1, true) => p.t(crate::k!("clean.would_one")).to_owned(),
        (n, true) => p.f(crate::k!("clean.would_many"), &[("n", &n)]),
        (1, false) => p.t(crate::k!("clean.removed_one")).to_owned(),
        (n, false) => p.f(crate::k!("clean.removed_many"), &[("n", &n)]),
    };
    kept.concat() + &summary + "\n"
}

pub fn hook(r: &crate::commands::agent_hook::InstallReport, p: &Painter) -> String {
    let install = r.install;
    let path = escape(&r.settings.display().to_string());
    let key = match (install, r.changed) {
        (true, true) => crate::k!("hook.added"),
        (true, false) => crate::k!("hook.present"),
        (false, true) => crate::k!("hook.removed"),
        (false, false) => crate::k!("hook.absent"),
    };
    let mut out = format!("{}\n", p.f(key, &[("path", &path)]));
    if let Some(main) = &r.main_worktree {
        let main = escape(&main.display().to_string());
        let line = p.f(
            crate::k!("hook.codex_main_worktree"),
            &[("path", &path), ("main", &main)],
        );
        let _ = writeln!(out, "{line}");
    }
    if let Some(dir) = &r.made_codex_dir {
        let dir = escape(&dir.display().to_string());
        let _ = writeln!(
            out,
            "{}",
            p.f(crate::k!("hook.codex_dir_made"), &[("path", &dir)])
        );
    }
    if let Some((file, changed)) = &r.instructions {
        let file = escape(&file.display().to_string());
        let key = match (install, changed) {
            (true, true) => crate::k!("hook.instr_added"),
            (true, false) => crate::k!("hook.instr_present"),
            (false, true) => crate::k!("hook.instr_removed"),
            (false, false) => crate::k!("hook.instr_absent"),
        };
        let _ = writeln!(out, "{}", p.f(key, &[("path", &file)]));
    }
    if let Some(file) = &r.excluded {
        let file = escape(&file.display().to_string());
        let _ = writeln!(
            out,
            "{}",
            p.f(
                crate::k!("hook.excluded"),
                &[
                    ("pattern", &"/.claude/settings.local.json"),
                    ("file", &file)
                ]
            )
        );
    }
    if let Some(key) = r.next_step() {
        let _ = writeln!(out, "{}", p.t(key));
    }
    out
}

pub fn log(r: &crate::commands::log::Report, p: &Painter) -> String {
    let mut out = String::new();
    if r.records.is_empty() {
        out.push_str(&log_none(r.key.as_deref(), &r.notes_ref, p));
        if !r.close.is_empty() {
            let close: Vec<String> = r.close.iter().map(|k| escape(k)).collect();
            let _ = writeln!(
                out,
                "{}",
                p.f(
                    crate::k!("log.close"),
                    &[("keys", &close.join(p.separator()))]
                )
            );
        }
        return out;
    }
    for (i, s) in r.records.iter().enumerate() {
        log_entry(
            &mut out,
            s,
            r.changes.get(i).map_or(&[][..], Vec::as_slice),
            p,
        );
    }
    out
}

/// The line of a `log` that lists nothing (of `key`, when one was asked for).
pub fn log_none(key: Option<&str>, notes_ref: &str, p: &Painter) -> String {
    let line = match key {
        Some(key) => p.f(
            crate::k!("log.none_for_key"),
            &[("key", &escape(key)), ("notes_ref", &escape(notes_ref))],
        ),
        None => p.f(crate::k!("log.none"), &[("notes_ref", &escape(notes_ref))]),
    };
    format!("{line}\n")
}

/// One record of `log` and what changed since its session's previous one.
pub fn log_entry(
    out: &mut String,
    s: &crate::commands::log::StoredRecord,
    changes: &[crate::model::changes::Change],
    p: &Painter,
) {
    let rec = &s.record;
    let what = match rec.kind {
        crate::model::record::RecordKind::Session => {
            let doc = rec.state.as_ref().map(crate::model::record::StateText::doc);
            let state = doc.as_ref();
            let status = state
                .and_then(|m| m.get("status"))
                .and_then(serde_json::Value::as_str)
                .unwrap_or("?");
            let tasks = state
                .and_then(|m| m.get("active_tasks"))
                .and_then(serde_json::Value::as_array);
            let done = tasks.map_or(0, |t| {
                t.iter()
                    .filter(|t| t.get("status").and_then(serde_json::Value::as_str) == Some("done"))
                    .count()
            });
            p.f(
                crate::k!("status.counts"),
                &[
                    ("status", &escape(status)),
                    ("done", &done),
                    ("total", &tasks.map_or(0, Vec::len)),
                ],
            )
        }
        crate::model::record::RecordKind::ContinueHere => p.t(crate::k!("log.consumed")).to_owned(),
    };
    let _ = writeln!(
        out,
        "{}  {}  {}  {}",
        crate::model::session::format_time(rec.saved_at),
        rec.kind.as_str(),
        escape(&rec.key),
        what
    );
    let mut place = p.f(crate::k!("log.note_on"), &[("commit", &s.commit.short())]);
    if let Some(b) = &rec.branch {
        place.push_str(&p.f(crate::k!("log.branch"), &[("branch", &escape(b))]));
    }
    if let Some(w) = &rec.worktree {
        place.push_str(&p.f(crate::k!("log.worktree"), &[("path", &escape(w))]));
    }
    let _ = writeln!(out, "    {place}");
    for change in changes {
        use crate::model::changes::Change;
        let line = match change {
            Change::Added { id, status } => p.f(
                crate::k!("log.added"),
                &[("id", &escape(id)), ("status", &escape(status))],
            ),
            Change::Removed { id } => p.f(crate::k!("log.removed"), &[("id", &escape(id))]),
            Change::Moved { id, from, to } => p.f(
                crate::k!("log.moved"),
                &[
                    ("id", &escape(id)),
                    ("from", &escape(from)),
                    ("to", &escape(to)),
                ],
            ),
            Change::Session { from, to } => p.f(
                crate::k!("log.session"),
                &[("from", &escape(from)), ("to", &escape(to))],
            ),
        };
        let _ = writeln!(out, "      {line}");
    }
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
    if let Some(rec) = &r.recorded {
        for key in &rec.keys {
            line(p.f(
                crate::k!("sync.recorded"),
                &[("key", &escape(key)), ("notes_ref", &notes_ref)],
            ));
        }
        line(p.f(
            crate::k!("sync.recorded_total"),
            &[("n", &rec.keys.len()), ("already", &rec.already)],
        ));
        return out;
    }
    if r.rewrite_ref == Some(true) {
        line(p.f(
            crate::k!("sync.rewrite_added"),
            &[("notes_ref", &notes_ref)],
        ));
    }
    if r.rounds == 0 {
        // `sync --rewrite-ref` without a remote: the configuration was all it did.
        if r.rewrite_ref == Some(false) {
            line(p.f(
                crate::k!("sync.rewrite_present"),
                &[("notes_ref", &notes_ref)],
            ));
        }
        return out;
    }
    if !r.remote_had_notes {
        line(p.f(
            crate::k!("sync.remote_empty"),
            &[("remote", &remote), ("notes_ref", &notes_ref)],
        ));
    }
    for m in &r.merges {
        match m {
            NotesMerge::NoOther | NotesMerge::UpToDate => {}
            NotesMerge::FastForward => line(p.t(crate::k!("sync.fast_forward")).to_owned()),
            NotesMerge::Merged { combined: 1 } => {
                line(p.t(crate::k!("sync.merged_one")).to_owned());
            }
            NotesMerge::Merged { combined } => {
                line(p.f(crate::k!("sync.merged"), &[("n", combined)]));
            }
        }
    }
    let key = match (&r.local, r.pushed) {
        (None, _) => crate::k!("sync.nothing"),
        (Some(_), true) => crate::k!("sync.pushed"),
        (Some(_), false) => crate::k!("sync.same"),
    };
    line(p.f(key, &[("notes_ref", &notes_ref), ("remote", &remote)]));
    out.push_str(&super::claims::settled(&r.claims, &remote, p));
    out
}

/// `task list`: the session, then a line a task.
pub fn task_list(r: &crate::commands::task::Listing, p: &Painter) -> String {
    use crate::support::text::one_line;
    let state = &r.state;
    let done = state
        .tasks
        .iter()
        .filter(|t| t.status == crate::model::state::TaskStatus::Done)
        .count();
    let mut out = format!(
        "{} ({}, {done}/{})\n",
        p.bold(&escape(&r.key)),
        state.status,
        state.tasks.len()
    );
    if state.tasks.is_empty() {
        let _ = writeln!(
            out,
            "  {}",
            p.dim(&p.f(crate::k!("task.none"), &[("key", &escape(&r.key))]))
        );
    }
    let width = state
        .tasks
        .iter()
        .map(|t| t.status.as_str().len())
        .max()
        .unwrap_or(0);
    for t in &state.tasks {
        let claim = t.claim.as_ref().map_or_else(String::new, |c| {
            format!(" · {}", super::claims::held(c, r.now, p))
        });
        let _ = writeln!(
            out,
            "  [{}] {:<width$}  {}{claim}",
            escape(&t.id),
            escape(t.status.as_str()),
            one_line(&t.description, 72)
        );
    }
    out
}

/// `task show ID`: one task whole.
pub fn task_show(r: &crate::commands::task::Listing, p: &Painter) -> String {
    let state = &r.state;
    let Some((i, t)) = state
        .tasks
        .iter()
        .enumerate()
        .find(|(_, t)| Some(&t.id) == r.show.as_ref())
    else {
        return String::new();
    };
    let mut out = format!(
        "{} {} ({})\n",
        p.bold(&format!("[{}]", escape(&t.id))),
        escape(t.status.as_str()),
        escape(&r.key)
    );
    let block = |out: &mut String, label: &str, text: &str| {
        let mut lines = text.lines();
        let _ = writeln!(
            out,
            "  {label:<12} {}",
            escape(lines.next().unwrap_or_default())
        );
        for l in lines {
            let _ = writeln!(out, "  {:<12} {}", "", escape(l));
        }
    };
    block(&mut out, p.t(crate::k!("show.description")), &t.description);
    if let Some(next) = &t.next_action {
        block(&mut out, p.t(crate::k!("show.next")), next);
    }
    if !t.file_paths.is_empty() {
        block(
            &mut out,
            p.t(crate::k!("show.files")),
            &t.file_paths.join("\n"),
        );
    }
    if !t.blockers.is_empty() {
        block(
            &mut out,
            p.t(crate::k!("show.blockers")),
            &t.blockers.join("\n"),
        );
    }
    if let Some(sha) = &t.commit_sha {
        block(&mut out, p.t(crate::k!("show.commit")), sha);
    }
    if let Some(touched) = &t.last_touched {
        block(&mut out, p.t(crate::k!("show.touched")), &touched.raw);
    }
    if let Some(c) = &t.claim {
        // Escaped by `held` already.
        let label = p.t(crate::k!("label.claim"));
        let _ = writeln!(out, "  {label:<12} {}", super::claims::held(c, r.now, p));
    }
    let tried: Vec<String> = state
        .extras
        .tried(i)
        .iter()
        .map(|a| a.line(str::to_owned))
        .collect();
    if !tried.is_empty() {
        block(&mut out, p.t(crate::k!("show.tried")), &tried.join("\n"));
    }
    out
}
