//! `schema [NAME]` (issue 32, item 6): the published JSON Schemas are the files under
//! `docs/schema/`, printed as they are, and real outputs of every command validate
//! against them, so documents and schemas cannot drift.
//!
//! The validator (`common/schema.rs`) covers the subset of JSON Schema the files use (`type`,
//! `properties`, `required`, `items`, `enum`, `const`, `anyOf`, `$ref` into `$defs`,
//! `minimum`/`maximum`, a `^[0-9a-f]{N}$` pattern), and is stricter than the published
//! schemas on one point: an object with `properties` may hold no other key unless it
//! says `additionalProperties: true`. Readers of the documents must ignore fields they
//! do not know; the tests must not, or a field added to a document and not to its
//! schema would go unseen. (No `jsonschema` crate: its dependency tree would cost every
//! build of the suite for this small subset.)

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::TestEnv;
use crate::common::schema::{schema, violations};
use serde_json::{Value, json};

/// `schema`'s own list: every name there is.
fn names(env: &TestEnv) -> Vec<String> {
    let list = env.json(env.root(), &["schema", "--json"]);
    list["schemas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap().to_owned())
        .collect()
}

/// Validate `doc` against the schema `name`, which must fit it.
#[track_caller]
fn check(env: &TestEnv, seen: &mut BTreeSet<String>, name: &str, doc: &Value) {
    let schema = schema(env, name);
    let mut out = Vec::new();
    violations(&schema, &schema, doc, "$", &mut out);
    assert!(out.is_empty(), "{name}: {out:#?}\n{doc:#}");
    seen.insert(name.to_owned());
}

/// A `--json` document, validated against the schema its `schema` field names.
#[track_caller]
pub(crate) fn checked(env: &TestEnv, seen: &mut BTreeSet<String>, stdout: &str) -> Value {
    let doc: Value = serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let id = doc["schema"]
        .as_str()
        .unwrap_or_else(|| panic!("no schema: {doc}"));
    let name = id
        .strip_prefix("git-handover/")
        .and_then(|n| n.strip_suffix("/1"))
        .unwrap();
    check(env, seen, name, &doc);
    doc
}

#[test]
fn the_command_prints_the_shipped_files_and_each_is_a_schema() {
    let env = TestEnv::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema");
    let shipped: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".json").unwrap().to_owned()
        })
        .collect();
    let listed: BTreeSet<String> = names(&env).into_iter().collect();
    assert_eq!(listed, shipped, "docs/schema/ holds one file per schema");
    for name in &listed {
        let run = env.handover(env.root(), &["schema", name]);
        run.assert_ok();
        let file = std::fs::read_to_string(dir.join(format!("{name}.json"))).unwrap();
        assert_eq!(run.stdout, file, "{name}: the command prints the file");
        let v: Value = serde_json::from_str(&file).unwrap();
        assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert_eq!(v["$id"], format!("urn:git-handover:schema:{name}:1"));
        // Outside the three documents the agents read, a document names itself.
        if !["state", "session-start", "reminder", "stop"].contains(&name.as_str()) {
            assert_eq!(
                v["properties"]["schema"]["const"],
                format!("git-handover/{name}/1")
            );
        }
    }
    // The validator catches what the tests rely on it for.
    let save = schema(&env, "save");
    let mut out = Vec::new();
    let doc = json!({"schema": "git-handover/save/1", "key": "k", "path": "p", "created": true,
        "changed": 1, "status": "READY", "noted": "abc", "warnings": [], "reopened": false,
        "passed_over": null, "extra": null});
    violations(&save, &save, &doc, "$", &mut out);
    assert_eq!(
        out,
        [
            "$.changed: 1 is not [\"boolean\"]",
            "$.noted: \"abc\" does not match ^[0-9a-f]{40}$",
            "$: extra is not in the schema"
        ]
    );
    violations(
        &save,
        &save,
        &json!({"schema": "git-handover/save/1"}),
        "$",
        &mut out,
    );
    assert!(out.iter().any(|v| v == "$: key is missing"), "{out:?}");
    let bad = env.handover(env.root(), &["schema", "stauts"]);
    assert_eq!(bad.code, 2, "{}", bad.snapshot());
    assert!(
        bad.stderr
            .contains("did you mean `git handover schema status`?"),
        "{}",
        bad.snapshot()
    );
}

