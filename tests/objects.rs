//! Commit subjects read without gix's pack index opening (issue 16: gix reads a whole
//! index's offset table before its first lookup, two thirds of a session-start hook on
//! a 1.8 M-object pack). Read git's way instead, they must be what git reads: from a
//! pack whose commits are deltas, from loose objects, and never another commit's
//! subject when the index is damaged.

mod common;

use common::TestEnv;
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
    r.recent_commits(head, n)
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
    let lines = r.recent_commits(head, 10).unwrap();
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
