//! `continue`: the candidates, the briefing and what was done besides.

use std::fmt::Write as _;

use super::Painter;
use crate::facts::assessed::Kind;
use crate::model::verdict::Presence;
use crate::support::text::{escape, one_line};

/// The numbered list `continue` offers when several handovers could be resumed.
pub fn candidates(list: &[crate::commands::r#continue::Candidate], p: &Painter) -> String {
    let mut out = String::new();
    for (i, c) in list.iter().enumerate() {
        let h = &c.handover;
        let mut parts = vec![format!("{:>2}) {}", i + 1, escape(&c.handle))];
        if let Some(a) = h.assessment() {
            if let Some(branch) = &a.branch {
                parts.push(p.f(crate::k!("cand.branch"), &[("branch", &escape(branch))]));
            }
            if h.kind == Kind::Session
                && a.branch.is_some()
                && let Some(fingerprint) = h.key.rsplit('/').next()
            {
                parts.push(p.f(
                    crate::k!("cand.fingerprint"),
                    &[("fp", &escape(fingerprint))],
                ));
            }
            match h.kind {
                Kind::ContinueHere => parts.push(p.t(crate::k!("cand.note")).into()),
                _ => {
                    let (done, total) = a.session().map_or((0, 0), |s| (s.done, s.total));
                    parts.push(p.f(
                        crate::k!("cand.counts"),
                        &[("done", &done), ("left", &(total - done))],
                    ));
                }
            }
            if let Some(next) = a.session().and_then(|s| s.next.as_ref()) {
                let what = format!("[{}] {}", escape(&next.id), one_line(&next.description, 48));
                parts.push(p.f(crate::k!("cand.next"), &[("what", &what)]));
            } else if let Some(step) = a.note().and_then(|n| n.next_steps.first()) {
                parts.push(p.f(crate::k!("cand.next"), &[("what", &one_line(step, 48))]));
            }
            if a.presence == Presence::Orphan {
                parts.push(p.t(crate::k!("cand.orphan")).into());
            }
        }
        // A handle that is a key or a relative path is this worktree's; say where others are.
        if c.handle.starts_with('/') {
            let path = escape(&c.worktree.path.display().to_string());
            parts.push(p.f(crate::k!("cand.in"), &[("path", &path)]));
        }
        out.push_str(&parts.join("  "));
        out.push('\n');
    }
    out
}

/// Where the search for the handover went, a line each.
pub fn announcements(r: &crate::commands::r#continue::Report, p: &Painter) -> String {
    use crate::commands::r#continue::Announcement;
    let mut out = String::new();
    for a in &r.announcements {
        let line = match a {
            Announcement::OtherWorktree { path, keys } => p.f(
                crate::k!("cont.other_worktree"),
                &[
                    ("path", &escape(&path.display().to_string())),
                    ("keys", &escape(&keys.join(", "))),
                ],
            ),
            Announcement::Store { keys } => p.f(
                crate::k!("cont.store"),
                &[("keys", &escape(&keys.join(", ")))],
            ),
            Announcement::StoreUnindexed => p.t(crate::k!("cont.store_unindexed")).to_owned(),
            Announcement::StoreUnkept { dir, why } => p.f(
                crate::k!("cont.store_unkept"),
                &[("dir", &dir.display()), ("why", why)],
            ),
        };
        let _ = writeln!(out, "{line}");
    }
    out
}

pub fn continue_(r: &crate::commands::r#continue::Report, p: &Painter) -> String {
    use crate::commands::r#continue::Outcome;
    let mut out = announcements(r, p);
    match &r.outcome {
        Outcome::Nothing => {
            let _ = writeln!(out, "{}", p.t(crate::k!("cont.nothing")));
            match r.finished_here.as_slice() {
                [] => {}
                [one] => {
                    let _ = writeln!(
                        out,
                        "{}",
                        p.f(crate::k!("cont.finished_one"), &[("key", &escape(one))])
                    );
                }
                many => {
                    let _ = writeln!(
                        out,
                        "{}",
                        p.f(crate::k!("cont.finished_many"), &[("n", &many.len())])
                    );
                }
            }
        }
        Outcome::Choose(list) => out.push_str(&candidates(list, p)),
        Outcome::Diverged { candidate, sides } => {
            let key = escape(&candidate.handover.key);
            let _ = writeln!(out, "{}", p.f(crate::k!("cont.diverged"), &[("key", &key)]));
            out.push_str(&super::short::sides(sides, p, false));
            let _ = writeln!(
                out,
                "{}",
                p.dim(&p.f(crate::k!("cont.diverged_hint"), &[("key", &key)]))
            );
        }
        Outcome::AllComplete(c) => {
            let _ = writeln!(
                out,
                "{}",
                p.f(
                    crate::k!("cont.all_complete"),
                    &[("key", &escape(&c.handover.key))]
                )
            );
        }
        Outcome::Briefing(b) => {
            // What was restored, and onto which branch, is said before the briefing:
            // it says where the briefing's session now is.
            let (first, _) = split_effects(&r.effects);
            for e in &first {
                out.push_str(&effect(e, p));
            }
            if !first.is_empty() {
                out.push('\n');
            }
            briefing(&mut out, b, p);
        }
    }
    let rest = match r.outcome {
        Outcome::Briefing(_) => split_effects(&r.effects).1,
        _ => r.effects.iter().collect(),
    };
    if !rest.is_empty() && matches!(r.outcome, Outcome::Briefing(_)) {
        out.push('\n');
    }
    for e in rest {
        out.push_str(&effect(e, p));
    }
    out
}

/// The effects said before a briefing (a restore), and those said after it.
fn split_effects(
    effects: &[crate::commands::r#continue::Effect],
) -> (
    Vec<&crate::commands::r#continue::Effect>,
    Vec<&crate::commands::r#continue::Effect>,
) {
    effects
        .iter()
        .partition(|e| matches!(e, crate::commands::r#continue::Effect::Restored { .. }))
}

fn briefing(out: &mut String, b: &crate::commands::r#continue::Briefing, p: &Painter) {
    for block in super::brief::blocks(b, p) {
        out.push_str(&block.text);
    }
}

fn effect(e: &crate::commands::r#continue::Effect, p: &Painter) -> String {
    use crate::commands::r#continue::Effect;
    let path = |x: &std::path::Path| escape(&x.display().to_string());
    let line = match e {
        Effect::Migrated { from, key } => p.f(
            crate::k!("migrate.done"),
            &[("from", &path(from)), ("key", &escape(key))],
        ),
        Effect::Rendered { path: x } => p.f(crate::k!("effect.rendered"), &[("path", &path(x))]),
        Effect::Cleaned { path: x } => p.f(crate::k!("effect.cleaned"), &[("path", &path(x))]),
        Effect::Consumed {
            path: x,
            copy,
            committed,
        } => p.f(
            if *committed {
                crate::k!("effect.consumed_committed")
            } else {
                crate::k!("effect.consumed")
            },
            &[("path", &path(x)), ("copy", &escape(copy))],
        ),
        Effect::Kept {
            path: x,
            copy,
            why,
            detail,
        } => {
            let mut line = p.f(
                crate::k!("effect.kept"),
                &[("path", &path(x)), ("why", &p.t(why))],
            );
            if let Some(copy) = copy {
                line.push_str(&p.f(crate::k!("effect.kept_copy"), &[("copy", &escape(copy))]));
            }
            if !detail.is_empty() {
                let _ = write!(line, " ({})", escape(detail));
            }
            line
        }
        Effect::Excluded { file, patterns } => p.f(
            crate::k!("exclude.added"),
            &[("patterns", &patterns.join(" ")), ("file", &path(file))],
        ),
        Effect::Adopted { key, from } => p.f(
            crate::k!("effect.adopted"),
            &[("key", &escape(key)), ("from", &path(from))],
        ),
        Effect::Took { key, hash } => p.f(
            crate::k!("effect.took"),
            &[("key", &escape(key)), ("hash", hash)],
        ),
        Effect::Restored {
            key,
            path: x,
            commit,
            saved_as,
            other_branch,
        } => {
            let mut line = p.f(
                crate::k!("effect.restored"),
                &[
                    ("key", &escape(key)),
                    ("commit", &commit.short()),
                    ("path", &path(x)),
                ],
            );
            if let Some(old) = saved_as {
                line.push_str(&p.f(crate::k!("effect.restored_as"), &[("old", &escape(old))]));
            }
            if let Some((branch, here)) = other_branch {
                let branch = escape(branch);
                let switch = crate::support::text::shell_word(&branch);
                line.push('\n');
                line.push_str(&match here {
                    Some(here) => p.f(
                        crate::k!("effect.other_branch"),
                        &[
                            ("branch", &branch),
                            ("here", &escape(here)),
                            ("switch", &switch),
                        ],
                    ),
                    None => p.f(
                        crate::k!("effect.other_branch_detached"),
                        &[("branch", &branch), ("switch", &switch)],
                    ),
                });
            }
            line
        }
    };
    format!("{line}\n")
}
