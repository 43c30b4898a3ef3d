//! The message catalog: every message and label of the human output, in English and
//! Japanese (SPEC section 6, `handover.language`, `--lang`). `--json` output does not
//! go through here: it is the same in both languages.
//!
//! A message is looked up by key; `{name}` in it is replaced by the argument of that
//! name. The tests check that both languages have the same placeholders and that every
//! key the source asks for exists.

use std::fmt::Display;

use crate::config::Lang;

struct Entry {
    key: &'static str,
    en: &'static str,
    ja: &'static str,
}

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
const CATALOG: &[Entry] = &[
    // status
    e("status.none_here", "no handovers in this worktree", "このワークツリーに引き継ぎはありません"),
    e("status.none_only", "no handovers in the repository's only worktree", "リポジトリの唯一のワークツリーに引き継ぎはありません"),
    e("status.none_any", "no handovers in any of {n} worktrees", "{n} 個のワークツリーのどれにも引き継ぎはありません"),
    e("status.not_scanned", "directory missing ({why}): not scanned", "ディレクトリがありません（{why}）: 走査していません"),
    e("status.no_handovers", "no handovers", "引き継ぎなし"),
    e("status.store", "notes store", "ノートストア"),
    e("status.store_note", "(sessions no worktree has files for)", "（どのワークツリーにもファイルがないセッション）"),
    // worktrees
    e("wt.main", "main", "メイン"),
    e("wt.linked", "linked", "リンク"),
    e("wt.current", "current", "現在"),
    e("wt.bare", "bare", "ベア"),
    e("wt.locked", "locked", "ロック中"),
    e("wt.locked_why", "locked: {reason}", "ロック中: {reason}"),
    e("wt.prunable", "prunable", "削除可能"),
    e("wt.offline", "offline", "オフライン"),
    e("wt.on_branch", "branch {branch}, HEAD {head}", "ブランチ {branch}、HEAD {head}"),
    e("wt.detached", "detached HEAD {head}", "切り離された HEAD {head}"),
    e("wt.no_commits", "no commits yet", "コミットなし"),
    e("wt.a_detached_head", "a detached HEAD", "切り離された HEAD"),
    // handover titles
    e("kind.session", "session {key}{root}", "セッション {key}{root}"),
    e("kind.team_session", "team session {key}{root}", "チームセッション {key}{root}"),
    e("kind.in_root", " in {root}", "（{root}）"),
    e("kind.legacy", "legacy state {key}", "旧形式の状態 {key}"),
    e("kind.note", "continue-here {key}", "再開メモ {key}"),
    // detail labels
    e("label.stored", "stored", "保存元"),
    e("label.invalid", "invalid", "無効"),
    e("label.status", "status", "状態"),
    e("label.next", "next", "次"),
    e("label.objective", "objective", "目的"),
    e("label.freshness", "freshness", "鮮度"),
    e("label.orphan", "orphan", "孤立"),
    e("label.offline", "offline", "オフライン"),
    e("label.commits", "commits", "コミット"),
    e("label.stale", "stale", "停滞"),
    e("label.user", "[USER]", "[USER]"),
    e("label.partial", "partial", "不完全"),
    e("label.recent", "recent", "最近"),
    // details
    e("stored.value", "note on {commit}, saved {time}{from}", "{commit} のノート、{time} に保存{from}"),
    e("stored.from", " from {path}", "（{path} から）"),
    e("status.counts", "{status}, {done}/{total} done", "{status}、{done}/{total} 完了"),
    e("fresh.fresh", "fresh", "新鮮"),
    e("fresh.stale", "stale", "古い"),
    e("fresh.superseded", "superseded", "置き換え済み"),
    e("fresh.unknown", "unknown (no time recorded)", "不明（時刻の記録なし）"),
    e("fresh.age_file", ", file changed {age} ago", "、{age}前にファイル変更"),
    e("fresh.age_updated", ", updated {age} ago", "、{age}前に更新"),
    e("fresh.age_written", ", written {age} ago", "、{age}前に作成"),
    e("fresh.on", " on {branch}", "（{branch}）"),
    e("fresh.worktree_on", " (worktree is on {here})", "（ワークツリーは {here}）"),
    e("fresh.newer_one", "1 newer commit on the branch:", "ブランチに新しいコミットが 1 件:"),
    e("fresh.newer_many", "{n} newer commits on the branch:", "ブランチに新しいコミットが {n} 件:"),
    e("fresh.and_more", "  … and {n} more", "  … ほか {n} 件"),
    e("presence.orphan", "⚠ worktree deleted: {root}", "⚠ ワークツリーは削除されています: {root}"),
    e("presence.offline", "locked worktree not present: {root}", "ロックされたワークツリーが見つかりません: {root}"),
    e("commit.ok", "{n} ok", "{n} 件 OK"),
    e("commit.unreachable", "{n} unreachable", "{n} 件 到達不能"),
    e("commit.missing", "{n} missing", "{n} 件 不明"),
    e("commit.ambiguous", "{n} ambiguous", "{n} 件 曖昧"),
    e("commit.rewritten", "{n} rewritten", "{n} 件 書き換え"),
    e("commit.line_unreachable", "{task} {sha} unreachable", "{task} {sha} 到達不能"),
    e("commit.line_missing", "{task} {sha} missing", "{task} {sha} 不明"),
    e("commit.line_ambiguous", "{task} {sha} ambiguous", "{task} {sha} 曖昧"),
    e("commit.line_ok", "{task} {sha} ok", "{task} {sha} OK"),
    e("commit.rewritten_to", ", rewritten → {sha}", "、書き換え → {sha}"),
    e("stale.untouched", "{id} untouched for {age}", "{id} は {age} 手つかず"),
    e("partial.missing", "missing {list}", "欠落: {list}"),
    e("partial.header", "`{name}:` header", "`{name}:` ヘッダー"),
    // write commands
    e("task.done", "{id} {status} in {key} ({session})", "{key} の {id}: {status}（{session}）"),
    e("render.done", "rendered {path}", "{path} を再生成しました"),
    e("render.same", "{path} is up to date", "{path} は最新です"),
    e("here.wrote", "wrote {path}", "{path} を書きました"),
    e("here.replaced", "replaced {path}", "{path} を置き換えました"),
    e("migrate.done", "migrated {from} to session {key}", "{from} をセッション {key} に移行しました"),
    e("migrate.removed_md", "removed the old .claude/handover.md", "古い .claude/handover.md を削除しました"),
    e("clean.kept", "kept {path}: it holds files git-handover did not write", "{path} を残しました: git-handover が書いていないファイルがあります"),
    e("clean.nothing", "nothing to clean", "削除するものはありません"),
    e("clean.would_one", "1 session would be removed", "1 件のセッションが削除されます"),
    e("clean.would_many", "{n} sessions would be removed", "{n} 件のセッションが削除されます"),
    e("clean.removed_one", "removed 1 session", "1 件のセッションを削除しました"),
    e("clean.removed_many", "removed {n} sessions", "{n} 件のセッションを削除しました"),
    e("clean.would_remove", "would remove {path}", "{path} を削除予定"),
    e("clean.removing", "removing {path}", "{path} を削除します"),
    e("clean.skipped", "skipped {path}: {why}", "{path} をスキップしました: {why}"),
    // continue
    e("cand.branch", "branch {branch}", "ブランチ {branch}"),
    e("cand.fingerprint", "fingerprint {fp}", "識別子 {fp}"),
    e("cand.note", "continue-here note", "再開メモ"),
    e("cand.counts", "{done} done / {left} remaining", "{done} 完了 / 残り {left}"),
    e("cand.next", "next: {what}", "次: {what}"),
    e("cand.orphan", "⚠ worktree deleted", "⚠ ワークツリー削除済み"),
    e("cand.in", "in {path}", "場所 {path}"),
    e("cand.prompt", "Resume which one? [1-{n}] ", "どれを再開しますか？ [1-{n}] "),
    e("cont.nothing", "nothing to resume: no ready session, legacy state or continue-here note in any worktree", "再開するものはありません: どのワークツリーにも READY のセッション、旧形式の状態、再開メモがありません"),
    e("cont.all_complete", "All tasks of {key} are done. Waiting for new work.", "{key} のタスクはすべて完了しています。新しい作業を待っています。"),
    e("cont.other_worktree", "no sessions here, but worktree {path} has: {keys}", "ここにセッションはありませんが、ワークツリー {path} にあります: {keys}"),
    e("cont.store", "no sessions in any worktree, but the notes store has: {keys}", "どのワークツリーにもセッションはありませんが、ノートストアにあります: {keys}"),
    e("cont.resuming", "Resuming in {path}", "{path} で再開します"),
    e("cont.open_tasks", "Open tasks", "未完了のタスク"),
    e("cont.stale_mark", "  ⚠ stale ({age} untouched)", "  ⚠ 停滞（{age} 手つかず）"),
    e("cont.files", "files: {list}", "ファイル: {list}"),
    e("cont.next", "next: {what}", "次: {what}"),
    e("cont.blockers", "blockers: {list}", "障害: {list}"),
    e("cont.not_started", "not started: {list}", "未着手: {list}"),
    e("cont.needs_user", "Needs the user (do not start these without them):", "ユーザーが必要（ユーザーなしで始めないこと）:"),
    e("cont.successor_first", "Successor: start now with {first}, without waiting for approval.", "後継: 承認を待たずに {first} から今すぐ始めてください。"),
    e("cont.successor", "Successor: start now, without waiting for approval.", "後継: 承認を待たずに今すぐ始めてください。"),
    e("cont.ask_not_fresh", "Next: this handover is not fresh; show the user the evidence above and ask whether to continue from it or start afresh. Start no work before they answer.", "次: この引き継ぎは新鮮ではありません。上の根拠をユーザーに示し、ここから続けるか新しく始めるかを尋ねてください。答えがあるまで作業を始めないでください。"),
    e("cont.ask", "Next: ask the user whether to work through these tasks in this order. Start no work before they approve.", "次: これらのタスクをこの順に進めてよいかユーザーに尋ねてください。承認があるまで作業を始めないでください。"),
    e("section.objective", "Objective", "目的"),
    e("section.completed", "Completed", "完了"),
    e("section.in_progress", "In Progress", "進行中"),
    e("section.next_steps", "Next Steps", "次のステップ"),
    e("section.context", "Context", "コンテキスト"),
    e("effect.rendered", "regenerated {path}", "{path} を再生成しました"),
    e("effect.cleaned", "removed finished session {path}", "完了したセッション {path} を削除しました"),
    e("effect.consumed", "consumed {path} (a copy is in {copy})", "{path} を消費しました（コピーは {copy}）"),
    e("effect.consumed_committed", "consumed {path} (a copy is in {copy}; its removal was committed)", "{path} を消費しました（コピーは {copy}、削除はコミット済み）"),
    e("effect.restored", "restored session {key} from the notes store (note on {commit}) into {path}", "セッション {key} をノートストア（{commit} のノート）から {path} に復元しました"),
    // hook install
    e("hook.added", "added the SessionStart hook to {path}", "{path} に SessionStart フックを追加しました"),
    e("hook.present", "{path} already has the SessionStart hook", "{path} にはすでに SessionStart フックがあります"),
    e("hook.removed", "removed the SessionStart hook from {path}", "{path} から SessionStart フックを削除しました"),
    e("hook.absent", "{path} has no SessionStart hook of git-handover", "{path} に git-handover の SessionStart フックはありません"),
    e("hook.instr_added", "added a Session continuity section to {path}", "{path} に Session continuity の節を追加しました"),
    e("hook.instr_present", "{path} already has a Session continuity section", "{path} にはすでに Session continuity の節があります"),
    e("hook.instr_removed", "removed the Session continuity section from {path}", "{path} から Session continuity の節を削除しました"),
    e("hook.instr_absent", "{path} has no Session continuity section written by git-handover", "{path} に git-handover が書いた Session continuity の節はありません"),
    // notes store
    e("log.none", "no records in {notes_ref}", "{notes_ref} にレコードはありません"),
    e("log.consumed", "consumed note", "消費された再開メモ"),
    e("log.note_on", "note on {commit}", "{commit} のノート"),
    e("log.branch", ", branch {branch}", "、ブランチ {branch}"),
    e("log.worktree", ", worktree {path}", "、ワークツリー {path}"),
    e("sync.rewrite_added", "added {notes_ref} to notes.rewriteRef", "{notes_ref} を notes.rewriteRef に追加しました"),
    e("sync.remote_empty", "{remote} has no {notes_ref} yet", "{remote} にはまだ {notes_ref} がありません"),
    e("sync.fast_forward", "took the remote's records (fast-forward)", "リモートのレコードを取り込みました（早送り）"),
    e("sync.merged", "merged the remote's records ({n} notes joined line by line)", "リモートのレコードをマージしました（{n} 件のノートを行単位で結合）"),
    e("sync.nothing", "nothing to exchange: neither side has records", "交換するものはありません: どちらにもレコードがありません"),
    e("sync.pushed", "pushed {notes_ref} to {remote}", "{notes_ref} を {remote} にプッシュしました"),
    e("sync.same", "{notes_ref} is up to date with {remote}", "{notes_ref} は {remote} と同じです"),
    // errors
    e("err.not_a_repo", "not a git repository (or any of the parent directories): {dir}", "git リポジトリではありません（親ディレクトリも含む）: {dir}"),
    e("err.invalid_json", "invalid json in {file} at line {line}, column {column}: {message}", "{file} の {line} 行 {column} 列の JSON が不正です: {message}"),
    e("err.invalid_field", "invalid handover {file}: field `{field}` {message}", "引き継ぎ {file} が不正です: フィールド `{field}` {message}"),
    e("err.too_large", "refusing to read {file}: {size} bytes is over the limit of {limit} bytes", "{file} を読みません: {size} バイトは上限 {limit} バイトを超えています"),
    e("err.invalid_config", "invalid value {value} for config key {key}: expected {expected}", "設定 {key} の値 {value} が不正です: {expected} を指定してください"),
    e("err.io", "cannot {action} {path}: {why}", "{path} を{action}できません: {why}"),
    e("err.git", "cannot {action}: {why}", "{action} ができません: {why}"),
    e("err.locked", "cannot take the lock {lock}: held by {owner} for {waited}", "ロック {lock} を取れません: {owner} が {waited} 保持しています"),
    e("err.another_writer", "another writer", "別の書き込み"),
    e("err.ref_race", "cannot update {reference}: it kept changing under {attempts} attempts (last: {last})", "{reference} を更新できません: {attempts} 回試す間に変わり続けました（最後: {last}）"),
    e("err.invalid_one", "1 handover file is invalid", "1 個の引き継ぎファイルが不正です"),
    e("err.invalid_many", "{n} handover files are invalid", "{n} 個の引き継ぎファイルが不正です"),
    e("err.hint_not_a_repo", "run it inside a git repository or one of its worktrees, or point at one with -C <path>", "git リポジトリかそのワークツリーの中で実行するか、-C <path> で指定してください"),
    e("err.hint_fix_file", "fix or remove {file} by hand; git-handover never rewrites a file it cannot read", "{file} を手で直すか削除してください。git-handover は読めないファイルを書き換えません"),
    e("err.hint_fix_files", "fix or remove each named file by hand; git-handover never rewrites a file it cannot read", "名前の出たファイルを手で直すか削除してください。git-handover は読めないファイルを書き換えません"),
    e("err.hint_too_large", "{file} is not a handover the tool wrote; inspect it by hand", "{file} はこのツールが書いた引き継ぎではありません。手で確認してください"),
    e("err.hint_config", "correct it with `git config {key} <value>` (or the -c that set it), or remove it", "`git config {key} <value>`（または指定した -c）で直すか、削除してください"),
    e("err.hint_locked", "another git-handover is writing; it is removed by itself once it is older than handover.lockTimeout and its process is gone; if no git-handover runs, remove {lock}", "別の git-handover が書き込み中です。handover.lockTimeout より古くなりプロセスが消えれば自動で削除されます。git-handover が動いていなければ {lock} を削除してください"),
    e("err.hint_ref_race", "other writers kept updating {reference}; run the command again", "他の書き込みが {reference} を更新し続けました。もう一度実行してください"),
    e("io.read", "read", "読み込み"),
    e("io.write", "write", "書き込み"),
    e("io.create", "create", "作成"),
    e("io.remove", "remove", "削除"),
    e("io.flush", "flush", "フラッシュ"),
    e("io.replace", "replace", "置き換え"),
    e("io.render", "render", "生成"),
    e("io.create the lock", "create the lock", "ロック作成"),
    e("io.create a temporary file in", "create a temporary file in", "一時ファイル作成"),
    e("io.read the current directory", "read the current directory", "現在のディレクトリの読み込み"),
    e("what.session_key", "session key", "セッションキー"),
    e("what.team", "team", "チーム"),
    e("what.agent", "agent", "エージェント"),
    e("what.branch", "branch", "ブランチ"),
    e("what.handover_dir", "handover.dir", "handover.dir"),
    e("what.ref", "ref", "参照"),
    e("what.remote", "remote", "リモート"),
    e("path.empty", "{what} must not be empty", "{what} は空にできません"),
    e("path.absolute", "{what} must be a relative path", "{what} は相対パスでなければなりません"),
    e("path.control", "{what} must not contain control characters or backslashes", "{what} に制御文字やバックスラッシュは使えません"),
    e("path.empty_component", "{what} must not contain an empty path component", "{what} に空のパス要素は使えません"),
    e("path.dots", "{what} must not contain `.` or `..` components", "{what} に `.` や `..` の要素は使えません"),
    e("path.one_component", "{what} must be one path component, not {value}", "{what} はパスの1要素でなければなりません（{value} は不可）"),
    e("cfg.duration", "a duration such as 90m, 36h, 7d or 1w", "90m、36h、7d、1w のような期間"),
    e("cfg.not_negative", "a duration that is not negative", "負でない期間"),
    e("cfg.store", "one of files, notes, both", "files、notes、both のいずれか"),
    e("cfg.bool", "a boolean", "真偽値"),
    e("cfg.lang", "en or ja", "en か ja"),
    e("cfg.color", "auto, always, never or a boolean", "auto、always、never か真偽値"),
    e("cfg.notes_ref", "a reference name under refs/notes/", "refs/notes/ の下の参照名"),
    e("cfg.relative", "{why}", "{why}"),
    e("err.c_no_value", "-c {item}: expected name=value", "-c {item}: 名前=値 の形にしてください"),
    e("err.c_example", "for example: -c handover.freshFor=36h", "例: -c handover.freshFor=36h"),
    e("err.no_dir", "cannot change to {dir}: no such directory", "{dir} に移動できません: そのディレクトリはありません"),
    e("err.agent_no_team", "agent {agent} is in no team under ~/.claude/teams", "エージェント {agent} は ~/.claude/teams のどのチームにも属していません"),
    e("err.name_team", "name the team with --team or GIT_HANDOVER_TEAM", "--team か GIT_HANDOVER_TEAM でチームを指定してください"),
    e("err.no_branch", "this worktree has no branch or commit to name a session after", "このワークツリーにはセッション名にできるブランチもコミットもありません"),
    e("err.no_branch_hint", "make a commit first, or use --team/--agent", "先にコミットするか、--team/--agent を使ってください"),
    e("err.too_many_sessions", "too many sessions named {stamp} under {dir}", "{dir} に {stamp} という名前のセッションが多すぎます"),
    e("err.not_plain_dir", "refusing to write through {path}: not a plain directory", "{path} を通して書き込みません: 普通のディレクトリではありません"),
    e("err.no_links", "handover directories must not be symbolic links", "引き継ぎのディレクトリはシンボリックリンクにできません"),
    e("err.refuse_remove", "refusing to remove {path}: {why}", "{path} を削除しません: {why}"),
    e("err.why_not_dir", "not a plain directory", "普通のディレクトリではありません"),
    e("err.why_unresolved", "cannot resolve it", "解決できません"),
    e("err.why_outside", "it is outside the handover root", "引き継ぎのルートの外にあります"),
    e("err.older_than", "invalid --older-than {value}: expected {expected}", "--older-than {value} は不正です: {expected} を指定してください"),
    e("err.bare", "this command needs a worktree, and this repository is bare", "このコマンドにはワークツリーが必要ですが、このリポジトリはベアです"),
    e("err.bare_hint", "run it inside one of the worktrees", "どれかのワークツリーの中で実行してください"),
    e("err.bare_hint_or_name", "run it inside one of the worktrees, or name a session", "どれかのワークツリーの中で実行するか、セッションを指定してください"),
    e("err.not_a_target", "{target} is not a session directory, a project-state.json or a CONTINUE_HERE.md", "{target} はセッションのディレクトリでも project-state.json でも CONTINUE_HERE.md でもありません"),
    e("err.no_session_anywhere", "no session {key} in any worktree or in the notes store", "どのワークツリーにもノートストアにもセッション {key} はありません"),
    e("err.restore_exists", "cannot restore {key} from the notes store: {path} exists", "{key} をノートストアから復元できません: {path} が存在します"),
    e("err.resume_it", "resume it with `git handover continue {key}`", "`git handover continue {key}` で再開してください"),
    e("err.copy_unreadable", "the copy {path} does not read back; the note is kept", "コピー {path} を読み戻せません。メモは残します"),
    e("err.not_regular", "refusing to write {path}: not a regular file", "{path} に書き込みません: 通常のファイルではありません"),
    e("err.note_unconsumed", "{path} exists and has not been consumed", "{path} があり、まだ消費されていません"),
    e("err.note_unconsumed_hint", "brief on it with `git handover continue`, or replace it with --force", "`git handover continue` で確認するか、--force で置き換えてください"),
    e("err.no_home", "HOME is not set, so the user's settings cannot be found", "HOME が設定されていないため、ユーザーの設定ファイルが見つかりません"),
    e("err.no_local_scope", "{agent} has no local settings file", "{agent} にはローカルの設定ファイルがありません"),
    e("err.scope_hint", "use --scope project or --scope user", "--scope project か --scope user を使ってください"),
    e("err.no_legacy", "no legacy state at {path}", "{path} に旧形式の状態はありません"),
    e("err.migrate_readback", "the migrated copy {path} does not read back as written; {legacy} is kept", "移行したコピー {path} が書いたとおりに読み戻せません。{legacy} は残します"),
    e("err.no_session_in", "no session {key} in {path}", "{path} にセッション {key} はありません"),
    e("err.status_here_hint", "`git handover status --here` lists the sessions of this worktree", "`git handover status --here` でこのワークツリーのセッションが見られます"),
    e("err.store_no_head", "handover.store is {store}, and HEAD has no commit to attach the note to", "handover.store は {store} ですが、HEAD にノートを付けるコミットがありません"),
    e("err.store_no_head_hint", "make a first commit, or set handover.store to files", "最初のコミットを作るか、handover.store を files にしてください"),
    e("err.stdin_terminal", "no input: this command reads from stdin, and stdin is a terminal", "入力がありません: このコマンドは標準入力を読みますが、標準入力が端末です"),
    e("err.stdin_hint", "pipe the input in, or name a file with --from FILE", "入力をパイプで渡すか、--from FILE でファイルを指定してください"),
    e("err.render_none", "no ready session for this worktree to render", "このワークツリーに再生成する READY のセッションはありません"),
    e("err.render_hint", "name one: `git handover render <key>`", "指定してください: `git handover render <key>`"),
    e("err.here_bare", "--here needs a worktree, and this repository is bare", "--here にはワークツリーが必要ですが、このリポジトリはベアです"),
    e("err.here_bare_hint", "run it inside one of the worktrees, or leave out --here", "どれかのワークツリーの中で実行するか、--here を外してください"),
    e("err.bad_remote", "{remote} is not a remote name this command accepts", "{remote} はこのコマンドが受け付けるリモート名ではありません"),
    e("err.remote_hint", "name a remote configured with `git remote add`", "`git remote add` で設定したリモートを指定してください"),
    e("err.bad_rev", "cannot resolve {rev} to a commit", "{rev} をコミットとして解決できません"),
    e("err.rev_hint", "name a commit: a sha, a branch, HEAD~1", "コミットを指定してください: sha、ブランチ、HEAD~1 など"),
    e("err.empty_task_id", "a task id must not be empty", "タスク id は空にできません"),
    e("err.no_task", "no task {id} in session {key}", "セッション {key} にタスク {id} はありません"),
    e("err.no_task_hint", "add it with `git handover task add {id} <description>`", "`git handover task add {id} <説明>` で追加してください"),
    e("err.task_exists", "task {id} already exists in session {key}", "タスク {id} はセッション {key} にすでにあります"),
    e("err.no_ready_session", "no ready session for {what} in this worktree", "このワークツリーに {what} の READY のセッションはありません"),
    e("err.no_ready_session_hint", "create one with `git handover save` or `git handover task add`", "`git handover save` か `git handover task add` で作ってください"),
    e("warn.local_time", "{file}: field `{field}` is {what} ({raw}), read as local time", "{file}: フィールド `{field}` は{what}（{raw}）なので、ローカル時刻として読みました"),
    e("warn.not_a_timestamp", "{file}: `Last updated: {raw}` is not a timestamp; the file's modification time is used", "{file}: `Last updated: {raw}` は時刻ではありません。ファイルの更新時刻を使います"),
    e("stamp.bare_date", "a bare date", "日付だけ"),
    e("stamp.naive", "a naive local time", "タイムゾーンのないローカル時刻"),
    // process-level lines
    e("main.warning", "warning: {text}", "警告: {text}"),
    e("main.hint", "hint: {text}", "ヒント: {text}"),
    e("main.stale_lock", "removed the stale lock {lock} (left by {owner}, which is gone)", "古いロック {lock} を削除しました（{owner} が残したもので、そのプロセスはもうありません）"),
    e("main.choose", "several handovers could be resumed; name one", "再開できる引き継ぎが複数あります。どれかを指定してください"),
    e("main.choose_hint", "git handover continue <key or path from the list>", "git handover continue <一覧のキーまたはパス>"),
];

