//! `why REV`: the commit, then each session entry that recorded it, and where it was read.

use std::fmt::Write as _;

use super::Painter;
use crate::commands::why::{Place, Report};
use crate::model::why::Mention;
use crate::support::text::escape;

pub fn why(r: &Report, p: &Painter) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {}",
        p.warn(&r.commit.id.short()),
        escape(&r.commit.subject)
    );
    if r.found.is_empty() {
        let _ = writeln!(out, "  {}", p.t(crate::k!("why.nothing")));
        return out;
    }
    for found in &r.found {
        let what = match &found.mention {
            Mention::Task {
                id,
                description,
                status,
            } => p.f(
                crate::k!("why.task"),
                &[
                    ("id", &escape(id)),
                    ("description", &escape(description)),
                    ("status", &escape(status)),
                ],
            ),
            Mention::Change { summary } => {
                p.f(crate::k!("why.change"), &[("summary", &escape(summary))])
            }
            Mention::Decision {
                decision,
                rationale,
            } => p.f(
                crate::k!("why.decision"),
                &[
                    ("decision", &escape(decision)),
                    ("rationale", &escape(rationale)),
                ],
            ),
        };
        let _ = writeln!(
            out,
            "  {what}{}{}",
            p.separator(),
            p.f(
                crate::k!("why.session"),
                &[("key", &p.bold(&escape(&found.key)))]
            )
        );
        let place = match &found.place {
            Place::File(path) => p.f(
                crate::k!("why.in_file"),
                &[("path", &escape(&path.display().to_string()))],
            ),
            Place::Store { noted_on, saved_at } => p.f(
                crate::k!("why.in_store"),
                &[("saved_at", saved_at), ("commit", &noted_on.short())],
            ),
        };
        let _ = writeln!(out, "    {}", p.dim(&place));
        if let Some(a) = &found.agent_session {
            let line = p.f(
                crate::k!("why.agent_session"),
                &[("agent", &escape(&a.agent)), ("id", &escape(&a.session_id))],
            );
            let _ = writeln!(out, "    {}", p.dim(&line));
        }
    }
    out
}
