//! Commit subjects read without gix's pack index opening (issue 16: gix reads a whole
//! index's offset table before its first lookup, most of a session-start hook on a
//! large pack). Read git's way instead, they must be what git reads: from a
//! pack whose commits are deltas, from loose objects, and never another commit's
//! subject when the index is damaged.

use crate::common::TestEnv;
use std::fmt::Write as _;

/// A repository of `n` commits whose messages are long and alike (so that a repack
/// stores commits as deltas of each other), packed, then two loose commits on top.
fn packed_repo(env: &TestEnv, n: usize) -> std::path::PathBuf {
    let repo = env.init("packed");
    let body = "A long body shared by every commit of this history. ".repeat(40);
    let mut stream = String::new();
    for i in 1..=n {
        let message = format!("change {i}\n\n{body}{i}\n");
        let content = format!("{i}\n");
        writeln!(
            stream,
            "commit refs/heads/main\ncommitter Ada <ada@example.com> {} +0000\ndata {}\n{message}",
            1_700_000_000 + i * 60,
            message.len()
        )
        .unwrap();
        writeln!(stream, "M 644 inline f\ndata {}\n{content}", content.len()).unwrap();
    }
    env.fast_import(&repo, &stream);
    env.git(&repo, &["reset", "-q", "--hard", "main"]);
    env.git(&repo, &["repack", "-adfq", "--window=250", "--depth=50"]);
    env.commit(&repo, "g", "1", "loose one", "2026-11-01T00:00:00Z");
    env.commit(&repo, "g", "2", "loose two", "2026-11-02T00:00:00Z");
    repo
}

/// The repository's one pack index.
fn pack_index(repo: &std::path::Path) -> std::path::PathBuf {
    std::fs::read_dir(repo.join(".git/objects/pack"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "idx"))
        .unwrap()
}

fn subjects(repo: &std::path::Path, n: usize) -> Vec<String> {
    let r = git_handover::api::discover(repo).unwrap();
    let head = r.resolve_commit("HEAD").unwrap();
    r.history()
        .recent_commits(head, n)
        .unwrap()
        .into_iter()
        .map(|c| c.subject)
        .collect()
}

#[test]
fn subjects_from_deltas_in_a_pack_and_from_loose_objects_are_gits() {
    let env = TestEnv::new();
    let repo = packed_repo(&env, 60);
    // The test means something only if git did store commits as deltas.
    let idx = pack_index(&repo);
    let verify = env.git(&repo, &["verify-pack", "-v", idx.to_str().unwrap()]);
    let deltas = verify
        .lines()
        .filter(|l| {
            l.split_whitespace().nth(1) == Some("commit") && l.split_whitespace().count() >= 7
        })
        .count();
    assert!(deltas > 10, "commits stored as deltas: {deltas}\n{verify}");
    let theirs: Vec<String> = env
        .git(&repo, &["log", "-62", "--format=%s"])
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(subjects(&repo, 62), theirs);
}

#[test]
fn a_damaged_index_never_gives_another_commits_subject() {
    let env = TestEnv::new();
    let repo = packed_repo(&env, 8);
    let idx = pack_index(&repo);
    let truth: Vec<(String, String)> = env
        .git(&repo, &["log", "--format=%H %s"])
        .lines()
        .map(|l| {
            let (id, s) = l.split_once(' ').unwrap();
            (id.to_owned(), s.to_owned())
        })
        .collect();
    // Swap the pack offsets of two commits in the index: each id now points at the
    // other commit's entry.
    let a = env.git(&repo, &["rev-parse", "HEAD~3"]);
    let b = env.git(&repo, &["rev-parse", "HEAD~4"]);
    let mut bytes = std::fs::read(&idx).unwrap();
    let n = u32::from_be_bytes(bytes[8 + 255 * 4..8 + 256 * 4].try_into().unwrap()) as usize;
    let position = |hex: &str| {
        let id: Vec<u8> = (0..20)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        (0..n)
            .find(|i| bytes[1032 + i * 20..1032 + i * 20 + 20] == id[..])
            .unwrap()
    };
    let (pa, pb) = (position(a.trim()), position(b.trim()));
    let table = 1032 + n * 24;
    for k in 0..4 {
        bytes.swap(table + pa * 4 + k, table + pb * 4 + k);
    }
    let mut perms = std::fs::metadata(&idx).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&idx, perms).unwrap();
    std::fs::write(&idx, bytes).unwrap();

    let r = git_handover::api::discover(&repo).unwrap();
    let head = r.resolve_commit("HEAD").unwrap();
    let lines = r.history().recent_commits(head, 10).unwrap();
    assert!(
        lines.iter().any(|l| l.id.to_string() == a.trim()),
        "the walk reaches a damaged entry"
    );
    // Each commit listed has its own subject or none: an id whose index entry points
    // at the other commit is unreadable, never given the other's subject (git itself
    // does not hash what it reads, so it would).
    for line in &lines {
        let id = line.id.to_string();
        let expected = truth
            .iter()
            .find(|(i, _)| *i == id)
            .map(|(_, s)| s.as_str());
        if id == a.trim() || id == b.trim() {
            assert_eq!(line.subject, "", "{id}");
        } else {
            assert_eq!(Some(line.subject.as_str()), expected, "{id}");
        }
    }
}

