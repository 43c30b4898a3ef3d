//! Claims for people: the words of `task claim|next|release` and the one line that
//! says who holds a task (status, the briefing).

use jiff::Timestamp;

use std::fmt::Write as _;

use super::Painter;
use crate::commands::r#continue::Briefing;
use crate::commands::task::{Act, ClaimReport};
use crate::facts::assessed::{Assessment, Kind};
use crate::model::claim::{Claim, Released, Took, format_utc};
use crate::support::i18n::duration;
use crate::support::text::escape;

/// How long from `from` to `to`, never negative.
fn span(from: Timestamp, to: Timestamp) -> std::time::Duration {
    std::time::Duration::try_from(to.duration_since(from)).unwrap_or_default()
}

/// Who holds a task and for how long: `claimed by agent-1 5m ago, 25m left`, or
/// `… expired 3m ago`, with `unconfirmed` when a sync has not confirmed it.
pub fn held(c: &Claim, now: Timestamp, p: &Painter) -> String {
    let holder = escape(&c.holder);
    let age = duration(p.lang(), span(c.since, now));
    let mut line = if c.is_live(now) {
        p.f(
            crate::k!("claim.live"),
            &[
                ("holder", &holder),
                ("age", &age),
                ("left", &duration(p.lang(), span(now, c.expires))),
            ],
        )
    } else {
        p.f(
            crate::k!("claim.expired"),
            &[
                ("holder", &holder),
                ("age", &age),
                ("ago", &duration(p.lang(), span(c.expires, now))),
            ],
        )
    };
    if !c.confirmed {
        line.push_str(p.separator());
        line.push_str(p.t(crate::k!("claim.unconfirmed")));
    }
    line
}