/// Every document, from real runs, validates; and every schema was used.
#[test]
fn real_outputs_of_every_command_validate_against_their_schemas() {
    let env = TestEnv::new();
    let mut seen = BTreeSet::new();
    let repo = env.repo();
    env.git(&repo, &["config", "handover.store", "both"]);
    let seen = &mut seen;
    let run = |args: &[&str]| {
        let run = env.handover(&repo, args);
        run.assert_ok();
        run.stdout
    };
    let saved = env.handover_fed(
        &repo,
        &["save", "--json"],
        br#"{"active_tasks": [{"id": "T1", "description": "Parse", "status": "in-progress",
            "files": ["a.rs"]}], "recent_decisions": [{"decision": "d", "rationale": "r"}],
            "known_issues": [{"description": "k", "severity": "high"}]}"#,
        |_| {},
    );
    saved.assert_ok();
    let doc = checked(&env, seen, &saved.stdout);
    assert_eq!(doc["warnings"].as_array().unwrap().len(), 2);
    let key = doc["key"].as_str().unwrap().to_owned();
    let state_file = repo
        .join(".claude/handover")
        .join(&key)
        .join("project-state.json");
    let state: Value = serde_json::from_slice(&std::fs::read(&state_file).unwrap()).unwrap();
    check(&env, seen, "state", &state);
    checked(&env, seen, &run(&["task", "add", "T2", "Docs", "--json"]));
    checked(&env, seen, &run(&["task", "done", "T2", "--json"]));
    checked(&env, seen, &run(&["task", "list", "--json"]));
    checked(&env, seen, &run(&["task", "show", "T1", "--json"]));
    claims_output(&env, &repo, &key, seen);
    checked(&env, seen, &run(&["render", "--json"]));
    // A note, an invalid session and a finished one, old: status sees them all.
    let here = env.handover_fed(&repo, &["here", "--json"], b"## Objective\nShip\n", |_| {});
    here.assert_ok();
    checked(&env, seen, &here.stdout);
    env.write_session(
        &repo,
        "main/20261101-000000",
        &json!({"version": 4,
        "generated_at": "2026-11-01T00:00:00Z", "status": "ALL_COMPLETE", "active_tasks": []}),
    );
    env.write(
        &repo.join(".claude/handover/broken/1/project-state.json"),
        "{",
    );
    let status = env.handover(&repo, &["status", "--json"]);
    checked(&env, seen, &status.stdout);
    let cont = env.handover(&repo, &["continue", "--json", &key, "--keep"]);
    cont.assert_ok();
    checked(&env, seen, &cont.stdout);
    let choose = env.handover(&repo, &["continue", "--json"]);
    let doc = checked(&env, seen, &choose.stdout);
    assert_eq!(doc["outcome"], "choose", "{doc}");
    checked(&env, seen, &run(&["clean", "--json"]));
    checked(&env, seen, &run(&["log", "--json"]));
    // A legacy state to migrate.
    env.write(
        &repo.join(".claude/project-state.json"),
        &json!({"version": 2, "status": "READY", "active_tasks": [{"id": "L1", "status": "in_progress"}]})
            .to_string(),
    );
    checked(&env, seen, &run(&["migrate", "--json"]));
    // A remote to sync with.
    let remote = env.root().join("remote.git");
    env.git(
        env.root(),
        &["init", "-q", "--bare", remote.to_str().unwrap()],
    );
    env.git(
        &repo,
        &["remote", "add", "origin", remote.to_str().unwrap()],
    );
    checked(&env, seen, &run(&["sync", "--json"]));
    checked(
        &env,
        seen,
        &run(&[
            "hook", "install", "--agent", "claude", "--scope", "project", "--json",
        ]),
    );
    checked(
        &env,
        seen,
        &run(&["hook", "install", "--git", "post-commit", "--json"]),
    );
    checked(&env, seen, &run(&["schema", "--json"]));
    // Errors: a usage error, invalid input, nothing to resume.
    for (args, input) in [
        (&["save", "--json", "--nosuch"][..], &b""[..]),
        (&["save", "--json"][..], &b"[1]"[..]),
        (&["continue", "--json", "nosuch/key"][..], &b""[..]),
    ] {
        let run = env.handover_fed(&repo, args, input, |_| {});
        assert_ne!(run.code, 0);
        checked(&env, seen, &run.stdout);
    }
    hooks_output(&env, &repo, seen);
    doctor_and_why_output(&env, &repo, &key, seen);
    let all: BTreeSet<String> = names(&env).into_iter().collect();
    assert_eq!(&all, seen, "every schema is checked against a real output");
}

