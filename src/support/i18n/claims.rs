//! The catalog's messages about claims (SPEC section 10), English and Japanese.

use super::catalog::Entry;

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
pub(super) const CLAIMS: &[Entry] = &[
    e("cfg.lease", "a duration longer than nothing, such as 30m or 2h", "30m や 2h のような 0 より長い期間"),
    e("claim.held", "task {id} of session {key} is held by {holder} since {since} until {expires}", "セッション {key} のタスク {id} は {holder} が {since} から {expires} まで確保しています"),
    e("claim.hint_held", "take another with `git handover task next --claim`, or wait until {expires}; --force overrides the lease of {id} and says whose it was", "`git handover task next --claim` で別のタスクを取るか、{expires} まで待ってください。--force で {id} の確保を上書きでき、誰のものだったかを表示します"),
    e("claim.bad_name", "the claim holder {name} is empty, too long or holds a control character", "確保する名前 {name} が空か、長すぎるか、制御文字を含んでいます"),
    e("claim.too_long", "the lease is too long to end at a time that can be written", "確保の期間が長すぎて、終わる時刻を書けません"),
    e("claim.done", "task {id} of session {key} is done: there is nothing to claim", "セッション {key} のタスク {id} は完了しています。確保するものはありません"),
    e("claim.nothing_left", "nothing left to take in session {key}: every task is done, blocked or claimed by another live lease", "セッション {key} に取れるタスクはありません。どれも完了、ブロック中、または他の有効な確保の下にあります"),
    e("claim.live", "claimed by {holder} {age} ago, {left} left", "{holder} が {age} 前に確保、残り {left}"),
    e("claim.expired", "claimed by {holder} {age} ago, expired {ago} ago", "{holder} が {age} 前に確保、{ago} 前に期限切れ"),
    e("claim.unconfirmed", "unconfirmed", "未確認"),
    e("claim.shown", "next for {holder}: claim it with `git handover task claim {id}`", "{holder} の次のタスク: `git handover task claim {id}` で確保してください"),
    e("claim.claimed", "[{id}] claimed by {holder} in {key} until {until}", "{key} の [{id}] を {holder} が {until} まで確保しました"),
    e("claim.renewed", "[{id}] lease of {holder} in {key} renewed until {until}", "{key} の [{id}] の {holder} による確保を {until} まで延長しました"),
    e("claim.took_expired", "[{id}] claimed by {holder} in {key} until {until}: the lease of {old} ran out at {ended}", "{key} の [{id}] を {holder} が {until} まで確保しました。{old} の確保は {ended} に切れていました"),
    e("claim.forced", "[{id}] claimed by {holder} in {key} until {until}, overriding the live lease of {old} (until {ended})", "{key} の [{id}] を {holder} が {until} まで確保しました。{old} の有効な確保（{ended} まで）を上書きしました"),
    e("claim.released", "[{id}] released by {holder} in {key}", "{key} の [{id}] を {holder} が手放しました"),
    e("claim.released_other", "[{id}] released in {key}: the claim of {old} (until {ended}) is gone", "{key} の [{id}] を手放しました。{old} の確保（{ended} まで）はなくなりました"),
    e("claim.not_claimed", "[{id}] in {key} was not claimed: nothing released", "{key} の [{id}] は確保されていません。何も手放していません"),
    e("label.claim", "claim", "確保"),
    e("short.claimed", "{n}-claimed", "確保{n}件"),
    e("short.expired", "{n}-expired", "期限切れ{n}件"),
    e("short.unconfirmed", "{n}-unconfirmed", "未確認{n}件"),
    e("cont.claimed_by_others", "Claimed by other agents (leave these alone):", "他のエージェントが確保中（手を付けないでください）:"),
    e("cont.claim_first", "Claim your task first: `git handover task next --claim --session {key} --as {holder}`", "まずタスクを確保: `git handover task next --claim --session {key} --as {holder}`"),
];
