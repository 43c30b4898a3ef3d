//! More attacks on `.open` (the open part of the notes index, issue 36), each
//! answered as the store read whole answers (`GIT_HANDOVER_TEST_NO_INDEX`): the notes
//! ref moved back and forth (ABA), deleted and made again elsewhere, two refs whose
//! files could share a name, a note rewritten under a carried group, a session
//! finished in the store, a linked worktree, a session id with a TAB or a newline.

use std::path::Path;

use crate::common::TestEnv;
use crate::notes_index::{append, populated, record};
use crate::notes_index_open::{OPEN, same};

fn notes_commit(env: &TestEnv, repo: &Path) -> String {
    env.git(repo, &["rev-parse", "refs/notes/handover"])
}

/// The commit the `.open` at `path` says it is of.
fn open_commit(repo: &Path, path: &str) -> String {
    let bytes = std::fs::read(repo.join(path)).unwrap();
    String::from_utf8_lossy(&bytes)
        .lines()
        .nth(2)
        .unwrap()
        .to_owned()
}

#[test]
fn the_ref_moved_back_and_forth_and_a_note_edited_or_removed_is_answered_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    let before = notes_commit(&env, &repo);
    // s1's newest record's note rewritten with no record of ours: s1's older wins.
    env.git(
        &repo,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-f",
            "-m",
            "plain words",
            &c[1],
        ],
    );
    let edited = notes_commit(&env, &repo);
    same(&env, &repo, "a note edited by hand");
    // Back (A), forward (B), back again: each commit answered as its store.
    for (at, why) in [
        (&before, "back"),
        (&edited, "forward"),
        (&before, "back again"),
    ] {
        env.git(&repo, &["update-ref", "refs/notes/handover", at]);
        same(&env, &repo, why);
    }
    env.git(&repo, &["notes", "--ref=handover", "remove", &c[1]]);
    same(&env, &repo, "a note removed");
    env.git(&repo, &["update-ref", "refs/notes/handover", &edited]);
    same(&env, &repo, "forward to the edit");
}

#[test]
fn the_ref_deleted_and_made_again_at_another_commit_is_answered_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    env.git(&repo, &["update-ref", "-d", "refs/notes/handover"]);
    let none = same(&env, &repo, "no ref");
    assert!(!none.contains("main/s1"), "{none}");
    append(
        &env,
        &repo,
        &c[2],
        &[
            record("s9", 1, None, "h91", "2026-11-30T12:00:00Z"),
            record("s8", 1, None, "h81", "2026-11-30T12:01:00Z"),
        ],
    );
    let again = same(&env, &repo, "made again elsewhere");
    assert!(
        again.contains("main/s9") && !again.contains("main/s1"),
        "{again}"
    );
}

#[test]
fn two_refs_whose_index_files_share_a_name_never_answer_for_each_other() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    // `a+b` and `a_b` are both `a_b` in the index's file names.
    for (r, sid) in [("refs/notes/a+b", "sp"), ("refs/notes/a_b", "su")] {
        env.git(&repo, &["config", "handover.notesRef", r]);
        let short = r.strip_prefix("refs/notes/").unwrap();
        env.git(
            &repo,
            &[
                "notes",
                &format!("--ref={short}"),
                "add",
                "-m",
                &record(sid, 1, None, &format!("h{sid}"), "2026-11-30T12:00:00Z"),
                "-m",
                &record(&format!("{sid}2"), 1, None, "hx", "2026-11-30T12:01:00Z"),
                &c[3],
            ],
        );
        let seen = same(&env, &repo, r);
        assert!(seen.contains(&format!("main/{sid}")), "{seen}");
    }
    for (r, sid, other) in [
        ("refs/notes/a+b", "sp", "su"),
        ("refs/notes/a_b", "su", "sp"),
        ("refs/notes/handover", "s1", "sp"),
        ("refs/notes/a+b", "sp", "s1"),
    ] {
        env.git(&repo, &["config", "handover.notesRef", r]);
        let seen = same(&env, &repo, r);
        assert!(seen.contains(&format!("main/{sid}")), "{r}: {seen}");
        assert!(!seen.contains(&format!("main/{other}")), "{r}: {seen}");
    }
}

#[test]
fn a_carried_group_whose_note_was_rewritten_at_the_same_line_is_read_again() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    // s1's newest record is line 1 of c1's note; the note is rewritten with another
    // state at the same line and seq (the same note object, the same line number,
    // another blob), and another session's record appended so the ref moves on.
    let note = env.git(&repo, &["notes", "--ref=handover", "show", &c[1]]);
    let changed = note.replacen("\"work\"", "\"reworked\"", 1);
    assert_ne!(changed, note);
    env.git(
        &repo,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-f",
            "-m",
            &changed,
            &c[1],
        ],
    );
    let after = same(&env, &repo, "rewritten at the same line");
    assert!(after.contains("reworked"), "{after}");
}

