//! The open part of the notes index (`.open`, issue 36): the hook, `continue` and
//! `status` answer from it alone, so every attack on it — a forged copy of a record
//! under sums that hold, a half-written file, one of an older commit, one deleted, a
//! session diverging after it was written, a line passed over in an open session's
//! note — must leave each of them answering what the store itself says (the same
//! command with `GIT_HANDOVER_TEST_NO_INDEX`).
//!
//! What a forged copy can do, decided: `.open` carries each open session's newest
//! record as a copy of its line, and a listing believes a copy whose sums hold and
//! that is a session record of its own group with the entry's key. A copy of another
//! session's record, of another kind, or under a sum that does not hold is caught and
//! `.open` is made again from `.heads` (whose records are read back from their notes).
//! A copy of the session's own record with its state changed and every sum resealed
//! is shown by `status` and the briefing as it is (whoever can write the tool's
//! directory in `.git` can write the notes ref too); it is never restored: `continue`
//! writes a state into a worktree only when a note holds it, and otherwise drops the
//! index and writes nothing.

use std::path::Path;

use crate::common::TestEnv;
use crate::notes_index::{append, populated, record};

pub(crate) const OPEN: &str = ".git/git-handover/notes-index/refs%notes%handover.open";

/// What the readers of `.open` answer: `status --json`, `continue --json` and the
/// session-start hook, with their exit codes.
pub(crate) fn answers(env: &TestEnv, repo: &Path, index: bool) -> String {
    let run = |args: &[&str]| {
        let r = env.handover_with(repo, args, |c| {
            if !index {
                c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
            }
        });
        format!("{}\n{}\n{}", r.code, r.stdout, r.stderr)
    };
    [
        run(&["--json", "status"]),
        run(&["continue", "--json"]),
        run(&["hook", "session-start"]),
    ]
    .join("\n---\n")
}

#[track_caller]
pub(crate) fn same(env: &TestEnv, repo: &Path, why: &str) -> String {
    let truth = answers(env, repo, false);
    assert_eq!(answers(env, repo, true), truth, "{why}");
    truth
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest as _;
    use std::fmt::Write as _;
    sha2::Sha256::digest(bytes)
        .iter()
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// `.open` taken apart: its first three header lines, its head (JSON) and its body
/// lines without their sums (`<group JSON string>\t<entry>`, the group decoded).
pub(crate) struct Parts {
    header: Vec<String>,
    pub(crate) head: serde_json::Value,
    pub(crate) lines: Vec<(String, serde_json::Value)>,
}

pub(crate) fn parts(bytes: &[u8]) -> Parts {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    let mut at = 0;
    let mut header = Vec::new();
    for _ in 0..4 {
        let end = at + text[at..].find('\n').unwrap();
        header.push(text[at..end].to_owned());
        at = end + 1;
    }
    let sizes: Vec<usize> = (header[3].split(' ').take(2))
        .map(|n| n.parse().unwrap())
        .collect();
    let head = serde_json::from_str(&text[at..at + sizes[0]]).unwrap();
    let lines = (text[at + sizes[0]..].lines())
        .map(|l| {
            let mut f = l.splitn(3, '\t');
            let (_, g, e) = (f.next(), f.next().unwrap(), f.next().unwrap());
            (
                serde_json::from_str(g).unwrap(),
                serde_json::from_str(e).unwrap(),
            )
        })
        .collect();
    header.truncate(3);
    Parts {
        header,
        head,
        lines,
    }
}

/// The file again, every sum made to hold over what `p` now says.
pub(crate) fn sealed(p: &Parts) -> Vec<u8> {
    use std::fmt::Write as _;
    let mut body = String::new();
    for (g, e) in &p.lines {
        let rest = format!("{}\t{e}", serde_json::Value::from(g.as_str()));
        let _ = writeln!(body, "{}\t{rest}", sha256_hex(rest.as_bytes()));
    }
    let mut head = p.head.clone();
    head["body"] = sha256_hex(body.as_bytes()).into();
    let head = head.to_string();
    format!(
        "{}\n{} {} {}\n{head}{body}",
        p.header.join("\n"),
        head.len(),
        body.len(),
        sha256_hex(head.as_bytes())
    )
    .into_bytes()
}

fn entry<'a>(p: &'a mut Parts, group: &str) -> &'a mut serde_json::Value {
    &mut p.lines.iter_mut().find(|(g, _)| g == group).unwrap().1
}