/// The catalog by key, built on first use (a status of hundreds of handovers looks up
/// thousands of labels).
fn index() -> &'static std::collections::HashMap<&'static str, &'static Entry> {
    static INDEX: std::sync::OnceLock<std::collections::HashMap<&'static str, &'static Entry>> =
        std::sync::OnceLock::new();
    INDEX.get_or_init(|| CATALOG.iter().map(|e| (e.key, e)).collect())
}

/// The message `key` in `lang`, or `fallback` when the catalog has no such key.
pub fn text_or<'a>(lang: Lang, key: &str, fallback: &'a str) -> &'a str {
    match index().get(key) {
        Some(e) => match lang {
            Lang::En => e.en,
            Lang::Ja => e.ja,
        },
        None => fallback,
    }
}

/// The message `key` in `lang`, as it stands. A key missing from the catalog (a bug the
/// tests look for) shows as itself rather than stopping the program.
pub fn text(lang: Lang, key: &str) -> &str {
    debug_assert!(
        index().contains_key(key),
        "message {key:?} is not in the catalog"
    );
    text_or(lang, key, key)
}

/// The message `key` in `lang`, with each `{name}` replaced by its argument.
pub fn fill(lang: Lang, key: &str, args: &[(&str, &dyn Display)]) -> String {
    let mut out = text(lang, key).to_owned();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), &value.to_string());
    }
    out
}

