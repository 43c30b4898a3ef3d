//! `status --short`, and the sides of a diverged session (in `status` and `continue`).

use std::fmt::Write as _;

use super::Painter;
use crate::commands::status;
use crate::facts::assessed::{Assessment, Handover, Kind};
use crate::facts::side::SideFacts;
use crate::git::Worktree;
use crate::model::verdict::{Freshness, Presence};
use crate::support::text::escape;

/// `status --short`: a line per handover (only those needing attention with --check).
pub(super) fn short(report: &status::Report, p: &Painter) -> String {
    use crate::support::text::one_line;
    let mut rows: Vec<[String; 5]> = Vec::new();
    let name = |w: &Worktree, current: bool| {
        if current {
            ".".to_owned()
        } else {
            escape(&w.path.file_name().map_or_else(
                || w.path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ))
        }
    };
    let mut add = |h: &Handover, wt: String| {
        if report.check && !h.needs_attention() {
            return;
        }
        let flag = if h.error().is_some() {
            'x'
        } else if h.needs_attention() {
            '!'
        } else {
            ' '
        };
        let kind = match (h.kind, h.stored.is_some()) {
            (_, true) => 'R',
            (Kind::Session, _) => 'S',
            (Kind::Legacy, _) => 'L',
            (Kind::ContinueHere, _) => 'N',
        };
        let mut verdicts = Vec::new();
        let mut next = String::new();
        if let Some(a) = h.assessment() {
            if let Some(s) = a.session() {
                verdicts.push(format!("{}/{}", s.done, s.total));
                if let Some(t) = &s.next {
                    next = format!("[{}] {}", escape(&t.id), one_line(&t.description, 40));
                }
            }
            verdicts.push(a.freshness.map_or("unknown", Freshness::as_str).to_owned());
            if a.presence != Presence::Present {
                verdicts.push(a.presence.as_str().to_owned());
            }
            verdicts.extend(commit_words(a, p));
            let stale = a.session().map_or(0, |s| s.stale_tasks.len());
            if stale > 0 {
                verdicts.push(p.f(crate::k!("short.stale"), &[("n", &stale)]));
            }
            verdicts.extend(claim_words(a, p));
            verdicts.extend(
                a.session()
                    .and_then(|s| super::linkage::short_word(&s.linkage, p)),
            );
        } else {
            verdicts.push(p.t(crate::k!("short.unreadable")).to_owned());
        }
        rows.push([
            format!("{flag}{kind}"),
            wt,
            escape(&h.key),
            verdicts.join(" "),
            next,
        ]);
    };
    for wt in &report.worktrees {
        for h in &wt.handovers {
            add(h, name(&wt.worktree, wt.current));
        }
    }
    for h in &report.stored {
        add(h, "-".to_owned());
    }
    for d in &report.diverged {
        rows.push([
            "!D".to_owned(),
            "-".to_owned(),
            escape(&d.key),
            p.t(crate::k!("short.diverged")).to_owned(),
            String::new(),
        ]);
    }
    let widths: Vec<usize> = (0..4)
        .map(|c| {
            rows.iter()
                .map(|r| unicode_width::UnicodeWidthStr::width(r[c].as_str()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (c, cell) in r.iter().enumerate() {
            if c > 0 {
                line.push(' ');
            }
            line.push_str(cell);
            if c < 4 {
                let pad = widths[c] - unicode_width::UnicodeWidthStr::width(cell.as_str());
                line.push_str(&" ".repeat(pad));
            }
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// The sides of a diverged session, a line each (numbered for a prompt).
pub fn sides(list: &[SideFacts], p: &Painter, numbered: bool) -> String {
    let mut out = String::new();
    for (i, side) in list.iter().enumerate() {
        let hash = &side.hash;
        let number = if numbered {
            format!("{:>2}) ", i + 1)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {number}{}",
            p.f(
                crate::k!("status.diverged_side"),
                &[
                    ("hash", &hash.get(..12).unwrap_or(hash)),
                    ("seq", &side.seq.unwrap_or(0)),
                    ("time", &crate::model::session::format_time(side.saved_at)),
                    ("worktree", &escape(side.worktree.as_deref().unwrap_or("?"))),
                    ("status", &escape(&side.status)),
                    ("done", &side.done),
                    ("total", &side.total),
                    ("next", &escape(side.next.as_deref().unwrap_or("-"))),
                ],
            )
        );
        if !side.differs.is_empty() {
            let _ = writeln!(
                out,
                "      {}",
                p.f(
                    crate::k!("status.diverged_only"),
                    &[("tasks", &escape(&side.differs.join(", ")))]
                )
            );
        }
    }
    out
}

/// A diverged session: each side in a line, and how to choose.
pub(super) fn diverged(out: &mut String, d: &status::Diverged, p: &Painter) {
    let _ = writeln!(
        out,
        "\n{} {}",
        p.bold(&p.f(crate::k!("status.diverged"), &[("key", &escape(&d.key))])),
        p.t(crate::k!("status.diverged_note"))
    );
    out.push_str(&sides(&d.sides, p, false));
    let first = &d.sides[0].hash;
    let _ = writeln!(
        out,
        "  {}",
        p.dim(&p.f(
            crate::k!("status.diverged_hint"),
            &[
                ("key", &escape(&d.key)),
                ("hash", &first.get(..12).unwrap_or(first))
            ]
        ))
    );
}

/// The commits that need attention, each once, by what was found, in the long form's
/// words: `2-commits-rewritten` where the long form says `commits 2 rewritten`.
fn commit_words(a: &Assessment, p: &Painter) -> Vec<String> {
    let mut verdicts = Vec::new();
    let mut found: Vec<(&'static str, usize)> = Vec::new();
    for (c, _) in crate::model::verdict::attention_by_commit(&a.commits) {
        match found.iter_mut().find(|(v, _)| *v == c.verdict()) {
            Some((_, n)) => *n += 1,
            None => found.push((c.verdict(), 1)),
        }
    }
    for (verdict, n) in found {
        let key = if n == 1 {
            crate::k!("short.commit_one")
        } else {
            crate::k!("short.commits_many")
        };
        let state = p.t(&format!("short.state_{verdict}")).to_owned();
        verdicts.push(p.f(key, &[("n", &n), ("state", &state)]));
    }
    verdicts
}

/// The claims on the session's tasks: how many are held, how many ran out.
fn claim_words(a: &Assessment, p: &Painter) -> Vec<String> {
    let mut verdicts = Vec::new();
    let claims = a.session().map_or(&[][..], |s| s.claims.as_slice());
    let expired = claims.iter().filter(|c| c.expired()).count();
    if claims.len() > expired {
        let n = claims.len() - expired;
        verdicts.push(p.f(crate::k!("short.claimed"), &[("n", &n)]));
    }
    if expired > 0 {
        verdicts.push(p.f(crate::k!("short.expired"), &[("n", &expired)]));
    }
    let unconfirmed = claims.iter().filter(|c| !c.claim.confirmed).count();
    if unconfirmed > 0 {
        verdicts.push(p.f(crate::k!("short.unconfirmed"), &[("n", &unconfirmed)]));
    }
    verdicts
}
