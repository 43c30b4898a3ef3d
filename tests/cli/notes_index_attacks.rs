//! Attacks on the notes index's update (issue 36): a write on top of a session's newest
//! taken without reading its notes, and every sibling that must not be; two readers
//! updating at once, the first held after it worked out its index and before any of its
//! files is renamed; a forged entry under a checksum that holds, pointing at a record
//! of another session; a forged or torn part of the members. Each answers as the store
//! read whole (`GIT_HANDOVER_TEST_NO_INDEX`).

use crate::common::{TestEnv, finish};
use crate::notes_index::{
    HEADS, MEMBERS, append, nth_line_end, populated, record, repo_with, same, sha256_hex,
};
use crate::notes_index_log::same_logs;

/// A state hash as the tool writes them (64 hex digits): what a write on top carries.
fn hx(n: u32) -> String {
    format!("{n:064x}")
}

#[test]
fn a_write_on_top_is_taken_without_reading_the_sessions_notes_and_anything_else_is_not() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 4);
    append(
        &env,
        &repo,
        &c[0],
        &[
            record("s1", 1, None, &hx(11), "2026-11-30T10:00:00Z"),
            record("s2", 1, None, &hx(21), "2026-11-30T10:01:00Z"),
        ],
    );
    append(
        &env,
        &repo,
        &c[1],
        &[record(
            "s1",
            2,
            Some(&hx(11)),
            &hx(12),
            "2026-11-30T11:00:00Z",
        )],
    );
    let log = env.event_log("on-top");
    let status = |why: &str| {
        // Its exit is compared with the store's by `same` (a record that does not
        // read makes it 3, as without the index).
        let run = env.handover_with(&repo, &["status"], |cmd| {
            cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
        });
        let truth = same(&env, &repo, why);
        assert!(
            truth.starts_with(&format!("{}\n", run.code)),
            "{why}: {truth}"
        );
        truth
    };
    status("built");
    // The usual write: on top of the newest, a state never seen.
    let on_top = record("s1", 3, Some(&hx(12)), &hx(13), "2026-11-30T12:00:00Z");
    append(&env, &repo, &c[2], &[on_top]);
    let after = status("a write on top");
    assert_eq!(log.count("notes-index-on-top"), 1, "{after}");
    assert!(after.contains(&hx(13)) || after.contains("T3"), "{after}");

    // Each of these is worked out from the session's notes, and answers as the store.
    let cases: Vec<(&str, Vec<String>)> = vec![
        // A state the session already had (written again on top): not a new state.
        (
            "a state seen before",
            vec![record(
                "s1",
                4,
                Some(&hx(13)),
                &hx(11),
                "2026-11-30T13:00:00Z",
            )],
        ),
        // Two writes from one state at once: a divergence.
        (
            "two writes on one state",
            vec![
                record("s2", 2, Some(&hx(21)), &hx(22), "2026-11-30T13:00:00Z"),
                record("s2", 2, Some(&hx(21)), &hx(23), "2026-11-30T13:01:00Z"),
            ],
        ),
        // A record that names as its parent a state no record holds yet…
        (
            "a record before its parent",
            vec![record(
                "s3",
                3,
                Some(&hx(32)),
                &hx(33),
                "2026-11-30T13:00:00Z",
            )],
        ),
        // …and then that parent, written on top of it: it is replaced by its child,
        // which it replaces (a cycle the store's reader settles its own way).
        (
            "the parent after its child",
            vec![record(
                "s3",
                4,
                Some(&hx(33)),
                &hx(32),
                "2026-11-30T13:02:00Z",
            )],
        ),
        // A write from an older state: a side, not the newest.
        (
            "a write from an older state",
            vec![record(
                "s1",
                9,
                Some(&hx(12)),
                &hx(19),
                "2026-11-30T14:00:00Z",
            )],
        ),
        // A record on top whose state does not read.
        (
            "a record on top that does not read",
            vec![
                record("s2", 9, Some(&hx(23)), &hx(29), "2026-11-30T15:00:00Z")
                    .replace("\"active_tasks\":[", "\"active_tasks\":[7,"),
            ],
        ),
    ];
    for (why, lines) in cases {
        let before = log.count("notes-index-on-top");
        append(&env, &repo, &c[3], &lines);
        let after = status(why);
        assert_eq!(log.count("notes-index-on-top"), before, "{why}: {after}");
    }
}

