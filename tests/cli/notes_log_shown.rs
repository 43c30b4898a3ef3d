//! `log -n N` when many of the newest records are one session's (an agent's run of
//! writes, the usual newest of a busy store): each shown record's previous one is told
//! by the shown records after it, and one further back is looked for in its session's
//! notes newest first, stopping at the first that tells, not in all of them (issue 36:
//! at 1,000,000 records, 1.5 s for `log -n 20`). The same answer as the store read whole.

use crate::common::TestEnv;
use crate::notes_index::{append, record, repo_with};
use crate::notes_log_before::log;

fn hx(n: u64) -> String {
    format!("{n:064x}")
}

#[test]
fn a_run_of_one_sessions_writes_is_told_by_itself_and_a_record_further_back_reads_few_notes() {
    let env = TestEnv::new();
    let (repo, c) = repo_with(&env, 6);
    // 30 writes of s1, five to a note in time order (the store as HEAD moves on), and
    // a write of s2 among them.
    for seq in 1..=30u64 {
        let parent = (seq > 1).then(|| hx(seq - 1));
        let at = format!("2026-11-30T10:{seq:02}:00Z");
        let mut lines = vec![record("s1", seq, parent.as_deref(), &hx(seq), &at)];
        if seq == 12 {
            lines.push(record("s2", 1, None, &hx(1000), "2026-11-30T10:12:30Z"));
        }
        let i = usize::try_from((seq - 1) / 5).unwrap();
        append(&env, &repo, &c[i], &lines);
    }
    for (n, shown, read) in [(12, 11, 0), (8, 7, 0)] {
        let events = env.event_log(&format!("n{n}"));
        let n = n.to_string();
        for args in [&["-n", &n][..], &["-n", &n, "--json"]] {
            assert_eq!(
                log(&env, &repo, args, Some(&events)),
                log(&env, &repo, args, None),
                "{args:?}"
            );
        }
        // Per run (two runs): all but the oldest shown told by the ones after them,
        // the oldest by reading back.
        assert_eq!(events.count("log-before-shown"), 2 * shown, "-n {n}");
        assert_eq!(
            events.count("log-before-read"),
            2 * (n.parse::<usize>().unwrap() - shown - read),
            "-n {n}"
        );
        // Newest first, stopping at the first note that tells: the notes whose newest
        // record is newer than the previous one (three: those of writes 21-30 and
        // 16-20), not the six of s1.
        let notes = events.count("log-before-note");
        assert!(notes <= 2 * 3, "-n {n}: {notes} notes read");
    }
}
