//! `log -n N`, `log KEY` and plain `log` streamed through the notes index (issue 36):
//! the same answer as the store read whole (`GIT_HANDOVER_TEST_NO_INDEX`), through
//! appends, a rewritten ref and a forged index, and reading only part of the store.

use std::path::Path;

use crate::common::TestEnv;
use crate::notes_index::{append, legacy, populated, record};

fn log(env: &TestEnv, repo: &Path, args: &[&str], index: bool) -> String {
    let mut all = vec!["log"];
    all.extend_from_slice(args);
    let run = env.handover_with(repo, &all, |c| {
        if !index {
            c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
        }
    });
    format!("{}\n{}\n{}", run.code, run.stdout, run.stderr)
}

#[track_caller]
pub(crate) fn same_logs(env: &TestEnv, repo: &Path, why: &str) {
    same_logs_but(env, repo, why, None);
}

/// [`same_logs`], the lines that contain `but` left out of the comparison (a warning
/// that only the run with the index gives).
#[track_caller]
pub(crate) fn same_logs_but(env: &TestEnv, repo: &Path, why: &str, but: Option<&str>) {
    let kept = |s: String| match but {
        None => s,
        Some(but) => s
            .lines()
            .filter(|l| !l.contains(but))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    for args in [
        &["-n", "1"][..],
        &["-n", "2"],
        &["-n", "3"],
        &["-n", "50"],
        &["main/s1"],
        &["main/s2", "-n", "1"],
        &["old/a"],
        &["main/nope"],
        &[],
        &["--json"],
    ] {
        let truth = kept(log(env, repo, args, false));
        assert_eq!(
            kept(log(env, repo, args, true)),
            truth,
            "{why}: log {args:?}"
        );
    }
}

#[test]
fn log_n_and_log_key_answer_as_the_store_read_whole() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same_logs(&env, &repo, "built");
    append(
        &env,
        &repo,
        &c[3],
        &[
            record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z"),
            legacy("old/a", "2026-11-30T12:30:00Z", "L2"),
        ],
    );
    // An older record arriving later (a clock behind), on a note read last by time.
    append(
        &env,
        &repo,
        &c[0],
        &[record("s3", 1, None, "h31", "2026-11-29T08:00:00Z")],
    );
    same_logs(&env, &repo, "updated");
    env.git(
        &repo,
        &["update-ref", "refs/notes/handover", "refs/notes/handover~2"],
    );
    same_logs(&env, &repo, "rewritten");
}

#[test]
fn log_n_reads_only_the_newest_notes() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    append(
        &env,
        &repo,
        &c[3],
        &[record("s9", 1, None, "h91", "2026-12-01T12:00:00Z")],
    );
    // Build the index first, then count what `log -n 1` reads.
    let _ = log(&env, &repo, &["-n", "1"], true);
    let out = log(&env, &repo, &["-n", "1"], true);
    assert!(out.contains("main/s9"), "{out}");
    assert!(!out.contains("main/s1"), "{out}");
    // A forged times file is not believed: the answer still equals the store's.
    let times = repo.join(".git/git-handover/notes-index/refs%notes%handover.times");
    for args in [&["-n", "2"][..], &[], &["--json"]] {
        std::fs::write(&times, b"forged").unwrap();
        assert_eq!(log(&env, &repo, args, true), log(&env, &repo, args, false));
    }
}

#[test]
fn sync_with_nothing_to_exchange_does_not_read_the_remote_store_again() {
    let env = TestEnv::new();
    let remote = env.bare_remote();
    let (a, b) = (env.store_clone(&remote, "a"), env.store_clone(&remote, "b"));
    append(
        &env,
        &a,
        "HEAD",
        &[record("s1", 1, None, "h11", "2026-11-30T10:00:00Z")],
    );
    let events = env.event_log("sync");
    let sync = |dir: &Path| {
        let run = env.handover_with(dir, &["sync"], |c| {
            c.env("GIT_HANDOVER_TEST_LOG", events.path());
        });
        assert_eq!(run.code, 0, "{}", run.stderr);
    };
    sync(&a);
    sync(&a);
    assert_eq!(
        events.count("sync-remote-known"),
        1,
        "the second sync re-read the remote"
    );
    sync(&b);
    append(
        &env,
        &b,
        "HEAD",
        &[record("s1", 2, Some("h11"), "h12", "2026-11-30T11:00:00Z")],
    );
    sync(&b);
    // What b pushed is new to a: read, checked and merged.
    let known = events.count("sync-remote-known");
    sync(&a);
    assert_eq!(events.count("sync-remote-known"), known);
    let out = log(&env, &a, &["-n", "1"], true);
    assert!(out.contains("T2"), "{out}");
    assert_eq!(out, log(&env, &a, &["-n", "1"], false));
}

