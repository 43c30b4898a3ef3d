//! The catalog's messages of `doctor`'s git hook, packaged installs and `OpenCode`
//! checks, English and Japanese.

use super::catalog::Entry;

const fn e(key: &'static str, en: &'static str, ja: &'static str) -> Entry {
    Entry { key, en, ja }
}

#[rustfmt::skip]
pub(super) const REACH2: &[Entry] = &[
    e("doctor.git_hook_no_dir", "the directory git runs hooks from (core.hooksPath) could not be worked out", "git がフックを実行するディレクトリ（core.hooksPath）を特定できません"),
    e("doctor.git_hook_ok", "the git post-commit hook {path} runs git-handover", "git の post-commit フック {path} は git-handover を実行します"),
    e("doctor.git_hook_not_executable", "the git post-commit hook {path} calls git-handover but is not executable: git does not run it", "git の post-commit フック {path} は git-handover を呼びますが、実行可能ではないため git は実行しません"),
    e("doctor.git_hook_elsewhere", "git-handover is in the post-commit hook {ignored}, but git runs hooks from core.hooksPath, and {path} does not call it", "git-handover は post-commit フック {ignored} にありますが、git は core.hooksPath のフックを実行し、{path} はそれを呼びません"),
    e("doctor.git_hook_foreign", "the git post-commit hook {path} does not call git-handover (installing adds its line and keeps the rest)", "git の post-commit フック {path} は git-handover を呼びません（インストールすると既存の内容を残して一行を追加します）"),
    e("doctor.git_hook_none", "no git post-commit hook runs git-handover ({path})", "git-handover を実行する git の post-commit フックはありません（{path}）"),
    e("doctor.package_ok", "{agent}: the {name} package is installed and on ({path})", "{agent}: パッケージ {name} はインストール済みで有効です（{path}）"),
    e("doctor.package_ok_codex", "{agent}: the {name} plugin is installed and on ({path}); Codex runs its hooks once you trust them in /hooks", "{agent}: プラグイン {name} はインストール済みで有効です（{path}）。Codex は /hooks で信頼した後にそのフックを実行します"),
    e("doctor.package_off", "{agent}: the {name} package is installed but turned off here: its hooks do not run ({path})", "{agent}: パッケージ {name} はインストール済みですが、ここでは無効のためフックは実行されません（{path}）"),
];