/// A duration for people, in `lang`: `1d 3h` in English, `1日3時間` in Japanese.
pub fn duration(lang: Lang, d: std::time::Duration) -> String {
    let english = crate::config::human_duration(d);
    match lang {
        Lang::En => english,
        Lang::Ja => {
            let mut out = String::new();
            for part in english.split(' ') {
                let (number, unit) = part.split_at(part.len() - 1);
                out.push_str(number);
                out.push_str(match unit {
                    "d" => "日",
                    "h" => "時間",
                    "m" => "分",
                    _ => "秒",
                });
            }
            out
        }
    }
}

/// The separator of a list in running text.
pub fn list_separator(lang: Lang) -> &'static str {
    match lang {
        Lang::En => ", ",
        Lang::Ja => "、",
    }
}

/// Columns a string takes on a terminal: East Asian wide characters take two.
pub fn width(s: &str) -> usize {
    s.chars()
        .map(|c| {
            let c = c as u32;
            let wide = (0x1100..=0x115F).contains(&c)
                || (0x2E80..=0xA4CF).contains(&c)
                || (0xAC00..=0xD7A3).contains(&c)
                || (0xF900..=0xFAFF).contains(&c)
                || (0xFE30..=0xFE4F).contains(&c)
                || (0xFF00..=0xFF60).contains(&c)
                || (0xFFE0..=0xFFE6).contains(&c);
            if wide { 2 } else { 1 }
        })
        .sum()
}