/// A `gc` while a walk without a commit-graph is reading the pack: the pack it opened
/// is deleted between two of its reads (git names the new one, laid out otherwise,
/// after its contents). The walk reads the old pack while its mapping lives; when the
/// mapping is made again the file is gone, and the rest is read through gix, which
/// finds the new pack: every verdict is still git's.
#[test]
fn a_repack_in_the_middle_of_a_walk_changes_no_verdict() {
    let env = TestEnv::new();
    let repo = packed_repo(&env, 1_500);
    env.git(&repo, &["checkout", "-q", "-b", "side", "HEAD~700"]);
    env.commit(&repo, "s", "s", "side work", "2026-11-03T00:00:00Z");
    let side = env.git(&repo, &["rev-parse", "HEAD"]);
    env.git(&repo, &["checkout", "-q", "main"]);
    // One pack without deltas now; the repack below stores commits as deltas.
    env.git(&repo, &["repack", "-adfq", "--window=0"]);
    let shas: Vec<String> = ["HEAD~1500", "HEAD~800", "HEAD~100", "HEAD~2"]
        .iter()
        .map(|r| env.git(&repo, &["rev-parse", r]).trim().to_owned())
        .chain([
            side.trim().to_owned(),
            "0123456789abcdef0123456789abcdef01234567".into(),
        ])
        .collect();
    let tasks: Vec<serde_json::Value> = shas
        .iter()
        .enumerate()
        .map(|(i, s)| serde_json::json!({"id": format!("T{i}"), "status": "done", "commit_sha": s}))
        .collect();
    env.write(
        &repo.join(".claude/handover/main/20261130-110000/project-state.json"),
        &serde_json::json!({"version": 4, "generated_at": "2026-11-30T11:00:00Z",
            "status": "ALL_COMPLETE", "workspace": {"branch": "main"}, "active_tasks": tasks})
        .to_string(),
    );
    let child = env.spawn_at_pause(
        &repo,
        &["-c", "core.commitGraph=false", "status", "--json"],
        "resolve:60000",
    );
    let before = std::fs::read(pack_index(&repo)).unwrap();
    env.git(&repo, &["repack", "-adfq", "--window=250", "--depth=50"]);
    let after = std::fs::read(pack_index(&repo)).unwrap();
    assert!(before != after, "the repack laid the pack out otherwise");
    let out = child.wait_with_output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let commits = v["worktrees"][0]["handovers"][0]["commits"]
        .as_array()
        .unwrap();
    let state_of = |i: usize| {
        commits
            .iter()
            .find(|c| c["task"] == format!("T{i}"))
            .map(|c| c["state"].as_str().unwrap().to_owned())
            .unwrap()
    };
    for (i, sha) in shas.iter().enumerate() {
        let git_says = match env
            .command("git")
            .current_dir(&repo)
            .args(["merge-base", "--is-ancestor", sha, "main"])
            .status()
            .unwrap()
            .code()
        {
            Some(0) => "ok",
            Some(1) => "unreachable",
            _ => "missing",
        };
        assert_eq!(state_of(i), git_says, "T{i} {sha}");
    }
}
