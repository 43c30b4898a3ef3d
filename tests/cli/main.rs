//! The one integration-test binary: every behaviour of `git-handover` tested through its
//! command line, a module per command or behaviour, on the hermetic harness in `common`.
//! One binary links once; `no_test_file_is_forgotten` keeps every file under
//! `tests/cli/` in it.

mod common;

mod agent_hooks;
mod agents;
mod briefing;
mod clean;
mod commit_subjects;
mod commits;
mod concurrency;
mod config;
mod continue_;
mod continue_effects;
mod deadline;
mod disk_faults;
mod generated_files;
mod git_extension;
mod git_hooks;
mod git_index;
mod hostile_input;
mod language;
mod memory;
mod named_problems;
mod note_consumption;
mod notes_log;
mod notes_property;
mod notes_store;
mod notes_sync;
mod packaging;
mod peer_fixtures;
mod polish;
mod properties;
mod reachability;
mod refused_files;
mod render_here_migrate;
mod save;
mod save_merge;
mod sessions;
mod status;
mod task;
mod verdicts;
mod worktrees;
mod write_races;

/// A file under `tests/cli/` that no `mod` line names would never be compiled, and its
/// tests would silently not run: every `.rs` file here is declared above.
#[test]
fn no_test_file_is_forgotten() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let main = std::fs::read_to_string(dir.join("main.rs")).unwrap();
    let declared: Vec<&str> = main
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut forgotten: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let path = e.path();
            let is_module =
                path.extension().is_some_and(|x| x == "rs") || path.join("mod.rs").is_file();
            let module = path.file_stem()?.to_str()?.to_owned();
            (is_module && module != "main" && !declared.contains(&module.as_str())).then_some(name)
        })
        .collect();
    forgotten.sort();
    assert!(
        forgotten.is_empty(),
        "tests/cli/ holds files no `mod` in main.rs includes: {forgotten:?}"
    );
}
