//! The lines that link a handover to the agents (issue 34, items 5 and 6): which agent
//! session wrote it, the command that resumes that conversation, and who picked it up,
//! as (label, text) for the handover's details. Every fact is the report's; this only
//! words them.

use super::Painter;
use crate::facts::linkage::{Linkage, Pickup};
use crate::support::text::escape;

pub(super) fn lines<'p>(link: &Linkage, p: &'p Painter) -> Vec<(&'p str, String)> {
    let mut out = Vec::new();
    if let Some(s) = &link.agent_session {
        out.push((
            p.t(crate::k!("label.agent")),
            p.f(
                crate::k!("link.written_by"),
                &[("agent", &escape(&s.agent)), ("id", &escape(&s.session_id))],
            ),
        ));
    }
    if let Some(command) = &link.resume {
        out.push((
            p.t(crate::k!("label.resume")),
            // Shell-quoted and escaped for the terminal already.
            p.f(crate::k!("link.resume"), &[("command", command)]),
        ));
    }
    match &link.pickup {
        Some(Pickup::By {
            by,
            agent,
            agent_session,
            ago,
            ..
        }) => {
            // An agent session by its agent and id, anyone else by their claim name.
            let who = match (agent, agent_session) {
                (Some(a), Some(id)) => format!("{} {}", escape(a), escape(id)),
                _ => escape(by),
            };
            out.push((
                p.t(crate::k!("label.pickup")),
                p.f(
                    crate::k!("link.picked_up"),
                    &[("by", &who), ("ago", &p.duration(*ago))],
                ),
            ));
        }
        Some(Pickup::Not { for_ }) => out.push((
            p.t(crate::k!("label.pickup")),
            p.warn(&p.f(
                crate::k!("link.not_picked_up"),
                &[("for", &p.duration(*for_))],
            )),
        )),
        None => {}
    }
    out
}

/// `status --short`'s word for who picked the handover up: `picked-up`, or
/// `not-picked-up-2d`.
pub(super) fn short_word(link: &Linkage, p: &Painter) -> Option<String> {
    Some(match link.pickup.as_ref()? {
        Pickup::By { .. } => p.t(crate::k!("short.picked_up")).to_owned(),
        Pickup::Not { for_ } => p.warn(&p.f(
            crate::k!("short.not_picked_up"),
            &[("for", &p.duration(*for_))],
        )),
    })
}
