//! `sync`'s merge looks only at the notes that changed since the merge base (issue 36)
//! and gives what the merge of every note gives (`GIT_HANDOVER_TEST_WHOLE_MERGE`), tree
//! for tree, and what a plain `git notes merge -s cat_sort_uniq` gives, note for note.
//! Histories are generated: two clones writing offline from one store, both writing the
//! same session's note, a note only one side has, a note both changed or one removed,
//! flat and fan-out trees on either side, and a remote whose ref was rewritten (no
//! merge base).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::common::{Lcg, TestEnv};

/// Notes by annotated object (full hex id).
type Notes = BTreeMap<String, String>;

/// The commits notes are put on: `n` commits on `main` of a new repository `name`.
fn repo_with_commits(env: &TestEnv, name: &str, n: usize) -> (PathBuf, Vec<String>) {
    let dir = env.init(name);
    let mut stream = String::new();
    for i in 0..n {
        let _ = write!(
            stream,
            "commit refs/heads/main\ncommitter t <t@e> {} +0000\ndata 4\nc{i:02}\nM 644 inline f\ndata 3\n{i:02}\n",
            1_764_000_000 + i * 60
        );
    }
    env.fast_import(&dir, &stream);
    env.git(&dir, &["reset", "-q", "--hard", "main"]);
    let commits = env.git(&dir, &["rev-list", "main"]);
    (dir.clone(), commits.lines().map(str::to_owned).collect())
}

/// A record line of one of six sessions.
fn line(rng: &mut Lcg) -> String {
    let s = rng.below(6);
    format!(
        r#"{{"key":"w/s{s}","session_id":"s{s}","seq":{},"saved_at":"2026-12-0{}T10:{:02}:{:02}Z","kind":"session"}}"#,
        rng.below(100),
        1 + rng.below(5),
        rng.below(60),
        rng.below(60)
    )
}

/// A notes commit holding `notes` (flat paths, or split after two digits) on
/// `notes_ref`, with `parent` (none: a root commit).
fn write_notes(
    env: &TestEnv,
    dir: &Path,
    notes_ref: &str,
    parent: Option<&str>,
    notes: &Notes,
    fanout: bool,
) {
    let mut s = format!("commit {notes_ref}\ncommitter t <t@e> 1764100000 +0000\ndata 5\nnotes\n");
    if let Some(p) = parent {
        let _ = writeln!(s, "from {p}");
    }
    s.push_str("deleteall\n");
    for (object, text) in notes {
        let path = if fanout {
            format!("{}/{}", &object[..2], &object[2..])
        } else {
            object.clone()
        };
        let _ = write!(s, "M 100644 inline {path}\ndata {}\n{text}\n", text.len());
    }
    env.fast_import(dir, &s);
}

/// One side's offline writes to `notes`: appended lines (sometimes the same line the
/// other side appends), new notes, removed notes.
fn edit(rng: &mut Lcg, notes: &mut Notes, commits: &[String], shared: &str) {
    for _ in 0..=rng.below(8) {
        let object = &commits[rng.below(commits.len())];
        match rng.below(6) {
            0 => {
                notes.remove(object);
            }
            1 => {
                notes.entry(object.clone()).or_default().push_str(shared);
            }
            _ => {
                let l = line(rng);
                let text = notes.entry(object.clone()).or_default();
                text.push_str(&l);
                text.push('\n');
            }
        }
    }
}

/// `git rev-parse` of `what` in `dir`.
fn rev(env: &TestEnv, dir: &Path, what: &str) -> String {
    env.git(dir, &["rev-parse", what])
}

/// The notes of `notes_ref` in `dir`, by object.
fn notes_of(env: &TestEnv, dir: &Path, notes_ref: &str) -> Notes {
    let list = env.git(dir, &["notes", &format!("--ref={notes_ref}"), "list"]);
    list.lines()
        .map(|l| {
            let (blob, object) = l.split_once(' ').unwrap();
            (
                object.to_owned(),
                env.git(dir, &["cat-file", "blob", blob]) + "\n",
            )
        })
        .collect()
}

