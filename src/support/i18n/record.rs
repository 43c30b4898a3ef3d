//! The catalog's messages of the hooks' automatic record and the stop gate (issue 34),
//! English and Japanese.

use super::catalog::Entry;

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
pub(super) const RECORD: &[Entry] = &[
    e("record.note_who", "Recorded automatically at the end of {agent} session {session}.", "{agent} セッション {session} の終わりに自動で記録しました。"),
    e("record.note_request", "Last request: {request}.", "最後の依頼: {request}。"),
    e("record.note_commits", "{n} commit(s): {list}.", "コミット {n} 件: {list}。"),
    e("record.saved_elsewhere", "this agent session saved its handover in {key}: no other is made here", "このエージェントセッションは {key} に引き継ぎを保存しました。ここには別のものを作りません"),
    e("record.note_files", "Files changed: {list}.", "変更したファイル: {list}。"),
    e("record.note_failed", "Failed: {list}.", "失敗: {list}。"),
    e("record.and_more", " and {n} more", " ほか {n} 件"),
    e("record.approach", "ran `{command}`", "`{command}` を実行"),
    e("record.failed", "`{command}` exited {status}: {error}", "`{command}` が {status} で終了: {error}"),
    e("record.continue", "Continue: {request}", "続き: {request}"),
    e("record.continue_unknown", "Continue the work of the previous agent session (its request is not known)", "前のエージェントセッションの作業を続ける（依頼はわかりません）"),
    e("record.created", "git-handover: no handover was saved in this worktree, so one was made from what this agent session did: {key}, task [{task}] in progress ({commits} commit(s), {files} file(s)). Check it with `git handover continue --keep`.", "git-handover: このワークツリーには引き継ぎが保存されていなかったため、このエージェントセッションの作業から作りました: {key}、進行中のタスク [{task}]（コミット {commits} 件、ファイル {files} 件）。`git handover continue --keep` で確認してください。"),
    e("record.recorded", "git-handover: recorded what this agent session did in {key} ({commits} commit(s), {files} file(s)), marked as automatic; nothing written by hand was changed.", "git-handover: このエージェントセッションの作業を {key} に自動の記録として残しました（コミット {commits} 件、ファイル {files} 件）。手で書かれたものは変えていません。"),
    e("record.released", "git-handover: released the claims of {holder} on {tasks} in {key}.", "git-handover: {key} の {tasks} に対する {holder} の確保を解放しました。"),
    e("record.locked", "git-handover: {key} is being written by {owner}: this agent session's record was skipped (the hook does not wait).", "git-handover: {key} は {owner} が書き込み中です: このエージェントセッションの記録は省きました（フックは待ちません）。"),
    e("record.unreadable", "git-handover: nothing was recorded: {why}", "git-handover: 何も記録しませんでした: {why}"),
    e("record.transcript", "git-handover: the transcript was not read: {why}", "git-handover: トランスクリプトは読みませんでした: {why}"),
    e("stop.edit", "git-handover: this agent session made changes ({commits} commit(s), {files} file(s)) but updated no task of the handover {key}. Before you stop, record where the work stands: run `{command}` with the real next step in place of the quoted words (or `git handover task done {id} --session {key}` if it is finished).", "git-handover: このエージェントセッションは変更をしました（コミット {commits} 件、ファイル {files} 件）が、引き継ぎ {key} のタスクを更新していません。終わる前に作業の状況を記録してください: 引用符の中を実際の次の一歩に替えて `{command}` を実行してください（終わっているなら `git handover task done {id} --session {key}`）。"),
    e("stop.add", "git-handover: this agent session made changes ({commits} commit(s), {files} file(s)) but no task of a handover says so. Before you stop, record where the work stands: run `{command}` with the real next step in place of the quoted words.", "git-handover: このエージェントセッションは変更をしました（コミット {commits} 件、ファイル {files} 件）が、それを記した引き継ぎのタスクがありません。終わる前に作業の状況を記録してください: 引用符の中を実際の次の一歩に替えて `{command}` を実行してください。"),
    e("stop.next_words", "what to do next", "次にすること"),
];