#[test]
fn two_readers_updating_at_once_before_any_rename_leave_every_file_answering_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    for (round, moves) in [(1u64, true), (2, false)] {
        append(
            &env,
            &repo,
            &c[3],
            &[record(
                "s4",
                round,
                (round > 1).then_some("h41"),
                &format!("h4{round}"),
                "2026-11-30T13:00:00Z",
            )],
        );
        // The first reader has read the old index and worked out the new one, and
        // waits before renaming any of its files (parts, manifest, times, heads, open).
        let slow = env.spawn_at_pause(&repo, &["status"], "notes-index-save:60000");
        if moves {
            // Meanwhile the store moves on, and a second reader indexes the newer one.
            append(
                &env,
                &repo,
                &c[1],
                &[record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")],
            );
        }
        let fast = env.handover(&repo, &["status"]);
        assert_eq!(fast.code, 0, "{}", fast.snapshot());
        // Then the first completes, over the second's files.
        let (code, _, err) = finish(slow);
        assert_eq!(code, 0, "{err}");
        // `.open` and `.heads` (status), `.times` and `.members` (log -n, log KEY).
        same(&env, &repo, &format!("round {round}: status after both"));
        same_logs(&env, &repo, &format!("round {round}: log after both"));
    }
}

/// `file`'s header and its JSON body, and the body resealed under a header whose sum
/// holds.
fn reseal(file: &std::path::Path, forge: impl FnOnce(&mut serde_json::Value)) {
    let text = std::fs::read_to_string(file).unwrap();
    let (header, body) = text.split_at(nth_line_end(&text, 4));
    let mut v: serde_json::Value = serde_json::from_str(body).unwrap();
    forge(&mut v);
    let body = v.to_string();
    let h: Vec<&str> = header.lines().collect();
    let sum = sha256_hex(body.as_bytes());
    std::fs::write(file, format!("{}\n{}\n{}\n{sum}\n{body}", h[0], h[1], h[2])).unwrap();
}

#[test]
fn a_forged_entry_under_a_good_checksum_pointing_at_another_sessions_record_is_not_believed() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let truth = same(&env, &repo, "built afresh");
    same_logs(&env, &repo, "built afresh");
    // s1's newest pointed at s2's newest record in `.heads`, and `.open` removed so
    // that the next reader makes it from the forged entry. (`.open`'s own layout, with
    // copies of the records' lines, is forged the same way in
    // `notes_index_open::a_forged_copy_of_another_session_is_caught_and_a_changed_state_is_never_restored`.)
    reseal(&repo.join(HEADS), |v| {
        let s2 = v["groups"]["i:s2"]["newest"].clone();
        assert!(s2.is_object(), "{v}");
        v["groups"]["i:s1"]["newest"] = s2;
    });
    std::fs::remove_file(repo.join(HEADS.replace(".heads", ".open"))).unwrap();
    assert_eq!(same(&env, &repo, "forged"), truth);
    same_logs(&env, &repo, "forged");
}

