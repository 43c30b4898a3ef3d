//! The one integration-test binary: every behaviour of `git-handover` tested through its
//! command line, a module per command or behaviour, on the hermetic harness in `common`.
//! One binary links once; `no_test_file_is_forgotten` keeps every file under
//! `tests/cli/` in it.

mod common;

mod agent_hooks;
mod agents;
mod attacks;
mod attacks_bad_input;
mod attacks_clones;
mod attacks_continue;
mod attacks_git;
mod attacks_hooks;
mod attacks_sessions;
mod attacks_worktrees;
mod briefing;
mod claims;
mod claims_carried;
mod claims_reach;
mod claims_remote;
mod claims_same_clone;
mod claims_shown;
mod claims_tracking;
mod claims_unpushed;
mod clean;
mod codex_project_hook;
mod commit_subjects;
mod commits;
mod concurrency;
mod config;
mod continue_;
mod continue_effects;
mod deadline;
mod disk_faults;
mod doctor;
mod generated_files;
mod git_extension;
mod git_hooks;
mod git_index;
mod hook_install_events;
mod hook_reach;
mod hostile_input;
mod language;
mod linkage;
mod memory;
mod named_problems;
mod note_consumption;
mod notes_index;
mod notes_index_attacks;
mod notes_index_chain;
mod notes_index_corners;
mod notes_index_delta;
mod notes_index_log;
mod notes_index_open;
mod notes_index_open_attacks;
mod notes_index_writer;
mod notes_index_writer_attacks;
mod notes_log;
mod notes_log_before;
mod notes_log_random;
mod notes_log_shown;
mod notes_log_unread;
mod notes_merge;
mod notes_property;
mod notes_store;
mod notes_sync;
mod packaging;
mod peer_fixtures;
mod polish;
mod polish_hooks;
mod properties;
mod reachability;
mod record;
mod record_attacks;
mod record_kept;
mod record_transcript;
mod refused_files;
mod render_here_migrate;
mod reopen;
mod restore_branch;
mod save;
mod save_merge;
mod schema_copies;
mod schemas;
mod seams;
mod sessions;
mod shell_completion;
mod status;
mod task;
mod verdicts;
mod why;
mod why_schema_anywhere;
mod worktrees;
mod write_races;
mod writers;

/// A file under `tests/cli/` that no `mod` line names would never be compiled, and its
/// tests would silently not run: every `.rs` file (and every directory with a
/// `mod.rs`) is declared in its directory's `main.rs` or `mod.rs`.
#[test]
fn no_test_file_is_forgotten() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let mut forgotten = Vec::new();
    forgotten_in(&root, &root.join("main.rs"), &mut forgotten);
    forgotten.sort();
    assert!(
        forgotten.is_empty(),
        "tests/cli/ holds files no `mod` line includes: {forgotten:?}"
    );
}

/// The modules in `dir` that `declaring` (its `main.rs` or `mod.rs`) does not declare,
/// and those of its module directories, recursively.
fn forgotten_in(dir: &std::path::Path, declaring: &std::path::Path, out: &mut Vec<String>) {
    let text = std::fs::read_to_string(declaring).unwrap();
    let declared: Vec<&str> = text
        .lines()
        .filter_map(|l| {
            let l = l.strip_prefix("pub ").unwrap_or(l);
            l.strip_prefix("mod ")?.strip_suffix(';')
        })
        .collect();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        let Some(module) = path.file_stem().and_then(|m| m.to_str()) else {
            continue;
        };
        let is_file = path.extension().is_some_and(|x| x == "rs");
        let is_dir = path.join("mod.rs").is_file();
        if path == declaring || !(is_file || is_dir) {
            continue;
        }
        if !declared.contains(&module) {
            let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            out.push(path.strip_prefix(manifest).unwrap().display().to_string());
        }
        if is_dir {
            forgotten_in(&path, &path.join("mod.rs"), out);
        }
    }
}
