//! `doctor` and git's post-commit hook: not installed, installed where git no longer
//! looks (`core.hooksPath` set after), another tool's hook that does not call ours, and
//! ours not executable; each found, and fixed by the command it prints (or by `--fix`
//! where the file is the tool's own).

use std::os::unix::fs::PermissionsExt as _;

use super::{check, doctor, run_as_printed};
use crate::common::TestEnv;

fn set_mode(path: &std::path::Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

#[test]
fn a_missing_hook_and_one_git_no_longer_runs_are_found_and_fixed_as_printed() {
    let env = TestEnv::new();
    let repo = env.repo();
    let (_, doc) = doctor(&env, &repo, &[]);
    let c = check(&doc, "git_hook");
    assert_eq!(c["outcome"], "note", "{c:#}");
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    let (_, doc) = doctor(&env, &repo, &[]);
    assert_eq!(check(&doc, "git_hook")["outcome"], "ok", "{doc:#}");
    // core.hooksPath set afterwards: ours in .git/hooks is no longer run.
    env.git(&repo, &["config", "core.hooksPath", ".githooks"]);
    let (run, doc) = doctor(&env, &repo, &[]);
    assert_eq!(run.code, 1, "{doc:#}");
    let c = check(&doc, "git_hook");
    assert_eq!(c["outcome"], "problem", "{c:#}");
    assert!(
        c["path"]
            .as_str()
            .unwrap()
            .ends_with(".githooks/post-commit"),
        "{c:#}"
    );
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    let (_, doc) = doctor(&env, &repo, &[]);
    assert_eq!(check(&doc, "git_hook")["outcome"], "ok", "{doc:#}");
    assert!(repo.join(".githooks/post-commit").is_file());
}

#[test]
fn another_tool_s_hook_is_kept_and_a_hook_git_cannot_run_is_named() {
    let env = TestEnv::new();
    let repo = env.repo();
    let hooks = env.root().join("shared-hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    let theirs = hooks.join("post-commit");
    std::fs::write(&theirs, "#!/bin/sh\necho theirs\n").unwrap();
    set_mode(&theirs, 0o755);
    env.git(
        &repo,
        &["config", "core.hooksPath", hooks.to_str().unwrap()],
    );
    let (_, doc) = doctor(&env, &repo, &[]);
    let c = check(&doc, "git_hook");
    assert_eq!(c["outcome"], "note", "{c:#}");
    assert!(
        c["message"].as_str().unwrap().contains("does not call"),
        "{c:#}"
    );
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    let (_, doc) = doctor(&env, &repo, &[]);
    assert_eq!(check(&doc, "git_hook")["outcome"], "ok", "{doc:#}");
    assert!(
        std::fs::read_to_string(&theirs)
            .unwrap()
            .contains("echo theirs")
    );
    // Their hook, turned off: named, left to the user (--fix does not touch it), and
    // the printed chmod makes git run it again.
    set_mode(&theirs, 0o644);
    let (run, doc) = doctor(&env, &repo, &["--fix"]);
    assert_eq!(run.code, 1, "{doc:#}");
    let c = check(&doc, "git_hook");
    assert_eq!(
        (c["outcome"].as_str(), c["fixable"].as_bool()),
        (Some("problem"), Some(false)),
        "{c:#}"
    );
    assert_eq!(
        std::fs::metadata(&theirs).unwrap().permissions().mode() & 0o777,
        0o644
    );
    run_as_printed(&env, &repo, c["fix"].as_str().unwrap());
    let (run, doc) = doctor(&env, &repo, &[]);
    assert_eq!(check(&doc, "git_hook")["outcome"], "ok", "{doc:#}");
    assert_eq!(run.code, 0, "{doc:#}");
}

#[test]
fn the_hook_file_the_tool_made_is_made_executable_again_by_fix() {
    let env = TestEnv::new();
    let repo = env.repo();
    env.handover(&repo, &["hook", "install", "--git", "post-commit"])
        .assert_ok();
    let file = repo.join(".git/hooks/post-commit");
    set_mode(&file, 0o644);
    let (run, doc) = doctor(&env, &repo, &[]);
    assert_eq!(run.code, 1, "{doc:#}");
    let c = check(&doc, "git_hook");
    assert_eq!(
        (c["outcome"].as_str(), c["fixable"].as_bool()),
        (Some("problem"), Some(true)),
        "{c:#}"
    );
    let (run, doc) = doctor(&env, &repo, &["--fix"]);
    assert_eq!(check(&doc, "git_hook")["outcome"], "fixed", "{doc:#}");
    assert_eq!(run.code, 0, "{doc:#}");
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o111,
        0o111
    );
}