#[test]
fn a_torn_or_forged_part_of_the_members_is_not_believed() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    let parts = repo.join(format!("{MEMBERS}.d"));
    let all: Vec<_> = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert!(!all.is_empty());
    // Torn: every part cut short; an update must read one.
    for p in &all {
        let b = std::fs::read(p).unwrap();
        std::fs::write(p, &b[..b.len() / 2]).unwrap();
    }
    append(
        &env,
        &repo,
        &c[1],
        &[record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z")],
    );
    same(&env, &repo, "parts torn");
    same_logs(&env, &repo, "parts torn");
    // Forged: every part emptied, under a manifest resealed to name it.
    let manifest = repo.join(MEMBERS);
    let text = std::fs::read(&manifest).unwrap();
    let cut = nth_line_end(&String::from_utf8_lossy(&text), 4);
    let (header, _) = text.split_at(cut);
    let header = String::from_utf8_lossy(header).into_owned();
    for p in std::fs::read_dir(&parts).unwrap() {
        std::fs::write(p.unwrap().path(), b"").unwrap();
    }
    let body = vec![0u8; 256 * 32];
    let h: Vec<&str> = header.lines().collect();
    let sum = sha256_hex(&body);
    let mut forged = format!("{}\n{}\n{}\n{sum}\n", h[0], h[1], h[2]).into_bytes();
    forged.extend_from_slice(&body);
    std::fs::write(&manifest, forged).unwrap();
    append(
        &env,
        &repo,
        &c[2],
        &[record("s1", 4, Some("h13"), "h14", "2026-11-30T12:30:00Z")],
    );
    same(&env, &repo, "parts forged empty");
    same_logs(&env, &repo, "parts forged empty");
}

#[test]
fn a_reader_killed_between_the_members_parts_and_their_manifest_leaves_an_index_not_believed() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    // A record that moves s1's part and a session never seen (another part, likely).
    append(
        &env,
        &repo,
        &c[3],
        &[
            record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z"),
            record("s5", 1, None, "h51", "2026-11-30T12:10:00Z"),
        ],
    );
    let mut child = env.spawn_at_pause(&repo, &["status"], "notes-index-parts:20000");
    child.kill().unwrap();
    let _ = child.wait();
    same(&env, &repo, "after the kill");
    same_logs(&env, &repo, "after the kill");
}

