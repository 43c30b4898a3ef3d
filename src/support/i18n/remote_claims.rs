//! The catalog's messages about claims decided on a remote (SPEC section 10), English
//! and Japanese.

use super::catalog::Entry;

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
pub(super) const REMOTE_CLAIMS: &[Entry] = &[
    e("rclaim.needs_store", "a claim decided on the remote {remote} needs the notes store, and handover.store is {store}", "リモート {remote} で確保を決めるにはノートストアが必要ですが、handover.store は {store} です"),
    e("rclaim.needs_store_hint", "turn it on with `git config handover.store both`", "`git config handover.store both` で有効にしてください"),
    e("rclaim.forged", "the remote {remote}'s record of session {key} claims task {id} with a claim that {why}: refused, nothing written", "リモート {remote} のセッション {key} の記録はタスク {id} を不正な確保（{why}）で主張しています。拒否し、何も書いていません"),
    e("rclaim.forged_hint", "whoever wrote that record must fix it on {remote}; until then claim without --remote", "その記録を書いた人が {remote} 上で直す必要があります。それまでは --remote なしで確保してください"),
    e("rclaim.confirmed", "decided on {remote}: the remote took the claim", "{remote} で決定: リモートが確保を受け入れました"),
    e("rclaim.unconfirmed", "unconfirmed: {remote} could not be reached ({why}); the claim is local until `git handover sync {remote}` confirms it or says it was lost", "未確認: {remote} に届きません（{why}）。`git handover sync {remote}` が確認するか失われたと告げるまで、確保はローカルのみです"),
    e("rclaim.lost", "your claim of task {id} in session {key} (as {holder}, since {since}) was lost to {winner}: their claim reached the remote first; take another with `git handover task next --claim --session {key} --as {holder}`", "セッション {key} のタスク {id} の確保（{holder}、{since} から）は {winner} に負けました。相手の確保が先にリモートに届きました。`git handover task next --claim --session {key} --as {holder}` で別のタスクを取ってください"),
    e("rclaim.sync_confirmed", "{n} claim(s) confirmed on {remote}", "{remote} で確保 {n} 件を確認しました"),
    e("rclaim.sync_caught_up", "session {key} here was behind the records fetched from {remote} and now holds the newest", "ここのセッション {key} は {remote} から取得したレコードより古かったため、最新の状態にしました"),
    e("rclaim.sync_lost", "lost: the claim of task {id} in session {key} went to {winner}, whose claim reached {remote} first", "喪失: セッション {key} のタスク {id} の確保は、先に {remote} に届いた {winner} のものになりました"),
    e("rclaim.diverged", "session {key} has diverged on {remote}: it was written on two clones from the same state, and nothing was picked; a claim is decided on the session's one newest record", "セッション {key} は {remote} で分岐しています: 二つのクローンで同じ状態から書かれ、どちらも選ばれていません。確保はセッションの唯一の最新記録の上で決まります"),
    e("rclaim.diverged_hint", "choose a side (`git handover status` shows both): git handover continue {key} --take HASH, then `git handover sync {remote}` and claim again", "どちらかを選んでください（`git handover status` で両側を表示）: git handover continue {key} --take HASH の後、`git handover sync {remote}` してから再度確保してください"),
    e("race.push_rejected", "the push was rejected: the remote kept moving", "プッシュが拒否されました: リモートが動き続けました"),
    e("race.not_carried", "the push went through, but the records it carried do not show this claim as the session's one newest record (another process of this clone changed them, or the session has diverged there: `git handover status` shows which)", "プッシュは通りましたが、運んだ記録ではこの確保がセッションの唯一の最新記録になっていません（このクローンの別のプロセスが変えたか、そちらでセッションが分岐しています。`git handover status` で確認できます）"),
];
