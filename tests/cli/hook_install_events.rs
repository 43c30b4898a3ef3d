//! Issue 34: `hook install` registers, besides the `SessionStart` briefing, each agent's
//! pre-compact, session-end and stop events (the automatic record and the stop gate),
//! as the packaged forms do; an older install that registered `SessionStart` alone gains
//! them when install runs again; every other setting and hook is kept; uninstall takes
//! out only what install added. (That the installed commands record when the real
//! agent runs them: `agents::record`; that they are the packages' own:
//! `packaging::the_packaged_hooks_are_what_hook_install_writes`.)

use serde_json::{Value, json};

use crate::common::{TestEnv, read_json};

/// The events `install` registers for each agent, each with the verb it runs.
const EVENTS: [(&str, [(&str, &str); 4]); 3] = [
    (
        "claude",
        [
            ("SessionStart", "session-start"),
            ("PreCompact", "pre-compact"),
            ("SessionEnd", "session-end"),
            ("Stop", "stop"),
        ],
    ),
    (
        "codex",
        [
            ("SessionStart", "session-start"),
            ("PreCompact", "pre-compact"),
            ("SessionEnd", "session-end"),
            ("Stop", "stop"),
        ],
    ),
    (
        "gemini",
        [
            ("SessionStart", "session-start"),
            ("PreCompress", "pre-compact"),
            ("SessionEnd", "session-end"),
            ("AfterAgent", "stop"),
        ],
    ),
];

fn file(agent: &str) -> &'static str {
    match agent {
        "claude" => ".claude/settings.json",
        "codex" => ".codex/hooks.json",
        _ => ".gemini/settings.json",
    }
}

/// What an earlier version's install left: our `SessionStart` alone, beside the user's
/// own settings and a pre-compact hook of theirs.
fn older(agent: &str, events: &[(&str, &str); 4]) -> Value {
    json!({
        "model": "theirs",
        "hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command",
                "command": format!("git-handover hook session-start --agent {agent} 2>/dev/null || true"),
                "timeout": 10}]}],
            events[1].0: [{"hooks": [{"type": "command", "command": "./their-backup.sh"}]}],
        }
    })
}

#[test]
fn install_over_an_older_install_adds_the_record_events_and_keeps_the_rest() {
    for (agent, events) in EVENTS {
        let env = TestEnv::new();
        let repo = env.repo();
        let path = repo.join(file(agent));
        let before = older(agent, &events);
        env.write(&path, &serde_json::to_string_pretty(&before).unwrap());
        let run = env.handover(&repo, &["hook", "install", "--agent", agent]);
        assert!(
            run.stdout.starts_with(&format!(
                "added git-handover's hooks to [ROOT]/repo/{}\n",
                file(agent)
            )),
            "{}",
            run.snapshot()
        );
        let after: Value = read_json(&path);
        assert_eq!(after["model"], "theirs", "{agent}");
        for (event, verb) in events {
            let groups = after["hooks"][event].as_array().unwrap();
            let ours: Vec<&Value> = groups
                .iter()
                .flat_map(|g| g["hooks"].as_array().unwrap())
                .filter(|h| {
                    h["command"]
                        .as_str()
                        .unwrap()
                        .starts_with(&format!("git-handover hook {verb} --agent {agent} "))
                })
                .collect();
            assert_eq!(ours.len(), 1, "{agent} {event}: {after:#}");
        }
        // The user's own pre-compact hook stays, before ours.
        assert_eq!(
            after["hooks"][events[1].0][0]["hooks"][0]["command"],
            "./their-backup.sh"
        );
        // Codex clamps SessionEnd to 3 s; Gemini counts milliseconds.
        let end = &after["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"];
        let want = match agent {
            "codex" => 3,
            "gemini" => 10_000,
            _ => 10,
        };
        assert_eq!(end, want, "{agent}");

        // Again: nothing changes, not a byte.
        let bytes = std::fs::read(&path).unwrap();
        let again = env.handover(&repo, &["hook", "install", "--agent", agent]);
        assert!(
            again.stdout.starts_with(&format!(
                "[ROOT]/repo/{} already has git-handover's hooks\n",
                file(agent)
            )),
            "{}",
            again.snapshot()
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes, "{agent}");

        // Uninstall: what is left is the user's, exactly.
        let removed = env.handover(&repo, &["hook", "uninstall", "--agent", agent]);
        assert_eq!(removed.code, 0, "{}", removed.snapshot());
        let mut theirs = before.clone();
        theirs["hooks"]
            .as_object_mut()
            .unwrap()
            .remove("SessionStart");
        assert_eq!(read_json(&path), theirs, "{agent}");
    }
}

/// A hand-written bare invocation of a record hook (`/usr/local/bin/git-handover hook
/// session-end`) is taken over, not doubled; a command of the user's that runs the hook
/// among other things is theirs and stays.
#[test]
fn a_hand_written_record_hook_is_taken_over_and_a_users_own_command_kept() {
    let env = TestEnv::new();
    let repo = env.repo();
    let path = repo.join(".claude/settings.json");
    env.write(
        &path,
        &json!({"hooks": {
            "SessionEnd": [{"hooks": [{"type": "command",
                "command": "/usr/local/bin/git-handover hook session-end --agent claude"}]}],
            "Stop": [{"hooks": [{"type": "command",
                "command": "./notify.sh && git-handover hook stop --agent claude"}]}],
        }})
        .to_string(),
    );
    let run = env.handover(&repo, &["hook", "install"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let after: Value = read_json(&path);
    let end = after["hooks"]["SessionEnd"].as_array().unwrap();
    assert_eq!(end.len(), 1, "{after:#}");
    assert_eq!(
        end[0]["hooks"][0]["command"],
        "git-handover hook session-end --agent claude 2>/dev/null || true"
    );
    let stop = after["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop.len(), 2, "{after:#}");
    assert_eq!(
        stop[0]["hooks"][0]["command"],
        "./notify.sh && git-handover hook stop --agent claude"
    );
}

/// `doctor` names a settings file an earlier install left with `SessionStart` alone (no
/// record at the agent session's end), and its fix, run as printed, is the install
/// again, after which the check is gone.
#[test]
fn doctor_names_an_older_install_and_its_fix_upgrades_it() {
    let env = TestEnv::new();
    let repo = env.repo();
    let path = repo.join(".claude/settings.json");
    let (_, events) = EVENTS[0];
    env.write(&path, &older("claude", &events).to_string());
    let doctor = |env: &TestEnv| -> Vec<Value> {
        let run = env.handover(&repo, &["--json", "doctor"]);
        let doc: Value = serde_json::from_str(&run.stdout).unwrap();
        doc["checks"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["id"] == "record")
            .cloned()
            .collect()
    };
    let found = doctor(&env);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0]["outcome"], "problem");
    assert_eq!(found[0]["values"]["agent"], "Claude Code");
    let fix = found[0]["fix"].as_str().unwrap();
    assert_eq!(
        fix,
        "git handover hook install --agent claude --scope project"
    );
    let out = env.shell(&repo, fix).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(doctor(&env), Vec::<Value>::new());
    let after: Value = read_json(&path);
    assert_eq!(after["hooks"]["SessionEnd"].as_array().unwrap().len(), 1);
}
