//! More attacks on "a write brings the notes index along" (`notes_index_writer.rs`),
//! found by a review: a write that takes a note over the size limit, a reader of the
//! branch's lock while the writer brings the index along, parts whose bodies are
//! malformed under sums that hold, and notes another tool left without a final newline
//! or with lines that are no record.

use std::time::{Duration, Instant};

use crate::common::{TestEnv, finish};
use crate::notes_index::same;
use crate::notes_index_delta::store;

/// A note of exactly the size limit, then a write of the tool that appends its record
/// to it: the note is now over the limit, and the store (without the index) skips it
/// whole. The writer's index, brought along from the texts the write made (never
/// checked against the limit), must say the same.
#[test]
fn a_write_that_takes_a_note_over_the_size_limit_answers_as_the_store() {
    const LIMIT: usize = 64 << 20;
    let env = TestEnv::new();
    let (repo, c) = store(&env);
    let head = &c[3];
    let mut text = env.git(&repo, &["notes", "--ref=handover", "show", head]);
    text.push('\n');
    let pad = LIMIT - text.len() - 1;
    let mut bytes = text.into_bytes();
    bytes.resize(bytes.len() + pad, b' ');
    bytes.push(b'\n');
    assert_eq!(bytes.len(), LIMIT);
    let big = env.root().join("big");
    std::fs::write(&big, &bytes).unwrap();
    drop(bytes);
    let blob = env.git(&repo, &["hash-object", "-w", big.to_str().unwrap()]);
    std::fs::remove_file(&big).unwrap();
    env.git(
        &repo,
        &["notes", "--ref=handover", "add", "-f", "-C", &blob, head],
    );
    // The index brought to the note at the limit (a delta: an append of blanks).
    same(&env, &repo, "the note at the limit");
    let log = env.event_log("writer");
    let run = env.handover_with(&repo, &["task", "add", "T1", "work"], |cmd| {
        cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
    });
    assert_eq!(run.code, 0, "{}", run.snapshot());
    eprintln!(
        "writer: delta-written {}",
        log.count("notes-index-delta-written")
    );
    let size = env.git(
        &repo,
        &["cat-file", "-s", &format!("refs/notes/handover:{head}")],
    );
    eprintln!("note size now {size}");
    same(&env, &repo, "after the write took the note over the limit");
}

/// A reader that takes the branch's lock (`task list`, the agent hooks' `stop`,
/// `pre-compact`/`session-end`, git's post-commit) waits for no index work of a writer:
/// `task add`/`save` keep the branch's lock (`Chosen`) until the transaction returns:
/// the index is brought along at the end of the run, when no lock is held.
#[test]
fn a_reader_waits_for_no_writers_index_work() {
    let env = TestEnv::new();
    let (repo, _) = store(&env);
    // The branch's session exists (a reader takes the branch's lock only then).
    let first = env.handover(&repo, &["task", "add", "T0", "work"]);
    assert_eq!(first.code, 0, "{}", first.snapshot());
    // The writer's files and record are done; it is in its index update.
    let slow = env.spawn_at_pause(
        &repo,
        &["task", "add", "T1", "work"],
        "notes-index-delta:4000",
    );
    let started = Instant::now();
    let run = env.handover(&repo, &["-c", "handover.lockTimeout=500ms", "task", "list"]);
    let took = started.elapsed();
    let (code, _, err) = finish(slow);
    assert_eq!(code, 0, "{err}");
    assert!(
        run.code == 0 && took < Duration::from_millis(1500),
        "task list waited {took:?} for the writer's index update: {}",
        run.snapshot()
    );
}