/// Plain `log` and `log --json`, streamed in the order of the notes' newest records,
/// list what the store read whole lists, byte for byte, whatever the notes hold:
/// sessions interleaved across notes, records of one instant, records without an id
/// under a key a session with one also has, a clock behind, lines that are no record.
#[test]
fn plain_log_streams_what_the_store_read_whole_lists() {
    let env = TestEnv::new();
    let (repo, c) = crate::notes_index::repo_with(&env, 5);
    let mut rng = crate::common::Lcg(36);
    let mut seq = [0u64; 4];
    for round in 0..2 {
        for _ in 0..24 {
            let at = format!("2026-11-30T1{}:{:02}:00Z", rng.below(3), 5 * rng.below(4));
            let line = match rng.below(8) {
                0 => legacy("main/s1", &at, &format!("L{}", rng.below(3))),
                1 => legacy("old/a", &at, &format!("L{}", rng.below(3))),
                2 if rng.below(3) == 0 => "{not a record".to_owned(),
                _ => {
                    let s = rng.below(4);
                    seq[s] += 1;
                    let hash = format!("h{s}{}", seq[s]);
                    record(&format!("s{}", s + 1), seq[s], None, &hash, &at)
                }
            };
            append(&env, &repo, &c[rng.below(c.len())], &[line]);
        }
        let why = format!("round {round}");
        for args in [&[][..], &["--json"]] {
            let truth = log(&env, &repo, args, false);
            assert_eq!(log(&env, &repo, args, true), truth, "{why}: log {args:?}");
        }
    }
}

/// `log | head`: a reader that goes away after the first lines ends the run quietly,
/// with success, long before the store is printed.
#[test]
fn log_into_a_reader_that_goes_away_ends_quietly() {
    use std::fmt::Write as _;
    use std::io::Read as _;
    let env = TestEnv::new();
    let (repo, c) = crate::notes_index::repo_with(&env, 4);
    let mut stream =
        "commit refs/notes/handover\ncommitter t <t@e> 1764100000 +0000\ndata 5\nnotes\n"
            .to_owned();
    for (i, commit) in c.iter().enumerate() {
        let mut text = String::new();
        for n in 0..600 {
            let at = format!("2026-11-{:02}T10:{:02}:{:02}Z", 1 + i, n / 60, n % 60);
            text.push_str(&record(
                &format!("s{}", n % 7),
                n,
                None,
                &format!("h{i}-{n}"),
                &at,
            ));
            text.push('\n');
        }
        let _ = write!(
            stream,
            "M 100644 inline {commit}\ndata {}\n{text}\n",
            text.len()
        );
    }
    env.fast_import(&repo, &stream);
    for args in [&["log"][..], &["--json", "log"]] {
        let mut child = env
            .command(env!("CARGO_BIN_EXE_git-handover"))
            .current_dir(&repo)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 64];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut first)
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

/// Make the loose object of the note on `commit` unreadable (its bytes no zlib stream).
fn corrupt_note(env: &TestEnv, repo: &Path, commit: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    let blob = env.git(repo, &["notes", "--ref=handover", "list", commit]);
    let path = repo.join(".git/objects").join(&blob[..2]).join(&blob[2..]);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::write(&path, b"not an object").unwrap();
}

