//! The same output in English and Japanese: labels and messages from the catalog, the
//! language from `--lang`, `handover.language` or the locale, and `--json` the same in
//! both.

use crate::common::fixture::fixture;

#[test]
fn status_in_english_and_japanese() {
    let f = fixture();
    let en = f.env.handover(&f.main, &["--lang", "en", "status"]);
    let ja = f.env.handover(&f.main, &["--lang", "ja", "status"]);
    insta::assert_snapshot!("status_en", en.snapshot());
    insta::assert_snapshot!("status_ja", ja.snapshot());
    assert_eq!(en.code, ja.code);
}

#[test]
fn continue_in_english_and_japanese() {
    let f = fixture();
    for (lang, name) in [("en", "continue_en"), ("ja", "continue_ja")] {
        let run = f.env.handover(
            &f.wt_x,
            &["--lang", lang, "continue", "feature/x/20261129-080000"],
        );
        insta::assert_snapshot!(name, run.snapshot());
    }
    for (lang, name) in [("en", "continue_note_en"), ("ja", "continue_note_ja")] {
        let run = f.env.handover(
            &f.main,
            &["--lang", lang, "continue", "--keep", "CONTINUE_HERE.md"],
        );
        insta::assert_snapshot!(name, run.snapshot());
    }
}

#[test]
fn the_language_comes_from_flag_config_or_locale_and_json_is_the_same() {
    let f = fixture();
    let by_locale = f.env.handover_with(&f.main, &["status"], |c| {
        c.env("LANG", "ja_JP.UTF-8");
    });
    let by_flag = f.env.handover(&f.main, &["--lang", "ja", "status"]);
    assert_eq!(by_locale.stdout, by_flag.stdout);
    let lc_all_wins = f.env.handover_with(&f.main, &["status"], |c| {
        c.env("LANG", "ja_JP.UTF-8").env("LC_ALL", "C");
    });
    assert!(
        lc_all_wins.stdout.contains("branch main"),
        "{}",
        lc_all_wins.stdout
    );
    let by_config = f
        .env
        .handover(&f.main, &["-c", "handover.language=ja", "status"]);
    assert_eq!(by_config.stdout, by_flag.stdout);
    let flag_beats_config = f.env.handover(
        &f.main,
        &["-c", "handover.language=ja", "--lang", "en", "status"],
    );
    assert!(flag_beats_config.stdout.contains("branch main"));

    let json_en = f
        .env
        .handover(&f.main, &["--lang", "en", "--json", "status"]);
    let json_ja = f
        .env
        .handover(&f.main, &["--lang", "ja", "--json", "status"]);
    assert_eq!(json_en.stdout, json_ja.stdout);
    let c_en = f.env.handover(
        &f.wt_x,
        &[
            "--lang",
            "en",
            "--json",
            "continue",
            "feature/x/20261129-080000",
        ],
    );
    let c_ja = f.env.handover(
        &f.wt_x,
        &[
            "--lang",
            "ja",
            "--json",
            "continue",
            "feature/x/20261129-080000",
        ],
    );
    assert_eq!(c_en.stdout, c_ja.stdout);
}

#[test]
fn errors_warnings_and_hints_in_japanese() {
    let f = fixture();
    let run = f.env.handover(
        &f.main,
        &["--lang", "ja", "task", "--session", "../x", "start", "T1"],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "git-handover: セッションキー に `.` や `..` の要素は使えません\n"
    );
    let run = f.env.handover(
        &f.main,
        &[
            "--lang",
            "ja",
            "task",
            "--session",
            "usb/20261129-090000",
            "start",
            "NOPE",
        ],
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "git-handover: セッション usb/20261129-090000 にタスク \"NOPE\" はありません\nヒント: `git handover task add NOPE <説明>` で追加してください\n"
    );
    // Before any configuration is read, the locale decides.
    let outside = f.env.root().join("not-a-repo");
    std::fs::create_dir_all(&outside).unwrap();
    let run = f.env.handover_with(&outside, &["status"], |c| {
        c.env("LANG", "ja_JP.UTF-8");
    });
    assert_eq!(run.code, 128);
    assert!(
        run.stderr
            .starts_with("git-handover: git リポジトリではありません"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_handover_error_is_shown_in_the_run_language_and_as_json() {
    let env = crate::common::TestEnv::new();
    let repo = env.init("repo");
    env.commit(&repo, "a", "a\n", "a", "2026-11-30T10:00:00Z");
    let file = repo.join(".claude/handover/main/20261130-100000/project-state.json");
    env.write(
        &file,
        r#"{"version": 3, "status": "DONE", "active_tasks": []}"#,
    );
    let ja = env.handover(&repo, &["--lang", "ja", "status"]);
    assert_eq!(ja.code, 3);
    let first = ja.stderr.lines().next().unwrap();
    assert!(
        first.contains("フィールド") || first.contains("無効"),
        "the error itself is in Japanese: {first}"
    );
    assert!(ja.stdout.contains("無効"), "{}", ja.stdout);
    // With --json, an error that stops the command is a JSON document on stdout too.
    let run = env.handover(&repo, &["--json", "continue", "main/20261130-100000"]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    let run = env.handover(
        &repo,
        &["--json", "task", "--session", "no/such", "start", "T1"],
    );
    assert_eq!(run.code, 2, "{}", run.snapshot());
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["schema"], "git-handover/error/1");
    assert_eq!(v["error"]["kind"], "usage");
    assert_eq!(v["error"]["exit"], 2);
    assert!(v["error"]["message"].as_str().unwrap().contains("no/such"));
}
