//! The man pages under `man/` and the completions under `completions/` are generated
//! from `src/cli.rs`. These tests regenerate them and fail when the committed copies
//! drift; run with `UPDATE_GENERATED=1` to rewrite them.

use std::path::Path;

use clap_complete::Shell;

fn check(path: &Path, fresh: &[u8], drift: &mut Vec<String>) {
    if std::env::var_os("UPDATE_GENERATED").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, fresh).unwrap();
        return;
    }
    match std::fs::read(path) {
        Ok(committed) if committed == fresh => {}
        Ok(_) => drift.push(format!("{} differs", path.display())),
        Err(_) => drift.push(format!("{} is missing", path.display())),
    }
}

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn man_pages_match_the_cli() {
    let mut drift = Vec::new();
    let pages = git_handover::api::man_pages().unwrap();
    assert!(
        pages
            .iter()
            .any(|(name, _)| name == "git-handover-status.1")
    );
    for (name, page) in &pages {
        check(&repo().join("man").join(name), page, &mut drift);
    }
    let committed = std::fs::read_dir(repo().join("man")).map_or(0, Iterator::count);
    if committed != pages.len() && std::env::var_os("UPDATE_GENERATED").is_none() {
        drift.push(format!(
            "man/ holds {committed} pages, the cli makes {}",
            pages.len()
        ));
    }
    assert!(
        drift.is_empty(),
        "regenerate with UPDATE_GENERATED=1 cargo test --test cli generated_files: {drift:?}"
    );
}

#[test]
fn completions_match_the_cli() {
    let mut drift = Vec::new();
    for (shell, file) in [
        (Shell::Bash, "git-handover.bash"),
        (Shell::Zsh, "_git-handover"),
        (Shell::Fish, "git-handover.fish"),
        (Shell::Elvish, "git-handover.elv"),
        (Shell::PowerShell, "_git-handover.ps1"),
    ] {
        let script = git_handover::api::completions(shell);
        check(&repo().join("completions").join(file), &script, &mut drift);
    }
    assert!(
        drift.is_empty(),
        "regenerate with UPDATE_GENERATED=1 cargo test --test cli generated_files: {drift:?}"
    );
}
