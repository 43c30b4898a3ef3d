//! A remote claim reads the remote's notes as last fetched through the tracking ref's
//! notes index, and checks what a fetch brings only where it differs from the merge
//! base with ours (as `sync`): attacked here where that could go wrong. A remote whose
//! notes ref was rewritten (not a descendant of what was last fetched) is read as it is
//! now; a forged record already fetched, in a note that does not change again, is still
//! refused by name on every claim and after a sync; a note that is not records is
//! refused when a fetch brings it, and not when it is in our own history already.
//! Two processes of one clone are `claims_same_clone`. A lost offline claim's
//! record is taken out of the local notes ref with the local notes index deleted or of
//! an older commit.

use std::path::Path;

use crate::claims_remote::{claim_in, two_clones};
use crate::common::{TestEnv, state_path};
use serde_json::{Value, json};

/// The last record of the note on HEAD in `dir`, and that note.
fn last_record(env: &TestEnv, dir: &Path) -> (Value, String) {
    let note = env.git(dir, &["notes", "--ref=handover", "show", "HEAD"]);
    let last = note.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    (serde_json::from_str(last).unwrap(), note)
}

/// `record` one write on, with `claim` on its first task.
fn one_on(mut record: Value, claim: Value) -> Value {
    record["seq"] = json!(record["seq"].as_u64().unwrap() + 1);
    record["state"]["seq"] = record["seq"].clone();
    record["state"]["active_tasks"][0]["claim"] = claim;
    record
}

/// `text` made the note of HEAD in `dir` by git's own hands, and pushed to `origin`:
/// what a clone that forges records puts on the remote.
pub(crate) fn push_note(env: &TestEnv, dir: &Path, text: &str) {
    let file = env.root().join("forged.txt");
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    env.git(
        dir,
        &["notes", "--ref=handover", "add", "-f", "-F", file, "HEAD"],
    );
    env.git(dir, &["push", "-q", "origin", "refs/notes/handover"]);
}

pub(crate) fn claim(env: &TestEnv, dir: &Path, who: &str) -> crate::common::Run {
    env.handover(
        dir,
        &["task", "claim", "T1", "--as", who, "--remote", "origin"],
    )
}

#[test]
fn a_remote_notes_ref_rewritten_since_the_last_fetch_is_read_as_it_is_now() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    // a claims T1: its tracking ref (and that ref's index) hold the remote as it was.
    let run = claim(&env, &a, "agent-a");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.handover(&b, &["sync"]).assert_ok();
    // b rewrites the remote's notes ref: a history of one commit, not a descendant of
    // what a fetched, whose note gives T1 to mallory until tomorrow.
    let (record, note) = last_record(&env, &b);
    let mut record = one_on(
        record,
        json!({"holder": "mallory", "since": "2026-11-30T11:00:00Z", "expires": "2026-12-01T12:00:00Z"}),
    );
    record["state"]["session_hash"] = json!("0123456789abcdef");
    let text = env.root().join("rewritten.txt");
    std::fs::write(&text, format!("{note}\n{record}\n")).unwrap();
    env.git(
        &b,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-f",
            "-F",
            text.to_str().unwrap(),
            "HEAD",
        ],
    );
    let tree = env.git(&b, &["rev-parse", "refs/notes/handover^{tree}"]);
    let orphan = env.git(&b, &["commit-tree", tree.trim(), "-m", "rewritten"]);
    env.git(
        &b,
        &[
            "push",
            "-q",
            "-f",
            "origin",
            &format!("{}:refs/notes/handover", orphan.trim()),
        ],
    );
    // a renews its claim: it decides first on what it last fetched and pushes; the
    // remote, rewritten, rejects that push; the fetch then sees mallory's claim.
    let run = claim(&env, &a, "agent-a");
    assert_eq!(run.code, 6, "{}", run.snapshot());
    assert!(run.stderr.contains("mallory"), "{}", run.stderr);
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "mallory");
}

#[test]
fn a_forged_record_fetched_before_is_refused_again_though_its_note_did_not_change() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    let (record, note) = last_record(&env, &b);
    let record = one_on(
        record,
        json!({"holder": "mallory", "since": "2026-11-30T11:00:00Z", "expires": "never"}),
    );
    push_note(&env, &b, &format!("{note}\n{record}\n"));
    let before = std::fs::read(state_path(&a, &key)).unwrap();
    // The first claim fetches the forged note; the second decides on the tracking ref,
    // whose note has not changed since; after a sync the note is in a's own history.
    for round in ["fetched", "known", "after sync"] {
        if round == "after sync" {
            let _ = env.handover(&a, &["sync"]);
        }
        let run = claim(&env, &a, "agent-a");
        assert_ne!(run.code, 0, "{round}: {}", run.snapshot());
        assert!(run.stderr.contains("\"T1\""), "{round}: {}", run.stderr);
        assert!(run.stderr.contains("expires"), "{round}: {}", run.stderr);
        assert_eq!(
            std::fs::read(state_path(&a, &key)).unwrap(),
            before,
            "{round}: nothing written"
        );
    }
}

