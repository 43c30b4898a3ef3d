//! SPEC section 5, `why` and `schema` from where the user stands: `why` from a
//! subdirectory of another linked worktree finds what every worktree's files and the
//! notes store recorded, in human words and in `--json` that is its schema's; every
//! command `schema` names as the printer of a document is a command that runs (each
//! alternative of `a|b`, with `--json`), and what its long help prints runs as printed.

use std::path::Path;

use crate::common::TestEnv;
use crate::common::schema::fits;

#[test]
fn why_from_a_subdirectory_of_another_worktree_finds_every_worktrees_records() {
    let env = TestEnv::new();
    let (repo, sha) = crate::why::recorded(&env);
    let wt = env.worktree(&repo, "wt", "feature/wt");
    let sub = wt.join("docs/deep");
    std::fs::create_dir_all(&sub).unwrap();
    for rev in [sha.as_str(), &sha[..7], "main"] {
        let run = env.handover(&sub, &["why", rev]);
        assert_eq!(run.code, 0, "{rev}: {}", run.snapshot());
        assert!(
            run.stdout.contains("task [T1] Port the lexer"),
            "{}",
            run.stdout
        );
        let doc = env.json(&sub, &["--json", "why", rev]);
        fits(&env, "why", &doc);
        let sources: Vec<&str> = (doc["recorded"].as_array().unwrap().iter())
            .map(|r| r["source"].as_str().unwrap())
            .collect();
        assert!(sources.contains(&"file"), "{rev}: {doc:#}");
    }
    // From the worktree, a commit nothing recorded: exit 1, and --json still its schema's.
    let run = env.handover(&sub, &["--json", "why", "HEAD~1"]);
    assert_eq!(run.code, 1, "{}", run.snapshot());
    fits(&env, "why", &serde_json::from_str(&run.stdout).unwrap());
}

/// The commands a schema's title names: `git handover <words> --json`, each `a|b`
/// alternative, an optional `[--flag]` with and without it; a placeholder (`…`) ends
/// what can be run.
fn titled_commands(title: &str) -> Vec<Vec<String>> {
    let Some(rest) = title.strip_prefix("git handover ") else {
        return Vec::new();
    };
    let rest = rest.split(':').next().unwrap();
    let mut all: Vec<Vec<String>> = vec![Vec::new()];
    for word in rest.split_whitespace() {
        if word == "…" {
            // `--agent …`: the flag's value is the reader's; keep a real one.
            for c in &mut all {
                c.push("claude".to_owned());
            }
            continue;
        }
        let choices: Vec<String> = if let Some(opt) = word.strip_prefix('[') {
            let opt = opt.trim_end_matches(']').to_owned();
            all = all
                .into_iter()
                .flat_map(|c| {
                    let mut with = c.clone();
                    with.push(opt.clone());
                    [c, with]
                })
                .collect();
            continue;
        } else {
            word.split('|').map(str::to_owned).collect()
        };
        all = all
            .into_iter()
            .flat_map(|c| {
                choices.iter().map(move |w| {
                    let mut c = c.clone();
                    c.push(w.clone());
                    c
                })
            })
            .collect();
    }
    all
}

#[test]
fn every_command_a_schema_names_is_one_that_runs() {
    let env = TestEnv::new();
    let repo = env.repo();
    let list = env.json(&repo, &["--json", "schema"]);
    let mut checked = 0;
    for s in list["schemas"].as_array().unwrap() {
        let title = s["title"].as_str().unwrap();
        for words in titled_commands(title) {
            // Parsed, not run: `--help` after the words asks clap whether they are a
            // command with those options (and it prints that command's help).
            let mut args: Vec<&str> = words.iter().map(String::as_str).collect();
            args.push("--help");
            let run = env.handover(&repo, &args);
            assert_eq!(run.code, 0, "{title}: {args:?}\n{}", run.snapshot());
            checked += 1;
        }
    }
    assert!(checked > 25, "{checked}");
}

/// `schema`'s long help prints `git handover schema state > project-state.schema.json`:
/// run as printed from a subdirectory of a linked worktree (and outside any
/// repository), it writes the very file the source ships.
#[test]
fn the_schema_commands_the_help_prints_run_as_printed_anywhere() {
    let env = TestEnv::new();
    let repo = env.repo();
    let wt = env.worktree(&repo, "wt", "feature/wt");
    let sub = wt.join("a/b");
    let outside = env.root().join("outside");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let help = env.handover(&repo, &["schema", "--help"]);
    help.assert_ok();
    let printed: Vec<&str> = (help.stdout.lines())
        .map(str::trim)
        .filter(|l| l.starts_with("git handover schema"))
        .collect();
    assert!(printed.len() >= 3, "{}", help.stdout);
    let shipped =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/schema/state.json"))
            .unwrap();
    for dir in [&sub, &outside] {
        for command in &printed {
            let out = env.shell(dir, command).output().unwrap();
            assert!(
                out.status.success(),
                "{command} in {}: {}",
                dir.display(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert_eq!(
            std::fs::read(dir.join("project-state.schema.json")).unwrap(),
            shipped
        );
    }
}
