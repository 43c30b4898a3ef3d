//! The second round of attacks (issue 31): each test tries to break one promise the
//! tool makes about what it reads and writes. docs/SECURITY.md lists them.

mod common;

use std::path::Path;

use common::TestEnv;

fn save(env: &TestEnv, dir: &Path, args: &[&str], state: &str) -> common::Run {
    let input = env.root().join("input.json");
    env.write(&input, state);
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["save", "--from", input.to_str().unwrap()]);
    env.handover(dir, &all)
}

const ONE_TASK: &str =
    r#"{"active_tasks": [{"id": "T1", "status": "in_progress", "description": "work"}]}"#;

/// Item 17: a handover.dir with glob characters is excluded literally — the handover
/// stays out of `git status`, and the user's `ho1/` is not ignored.
#[test]
fn a_handover_dir_with_glob_characters_is_excluded_literally() {
    let env = TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
    env.write(&repo.join("ho1/mine.txt"), "the user's own file\n");
    let run = save(&env, &repo, &["-c", "handover.dir=ho[1]"], ONE_TASK);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let exclude = std::fs::read_to_string(repo.join(".git/info/exclude")).unwrap();
    assert!(exclude.contains("/ho\\[1\\]/\n"), "{exclude}");
    let status = env.git(&repo, &["status", "--porcelain", "--untracked-files=all"]);
    assert_eq!(status, "?? ho1/mine.txt", "{exclude}");
    // Said once: the pattern is found again on the next write.
    let again = save(&env, &repo, &["-c", "handover.dir=ho[1]"], ONE_TASK);
    assert_eq!(again.code, 0, "{}", again.snapshot());
    assert_eq!(again.stderr, "", "{}", again.snapshot());
}
