//! The catalog's messages about agent sessions and receipts (issue 34, items 5 to 7),
//! English and Japanese.

use super::catalog::Entry;

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
pub(super) const LINKAGE: &[Entry] = &[
    e("label.agent", "agent", "エージェント"),
    e("label.resume", "resume", "再開"),
    e("label.pickup", "picked up", "引き継ぎ"),
    e("link.written_by", "written by {agent} session {id}", "{agent} のセッション {id} が書きました"),
    e("link.written_by_at", "written by {agent} session {id} at {at}", "{agent} のセッション {id} が {at} に書きました"),
    e("link.resume", "`{command}` resumes that conversation", "`{command}` でその会話を再開できます"),
    e("link.picked_up", "picked up by {by} {ago} ago", "{ago}前に {by} が引き継ぎました"),
    e("link.not_picked_up", "not picked up for {for}", "{for} の間、誰も引き継いでいません"),
    e("short.picked_up", "picked-up", "引き継ぎ済み"),
    e("short.not_picked_up", "not-picked-up-{for}", "{for}未引き継ぎ"),
    e("why.agent_session", "agent session: {agent} {id}", "エージェントのセッション: {agent} {id}"),
];