#[test]
fn a_note_that_is_not_records_is_refused_when_a_fetch_brings_it_not_once_it_is_ours() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1"]);
    // b puts a note that is not records on a commit of its own and pushes it: a line
    // that opens a JSON object and is not one (a line opening none is another tool's,
    // carried).
    env.commit(&b, "b", "b\n", "second", "2026-11-30T11:00:00Z");
    env.git(
        &b,
        &[
            "notes",
            "--ref=handover",
            "add",
            "-f",
            "-m",
            "{not json",
            "HEAD",
        ],
    );
    env.git(&b, &["push", "-q", "origin", "HEAD", "refs/notes/handover"]);
    let before = std::fs::read(state_path(&a, &key)).unwrap();
    let run = claim(&env, &a, "agent-a");
    assert_ne!(run.code, 0, "{}", run.snapshot());
    assert!(run.stderr.contains("not a JSON object"), "{}", run.stderr);
    assert_eq!(std::fs::read(state_path(&a, &key)).unwrap(), before);
    // a takes that note into its own notes ref by git's own hands (not through the
    // tool): it is then ours, and the remote's copy brings nothing new.
    env.git(&a, &["fetch", "-q", "origin", "refs/notes/handover"]);
    env.git(&a, &["update-ref", "refs/notes/handover", "FETCH_HEAD"]);
    let run = claim(&env, &a, "agent-a");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(claim_in(&a, &key, "T1")["holder"], "agent-a");
}

#[test]
fn a_remote_given_as_a_path_or_url_is_refused_by_name_as_sync_refuses_it() {
    let env = TestEnv::new();
    let (remote, a, _b, key) = two_clones(&env, &["T1", "T2"]);
    let before = std::fs::read(state_path(&a, &key)).unwrap();
    let path = remote.to_str().unwrap().to_owned();
    let url = format!("file://{path}");
    for given in [path.as_str(), url.as_str(), "../remote.git", "./remote.git"] {
        let run = env.handover(
            &a,
            &["task", "claim", "T1", "--as", "agent-a", "--remote", given],
        );
        assert_eq!(run.code, 2, "{given}: {}", run.snapshot());
        assert!(
            run.stderr
                .contains("is not a remote name this command accepts"),
            "{given}: {}",
            run.stderr
        );
        env.git(&a, &["config", "handover.claimRemote", given]);
        let run = env.handover(&a, &["task", "claim", "T1", "--as", "agent-a"]);
        assert_eq!(run.code, 2, "{given}: {}", run.snapshot());
        env.git(&a, &["config", "--unset", "handover.claimRemote"]);
        let run = env.handover(&a, &["sync", given]);
        assert_eq!(run.code, 2, "{given}: {}", run.snapshot());
    }
    assert_eq!(std::fs::read(state_path(&a, &key)).unwrap(), before);
    let run = claim(&env, &a, "agent-a");
    assert_eq!(run.code, 0, "{}", run.snapshot());
}

/// The holders of task `id`'s claims in every record of the note on HEAD in `dir`.
fn noted_holders(env: &TestEnv, dir: &Path, id: &str) -> Vec<String> {
    let note = env.git(dir, &["notes", "--ref=handover", "show", "HEAD"]);
    (note.lines())
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|r| {
            let tasks = r["state"]["active_tasks"].as_array()?.clone();
            let task = tasks.into_iter().find(|t| t["id"] == id)?;
            Some(task["claim"]["holder"].as_str()?.to_owned())
        })
        .collect()
}

/// Two offline claims of T1; a reaches the remote first; `spoil` is done to b's notes
/// index before b's sync. b's lost record must still be taken out of its notes ref.
fn lost_claim_withdrawn_with_index(spoil: fn(&Path, &Path)) {
    let env = TestEnv::new();
    let (remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    let index = b.join(".git/git-handover/notes-index");
    let stale = env.root().join("stale-index");
    copy_tree(&index, &stale);
    let away = env.root().join("away.git");
    std::fs::rename(&remote, &away).unwrap();
    for (dir, name) in [(&a, "agent-a"), (&b, "agent-b")] {
        let run = claim(&env, dir, name);
        assert_eq!(run.code, 0, "{}", run.snapshot());
    }
    std::fs::rename(&away, &remote).unwrap();
    env.handover(&a, &["sync"]).assert_ok();
    spoil(&index, &stale);
    let run = env.handover(&b, &["sync"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("agent-a"), "{}", run.stdout);
    assert_eq!(claim_in(&b, &key, "T1")["holder"], "agent-a");
    env.handover(&a, &["sync"]).assert_ok();
    for dir in [&a, &b] {
        let holders = noted_holders(&env, dir, "T1");
        assert!(!holders.iter().any(|h| h == "agent-b"), "{holders:?}");
        assert!(holders.iter().any(|h| h == "agent-a"), "{holders:?}");
        assert_eq!(claim_in(dir, &key, "T1")["holder"], "agent-a");
    }
}

#[test]
fn a_lost_claims_record_is_withdrawn_with_the_local_notes_index_deleted() {
    lost_claim_withdrawn_with_index(|index, _| std::fs::remove_dir_all(index).unwrap());
}

#[test]
fn a_lost_claims_record_is_withdrawn_with_the_local_notes_index_of_an_older_commit() {
    lost_claim_withdrawn_with_index(|index, stale| copy_tree(stale, index));
}

/// The index's files and its members' parts (`<ref>.members.d/`) copied over `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for f in std::fs::read_dir(from).unwrap() {
        let f = f.unwrap();
        if f.file_type().unwrap().is_dir() {
            copy_tree(&f.path(), &to.join(f.file_name()));
        } else {
            std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
        }
    }
}

