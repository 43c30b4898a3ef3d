//! `save`'s merge rules of SPEC section 2 (version 4): tasks field by field, attempted
//! approaches, observations, session notes, phase summaries, session ids, and input
//! validated on its own before anything is merged or created (issue 17, items 16, 17
//! and 19).

use crate::common::{TestEnv, read_json, state_path};
use serde_json::{Value, json};

#[test]
fn a_partial_task_is_merged_field_by_field() {
    let env = TestEnv::new();
    let repo = env.repo();
    let key = env
        .save(
            &repo,
            &json!({"active_tasks": [{"id": "T1", "description": "parse the header",
            "status": "in_progress", "next_action": "write tests", "notes": "keep me",
            "attempted_approaches": [{"approach": "regex", "result": "failed"}]}]}),
            &[],
        )
        .stdout
        .trim()
        .to_owned();
    let s = read_json(&state_path(&repo, &key));
    assert_eq!(s["version"], 4, "new sessions are version 4");
    assert_eq!(s["session_id"].as_str().unwrap().len(), 36);
    let id = s["session_id"].clone();
    let run = env.save(
        &repo,
        &json!({"active_tasks": [{"id": "T1", "status": "blocked", "next_action": null,
            "attempted_approaches": [{"approach": "regex", "result": "failed"},
                                     {"approach": "nom", "result": "abandoned"}]}]}),
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let s = read_json(&state_path(&repo, &key));
    let t = &s["active_tasks"][0];
    assert_eq!(t["description"], "parse the header", "kept");
    assert_eq!(t["status"], "blocked", "replaced");
    assert_eq!(t["notes"], "keep me", "unknown field kept");
    assert!(t.get("next_action").is_none(), "null removes: {t}");
    let approaches: Vec<&str> = t["attempted_approaches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["approach"].as_str().unwrap())
        .collect();
    assert_eq!(approaches, ["regex", "nom"]);
    assert_eq!(s["session_id"], id, "stable");
    // The briefing file shows what was tried.
    let md = std::fs::read_to_string(repo.join(".claude/handover").join(&key).join("handover.md"))
        .unwrap();
    assert!(md.contains("  - tried: nom → abandoned\n"), "{md}");
}

#[test]
fn task_start_clears_blockers() {
    let env = TestEnv::new();
    let repo = env.repo();
    for args in [
        vec!["task", "add", "T1", "x"],
        vec!["task", "block", "T1", "--reason", "waiting"],
        vec!["task", "start", "T1"],
    ] {
        let run = env.handover(&repo, &args);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    let key = std::fs::read_dir(repo.join(".claude/handover/main"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .file_name();
    let s = read_json(&state_path(
        &repo,
        &format!("main/{}", key.to_string_lossy()),
    ));
    assert_eq!(s["active_tasks"][0]["status"], "in_progress");
    assert!(s["active_tasks"][0].get("blockers").is_none(), "{s}");
}

#[test]
fn observations_notes_and_summaries_merge_as_the_original_does() {
    let env = TestEnv::new();
    let repo = env.repo();
    let obs = |n: usize, sev: &str| json!({"criteria_id": format!("C{n}"), "severity": sev, "observation": format!("o{n}")});
    let key = env.save(&repo, &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}],
                "phase_observations": [{"phase": "plan", "observations": [obs(1, "quality")]}],
                "session_notes": [{"category": "directive", "content": "check security in execute"}],
                "phase_summaries": {"plan": "first"}}), &[])
    .stdout
    .trim()
    .to_owned();
    let notes: Vec<Value> = std::iter::once(
        json!({"category": "directive", "content": "check security in execute, again"}),
    )
    .chain((0..12).map(|i| json!({"category": "info", "content": format!("note {i}")})))
    .collect();
    let run = env.save(
        &repo,
        &json!({"phase_observations": [{"phase": "plan", "observations": [
                    obs(2, "quality"), obs(3, "quality"), obs(4, "quality"), obs(5, "quality"),
                    obs(6, "quality"), obs(7, "warning")]},
                  {"phase": "execute", "observations": [obs(8, "warning")]}],
                "session_notes": notes,
                "phase_summaries": {"plan": "second", "execute": "done"}}),
        &[],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let s = read_json(&state_path(&repo, &key));
    let plan: Vec<&str> = s["phase_observations"][0]["observations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["criteria_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        plan,
        ["C7", "C2", "C3", "C4", "C5"],
        "upserted, five, warnings first"
    );
    assert_eq!(s["phase_observations"][1]["phase"], "execute");
    let notes = s["session_notes"].as_array().unwrap();
    assert_eq!(notes.len(), 10, "the newest ten");
    assert_eq!(notes[9]["content"], "note 11");
    assert_eq!(
        s["phase_summaries"],
        json!({"plan": "first", "execute": "done"}),
        "add-only"
    );
}

#[test]
fn bad_input_is_named_by_its_own_path_and_creates_nothing() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = env.root().join("in.json");
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"},
                                 {"id": "T2", "status": 5}]})
        .to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("[ROOT]/in.json: field `active_tasks[1].status` must be a string"),
        "{}",
        run.stderr
    );
    assert!(
        !repo.join(".claude/handover").exists(),
        "no empty session left"
    );
    // Against an existing session, the input is still what is named.
    let key = env
        .save(
            &repo,
            &json!({"active_tasks": [{"id": "T1", "status": "in_progress", "description": "x"}]}),
            &[],
        )
        .stdout
        .trim()
        .to_owned();
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T9", "status": ["no"]}]}).to_string(),
    );
    let run = env.handover(&repo, &["save", "--from", input.to_str().unwrap()]);
    assert_eq!(run.code, 3, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("[ROOT]/in.json: field `active_tasks[0].status`"),
        "{}",
        run.stderr
    );
    assert_eq!(
        read_json(&state_path(&repo, &key))["active_tasks"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn handover_md_keeps_the_language_the_session_was_made_in() {
    let env = TestEnv::new();
    let repo = env.repo();
    let input = env.root().join("in.json");
    env.write(
        &input,
        &json!({"active_tasks": [{"id": "T1", "status": "in_progress"}]}).to_string(),
    );
    let run = env.handover(
        &repo,
        &["--lang", "ja", "save", "--from", input.to_str().unwrap()],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let key = run.stdout.trim().to_owned();
    let md = repo.join(".claude/handover").join(&key).join("handover.md");
    let ja = std::fs::read_to_string(&md).unwrap();
    assert!(ja.contains("- なし"), "{ja}");
    // Someone running in English later regenerates it: same bytes.
    let run = env.handover(&repo, &["--lang", "en", "render", &key]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let run = env.handover(&repo, &["--lang", "en", "task", "start", "T1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after = std::fs::read_to_string(&md).unwrap();
    assert!(after.contains("- なし"), "{after}");
    assert_eq!(read_json(&state_path(&repo, &key))["language"], "ja");
}
