//! Several records written one on top of the other since the index's commit (issue 36:
//! other agents' writes between two starts of this one) are taken on top of the
//! session's newest without reading its notes, and every sibling that is not such a
//! line is worked out from the session's notes (holding only its lines). Each answers
//! as the store read whole (`GIT_HANDOVER_TEST_NO_INDEX`), `status` and `log`.

use crate::common::TestEnv;
use crate::notes_index::{append, record, repo_with, same};
use crate::notes_index_log::same_logs_but;

/// A state hash as the tool writes them (64 hex digits).
fn hx(n: u32) -> String {
    format!("{n:064x}")
}

/// Session `sid`'s write `seq`, from state `parent` (a number, 0: none) to `hash`.
fn write(sid: &str, seq: u64, parent: u32, hash: u32, minute: u32) -> String {
    let parent = (parent > 0).then(|| hx(parent));
    let at = format!("2026-11-30T{:02}:{:02}:00Z", 10 + minute / 60, minute % 60);
    record(sid, seq, parent.as_deref(), &hx(hash), &at)
}

#[test]
fn writes_on_top_of_one_another_are_taken_on_top_and_every_sibling_is_worked_out_again() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 4);
    // Each case's session has one record (state `n * 100 + 1`) before the index is made.
    let cases = [
        "a line of three, over two notes",
        "a line and another session's one on top",
        "a line that forks",
        "a line whose second names a state seen before",
        "a line whose second is not numbered after the first",
        "a line whose middle does not read",
        "a line with a gap",
    ];
    let sid = |n: usize| format!("s{n}");
    let base = |n: usize| u32::try_from(n).unwrap() * 100 + 1;
    let firsts: Vec<String> = (0..cases.len())
        .map(|n| write(&sid(n), 1, 0, base(n), 0))
        .collect();
    append(&env, &repo, &c[0], &firsts);
    let log = env.event_log("chain");
    let status = |why: &str| {
        // The run that updates the index (its exit is compared by `same`).
        let run = env.handover_with(&repo, &["status"], |cmd| {
            cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
        });
        let truth = same(&env, &repo, why);
        assert!(
            truth.starts_with(&format!("{}\n", run.code)),
            "{why}: {truth}"
        );
        // `log KEY` with the index reads that session's notes only, so it does not warn
        // of another session's line that does not read (the store read whole does):
        // that warning is left out of the comparison; `status` compares it.
        same_logs_but(&env, &repo, why, Some("is given more than once"));
        truth
    };
    status("built");
    for (n, why) in cases.iter().enumerate() {
        let (s, b) = (sid(n), base(n));
        let before = log.count("notes-index-on-top");
        let (notes, taken): (Vec<(usize, Vec<String>)>, usize) = match n {
            0 => (
                vec![
                    (
                        1,
                        vec![write(&s, 2, b, b + 1, 1), write(&s, 3, b + 1, b + 2, 2)],
                    ),
                    (2, vec![write(&s, 4, b + 2, b + 3, 3)]),
                ],
                1,
            ),
            1 => (
                vec![(
                    3,
                    vec![
                        write(&s, 2, b, b + 1, 4),
                        write("s0", 5, 4, 5, 5),
                        write(&s, 3, b + 1, b + 2, 6),
                    ],
                )],
                2,
            ),
            2 => (
                vec![(
                    1,
                    vec![
                        write(&s, 2, b, b + 1, 7),
                        write(&s, 3, b + 1, b + 2, 8),
                        write(&s, 3, b + 1, b + 3, 9),
                    ],
                )],
                0,
            ),
            3 => (
                vec![(
                    1,
                    vec![write(&s, 2, b, b + 1, 10), write(&s, 3, b + 1, b, 11)],
                )],
                0,
            ),
            4 => (
                vec![(
                    1,
                    vec![write(&s, 3, b, b + 1, 12), write(&s, 2, b + 1, b + 2, 13)],
                )],
                0,
            ),
            5 => (
                vec![(
                    2,
                    vec![
                        write(&s, 2, b, b + 1, 14),
                        // Its head reads, its whole does not (a field given twice).
                        write(&s, 3, b + 1, b + 2, 15).replace(
                            "\"worktree\":\"/gone\"",
                            "\"worktree\":\"/gone\",\"worktree\":\"/gone\"",
                        ),
                        write(&s, 4, b + 2, b + 3, 16),
                    ],
                )],
                0,
            ),
            _ => (
                vec![(
                    2,
                    vec![write(&s, 2, b, b + 1, 17), write(&s, 4, b + 2, b + 3, 18)],
                )],
                0,
            ),
        };
        for (commit, lines) in &notes {
            append(&env, &repo, &c[*commit], lines);
        }
        let after = status(why);
        assert_eq!(
            log.count("notes-index-on-top") - before,
            taken,
            "{why}: {after}"
        );
    }
}