/// The hooks' output, as the agents read it: the session-start context and a reminder.
fn hooks_output(env: &TestEnv, repo: &Path, seen: &mut BTreeSet<String>) {
    // The hooks' output, as the agents read it.
    let event = json!({"session_id": "s1", "cwd": repo, "hook_event_name": "SessionStart",
        "source": "startup"})
    .to_string();
    let start = env.handover_fed(
        repo,
        &["hook", "session-start", "--agent", "claude"],
        event.as_bytes(),
        |_| {},
    );
    start.assert_ok();
    let doc: Value =
        serde_json::from_str(&start.stdout).unwrap_or_else(|e| panic!("{e}: {}", start.snapshot()));
    check(env, seen, "session-start", &doc);
    env.handover(repo, &["task", "start", "T1"]).assert_ok();
    let event =
        json!({"session_id": "s2", "cwd": repo, "hook_event_name": "PreCompact"}).to_string();
    let remind = env.handover_fed(
        repo,
        &["hook", "pre-compact", "--agent", "claude"],
        event.as_bytes(),
        |_| {},
    );
    remind.assert_ok();
    let doc: Value = serde_json::from_str(&remind.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", remind.snapshot()));
    check(env, seen, "reminder", &doc);
    // The stop gate holds the agent session that started above and then changed a
    // tracked file (put back after: the later documents look at this repository).
    let tracked = env.git(repo, &["ls-files"]);
    let file = repo.join(tracked.lines().next().unwrap());
    let kept = std::fs::read(&file).unwrap();
    std::fs::write(&file, b"changed by the agent\n").unwrap();
    let event = json!({"session_id": "s1", "cwd": repo, "hook_event_name": "Stop",
        "stop_hook_active": false})
    .to_string();
    let stop = env.handover_fed(
        repo,
        &[
            "-c",
            "handover.stopGate=true",
            "hook",
            "stop",
            "--agent",
            "claude",
        ],
        event.as_bytes(),
        |_| {},
    );
    stop.assert_ok();
    let doc: Value =
        serde_json::from_str(&stop.stdout).unwrap_or_else(|e| panic!("{e}: {}", stop.snapshot()));
    check(env, seen, "stop", &doc);
    std::fs::write(&file, kept).unwrap();
}

/// The claim verbs, a claim refused (`held`), and the documents that show a claim: the
/// task, the list, status, and a briefing for someone else. The claim is released after.
fn claims_output(env: &TestEnv, repo: &Path, key: &str, seen: &mut BTreeSet<String>) {
    let run = |args: &[&str]| {
        let run = env.handover(repo, args);
        run.assert_ok();
        run.stdout
    };
    let doc = checked(env, seen, &run(&["task", "next", "--json"]));
    assert_eq!(doc["action"], "shown", "{doc}");
    let doc = checked(
        env,
        seen,
        &run(&["task", "next", "--claim", "--as", "bob", "--json"]),
    );
    assert_eq!(doc["action"], "claimed", "{doc}");
    let doc = checked(
        env,
        seen,
        &run(&["task", "claim", "T1", "--as", "bob", "--json"]),
    );
    assert_eq!(doc["action"], "renewed", "{doc}");
    let held = env.handover(repo, &["task", "claim", "T1", "--as", "carol", "--json"]);
    assert_eq!(held.code, 6, "{}", held.snapshot());
    let doc = checked(env, seen, &held.stdout);
    assert_eq!(doc["error"]["kind"], "held", "{doc}");
    assert_eq!(doc["error"]["holder"], "bob", "{doc}");
    let doc = checked(env, seen, &run(&["task", "show", "T1", "--json"]));
    assert_eq!(doc["task"]["claim"]["holder"], "bob", "{doc}");
    let doc = checked(env, seen, &run(&["task", "list", "--json"]));
    assert!(
        doc["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["claim"]["holder"] == "bob"),
        "{doc}"
    );
    let status = env.handover(repo, &["status", "--json"]);
    let doc = checked(env, seen, &status.stdout);
    assert!(status.stdout.contains("\"claims\""), "{doc}");
    let cont = env.handover(
        repo,
        &["continue", "--json", key, "--keep", "--as", "carol"],
    );
    cont.assert_ok();
    let doc = checked(env, seen, &cont.stdout);
    assert_eq!(doc["claim"]["holder"], "carol", "{doc}");
    assert!(
        doc["open_tasks"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["claim"]["holder"] == "bob"),
        "{doc}"
    );
    assert!(cont.stdout.contains("\"claims\""), "{doc}");
    let doc = checked(
        env,
        seen,
        &run(&["task", "release", "T1", "--as", "bob", "--json"]),
    );
    assert_eq!(doc["action"], "released", "{doc}");
}

/// `doctor`, whatever it finds, and `why HEAD`, the commit `task done` recorded: from
/// the state file, then, the file gone, from the notes store.
fn doctor_and_why_output(env: &TestEnv, repo: &Path, key: &str, seen: &mut BTreeSet<String>) {
    // A Claude Code plugin recorded as Claude records it, turned off: a `package` check.
    let plugins = env.root().join("home/.claude/plugins");
    let install = Path::new(env!("CARGO_MANIFEST_DIR")).join("plugins/git-handover");
    env.write(
        &plugins.join("installed_plugins.json"),
        &serde_json::json!({"version": 2, "plugins": {"git-handover@git-handover":
            [{"scope": "user", "installPath": install}]}})
        .to_string(),
    );
    env.write(
        &plugins.join("../settings.json"),
        r#"{"enabledPlugins": {"git-handover@git-handover": false}}"#,
    );
    let doctor = env.handover(repo, &["doctor", "--json"]);
    assert!(doctor.code <= 1, "{}", doctor.snapshot());
    let doc = checked(env, seen, &doctor.stdout);
    for id in ["git_hook", "package"] {
        assert!(
            doc["checks"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["id"] == id),
            "{doc}"
        );
    }
    let why = env.handover(repo, &["why", "--json", "HEAD"]);
    why.assert_ok();
    let doc = checked(env, seen, &why.stdout);
    assert_eq!(doc["recorded"][0]["source"], "file", "{doc}");
    std::fs::remove_dir_all(repo.join(".claude/handover").join(key)).unwrap();
    let why = env.handover(repo, &["why", "--json", "HEAD"]);
    why.assert_ok();
    let doc = checked(env, seen, &why.stdout);
    assert_eq!(doc["recorded"][0]["source"], "notes", "{doc}");
}

/// The links to the agents (issue 34): `agent_session` and `pickup` of status and
/// continue, and `agent_session` of a `why` entry, from real runs.
#[test]
fn the_agent_session_and_pickup_fields_validate() {
    let env = TestEnv::new();
    let repo = env.repo();
    let seen = &mut BTreeSet::new();
    env.commit(&repo, "a.rs", "a\n", "port", "2026-11-30T10:00:00Z");
    let head = env.git(&repo, &["rev-parse", "HEAD"]);
    let claude = |c: &mut std::process::Command| {
        c.env("CLAUDE_CODE_SESSION_ID", "5f0c1d2e-aaaa");
    };
    let event = json!({"session_id": "5f0c1d2e-aaaa", "transcript_path": "/t/5f0c.jsonl",
        "cwd": repo, "hook_event_name": "SessionStart", "source": "startup"})
    .to_string();
    env.handover_fed(
        &repo,
        &["hook", "session-start", "--agent", "claude"],
        event.as_bytes(),
        |_| {},
    )
    .assert_ok();
    let state = json!({"active_tasks": [
        {"id": "T1", "description": "d", "status": "done", "commit_sha": head},
        {"id": "T2", "description": "e", "status": "in_progress"}]});
    env.save_with(&repo, &state, &["--json"], claude)
        .assert_ok();
    let status = env.handover(&repo, &["status", "--json"]);
    let doc = checked(&env, seen, &status.stdout);
    let h = &doc["worktrees"][0]["handovers"][0];
    assert_eq!(h["agent_session"]["transcript_path"], "/t/5f0c.jsonl");
    assert_eq!(h["pickup"]["picked_up"], false);
    let cont = env.handover(&repo, &["continue", "--json"]);
    let doc = checked(&env, seen, &cont.stdout);
    assert!(doc["handover"]["agent_session"]["resume"].is_string());
    let status = env.handover(&repo, &["status", "--json"]);
    let doc = checked(&env, seen, &status.stdout);
    assert_eq!(
        doc["worktrees"][0]["handovers"][0]["pickup"]["picked_up"],
        true
    );
    let why = env.handover(&repo, &["why", "HEAD", "--json"]);
    let doc = checked(&env, seen, &why.stdout);
    assert_eq!(doc["recorded"][0]["agent_session"]["agent"], "claude");
}