/// Every group's body in every members' part made malformed (a byte added at its end,
/// its length and the part's sum in the manifest made to hold), then a write that asks
/// for one group of those parts and copies the others as read: every reader, and the
/// logs that ask the members of each group, still answer as the store.
#[test]
fn a_part_with_malformed_bodies_whose_sums_hold_is_caught_when_asked() {
    use sha2::Digest;
    let env = TestEnv::new();
    let (repo, _) = store(&env);
    let members = repo.join(crate::notes_index::MEMBERS);
    let dir = std::path::PathBuf::from(format!("{}.d", members.display()));
    let manifest = std::fs::read(&members).unwrap();
    // Header: four lines, then the parts' sums, 32 bytes each.
    let mut at = 0;
    for _ in 0..4 {
        at += manifest[at..].iter().position(|b| *b == b'\n').unwrap() + 1;
    }
    let header: Vec<&[u8]> = manifest[..at].split(|b| *b == b'\n').collect();
    let mut sums = manifest[at..].to_vec();
    let mut forged = 0;
    for entry in std::fs::read_dir(&dir).unwrap().flatten() {
        let part = usize::from_str_radix(entry.file_name().to_str().unwrap(), 16).unwrap();
        let bytes = std::fs::read(entry.path()).unwrap();
        let mut out = Vec::new();
        let mut c = 0;
        let u32_at =
            |b: &[u8], i: usize| u32::from_le_bytes(b[i..i + 4].try_into().unwrap()) as usize;
        while c < bytes.len() {
            let nlen = u32_at(&bytes, c);
            let name = &bytes[c + 4..c + 4 + nlen];
            c += 4 + nlen;
            let blen = u32_at(&bytes, c);
            let body = &bytes[c + 4..c + 4 + blen];
            c += 4 + blen;
            out.extend_from_slice(&u32::try_from(nlen).unwrap().to_le_bytes());
            out.extend_from_slice(name);
            out.extend_from_slice(&u32::try_from(blen + 1).unwrap().to_le_bytes());
            out.extend_from_slice(body);
            out.push(0);
            forged += 1;
        }
        std::fs::write(entry.path(), &out).unwrap();
        let sum: [u8; 32] = sha2::Sha256::digest(&out).into();
        sums[part * 32..part * 32 + 32].copy_from_slice(&sum);
    }
    assert!(forged > 0);
    let hex = crate::notes_index::sha256_hex(&sums);
    let mut file = Vec::new();
    for l in &header[..3] {
        file.extend_from_slice(l);
        file.push(b'\n');
    }
    file.extend_from_slice(hex.as_bytes());
    file.push(b'\n');
    file.extend_from_slice(&sums);
    std::fs::write(&members, &file).unwrap();
    // A record of another tool on top of s1, then a write of the tool.
    let r = crate::notes_index::record("s1", 3, Some("h12"), "h13", "2026-11-30T11:00:00Z");
    let c = env.git(&repo, &["rev-parse", "HEAD~2"]);
    crate::notes_index::append(&env, &repo, &c, &[r]);
    crate::notes_index_delta::readers(&env, &repo, "forged, then a record");
    let run = env.handover(&repo, &["task", "add", "T1", "work"]);
    assert_eq!(run.code, 0, "{}", run.snapshot());
    crate::notes_index_open::answers(&env, &repo, false);
    crate::notes_index_delta::readers(&env, &repo, "forged, then a write");
}

/// The note of HEAD as another tool left it (no final newline; a line that is no
/// record; blank lines), the index brought to it, then writes of the tool.
#[test]
fn a_write_on_a_note_another_tool_left_answers_as_the_store() {
    let cases: [(&str, &str); 3] = [
        ("no final newline", ""),
        ("a junk line", "not a record\n"),
        ("blank lines, no final newline", "\n\n   \n"),
    ];
    for (why, extra) in cases {
        let env = TestEnv::new();
        let (repo, c) = store(&env);
        let head = &c[3];
        let mut text = env.git(&repo, &["notes", "--ref=handover", "show", head]);
        text = format!("{text}\n{extra}");
        let text = text.strip_suffix('\n').unwrap().to_owned();
        let file = env.root().join("note");
        std::fs::write(&file, &text).unwrap();
        let blob = env.git(&repo, &["hash-object", "-w", file.to_str().unwrap()]);
        env.git(
            &repo,
            &["notes", "--ref=handover", "add", "-f", "-C", &blob, head],
        );
        crate::notes_index_delta::readers(&env, &repo, why);
        for id in ["T1", "T2"] {
            let log = env.event_log(&format!("w-{id}"));
            let run = env.handover_with(&repo, &["task", "add", id, "work"], |cmd| {
                cmd.env("GIT_HANDOVER_TEST_LOG", log.path());
            });
            assert_eq!(run.code, 0, "{}", run.snapshot());
            assert_eq!(log.count("notes-index-delta-written"), 1, "{why} {id}");
            crate::notes_index_open::answers(&env, &repo, false);
            crate::notes_index_delta::readers(&env, &repo, &format!("{why}, write {id}"));
        }
    }
}