/// Copies of `a` and `b` (`b` the remote `peer` of `a`); `sync peer` in the copy of
/// `a`, with `whole` or not. Returns the copy of `a`.
fn synced(env: &TestEnv, a: &Path, b: &Path, name: &str, whole: bool) -> PathBuf {
    let (ca, cb) = (
        env.root().join(format!("{name}-a")),
        env.root().join(format!("{name}-b")),
    );
    for (from, to) in [(a, &ca), (b, &cb)] {
        let ok = std::process::Command::new("cp")
            .args(["-a", from.to_str().unwrap(), to.to_str().unwrap()])
            .status()
            .unwrap();
        assert!(ok.success());
    }
    env.git(&ca, &["remote", "add", "peer", cb.to_str().unwrap()]);
    let run = env.handover_with(&ca, &["--json", "sync", "peer"], |c| {
        if whole {
            c.env("GIT_HANDOVER_TEST_WHOLE_MERGE", "1");
        }
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let report = run.json();
    assert_eq!(report["pushed"], true, "{report}");
    assert_eq!(
        rev(env, &cb, "refs/notes/handover"),
        rev(env, &ca, "refs/notes/handover")
    );
    ca
}

#[test]
fn the_merge_of_what_changed_is_the_merge_of_every_note() {
    let env = TestEnv::new();
    for seed in 0..8u64 {
        let mut rng = Lcg(seed * 7919 + 36);
        let (a, commits) = repo_with_commits(&env, &format!("a{seed}"), 24);
        let mut base = Notes::new();
        for _ in 0..10 {
            let l = line(&mut rng);
            let text = base
                .entry(commits[rng.below(commits.len())].clone())
                .or_default();
            text.push_str(&l);
            text.push('\n');
        }
        write_notes(
            &env,
            &a,
            "refs/notes/handover",
            None,
            &base,
            rng.below(2) == 0,
        );
        let b = env.root().join(format!("b{seed}"));
        env.git(
            env.root(),
            &["clone", "-q", a.to_str().unwrap(), b.to_str().unwrap()],
        );
        env.git(
            &b,
            &[
                "fetch",
                "-q",
                "origin",
                "refs/notes/handover:refs/notes/handover",
            ],
        );
        let shared = line(&mut rng) + "\n";
        let rewritten = seed % 4 == 3;
        for (dir, side) in [(&a, 0), (&b, 1)] {
            let mut notes = base.clone();
            // Several offline commits on each side, each flat or fan-out.
            for _ in 0..=rng.below(3) {
                edit(&mut rng, &mut notes, &commits, &shared);
                let parent = rev(&env, dir, "refs/notes/handover");
                let fanout = rng.below(2) == 0;
                if rewritten && side == 1 {
                    write_notes(&env, dir, "refs/notes/new", None, &notes, fanout);
                    env.git(
                        dir,
                        &["update-ref", "refs/notes/handover", "refs/notes/new"],
                    );
                    env.git(dir, &["update-ref", "-d", "refs/notes/new"]);
                } else {
                    write_notes(
                        &env,
                        dir,
                        "refs/notes/handover",
                        Some(&parent),
                        &notes,
                        fanout,
                    );
                }
            }
        }
        let whole = synced(&env, &a, &b, &format!("whole{seed}"), true);
        let changed = synced(&env, &a, &b, &format!("changed{seed}"), false);
        assert_eq!(
            rev(&env, &whole, "refs/notes/handover^{tree}"),
            rev(&env, &changed, "refs/notes/handover^{tree}"),
            "seed {seed}: the merge of what changed is the merge of every note"
        );
        // Git's own merge of the two gives the same notes.
        env.git(
            &a,
            &[
                "fetch",
                "-q",
                b.to_str().unwrap(),
                "refs/notes/handover:refs/notes/peer",
            ],
        );
        env.git(
            &a,
            &[
                "notes",
                "--ref=handover",
                "merge",
                "-q",
                "-s",
                "cat_sort_uniq",
                "refs/notes/peer",
            ],
        );
        assert_eq!(
            notes_of(&env, &a, "refs/notes/handover"),
            notes_of(&env, &changed, "refs/notes/handover"),
            "seed {seed}: git notes merge -s cat_sort_uniq agrees"
        );
    }
}

/// What a remote brings since the merge base is still checked whole, wherever in the
/// tree it is: a note that is not JSON lines, a file that is no note inside a fan-out
/// directory the rest of which both sides share.
#[test]
fn what_the_remote_brings_since_the_merge_base_is_checked() {
    let env = TestEnv::new();
    let mut rng = Lcg(36);
    let (a, commits) = repo_with_commits(&env, "a", 8);
    let mut base = Notes::new();
    for c in &commits {
        base.insert(c.clone(), line(&mut rng) + "\n");
    }
    write_notes(&env, &a, "refs/notes/handover", None, &base, true);
    let ours = rev(&env, &a, "refs/notes/handover");
    let b = env.root().join("b");
    env.git(
        env.root(),
        &["clone", "-q", a.to_str().unwrap(), b.to_str().unwrap()],
    );
    env.git(&a, &["remote", "add", "peer", b.to_str().unwrap()]);
    let first = &commits[0];
    for (i, bad) in [
        (
            format!("M 100644 inline {first}\ndata 10\n{{not json\n"),
            "is not a JSON object",
        ),
        (
            format!("M 100644 inline {}/README\ndata 3\nhi\n", &first[..2]),
            "is not a note",
        ),
    ]
    .iter()
    .enumerate()
    {
        env.git(
            &b,
            &[
                "fetch",
                "-q",
                "origin",
                "+refs/notes/handover:refs/notes/handover",
            ],
        );
        let stream = format!(
            "commit refs/notes/handover\ncommitter t <t@e> 1764100000 +0000\ndata 4\nbad\nfrom {ours}\n{}\n",
            bad.0
        );
        let stream = stream.replace(
            &format!("inline {first}\n"),
            &format!("inline {}/{}\n", &first[..2], &first[2..]),
        );
        env.git(&b, &["update-ref", "-d", "refs/notes/handover"]);
        env.fast_import(&b, &stream);
        let run = env.handover(&a, &["sync", "peer"]);
        assert_eq!(run.code, 2, "{i}: {}", run.snapshot());
        assert!(run.stderr.contains(bad.1), "{i}: {}", run.snapshot());
        assert_eq!(
            rev(&env, &a, "refs/notes/handover"),
            ours,
            "{i}: nothing moved"
        );
    }
}
