//! The catalog's messages of `why` and `doctor`, English and Japanese.

use super::catalog::Entry;

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
pub(super) const DIAGNOSE: &[Entry] = &[
    e("why.nothing", "no session recorded this commit (in any worktree or in the notes store)", "このコミットを記録したセッションはありません（どのワークツリーにもノートストアにも）"),
    e("why.task", "task [{id}] {description} ({status})", "タスク [{id}] {description}（{status}）"),
    e("why.change", "architecture change: {summary}", "アーキテクチャの変更: {summary}"),
    e("why.decision", "decision: {decision} ({rationale})", "決定: {decision}（{rationale}）"),
    e("why.session", "session {key}", "セッション {key}"),
    e("why.in_file", "in {path}", "{path} に"),
    e("why.in_store", "in the notes store: saved {saved_at}, noted on {commit}", "ノートストアに: {saved_at} に保存、{commit} に記録"),
    e("why.unreadable", "{path} could not be read, so it was not searched", "{path} を読めないため、検索していません"),
    e("doctor.title", "git handover doctor", "git handover doctor"),
    e("doctor.ok", "ok", "正常"),
    e("doctor.note", "note", "注記"),
    e("doctor.problem", "problem", "問題"),
    e("doctor.fixed", "fixed", "修正済み"),
    e("doctor.fix", "fix: {command}", "修正: {command}"),
    e("doctor.fix_yourself", "run it yourself (it changes files that are not git-handover's own)", "ご自身で実行してください（git-handover のものではないファイルを変更します）"),
    e("doctor.by_hand", "fix or remove it by hand; git-handover never rewrites a file it cannot read", "手で直すか削除してください。git-handover は読めないファイルを書き換えません"),
    e("doctor.all_ok", "nothing is wrong", "問題はありません"),
    e("doctor.problems_one", "1 problem", "問題 1 件"),
    e("doctor.problems", "{n} problems", "問題 {n} 件"),
    e("doctor.fixed_some", "{n} fixed", "{n} 件を修正しました"),
    e("doctor.commit_graph_ok", "a commit-graph is there: history questions stay fast", "commit-graph があります: 履歴の問い合わせは速いままです"),
    e("doctor.commit_graph_missing", "no commit-graph: on a large history every status and briefing walks commits one by one (seconds instead of a tenth of one)", "commit-graph がありません: 大きな履歴では status と引き継ぎのたびにコミットを一つずつたどります（0.1 秒でなく数秒）"),
    e("doctor.exclude_ok", "the handover roots are in {path}", "引き継ぎのルートは {path} にあります"),
    e("doctor.exclude_off", "handover.exclude=false: the handover roots are not kept out of commits", "handover.exclude=false: 引き継ぎのルートはコミットから除外されません"),
    e("doctor.exclude_missing", "{patterns} not in {path}: handover state may be committed by `git add -A`", "{patterns} が {path} にありません: `git add -A` で引き継ぎの状態がコミットされるかもしれません"),
    e("doctor.exclude_unreadable", "{path} cannot be read, so whether the handover roots are kept out of commits is not known: {error}", "{path} を読めないため、引き継ぎのルートがコミットから除外されているか分かりません: {error}"),
    e("doctor.sessions_ok_one", "1 session, readable", "セッション 1 件、読めます"),
    e("doctor.commit_graph_small", "no commit-graph; the history is small enough to walk without one", "commit-graph はありませんが、履歴は小さいのでなくても歩けます"),
    e("doctor.sessions_ok", "{count} sessions, each readable", "セッション {count} 件、すべて読めます"),
    e("doctor.session_unreadable", "{path} cannot be read: {error}", "{path} を読めません: {error}"),
    e("doctor.lock_stale", "stale lock {path} ({owner} is gone)", "古いロック {path}（{owner} はもういません）"),
    e("doctor.lock_removed", "removed the stale lock {path}", "古いロック {path} を削除しました"),
    e("doctor.lock_held", "lock {path} is held by {owner}", "ロック {path} は {owner} が保持しています"),
    e("doctor.rewrite_ref_ok", "notes.rewriteRef carries {ref} through rebase and amend", "notes.rewriteRef が rebase と amend で {ref} を引き継ぎます"),
    e("doctor.rewrite_ref_missing", "notes.rewriteRef does not name {ref}: a rebase or amend leaves its records on the old commits", "notes.rewriteRef に {ref} がありません: rebase や amend で記録が古いコミットに残ります"),
    e("doctor.notes_no_remote", "no remote origin: the notes store stays on this clone", "リモート origin がありません: ノートストアはこのクローンだけにあります"),
    e("doctor.notes_never_synced", "the notes store was never synced with {remote}", "ノートストアは {remote} と一度も同期されていません"),
    e("doctor.notes_in_sync", "the notes store matches {remote}'s as last fetched", "ノートストアは最後に取得した {remote} のものと一致します"),
    e("doctor.notes_differ", "the notes store differs from {remote}'s as last fetched", "ノートストアは最後に取得した {remote} のものと異なります"),
    e("doctor.hook_none", "{agent}: no git-handover hook in this project or for the user", "{agent}: このプロジェクトにもユーザーにも git-handover のフックはありません"),
    e("doctor.hook_ok", "{agent}: the hook is registered in {files}", "{agent}: フックは {files} に登録されています"),
    e("doctor.record_missing", "{agent}: the hooks in this file were installed by an earlier version and register only SessionStart: an agent session's work is not recorded when it ends (run the install again: it adds the rest)", "{agent}: このファイルのフックは以前の版で入れたもので SessionStart しか登録していません。エージェントセッションの作業は終了時に記録されません（もう一度 install すると残りを追加します）"),
    e("doctor.hook_not_opted_in", "{agent}: the hook in {files} is the user's, and this repository did not opt in: it briefs nothing here", "{agent}: {files} のフックはユーザーのもので、このリポジトリはオプトインしていません。ここでは何も伝えません"),
    e("doctor.hook_opted_in", "{agent}: this repository opted in (handover.hook=true): the hook in {files} briefs here", "{agent}: このリポジトリはオプトインしました（handover.hook=true）。{files} のフックがここで伝えます"),
    e("doctor.codex_trusted", "Codex has trusted the hook in {path} (if it changed since, Codex asks again in /hooks)", "Codex は {path} のフックを信頼済みです（その後に変わっていれば /hooks でまた尋ねます）"),
    e("doctor.codex_untrusted", "Codex has not trusted the hook in {path}: it skips it silently until you trust it in /hooks", "Codex は {path} のフックを信頼していません。/hooks で信頼するまで黙って飛ばします"),
    e("doctor.path_ok", "git-handover is on the PATH the hooks run with (if the agent's PATH is this one)", "git-handover はフックが使う PATH にあります（エージェントの PATH がこれと同じなら）"),
    e("doctor.path_missing", "git-handover is not on the PATH: the hooks call it by name and do nothing without it", "git-handover が PATH にありません。フックは名前で呼ぶので、なければ何もしません"),
];