#[test]
fn a_tracking_ref_moved_back_by_plain_git_after_a_winners_claim_was_merged_decides_nothing() {
    let env = TestEnv::new();
    let (_remote, a, b, key) = two_clones(&env, &["T1", "T2"]);
    env.handover(&a, &["sync"]).assert_ok();
    let tracking = "refs/notes/remotes/origin/handover";
    let old = env.git(&a, &["rev-parse", tracking]).trim().to_owned();
    let run = claim(&env, &b, "agent-b");
    assert_eq!(run.code, 0, "{}", run.snapshot());
    env.handover(&a, &["sync"]).assert_ok();
    // A plain git command (not ours) puts the tracking ref back where it was: what a
    // claim decides on first no longer holds b's claim, the local ref and file do.
    env.git(&a, &["update-ref", tracking, &old]);
    let run = claim(&env, &a, "agent-a");
    assert_eq!(run.code, 6, "{}", run.snapshot());
    assert!(run.stderr.contains("agent-b"), "{}", run.stderr);
    env.handover(&a, &["sync"]).assert_ok();
    env.handover(&b, &["sync"]).assert_ok();
    for dir in [&a, &b] {
        assert_eq!(claim_in(dir, &key, "T1")["holder"], "agent-b");
    }
}

#[test]
fn an_offline_claim_in_a_session_the_remote_never_saw_is_confirmed_at_sync() {
    let env = TestEnv::new();
    let (remote, a, b, _key) = two_clones(&env, &["T1"]);
    env.handover(&a, &["sync"]).assert_ok();
    let other = env.worktree(&a, "a-new", "new");
    let key = crate::notes_store::save(
        &env,
        &other,
        crate::claims_remote::NOW,
        &crate::claims_remote::pending(&["N1"]),
    );
    let away = env.root().join("away.git");
    std::fs::rename(&remote, &away).unwrap();
    let run = env.handover(
        &other,
        &[
            "task", "claim", "N1", "--as", "agent-a", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(claim_in(&other, &key, "N1")["confirmed"], false);
    std::fs::rename(&away, &remote).unwrap();
    let run = env.handover(&a, &["--json", "sync"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert!(run.stdout.contains("N1"), "{}", run.stdout);
    assert_eq!(claim_in(&other, &key, "N1")["confirmed"], true);
    env.handover(&b, &["sync"]).assert_ok();
    let run = env.handover(&b, &["log", "--json"]);
    assert!(run.stdout.contains("agent-a"), "{}", run.stdout);
}

/// After a push the remote took, the tracking ref is what the remote holds (as git
/// moves a remote-tracking branch on a push): the next claim's push leases on it and
/// goes through at once, and `sync`'s push moves it too. Before, every claim after the
/// first leased on the commit the remote held before the previous push, was refused
/// as stale, and paid a fetch and a second push.
#[test]
fn a_push_the_remote_took_moves_the_tracking_ref_to_what_was_pushed() {
    let env = TestEnv::new();
    let (remote, a, b, _key) = two_clones(&env, &["T1", "T2"]);
    let on_remote = |env: &TestEnv| env.git(&remote, &["rev-parse", "refs/notes/handover"]);
    let tracking = |env: &TestEnv, dir: &Path| {
        env.git(dir, &["rev-parse", "refs/notes/remotes/origin/handover"])
    };
    for (dir, who) in [(&a, "agent-a"), (&b, "agent-b")] {
        env.handover(dir, &["sync"]).assert_ok();
        let run = env.handover(
            dir,
            &[
                "task",
                "claim",
                if who == "agent-a" { "T1" } else { "T2" },
                "--as",
                who,
                "--remote",
                "origin",
            ],
        );
        assert_eq!(run.code, 0, "{}", run.snapshot());
        assert_eq!(tracking(&env, dir), on_remote(&env), "{who}'s claim");
        assert_eq!(
            env.git(dir, &["rev-parse", "refs/notes/handover"]),
            on_remote(&env),
            "{who}: the remote holds what was pushed"
        );
    }
    // a's next claim pushes once: its lease holds (the remote moved by b's claim only
    // through a's sync).
    env.handover(&a, &["sync"]).assert_ok();
    assert_eq!(tracking(&env, &a), on_remote(&env), "a's sync");
    let run = env.handover(
        &a,
        &[
            "task", "claim", "T1", "--as", "agent-a", "--for", "2h", "--remote", "origin",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.snapshot());
    assert_eq!(tracking(&env, &a), on_remote(&env), "a's renewal");
}
