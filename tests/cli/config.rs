//! Configuration as git reads it (SPEC section 6): global, included, local and worktree
//! files, `git -c`, and our own `-c`, each overriding the one before; a bad value is an
//! error naming the key and the value.

use std::path::Path;

use crate::common::TestEnv;
use serde_json::Value;

/// Where a save in `dir` wrote, relative to `dir` (the handover root and key).
#[track_caller]
fn saved_under(env: &TestEnv, dir: &Path, args: &[&str], extra_env: &[(&str, &str)]) -> String {
    let input = env.root().join("input.json");
    env.write(&input, "{}");
    let mut all = args.to_vec();
    all.extend([
        "--json",
        "save",
        "--team",
        "t",
        "--from",
        input.to_str().unwrap(),
    ]);
    let run = env.handover_with(dir, &all, |c| {
        for (k, v) in extra_env {
            c.env(k, v);
        }
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let report: Value = serde_json::from_str(&run.stdout).unwrap();
    let path = report["path"].as_str().unwrap();
    let dir = env.redact(&dir.display().to_string());
    path.strip_prefix(&format!("{dir}/"))
        .unwrap_or(path)
        .to_owned()
}

#[test]
fn every_config_scope_is_read_and_the_nearer_one_wins() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");

    // Global config includes another file, as a user's ~/.gitconfig might.
    let included = env.root().join("home/handover.inc");
    env.write(&included, "[handover]\n\tdir = from-include\n");
    let global = env.root().join("home/gitconfig");
    env.write(
        &global,
        &format!("[include]\n\tpath = {}\n", included.display()),
    );
    assert_eq!(saved_under(&env, &repo, &[], &[]), "from-include/t/default");

    env.git(&repo, &["config", "handover.dir", "from-local"]);
    assert_eq!(saved_under(&env, &repo, &[], &[]), "from-local/t/default");

    // A linked worktree with its own config.worktree.
    env.git(&repo, &["config", "extensions.worktreeConfig", "true"]);
    let wt = env.worktree(&repo, "wt", "side");
    env.git(
        &wt,
        &["config", "--worktree", "handover.dir", "from-worktree"],
    );
    assert_eq!(saved_under(&env, &wt, &[], &[]), "from-worktree/t/default");
    assert_eq!(saved_under(&env, &repo, &[], &[]), "from-local/t/default");

    // `git -c` reaches us through GIT_CONFIG_PARAMETERS, the way git passes it.
    let out = env
        .command("git")
        .current_dir(&repo)
        .args([
            "-c",
            "handover.dir=from-git-c",
            "config",
            "--get",
            "handover.dir",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "from-git-c");
    let params = [("GIT_CONFIG_PARAMETERS", "'handover.dir'='from-git-c'")];
    assert_eq!(
        saved_under(&env, &repo, &[], &params),
        "from-git-c/t/default"
    );
    // And our own -c wins over everything.
    assert_eq!(
        saved_under(&env, &repo, &["-c", "handover.dir=from-flag"], &params),
        "from-flag/t/default"
    );
}

#[test]
fn git_dash_c_through_git_itself_reaches_the_tool() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    let bin = Path::new(env!("CARGO_BIN_EXE_git-handover"))
        .parent()
        .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let out = env
        .command("git")
        .current_dir(&repo)
        .env("PATH", &path)
        .args(["-c", "handover.staleAfter=forever", "handover", "status"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "git-handover: invalid value \"forever\" for config key handover.staleAfter: expected a duration such as 90m, 36h, 7d or 1w\nhint: correct it with `git config handover.staleAfter <value>` (or the -c that set it), or remove it\n"
    );
}

#[test]
fn durations_and_bad_values() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    for good in ["36h", "7d", "90m", "1w", "45s"] {
        let run = env.handover(
            &repo,
            &["-c", &format!("handover.freshFor={good}"), "status"],
        );
        assert_eq!(run.code, 0, "{good}: {}", run.snapshot());
    }
    for (key, bad) in [
        ("handover.freshFor", "tomorrow"),
        ("handover.store", "cloud"),
        ("handover.autoClean", "perhaps"),
        ("handover.language", "fr"),
        ("color.handover", "sometimes"),
        ("handover.notesRef", "refs/heads/main"),
        ("handover.dir", "../outside"),
    ] {
        let run = env.handover(&repo, &["-c", &format!("{key}={bad}"), "status"]);
        assert_eq!(run.code, 2, "{key}={bad}: {}", run.snapshot());
        let first = run.stderr.lines().next().unwrap();
        assert!(
            first.contains(key) && first.contains(bad),
            "the error names the key and the value: {first}"
        );
    }
    let run = env.handover(&repo, &["-c", "novalue", "status"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .starts_with("git-handover: -c \"novalue\": expected name=value")
    );
}