#[test]
fn an_index_that_cannot_be_written_is_built_in_memory_and_answers_as_the_store() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    let dir = repo.join(".git/git-handover/notes-index");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    // A file where the index's directory should be: no scratch file, no part, no file
    // of the index can be made there (this holds even for root, unlike a mode).
    std::fs::write(&dir, b"not a directory").unwrap();
    // Each run says it could not keep the index (the store read without one does not):
    // apart from that line, the same answer.
    let status = env.handover(&repo, &["--json", "status"]);
    assert!(
        status.stderr.contains("index could not be kept in"),
        "{}",
        status.snapshot()
    );
    let unkept = |s: &str| {
        s.lines()
            .filter(|l| !l.contains("index could not be kept in"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let without = env.handover_with(&repo, &["--json", "status"], |c| {
        c.env("GIT_HANDOVER_TEST_NO_INDEX", "1");
    });
    assert_eq!(unkept(&status.snapshot()), unkept(&without.snapshot()));
    crate::notes_index_log::same_logs_but(
        &env,
        &repo,
        "nothing can be written",
        Some("index could not be kept in"),
    );
    assert_eq!(std::fs::read(&dir).unwrap(), b"not a directory");
}

/// An update reads only the lines appended to a note the index read before: what the
/// old lines said (the lines passed over, with their numbers, the note's newest time,
/// its sessions) is carried, and the appended lines are numbered after them. Each step
/// answers as the store read whole: a line that is no record appended, then a record on
/// top, then two records of one session in one notes commit (not on top: worked out
/// again from its notes), then a record of a session the note did not hold.
#[test]
fn lines_appended_to_a_note_are_read_alone_and_answer_as_the_store() {
    let env = TestEnv::new();
    let (repo, c) = populated(&env);
    same(&env, &repo, "built afresh");
    same_logs(&env, &repo, "built afresh");
    let steps = [
        ("a line that is no record", "{torn".to_owned()),
        (
            "a record on top",
            record("s1", 3, Some("h12"), "h13", "2026-11-30T12:00:00Z"),
        ),
        (
            "two records at once",
            format!(
                "{}\n{}",
                record("s1", 4, Some("h13"), "h14", "2026-11-30T12:10:00Z"),
                record("s1", 5, Some("h14"), "h15", "2026-11-30T12:20:00Z")
            ),
        ),
        (
            "another session's record",
            record("s4", 1, None, "h41", "2026-11-30T12:30:00Z"),
        ),
    ];
    let log = env.event_log("appended");
    for (i, (why, line)) in steps.into_iter().enumerate() {
        append(&env, &repo, &c[1], &[line]);
        // The first reader after the append brings the index up to date: by the
        // appended lines alone, each time.
        let run = env.handover_with(&repo, &["status"], |cmd| {
            cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
        });
        let truth = same(&env, &repo, why);
        assert!(
            truth.starts_with(&format!("{}\n", run.code)),
            "{why}: {truth}"
        );
        assert_eq!(log.count("notes-index-appended"), i + 1, "{why}");
        same_logs(&env, &repo, why);
    }
}

/// A hook that could not index the store in its budget says "the next `git handover
/// status` indexes it" — only where an index can be kept. Where none can (a file where
/// its directory should be; a directory that cannot be written), the briefing says so
/// and why, and the status it names warns that it could not keep the index.
#[test]
fn the_unindexed_store_is_not_promised_an_index_that_cannot_be_written() {
    let env = TestEnv::new();
    let (repo, _) = crate::notes_index::populated_with(&env, false);
    env.write(
        &repo.join(".claude/handover/main/broken/project-state.json"),
        "{",
    );
    let dir = repo.join(".git/git-handover/notes-index");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
    std::fs::write(&dir, b"not a directory").unwrap();
    let brief = |id: &str| {
        let event = serde_json::json!({"session_id": id, "cwd": repo.display().to_string(),
            "hook_event_name": "SessionStart", "source": "startup"})
        .to_string();
        let run = env.handover_fed(&repo, &["hook", "session-start"], event.as_bytes(), |c| {
            c.env("GIT_HANDOVER_TEST_INDEX_BUDGET_MS", "0");
        });
        run.hook_context()
    };
    // The briefing does not promise what cannot be: it says where the index cannot
    // be kept, and that status reads the whole store meanwhile.
    let text = brief("a1");
    assert!(
        !text.contains("the next `git handover status` indexes it"),
        "{text}"
    );
    assert!(text.contains("no index of it can be kept in"), "{text}");
    // The command it names lists the store's sessions, and says why it could not
    // keep an index.
    let run = env.handover(&repo, &["status"]);
    assert!(run.stdout.contains("main/s1"), "{}", run.snapshot());
    assert!(
        run.stderr.contains("index could not be kept in"),
        "{}",
        run.snapshot()
    );
    let text = brief("a2");
    assert!(text.contains("no index of it can be kept in"), "{text}");
    assert_eq!(std::fs::read(&dir).unwrap(), b"not a directory");
}

#[test]
fn a_build_removes_the_parts_of_another_format_and_keeps_its_own_and_temporary_files() {
    let env = TestEnv::new();
    let (repo, _) = populated(&env);
    same(&env, &repo, "built afresh");
    let parts = repo.join(format!("{MEMBERS}.d"));
    let names = |dir: &std::path::Path| -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        n.sort();
        n
    };
    let own = names(&parts);
    assert!(own.iter().all(|n| n.len() == 3), "{own:?}");
    // Another format's parts (two hex digits) and another process's temporary file.
    for stray in ["00", "ab", "part", ".git-handover-tmp-x"] {
        std::fs::write(parts.join(stray), b"old").unwrap();
    }
    // The index's files gone (not its parts): the next reader builds it again, which
    // leaves its own parts and the temporary file only.
    for f in std::fs::read_dir(repo.join(HEADS).parent().unwrap()).unwrap() {
        let f = f.unwrap().path();
        if f.is_file() {
            std::fs::remove_file(f).unwrap();
        }
    }
    same(&env, &repo, "built again");
    let mut kept = own.clone();
    kept.push(".git-handover-tmp-x".to_owned());
    kept.sort();
    assert_eq!(names(&parts), kept);
}