#[test]
fn a_session_finished_in_the_store_is_no_longer_listed_open() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    let mut done: serde_json::Value =
        serde_json::from_str(&record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")).unwrap();
    done["state"]["status"] = "ALL_COMPLETE".into();
    done["state"]["active_tasks"][0]["status"] = "done".into();
    append(&env, &repo, &c[3], &[done.to_string()]);
    same(&env, &repo, "s1 finished");
}

#[test]
fn a_linked_worktree_reads_the_same_open_part() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    let wt = env.worktree(&repo, "wt", "side");
    same(&env, &wt, "from the linked worktree");
    append(
        &env,
        &wt,
        &c[3],
        &[record("s5", 1, None, "h51", "2026-11-30T12:00:00Z")],
    );
    same(&env, &wt, "moved on from the linked worktree");
    same(&env, &repo, "and from the main one");
    assert!(!wt.join(".git").is_dir(), "a linked worktree");
}

#[test]
fn a_session_id_with_a_tab_or_a_newline_does_not_stop_open_being_written() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    // Session ids with a TAB and a newline under plain keys (a key holding either is
    // no key the store lists).
    let forged = |sid: &str, key: &str, at: &str| {
        let mut r: serde_json::Value =
            serde_json::from_str(&record(sid, 1, None, "hf", at)).unwrap();
        r["key"] = key.into();
        r.to_string()
    };
    append(
        &env,
        &repo,
        &c[3],
        &[
            forged("t\tab", "main/tab", "2026-11-30T12:00:00Z"),
            forged("n\nl", "main/nl", "2026-11-30T12:01:00Z"),
        ],
    );
    let truth = same(&env, &repo, "forged ids");
    assert!(
        truth.contains("t\\tab") && truth.contains("n\\nl"),
        "{:?}",
        (truth.lines())
            .filter(|l| l.contains("\"key\"") || l.contains("session_id"))
            .collect::<Vec<_>>()
    );
    // `.open` is of the ref's commit (it was not written at all): the next reader
    // reads it alone.
    assert_eq!(open_commit(&repo, OPEN), notes_commit(&env, &repo));
    same(&env, &repo, "read back");
}

/// The session-start hook's answer, with `.open`'s threshold at `made_by_hook` open
/// groups (`None`: the store read whole).
fn hook(env: &TestEnv, repo: &Path, made_by_hook: Option<&str>) -> String {
    let r = env.handover_with(repo, &["hook", "session-start"], |c| match made_by_hook {
        Some(n) => {
            c.env("GIT_HANDOVER_TEST_OPEN_MADE_BY_HOOK", n);
        }
        None => {
            c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
        }
    });
    format!("{}\n{}\n{}", r.code, r.stdout, r.stderr)
}

#[test]
fn a_hook_with_many_open_groups_answers_from_heads_and_leaves_open_to_the_next_command() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    let run = env.handover(&repo, &["continue", "main/s1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    same(&env, &repo, "s1 on disk");
    let older = open_commit(&repo, OPEN);
    // s1 diverges in a new notes commit; every open part is "many" for this hook.
    append(
        &env,
        &repo,
        &c[3],
        &[record("s1", 2, Some("h11"), "h12x", "2026-11-30T11:30:00Z")],
    );
    let told = hook(&env, &repo, Some("0"));
    assert_eq!(
        told,
        hook(&env, &repo, None),
        "s1 diverged, told from .heads"
    );
    assert!(told.contains("h12x") || told.contains("diverged"), "{told}");
    assert_eq!(
        open_commit(&repo, OPEN),
        older,
        "the hook did not make .open"
    );
    // Its session gone from disk, the hook lists the store's: `.open` is made then.
    std::fs::remove_dir_all(repo.join(".claude/handover/main/s1")).unwrap();
    let listed = hook(&env, &repo, Some("0"));
    assert_eq!(listed, hook(&env, &repo, None), "store-only candidates");
    assert_eq!(open_commit(&repo, OPEN), notes_commit(&env, &repo));
    same(&env, &repo, "after");
}

/// Rewrite the note on `commit` as `edit` makes it from its text.
fn rewrite(env: &TestEnv, repo: &Path, commit: &str, edit: impl Fn(Vec<u8>) -> Vec<u8>) {
    let note = env.git(repo, &["notes", "--ref=handover", "show", commit]);
    let file = env.root().join("note.bin");
    std::fs::write(&file, edit(note.into_bytes())).unwrap();
    let blob = env.git(repo, &["hash-object", "-w", file.to_str().unwrap()]);
    env.git(
        repo,
        &["notes", "--ref=handover", "add", "-f", "-C", &blob, commit],
    );
}

#[test]
fn a_note_with_crlf_lines_nul_bytes_or_a_line_past_any_bound_is_answered_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    // s1's newest record's note with CRLF line ends.
    rewrite(&env, &repo, &c[1], |t| {
        String::from_utf8(t)
            .unwrap()
            .replace('\n', "\r\n")
            .into_bytes()
    });
    let crlf = same(&env, &repo, "CRLF");
    assert!(crlf.contains("main/s1"), "{crlf}");
    // A NUL inside a line before s2's newest records, and one inside a record.
    rewrite(&env, &repo, &c[2], |t| {
        let mut out = b"junk\0junk\n".to_vec();
        out.extend_from_slice(&t);
        out.extend_from_slice(b"{\"key\":\"main/s2\",\0\n");
        out
    });
    same(&env, &repo, "NUL bytes");
    // A line of 9 MB (past a note's bound) on the commit s3 is written on.
    let mut long = record("s3", 1, None, "h31", "2026-11-30T12:30:00Z").into_bytes();
    long.truncate(long.len() - 1);
    long.extend_from_slice(b",\"pad\":\"");
    long.extend(std::iter::repeat_n(b'x', 9 << 20));
    long.extend_from_slice(b"\"}\n");
    let file = env.root().join("long.bin");
    std::fs::write(&file, &long).unwrap();
    let blob = env.git(&repo, &["hash-object", "-w", file.to_str().unwrap()]);
    env.git(
        &repo,
        &["notes", "--ref=handover", "add", "-f", "-C", &blob, &c[3]],
    );
    same(&env, &repo, "a line past any bound");
}

