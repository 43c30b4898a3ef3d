//! git-handover as a git extension: installed man pages found by `man` and `git help`
//! (completion through the shells' git completion is in `shell_completion`). A tool
//! this machine lacks skips its test with a note.

use std::path::{Path, PathBuf};

use crate::common::TestEnv;

/// `<root>/prefix/bin/git-handover`, as `cargo install --root <root>/prefix` leaves it.
pub(crate) fn install(env: &TestEnv) -> PathBuf {
    let bin = env.root().join("prefix/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_git-handover"), bin.join("git-handover")).unwrap();
    bin
}

/// `PATH` as a user has it after the install: the prefix's bin first, then the system's.
pub(crate) fn user_path(bin: &Path) -> String {
    format!("{}:/usr/local/bin:/usr/bin:/bin", bin.display())
}

pub(crate) fn have(program: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The README's install step for the man pages, word for word.
const README_MAN_STEP: &str =
    r#"git-handover man "$(dirname "$(command -v git-handover)")/../share/man/man1""#;

#[test]
fn installed_man_pages_are_found_by_man_and_git_help() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    assert!(
        readme.contains(README_MAN_STEP),
        "the README installs the pages this way"
    );
    if !have("man") {
        crate::common::unavailable("no `man` on this machine");
        return;
    }
    let env = TestEnv::new();
    let bin = install(&env);
    let path = user_path(&bin);
    let out = env
        .command("sh")
        .args(["-c", README_MAN_STEP])
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let man1 = env.root().join("prefix/share/man/man1");
    assert!(man1.join("git-handover.1").is_file());
    assert!(man1.join("git-handover-continue.1").is_file());

    // MANPATH unset, as most users have it: man derives <prefix>/share/man from PATH.
    let man = |args: &[&str]| {
        let out = env
            .command("man")
            .args(args)
            .env("PATH", &path)
            .env_remove("MANPATH")
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "man {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let found = man(&["-w", "git-handover"]);
    assert_eq!(
        Path::new(found.trim()).canonicalize().unwrap(),
        man1.join("git-handover.1").canonicalize().unwrap()
    );
    let found = man(&["-w", "git-handover-sync"]);
    assert!(
        found.trim().ends_with("man1/git-handover-sync.1"),
        "{found}"
    );
    let page = man(&["git-handover-status"]);
    assert!(page.contains("EXIT STATUS"), "{page}");

    // git opens the same page for `git help -m handover` and `git handover --help`.
    let repo = env.init("repo");
    for args in [&["help", "-m", "handover"][..], &["handover", "--help"]] {
        let out = env
            .command("git")
            .args(args)
            .current_dir(&repo)
            .env("PATH", &path)
            .env_remove("MANPATH")
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            text.contains("git-handover - Manage the handover state"),
            "git {args:?}:\n{text}"
        );
        assert!(text.contains("CONFIGURATION"), "{text}");
    }
}