/// `task claim|next|release`: what was done, and for `next` the bare id first.
pub fn report(r: &ClaimReport, p: &Painter) -> String {
    let id = escape(&r.task);
    let key = escape(&r.key);
    let mut out = String::new();
    if r.next {
        let description = r
            .state
            .tasks
            .iter()
            .find(|t| t.id == r.task)
            .map(|t| escape(&t.description))
            .unwrap_or_default();
        let _ = writeln!(out, "{id}  {description}");
    }
    let mine = r
        .state
        .tasks
        .iter()
        .find(|t| t.id == r.task)
        .and_then(|t| t.claim.as_ref());
    let until = mine.map_or_else(String::new, |c| format_utc(c.expires));
    let holder = escape(&r.holder);
    let line = match &r.act {
        Act::Shown => p.f(
            crate::k!("claim.shown"),
            &[("id", &id), ("holder", &holder)],
        ),
        Act::Claimed(Took::New) => p.f(
            crate::k!("claim.claimed"),
            &[
                ("id", &id),
                ("holder", &holder),
                ("key", &key),
                ("until", &until),
            ],
        ),
        Act::Claimed(Took::Renewed) => p.f(
            crate::k!("claim.renewed"),
            &[
                ("id", &id),
                ("holder", &holder),
                ("key", &key),
                ("until", &until),
            ],
        ),
        Act::Claimed(took @ (Took::Expired(old) | Took::Forced(old))) => p.f(
            if matches!(took, Took::Expired(_)) {
                crate::k!("claim.took_expired")
            } else {
                crate::k!("claim.forced")
            },
            &[
                ("id", &id),
                ("holder", &holder),
                ("key", &key),
                ("until", &until),
                ("old", &escape(&old.holder)),
                ("ended", &format_utc(old.expires)),
            ],
        ),
        Act::Released(Released::Own) => p.f(
            crate::k!("claim.released"),
            &[("id", &id), ("holder", &holder), ("key", &key)],
        ),
        Act::Released(Released::Other(old)) => p.f(
            crate::k!("claim.released_other"),
            &[
                ("id", &id),
                ("key", &key),
                ("old", &escape(&old.holder)),
                ("ended", &format_utc(old.expires)),
            ],
        ),
        Act::Released(Released::Unclaimed) => p.f(
            crate::k!("claim.not_claimed"),
            &[("id", &id), ("key", &key)],
        ),
    };
    out.push_str(&line);
    out.push('\n');
    if let Some(remote) = &r.remote {
        let remote = escape(remote);
        let line = match &r.unconfirmed {
            Some(why) => p.f(
                crate::k!("rclaim.unconfirmed"),
                &[("remote", &remote), ("why", &escape(why))],
            ),
            None => p.f(crate::k!("rclaim.confirmed"), &[("remote", &remote)]),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The tasks other holders' live leases hold: the successor leaves them alone.
pub(super) fn held_by_others(b: &Briefing, assessment: &Assessment, p: &Painter) -> Option<String> {
    let others: Vec<_> = assessment
        .session()
        .map(|s| s.claims.as_slice())
        .unwrap_or_default()
        .iter()
        .filter(|c| c.claim.held_against(&b.holder, c.now))
        .collect();
    if others.is_empty() {
        return None;
    }
    let mut text = format!("\n{}\n", p.bold(p.t(crate::k!("cont.claimed_by_others"))));
    for c in others {
        let _ = writeln!(text, "  [{}] {}", escape(&c.task), held(&c.claim, c.now, p));
    }
    Some(text)
}

/// The claims of this session lost to another clone's: each holder is told whose won.
pub(super) fn lost_told(b: &Briefing, assessment: &Assessment, p: &Painter) -> Option<String> {
    let session = assessment.session()?;
    if session.lost.is_empty() {
        return None;
    }
    let key = crate::support::text::shell_word(&b.candidate.handover.key);
    let mut text = String::from("\n");
    for (task, l) in &session.lost {
        let _ = writeln!(text, "{}", lost_line(task, l, &key, p));
    }
    Some(text)
}

/// One lost claim, said to its holder, with the command that takes another task.
pub fn lost_line(task: &str, l: &crate::model::claim::Lost, key: &str, p: &Painter) -> String {
    p.f(
        crate::k!("rclaim.lost"),
        &[
            ("id", &escape(task)),
            ("key", &key),
            ("holder", &crate::support::text::shell_word(&l.holder)),
            ("since", &format_utc(l.since)),
            ("winner", &escape(&l.winner)),
        ],
    )
}

/// Each lost claim `state` tells of, as a warning for the next command's stderr.
pub fn lost_warnings(state: &crate::model::state::State, key: &str, p: &Painter) -> Vec<String> {
    let key = crate::support::text::shell_word(key);
    state
        .tasks
        .iter()
        .filter_map(|t| Some(lost_line(&t.id, t.lost.as_ref()?, &key, p)))
        .collect()
}

/// The claim command the briefing gives first in how to proceed, for a session with
/// unfinished tasks.
pub(super) fn claim_first(b: &Briefing, p: &Painter) -> Option<String> {
    let session = &b.candidate.handover;
    let unfinished = !b.open_tasks.is_empty() || !b.other_tasks.is_empty();
    (matches!(session.kind, Kind::Session | Kind::Legacy) && unfinished).then(|| {
        p.f(
            crate::k!("cont.claim_first"),
            &[
                ("key", &crate::support::text::shell_word(&session.key)),
                ("holder", &crate::support::text::shell_word(&b.holder)),
            ],
        )
    })
}

/// What `sync` settled of the claims made offline: the lost ones told whole.
pub fn settled(s: &crate::facts::settled::Settled, remote: &str, p: &Painter) -> String {
    let mut out = String::new();
    if !s.confirmed.is_empty() {
        let _ = writeln!(
            out,
            "{}",
            p.f(
                crate::k!("rclaim.sync_confirmed"),
                &[("n", &s.confirmed.len()), ("remote", &remote)],
            )
        );
    }
    for key in &s.caught_up {
        let _ = writeln!(
            out,
            "{}",
            p.f(
                crate::k!("rclaim.sync_caught_up"),
                &[("key", &escape(key)), ("remote", &remote)],
            )
        );
    }
    for (key, task, winner) in &s.lost {
        let _ = writeln!(
            out,
            "{}",
            p.f(
                crate::k!("rclaim.sync_lost"),
                &[
                    ("id", &escape(task)),
                    ("key", &escape(key)),
                    ("winner", &escape(winner)),
                    ("remote", &remote),
                ],
            )
        );
    }
    out
}