#[test]
fn continue_of_a_session_whose_copy_is_of_an_older_commit_restores_what_its_note_holds() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    let older = std::fs::read(repo.join(OPEN)).unwrap();
    // s1 moves on; the `.open` of the older commit (s1's older copy) is put back.
    append(
        &env,
        &repo,
        &c[3],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")],
    );
    let note = env.git(&repo, &["notes", "--ref=handover", "show", &c[3]]);
    assert!(note.contains("h13"));
    std::fs::write(repo.join(OPEN), &older).unwrap();
    let run = env.handover(&repo, &["continue", "--json", "main/s1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    let restored =
        std::fs::read_to_string(repo.join(".claude/handover/main/s1/project-state.json")).unwrap();
    assert!(restored.contains("\"T3\""), "{restored}");
}

#[test]
fn lines_passed_over_are_said_in_the_language_of_the_run_not_of_the_one_that_wrote_open() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let english = same(&env, &repo, "built in English");
    env.git(&repo, &["config", "handover.language", "ja"]);
    let japanese = same(&env, &repo, "read in Japanese");
    assert_ne!(english, japanese);
}

#[test]
fn a_session_on_disk_finished_elsewhere_in_the_store_is_told_as_the_store_tells_it() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    let run = env.handover(&repo, &["continue", "main/s1"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    same(&env, &repo, "s1 on disk");
    let mut done: serde_json::Value =
        serde_json::from_str(&record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")).unwrap();
    done["state"]["status"] = "ALL_COMPLETE".into();
    done["state"]["active_tasks"][0]["status"] = "done".into();
    append(&env, &repo, &c[3], &[done.to_string()]);
    // The hook that answers from `.heads` (`.open` of the older commit) first.
    assert_eq!(hook(&env, &repo, Some("0")), hook(&env, &repo, None));
    same(&env, &repo, "s1 finished in the store, open on disk");
}

#[test]
fn duplicate_or_reordered_group_lines_under_sums_that_hold_are_answered_as_the_store() {
    use crate::notes_index_open::{parts, sealed};
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let truth = same(&env, &repo, "built afresh");
    let good = std::fs::read(repo.join(OPEN)).unwrap();
    // Lines out of order, every sum resealed: the groups are the same.
    let mut p = parts(&good);
    p.lines.reverse();
    std::fs::write(repo.join(OPEN), sealed(&p)).unwrap();
    assert_eq!(same(&env, &repo, "out of order"), truth);
    // A group's line twice, the head's count raised to match: not believed.
    let mut p = parts(&good);
    let first = p.lines[0].clone();
    p.lines.push(first);
    p.head["groups"] = p.lines.len().into();
    std::fs::write(repo.join(OPEN), sealed(&p)).unwrap();
    assert_eq!(same(&env, &repo, "a line twice"), truth);
    // A group's line twice with two different copies, the head's count as the file's
    // groups: the later copy would win; caught as not of its group when it is another's.
    let mut p = parts(&good);
    let mut twin = p.lines[0].clone();
    twin.1["lines"][0] = p.lines[1].1["lines"][0].clone();
    p.lines.push(twin);
    std::fs::write(repo.join(OPEN), sealed(&p)).unwrap();
    assert_eq!(same(&env, &repo, "two copies of a group"), truth);
}