/// `s` padded with spaces to `columns` terminal columns.
pub fn pad(s: &str, columns: usize) -> String {
    let w = width(s);
    if w >= columns {
        s.to_owned()
    } else {
        format!("{s}{}", " ".repeat(columns - w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placeholders(s: &str) -> Vec<&str> {
        let mut out: Vec<&str> = s
            .split('{')
            .skip(1)
            .filter_map(|p| p.split_once('}').map(|(name, _)| name))
            .collect();
        out.sort_unstable();
        out
    }

    #[test]
    fn keys_are_unique_and_both_languages_have_the_same_placeholders() {
        for (i, a) in CATALOG.iter().enumerate() {
            assert!(
                CATALOG[i + 1..].iter().all(|b| b.key != a.key),
                "{} twice",
                a.key
            );
            assert_eq!(placeholders(a.en), placeholders(a.ja), "{}", a.key);
            assert!(!a.ja.is_empty() && !a.en.is_empty());
        }
    }

    #[test]
    fn every_key_the_source_asks_for_is_in_the_catalog() {
        // Every string literal shaped like a key of one of the catalog's namespaces.
        let namespaces: Vec<&str> = CATALOG
            .iter()
            .map(|e| e.key.split('.').next().unwrap())
            .collect();
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/src");
        let mut files = Vec::new();
        for sub in ["", "/render", "/commands", "/git"] {
            for entry in std::fs::read_dir(format!("{dir}{sub}")).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "rs") {
                    files.push(path);
                }
            }
        }
        let mut asked = 0;
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            for (i, piece) in source.split('"').enumerate() {
                let Some((ns, rest)) = piece.split_once('.') else {
                    continue;
                };
                let shaped = i % 2 == 1
                    && namespaces.contains(&ns)
                    && !rest.is_empty()
                    && rest.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                if shaped {
                    asked += 1;
                    assert!(
                        CATALOG.iter().any(|e| e.key == piece),
                        "{} asks for {piece:?}",
                        file.display()
                    );
                }
            }
        }
        assert!(asked > 150, "the scan found the lookups ({asked})");
    }

    #[test]
    fn fill_and_width() {
        assert_eq!(
            fill(Lang::Ja, "status.none_any", &[("n", &3)]),
            "3 個のワークツリーのどれにも引き継ぎはありません"
        );
        assert_eq!(width("鮮度"), 4);
        let d = std::time::Duration::from_secs(27 * 3600);
        assert_eq!(duration(Lang::En, d), "1d 3h");
        assert_eq!(duration(Lang::Ja, d), "1日3時間");
        assert_eq!(
            duration(Lang::Ja, std::time::Duration::from_secs(45)),
            "45秒"
        );
        assert_eq!(pad("鮮度", 6), "鮮度  ");
        assert_eq!(pad("next", 6), "next  ");
    }
}