/// Plain `log` whose store cannot be read to its end (a note's object is corrupt):
/// stdout holds one whole document all the same. Records printed before the failure
/// are closed into the log document, which carries the error; a failure before any
/// record prints the error document alone, as any command's error. The human output
/// keeps the records printed, says nothing of an empty store; the error and its exit
/// status are the same either way.
#[test]
fn a_log_that_fails_midway_closes_its_document_with_the_error() {
    let env = TestEnv::new();
    let (repo, c) = crate::notes_index::repo_with(&env, 3);
    let s = |sid: &str, seq: u64, at: &str| record(sid, seq, None, &format!("h{sid}{seq}"), at);
    append(&env, &repo, &c[0], &[s("s2", 1, "2026-11-30T10:00:00Z")]);
    append(&env, &repo, &c[1], &[s("s2", 2, "2026-11-30T11:00:00Z")]);
    let newest = [
        s("s1", 1, "2026-11-30T12:00:00Z"),
        s("s1", 2, "2026-11-30T12:05:00Z"),
    ];
    append(&env, &repo, &c[2], &newest);
    // The index is built while every note reads: the stream is what reads them next.
    env.handover(&repo, &["log"]).assert_ok();
    // Only stdout itself failing leaves no whole document: said, with status 1.
    let full = env.handover_with(&repo, &["--json", "log"], |c| {
        let dev_full = std::fs::OpenOptions::new().write(true).open("/dev/full");
        c.stdout(dev_full.unwrap());
    });
    assert_eq!(full.code, 1, "{}", full.snapshot());
    assert!(
        full.stderr.contains("cannot write output"),
        "{}",
        full.stderr
    );

    corrupt_note(&env, &repo, &c[1]);
    let run = env.handover(&repo, &["--json", "log"]);
    assert_ne!(run.code, 0, "{}", run.snapshot());
    let mut seen = std::collections::BTreeSet::new();
    let doc = crate::schemas::checked(&env, &mut seen, &run.stdout);
    assert_eq!(doc["schema"], "git-handover/log/1");
    let records = doc["records"].as_array().unwrap();
    // s1's two records: the first began its session (no parent), told at once, so
    // it goes out too before the note of s2 fails.
    assert_eq!(records.len(), 2, "{}", run.stdout);
    assert_eq!(
        (&records[0]["seq"], &records[1]["seq"]),
        (&2.into(), &1.into())
    );
    assert!(records.iter().all(|r| r["session_id"] == "s1"));
    assert_eq!(doc["error"]["exit"], run.code);
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(run.stderr.contains(message), "{}", run.snapshot());
    let human = env.handover(&repo, &["log"]);
    assert_eq!(human.code, run.code, "{}", human.snapshot());
    assert!(human.stdout.contains("main/s1"), "{}", human.stdout);
    assert!(!human.stdout.contains("main/s2"), "{}", human.stdout);
    assert_eq!(human.stderr, run.stderr);

    corrupt_note(&env, &repo, &c[2]);
    let run = env.handover(&repo, &["--json", "log"]);
    assert_ne!(run.code, 0, "{}", run.snapshot());
    let doc = crate::schemas::checked(&env, &mut seen, &run.stdout);
    assert_eq!(doc["schema"], "git-handover/error/1", "{}", run.stdout);
    assert_eq!(doc["error"]["exit"], run.code);
    let human = env.handover(&repo, &["log"]);
    assert_eq!(human.code, run.code, "{}", human.snapshot());
    assert_eq!(human.stdout, "", "{}", human.snapshot());
    assert_eq!(human.stderr, run.stderr);
}

/// One damaged note, read by the index's build instead of plain `log`'s stream (no
/// index yet): the build says what the stream says of it (`git.note_object_gone`),
/// not that it "is not in the object database" (it is there, damaged).
#[test]
fn a_damaged_note_is_not_said_missing_when_the_index_is_built() {
    let env = TestEnv::new();
    let (repo, c) = crate::notes_index::repo_with(&env, 3);
    let s = |sid: &str, seq: u64, at: &str| record(sid, seq, None, &format!("h{sid}{seq}"), at);
    append(&env, &repo, &c[0], &[s("s2", 1, "2026-11-30T10:00:00Z")]);
    append(&env, &repo, &c[1], &[s("s2", 2, "2026-11-30T11:00:00Z")]);
    append(&env, &repo, &c[2], &[s("s1", 1, "2026-11-30T12:00:00Z")]);
    corrupt_note(&env, &repo, &c[1]);
    // The object is there (git finds its header's place), only unreadable.
    let blob = env.git(&repo, &["notes", "--ref=handover", "list", &c[1]]);
    assert!(
        repo.join(".git/objects")
            .join(&blob[..2])
            .join(&blob[2..])
            .exists()
    );
    let run = env.handover(&repo, &["log"]);
    assert_ne!(run.code, 0, "{}", run.snapshot());
    assert!(
        run.stderr
            .contains("the note's object is missing from the object database or damaged"),
        "{}",
        run.snapshot()
    );
}
