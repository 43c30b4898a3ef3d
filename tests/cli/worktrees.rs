//! The worktree listing, read from git's admin files directly (issue 16: a listing of
//! many worktrees through gix's proxies was a large share of the hook), against `git
//! worktree list --porcelain` in every shape git makes: packed and loose branches, a
//! detached HEAD, an unborn branch, a locked worktree with a reason, a removed
//! (prunable) one, a relative `gitdir`, a worktree reached through a linked directory.

use crate::common::TestEnv;

/// `git worktree list --porcelain`, as (path, HEAD, branch, detached, locked, prunable).
fn porcelain(env: &TestEnv, repo: &std::path::Path) -> Vec<[String; 6]> {
    let text = env.git(repo, &["worktree", "list", "--porcelain"]);
    text.split("\n\n")
        .map(|block| {
            let mut row: [String; 6] = Default::default();
            for line in block.lines() {
                let (k, v) = line.split_once(' ').unwrap_or((line, ""));
                match k {
                    "worktree" => v.clone_into(&mut row[0]),
                    "HEAD" => v.clone_into(&mut row[1]),
                    "branch" => v.trim_start_matches("refs/heads/").clone_into(&mut row[2]),
                    "detached" => row[3] = "detached".into(),
                    "locked" => row[4] = format!("locked {v}"),
                    "prunable" => row[5] = "prunable".into(),
                    _ => {}
                }
            }
            row
        })
        .collect()
}

#[test]
fn the_listing_matches_git_worktree_list_in_every_shape() {
    let env = TestEnv::new();
    let repo = env.repo();
    let zero = "0".repeat(40);
    let at = |name: &str| env.root().join(name);
    add_every_shape(&env, &repo);

    let ours = git_handover::api::discover(&repo)
        .unwrap()
        .worktrees()
        .unwrap();
    let rows: Vec<[String; 6]> = ours
        .iter()
        .map(|w| {
            [
                w.path.display().to_string(),
                w.head.map_or_else(|| zero.clone(), |h| h.to_string()),
                if w.detached {
                    String::new()
                } else {
                    w.branch.clone().unwrap_or_default()
                },
                if w.detached {
                    "detached".into()
                } else {
                    String::new()
                },
                w.locked
                    .as_ref()
                    .map_or_else(String::new, |r| format!("locked {r}")),
                if w.prunable {
                    "prunable".into()
                } else {
                    String::new()
                },
            ]
        })
        .collect();
    let mut theirs = porcelain(&env, &repo);
    // git lists an unborn branch's HEAD as the zero id; the symlinked worktree by the
    // path it was added with: compare real paths.
    for row in &mut theirs {
        if let Ok(real) = std::fs::canonicalize(&row[0]) {
            row[0] = real.display().to_string();
        }
    }
    // git 2.48 reads a relative `gitdir` relative to the admin directory (as we do);
    // older git takes it as it is and calls the worktree prunable: checked apart.
    let relative = at("wt-relative").display().to_string();
    let row = rows
        .iter()
        .find(|r| r[0] == relative)
        .expect("listed by its real path");
    assert_eq!(row[2], "relative");
    assert_eq!(row[5], "", "not prunable: its directory is there");
    let rows: Vec<[String; 6]> = rows.into_iter().filter(|r| r[0] != relative).collect();
    theirs.retain(|r| !r[0].ends_with("wt-relative"));
    let mut sorted_theirs = theirs.clone();
    sorted_theirs[1..].sort();
    let mut sorted_ours = rows.clone();
    sorted_ours[1..].sort();
    assert_eq!(
        sorted_ours, sorted_theirs,
        "ours:\n{rows:#?}\ngit:\n{theirs:#?}"
    );
    assert_eq!(ours.len(), 9, "main and eight linked");
    assert!(
        ours.iter().any(|w| !w.exists && w.prunable),
        "the removed one"
    );

    // Each worktree's own entry, read without listing the others (what a briefing in
    // it reads), is its entry in the listing, field by field; from a subdirectory too.
    for w in ours.iter().filter(|w| w.exists) {
        for dir in [w.path.clone(), w.path.join("sub")] {
            std::fs::create_dir_all(&dir).unwrap();
            let alone = git_handover::api::discover(&dir)
                .unwrap()
                .this_worktree()
                .unwrap_or_else(|| panic!("{} is a worktree git lists", dir.display()));
            assert_eq!(
                format!("{alone:?}"),
                format!("{w:?}"),
                "from {}",
                dir.display()
            );
        }
    }
    // Where git lists no worktree in the usual layout, it does not guess.
    let bare = env.root().join("bare.git");
    env.git(
        env.root(),
        &[
            "clone",
            "--bare",
            "-q",
            repo.to_str().unwrap(),
            bare.to_str().unwrap(),
        ],
    );
    assert!(
        git_handover::api::discover(&bare)
            .unwrap()
            .this_worktree()
            .is_none()
    );
}

/// Worktrees in every shape git makes: packed and loose branches, a detached HEAD, an
/// unborn branch, a locked one, a removed one, a relative `gitdir`, a linked parent.
fn add_every_shape(env: &TestEnv, repo: &std::path::Path) {
    let at = |name: &str| env.root().join(name);
    env.git(repo, &["branch", "packed"]);
    env.git(repo, &["pack-refs", "--all"]);
    env.git(
        repo,
        &[
            "worktree",
            "add",
            at("wt-packed").to_str().unwrap(),
            "packed",
        ],
    );
    env.git(
        repo,
        &[
            "worktree",
            "add",
            "-b",
            "loose",
            at("wt-loose").to_str().unwrap(),
        ],
    );
    env.git(
        repo,
        &[
            "worktree",
            "add",
            "--detach",
            at("wt-detached").to_str().unwrap(),
        ],
    );
    env.git(
        repo,
        &[
            "worktree",
            "add",
            "--orphan",
            "-b",
            "unborn",
            at("wt-unborn").to_str().unwrap(),
        ],
    );
    env.git(
        repo,
        &[
            "worktree",
            "add",
            "-b",
            "locked",
            at("wt-locked").to_str().unwrap(),
        ],
    );
    env.git(
        repo,
        &[
            "worktree",
            "lock",
            "--reason",
            "on a usb stick",
            at("wt-locked").to_str().unwrap(),
        ],
    );
    env.git(
        repo,
        &[
            "worktree",
            "add",
            "-b",
            "gone",
            at("wt-gone").to_str().unwrap(),
        ],
    );
    std::fs::remove_dir_all(at("wt-gone")).unwrap();
    // A worktree whose admin `gitdir` is relative (as `--relative-paths` writes it).
    env.git(
        repo,
        &[
            "worktree",
            "add",
            "-b",
            "relative",
            at("wt-relative").to_str().unwrap(),
        ],
    );
    std::fs::write(
        repo.join(".git/worktrees/wt-relative/gitdir"),
        "../../../../wt-relative/.git\n",
    )
    .unwrap();
    // A worktree reached through a linked parent directory: listed by its real path.
    std::fs::create_dir_all(at("real")).unwrap();
    std::os::unix::fs::symlink(at("real"), at("link")).unwrap();
    env.git(
        repo,
        &[
            "worktree",
            "add",
            "-b",
            "linked",
            at("link/wt").to_str().unwrap(),
        ],
    );
}