#[test]
fn a_forged_copy_of_another_session_is_caught_and_a_changed_state_is_never_restored() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let truth = same(&env, &repo, "built afresh");
    let good = std::fs::read(repo.join(OPEN)).unwrap();
    let log = env.event_log("open");
    let status = |why: &str| {
        let run = env.handover_with(&repo, &["--json", "status"], |c| {
            c.env("GIT_HANDOVER_TEST_LOG", log.path());
        });
        assert_eq!(run.code, 0, "{why}: {}", run.snapshot());
        run.stdout
    };

    // s1's copy replaced by s2's record line, every sum resealed: not of its group.
    let mut p = parts(&good);
    let s2 = entry(&mut p, "i:s2")["lines"][0].clone();
    entry(&mut p, "i:s1")["lines"][0] = s2;
    std::fs::write(repo.join(OPEN), sealed(&p)).unwrap();
    status("another session's copy");
    assert_eq!(log.count("notes-index-open-dropped"), 1);
    assert_eq!(log.count("notes-index-built"), 0, "only .open made again");
    assert_eq!(answers(&env, &repo, true), truth, "another session's copy");

    // A valid header over a body that is not the one its head names.
    let mut p = parts(&good);
    p.lines.reverse();
    let mut forged = sealed(&p);
    let head_sum_line = String::from_utf8_lossy(&good)
        .lines()
        .nth(3)
        .unwrap()
        .to_owned();
    let text = String::from_utf8(forged.clone()).unwrap();
    let fourth = text.lines().nth(3).unwrap().to_owned();
    forged = text.replacen(&fourth, &head_sum_line, 1).into_bytes();
    std::fs::write(repo.join(OPEN), &forged).unwrap();
    assert_eq!(
        answers(&env, &repo, true),
        truth,
        "a header of another body"
    );

    // s1's own copy with its state changed, resealed: the listing shows it (the sums
    // hold and it is s1's record), `continue` does not restore it.
    let mut p = parts(&good);
    let line = entry(&mut p, "i:s1")["lines"][0]
        .as_str()
        .unwrap()
        .to_owned();
    let changed = line.replace("\"work\"", "\"forged work\"");
    assert_ne!(changed, line);
    entry(&mut p, "i:s1")["lines"][0] = changed.into();
    std::fs::write(repo.join(OPEN), sealed(&p)).unwrap();
    assert!(status("a changed state").contains("forged work"));
    let run = env.handover(&repo, &["continue", "main/s1"]);
    assert_eq!(run.code, 2, "{}", run.snapshot());
    assert!(run.stderr.contains("no note holds"), "{}", run.snapshot());
    assert!(
        !repo.join(".claude/handover/main/s1").exists(),
        "nothing written"
    );
    // The index was dropped: every answer is the store's again, and the record the
    // store holds is what `continue` restores.
    assert_eq!(answers(&env, &repo, true), truth, "after the refusal");
    let run = env.handover(&repo, &["continue", "main/s1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let restored =
        std::fs::read_to_string(repo.join(".claude/handover/main/s1/project-state.json")).unwrap();
    assert!(!restored.contains("forged"), "{restored}");
}

#[test]
fn a_half_written_or_older_open_is_not_believed_and_an_older_one_is_carried() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    let good = std::fs::read(repo.join(OPEN)).unwrap();
    let head_end = String::from_utf8_lossy(&good).find("\"body\"").unwrap();
    // Cut in the header, in the head, in the body, one byte short.
    for cut in [20, head_end, good.len() - 40, good.len() - 1] {
        std::fs::write(repo.join(OPEN), &good[..cut]).unwrap();
        same(&env, &repo, &format!("cut at {cut}"));
    }
    // Cut at the end of a line (what is left parses), and a byte changed inside a
    // copied record (still JSON, still a record of its session), sums not resealed.
    let last_line = good[..good.len() - 1]
        .iter()
        .rposition(|b| *b == b'\n')
        .unwrap();
    std::fs::write(repo.join(OPEN), &good[..=last_line]).unwrap();
    same(&env, &repo, "cut after a line");
    let text = String::from_utf8(good.clone()).unwrap();
    let flipped = text.replacen("\\\"work\\\"", "\\\"wprk\\\"", 1);
    assert_ne!(flipped, text);
    std::fs::write(repo.join(OPEN), flipped).unwrap();
    same(&env, &repo, "a byte changed in a copy");
    // The store moves on; `.open` of the older commit is put back.
    std::fs::write(repo.join(OPEN), &good).unwrap();
    append(
        &env,
        &repo,
        &c[3],
        &[record("s4", 1, None, "h41", "2026-11-30T13:00:00Z")],
    );
    let log = env.event_log("open");
    let run = env.handover_with(&repo, &["--json", "status"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // Of an older commit: not believed, made again at the cost of the change (s4's
    // records read; s1 and s2 carried from the older file).
    assert_eq!(log.count("notes-index-open-read:1"), 1);
    let after = same(&env, &repo, "after the append");
    assert!(after.contains("s4"), "{after}");
    // An older one put back once the index is current: not believed either.
    std::fs::write(repo.join(OPEN), &good).unwrap();
    same(&env, &repo, "an older .open under a current index");
}

#[test]
fn the_open_file_deleted_is_made_again_from_the_current_index() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    same(&env, &repo, "built afresh");
    std::fs::remove_file(repo.join(OPEN)).unwrap();
    let log = env.event_log("open");
    let hook = env.handover_with(&repo, &["hook", "session-start"], |c| {
        c.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(hook.code, 0, "{}", hook.snapshot());
    assert_eq!(log.count("notes-index-built"), 0, "the index was current");
    assert_eq!(log.count("notes-index-updated"), 0);
    assert!(repo.join(OPEN).is_file(), "made again");
    same(&env, &repo, "made again");
}

#[test]
fn a_session_diverging_after_open_was_written_is_told_by_each_reader() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    // s1 on disk here (the hook's usual case): restored from the store.
    let run = env.handover(&repo, &["continue", "main/s1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    same(&env, &repo, "s1 on disk");
    // Another clone wrote from s1's first state too: s1 diverged, after `.open` was
    // written.
    append(
        &env,
        &repo,
        &c[3],
        &[record("s1", 2, Some("h11"), "h12x", "2026-11-30T11:30:00Z")],
    );
    let after = same(&env, &repo, "s1 diverged");
    assert!(after.contains("h12x"), "{after}");
}

#[test]
fn a_line_passed_over_in_an_open_sessions_note_is_said_as_the_store_says_it() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    // s1's newest record's note gains a torn record and bytes that are not UTF-8.
    let note = env.git(&repo, &["notes", "--ref=handover", "show", &c[1]]);
    let mut text = note.into_bytes();
    text.extend_from_slice(b"\n{\"key\":\"main/s1\",\"session_id\":\"s1\",\"se\n");
    text.extend_from_slice(b"\xff\xfe not text\n");
    let file = env.root().join("note.bin");
    std::fs::write(&file, &text).unwrap();
    let blob = env.git(&repo, &["hash-object", "-w", file.to_str().unwrap()]);
    env.git(
        &repo,
        &["notes", "--ref=handover", "add", "-f", "-C", &blob, &c[1]],
    );
    let after = same(&env, &repo, "lines passed over");
    assert!(after.contains("main/s1"), "s1 still listed: {after}");
}

#[test]
fn a_link_or_a_fifo_where_open_should_be_is_not_read() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let truth = same(&env, &repo, "built afresh");
    // A whole `.open` elsewhere, with a state no note holds: believed if followed.
    let mut p = parts(&std::fs::read(repo.join(OPEN)).unwrap());
    let line = entry(&mut p, "i:s1")["lines"][0]
        .as_str()
        .unwrap()
        .to_owned();
    entry(&mut p, "i:s1")["lines"][0] = line.replace("\"work\"", "\"elsewhere\"").into();
    let elsewhere = env.root().join("elsewhere.open");
    std::fs::write(&elsewhere, sealed(&p)).unwrap();
    std::fs::remove_file(repo.join(OPEN)).unwrap();
    std::os::unix::fs::symlink(&elsewhere, repo.join(OPEN)).unwrap();
    let after = same(&env, &repo, "a link");
    assert!(!after.contains("elsewhere"), "{after}");
    assert_eq!(after, truth);
    assert!(repo.join(OPEN).is_symlink(), "not replaced through or over");
    // A FIFO: not waited on.
    std::fs::remove_file(repo.join(OPEN)).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(repo.join(OPEN))
        .status()
        .unwrap();
    assert!(made.success());
    assert_eq!(same(&env, &repo, "a FIFO"), truth);
}
