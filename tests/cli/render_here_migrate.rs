//! `render`, `here` and `migrate`: the golden `handover.md` in English and Japanese, a
//! stamped note that is never replaced without `--force`, and a legacy state moved with
//! its old files removed only after the copy reads back.

use std::path::Path;

use crate::common::{TestEnv, read_json};
use serde_json::json;

#[test]
fn render_writes_golden_handover_md_in_english_and_japanese() {
    let env = TestEnv::new();
    let repo = env.repo();
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let dir = repo.join(".claude/handover/main/20261130-100000");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(
        golden.join("project-state.json"),
        dir.join("project-state.json"),
    )
    .unwrap();
    for (lang, file) in [("en", "handover.en.md"), ("ja", "handover.ja.md")] {
        let run = env.handover(&repo, &["--lang", lang, "render", "main/20261130-100000"]);
        assert_eq!(run.code, 0, "{}", run.snapshot());
        let rendered = std::fs::read_to_string(dir.join("handover.md")).unwrap();
        assert_eq!(
            rendered,
            std::fs::read_to_string(golden.join(file)).unwrap(),
            "{lang}"
        );
        let again = env.handover(&repo, &["--lang", lang, "render", "main/20261130-100000"]);
        let same = if lang == "en" {
            "is up to date\n"
        } else {
            "は最新です\n"
        };
        assert!(
            again.stdout.ends_with(same),
            "byte-stable: {}",
            again.stdout
        );
    }
    assert_eq!(
        env.handover(&repo, &["--lang", "en", "render", "main/20261130-100000"])
            .code,
        0
    );
    let by_locale = env.handover_with(&repo, &["render", "main/20261130-100000"], |c| {
        c.env("LANG", "ja_JP.UTF-8");
    });
    assert!(
        by_locale.stdout.ends_with("handover.md を再生成しました\n"),
        "the locale chose Japanese: {}",
        by_locale.snapshot()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("handover.md")).unwrap(),
        std::fs::read_to_string(golden.join("handover.ja.md")).unwrap()
    );
}

#[test]
fn here_writes_a_stamped_note_and_refuses_to_replace_one_without_force() {
    let env = TestEnv::new();
    let repo = env.repo();
    let body = env.root().join("body.md");
    env.write(&body, "# Continue Here\r\n> Last updated: old | Branch: old\r\n\r\n## Objective\r\nShip it\r\n## Next Steps\r\n1. **[USER]** approve\r\n");
    let run = env.handover(&repo, &["here", "--from", body.to_str().unwrap()]);
    assert_eq!(
        run.stdout,
        "wrote [ROOT]/repo/CONTINUE_HERE.md\n",
        "{}",
        run.snapshot()
    );
    assert_eq!(
        std::fs::read_to_string(repo.join("CONTINUE_HERE.md")).unwrap(),
        "# Continue Here\n\n> Last updated: 2026-11-30T12:00:00Z | Branch: main\n\n## Objective\nShip it\n## Next Steps\n1. **[USER]** approve\n"
    );
    let refused = env.handover(&repo, &["here", "--from", body.to_str().unwrap()]);
    insta::assert_snapshot!(refused.snapshot(), @r"
    exit: 2
    --- stdout
    --- stderr
    git-handover: [ROOT]/repo/CONTINUE_HERE.md exists and has not been consumed
    hint: brief on it with `git handover continue`, or replace it with --force
    ");
    let forced = env.handover(
        &repo,
        &["here", "--force", "--from", body.to_str().unwrap()],
    );
    assert_eq!(forced.stdout, "replaced [ROOT]/repo/CONTINUE_HERE.md\n");
    let names: Vec<_> = std::fs::read_dir(&repo)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        names.iter().all(|n| !n.to_string_lossy().contains("tmp")),
        "no draft left: {names:?}"
    );
}

#[test]
fn migrate_moves_a_legacy_state_and_removes_the_old_files_only_after_the_copy_reads_back() {
    let env = TestEnv::new();
    let repo = env.repo();
    let legacy = json!({"version": 2, "generated_at": "2026-11-28T09:00:00Z", "status": "READY", "x_legacy": [1],
                        "active_tasks": [{"id": "T1", "status": "in_progress", "description": "old work"}]});
    env.write(
        &repo.join(".claude/project-state.json"),
        &legacy.to_string(),
    );
    env.write(&repo.join(".claude/handover.md"), "old view\n");
    let run = env.handover(&repo, &["migrate"]);
    insta::assert_snapshot!(run.snapshot(), @r"
    exit: 0
    --- stdout
    migrated [ROOT]/repo/.claude/project-state.json to session main/20261130-120000
    removed the old .claude/handover.md
    --- stderr
    ");
    assert!(!repo.join(".claude/project-state.json").exists());
    assert!(!repo.join(".claude/handover.md").exists());
    let state = read_json(&repo.join(".claude/handover/main/20261130-120000/project-state.json"));
    assert_eq!(state["version"], 4);
    assert_eq!(state["x_legacy"], json!([1]));
    assert_eq!(
        state["generated_at"], "2026-11-28T09:00:00Z",
        "the handover's own time is kept"
    );
    assert_eq!(state["workspace"]["branch"], "main");
    assert!(
        repo.join(".claude/handover/main/20261130-120000/handover.md")
            .is_file()
    );
    let again = env.handover(&repo, &["migrate"]);
    assert_eq!(again.code, 1, "{}", again.snapshot());

    // An invalid legacy state is not migrated and not touched.
    env.write(&repo.join(".claude/project-state.json"), "{\"version\": 2}");
    let bad = env.handover(&repo, &["migrate"]);
    assert_eq!(bad.code, 3, "{}", bad.snapshot());
    assert_eq!(
        std::fs::read_to_string(repo.join(".claude/project-state.json")).unwrap(),
        "{\"version\": 2}"
    );
}
