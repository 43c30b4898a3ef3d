//! `status`: worktrees, handovers and their verdicts.

use std::fmt::Write as _;

use super::Painter;
use super::handover::handover;
use crate::commands::status;
use crate::git::Worktree;
use crate::support::text::{escape, one_line};

pub fn status(report: &status::Report, p: &Painter) -> String {
    if report.short {
        return super::short::short(report, p);
    }
    let mut out = String::new();
    if report.handover_count() == 0 {
        let n = report.worktrees.len();
        if report.here {
            let _ = writeln!(out, "{}", p.t(crate::k!("status.none_here")));
        } else if n == 1 {
            let _ = writeln!(out, "{}", p.t(crate::k!("status.none_only")));
        } else {
            let _ = writeln!(out, "{}", p.f(crate::k!("status.none_any"), &[("n", &n)]));
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
                p.t(crate::k!("wt.offline"))
            } else {
                p.t(crate::k!("wt.prunable"))
            };
            let _ = writeln!(
                out,
                "  {}",
                p.dim(&p.f(crate::k!("status.not_scanned"), &[("why", &why)]))
            );
            continue;
        }
        if wt.handovers.is_empty() {
            let _ = writeln!(out, "  {}", p.dim(p.t(crate::k!("status.no_handovers"))));
        }
        let mut shown = 0;
        for h in &wt.handovers {
            // With --check, only what needs attention is listed.
            if report.check && !h.needs_attention() {
                continue;
            }
            shown += 1;
            handover(&mut out, h, &wt.worktree, p, false);
        }
        if report.check && shown == 0 && !wt.handovers.is_empty() {
            let _ = writeln!(out, "  {}", p.dim(p.t(crate::k!("status.all_fine"))));
        }
    }
    if let (false, Some(main)) = (report.stored.is_empty(), report.worktrees.first()) {
        let _ = writeln!(
            out,
            "\n{} {}",
            p.bold(p.t(crate::k!("status.store"))),
            p.t(crate::k!("status.store_note"))
        );
        for h in &report.stored {
            handover(&mut out, h, &main.worktree, p, false);
        }
    }
    for d in &report.diverged {
        super::short::diverged(&mut out, d, p);
    }
    out
}

pub(super) fn worktree_header(out: &mut String, wt: &Worktree, current: bool, p: &Painter) {
    let mut flags = vec![if wt.is_main {
        p.t(crate::k!("wt.main")).to_owned()
    } else {
        p.t(crate::k!("wt.linked")).to_owned()
    }];
    if current {
        flags.push(p.t(crate::k!("wt.current")).into());
    }
    if wt.is_bare {
        flags.push(p.t(crate::k!("wt.bare")).into());
    }
    if let Some(reason) = &wt.locked {
        flags.push(if reason.is_empty() {
            p.t(crate::k!("wt.locked")).into()
        } else {
            p.f(
                crate::k!("wt.locked_why"),
                &[("reason", &one_line(reason, 40))],
            )
        });
    }
    if wt.prunable {
        flags.push(p.t(crate::k!("wt.prunable")).into());
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
        .map_or_else(|| p.t(crate::k!("wt.no_commits")).to_owned(), |h| h.short());
    let line = match (&wt.branch, wt.detached) {
        (Some(b), false) => p.f(
            crate::k!("wt.on_branch"),
            &[("branch", &escape(b)), ("head", &head)],
        ),
        _ => p.f(crate::k!("wt.detached"), &[("head", &head)]),
    };
    let _ = writeln!(out, "  {line}");
}
