//! The notes store's property (issue 15, "Done when"): N clones of one bare remote go
//! through random interleavings of writes (`task add`, `save`), two writers at once,
//! restores from the store and `sync` in random orders, all real processes and real
//! git. A model follows what each write was based on. After a final sync everywhere:
//! every clone reads the same newest state per session, equal to the causally last
//! write; no session is lost or shadowed; a divergence is reported exactly when two
//! clones wrote the same session from one state.
//!
//! Figures (clones, runs, operations, records) are printed and kept in docs/SECURITY.md.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use crate::common::TestEnv;
use serde_json::{Value, json};

const CLONES: usize = 3;
const RUNS: usize = 10;
const OPS: usize = 20;

/// xorshift64*: a small deterministic generator, seeded per run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
}

/// One version of a session in the model: its tasks and the version it was written on.
#[derive(Debug, Clone)]
struct Version {
    tasks: BTreeSet<String>,
    parent: Option<usize>,
}

#[derive(Default)]
struct Model {
    /// By session id: every version written.
    versions: BTreeMap<String, Vec<Version>>,
    /// (clone, session id) → the version the clone's files hold.
    files: BTreeMap<(usize, String), usize>,
    writes: usize,
    syncs: usize,
    restores: usize,
}

impl Model {
    fn write(&mut self, clone: usize, id: &str, task: &str) {
        let versions = self.versions.entry(id.to_owned()).or_default();
        let base = self.files.get(&(clone, id.to_owned())).copied();
        let mut tasks = base.map(|b| versions[b].tasks.clone()).unwrap_or_default();
        tasks.insert(task.to_owned());
        versions.push(Version {
            tasks,
            parent: base,
        });
        self.files
            .insert((clone, id.to_owned()), versions.len() - 1);
        self.writes += 1;
    }

    /// The versions nothing was written on.
    fn heads(&self, id: &str) -> Vec<&Version> {
        let versions = &self.versions[id];
        let parents: BTreeSet<usize> = versions.iter().filter_map(|v| v.parent).collect();
        (0..versions.len())
            .filter(|i| !parents.contains(i))
            .map(|i| &versions[i])
            .collect()
    }
}

#[track_caller]
fn run_ok(env: &TestEnv, dir: &Path, args: &[&str]) -> String {
    let run = env.handover(dir, args);
    assert_eq!(
        run.code,
        0,
        "{args:?} in {}: {}",
        dir.display(),
        run.snapshot()
    );
    run.stdout
}

fn status(env: &TestEnv, dir: &Path) -> Value {
    serde_json::from_str(&run_ok(env, dir, &["--json", "status"])).unwrap()
}

/// (key, session id) of the sessions a clone has on disk.
fn on_disk(env: &TestEnv, dir: &Path) -> Vec<(String, String)> {
    let s = status(env, dir);
    s["worktrees"][0]["handovers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["key"].as_str().unwrap().to_owned(),
                h["session_id"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn tasks_of(state: &Value) -> BTreeSet<String> {
    state["active_tasks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect()
}

/// The newest record of each session in a clone's store, as the tool reads it, and
/// whether it diverged.
#[track_caller]
fn store_newest(env: &TestEnv, dir: &Path) -> BTreeMap<String, (BTreeSet<String>, bool)> {
    let texts = env.handover_notes(dir);
    let notes: Vec<&[u8]> = texts.iter().map(String::as_bytes).collect();
    let (found, skipped) = git_handover::api::notes::newest_sessions(&notes);
    assert!(skipped.is_empty(), "{skipped:?}");
    found
        .into_iter()
        .map(|n| {
            let state = Value::Object(n.record.state.unwrap().doc());
            (
                n.record.session_id.unwrap(),
                (tasks_of(&state), !n.diverged.is_empty()),
            )
        })
        .collect()
}

fn setup(env: &TestEnv) -> Vec<PathBuf> {
    let seed = env.init("seed");
    env.commit(&seed, "a", "a\n", "first", "2026-11-30T10:00:00Z");
    let remote = env.root().join("remote.git");
    env.git(
        env.root(),
        &["clone", "-q", "--bare", "seed", remote.to_str().unwrap()],
    );
    (0..CLONES)
        .map(|i| {
            let name = format!("c{i}");
            env.git(
                env.root(),
                &["clone", "-q", remote.to_str().unwrap(), &name],
            );
            let dir = env.root().join(name);
            env.git(&dir, &["config", "handover.store", "notes"]);
            dir
        })
        .collect()
}

/// One write in `clone` on the session `(key, id)`, or on a new branch session.
fn write(env: &TestEnv, model: &mut Model, clones: &[PathBuf], clone: usize, rng: &mut Rng) {
    let dir = &clones[clone];
    let sessions = on_disk(env, dir);
    let task = format!("W{}", model.writes);
    let target = (!sessions.is_empty()).then(|| sessions[rng.below(sessions.len())].clone());
    match (&target, rng.below(2)) {
        (Some((key, _)), 0) => {
            run_ok(env, dir, &["task", "--session", key, "add", &task, "work"]);
        }
        (Some((key, _)), _) => {
            // A partial save into a named session is `task --session`'s job; `save`
            // writes the branch's session: used only when that is the target.
            let input = env.root().join(format!("in-{task}.json"));
            env.write(
                &input,
                &json!({"active_tasks": [{"id": task, "description": "saved", "status": "pending"}]})
                    .to_string(),
            );
            let branch_session = sessions.iter().find(|(k, _)| k.starts_with("main/"));
            if branch_session.is_some_and(|(k, _)| k == key) && sessions.len() == 1 {
                run_ok(env, dir, &["save", "--from", input.to_str().unwrap()]);
            } else {
                run_ok(env, dir, &["task", "--session", key, "add", &task, "work"]);
            }
        }
        (None, _) => {
            run_ok(env, dir, &["task", "add", &task, "work"]);
        }
    }
    let after = on_disk(env, dir);
    let id = match &target {
        Some((_, id)) => id.clone(),
        None => after[0].1.clone(),
    };
    model.write(clone, &id, &task);
}

/// Two writers at once on one session of `clone` (their order is the lock's).
#[track_caller]
fn concurrent(env: &TestEnv, model: &mut Model, clones: &[PathBuf], clone: usize) {
    let dir = &clones[clone];
    let sessions = on_disk(env, dir);
    let Some((key, id)) = sessions.first().cloned() else {
        return;
    };
    let bin = env!("CARGO_BIN_EXE_git-handover");
    let tasks = [
        format!("W{}", model.writes),
        format!("W{}", model.writes + 1),
    ];
    let children: Vec<_> = tasks
        .iter()
        .map(|t| {
            env.command(bin)
                .current_dir(dir)
                .args(["task", "--session", &key, "add", t, "together"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // Sequential in the model: the second was written on the first (same tasks either
    // way, and one chain of versions).
    model.write(clone, &id, &tasks[0]);
    model.write(clone, &id, &tasks[1]);
}

/// Restore one store-only session into `clone`, as `continue KEY` does.
#[track_caller]
fn restore(env: &TestEnv, model: &mut Model, clones: &[PathBuf], clone: usize, rng: &mut Rng) {
    let dir = &clones[clone];
    let s = status(env, dir);
    let stored = s["stored"].as_array().unwrap();
    if stored.is_empty() {
        return;
    }
    let pick = &stored[rng.below(stored.len())];
    let key = pick["key"].as_str().unwrap();
    let id = pick["session_id"].as_str().unwrap().to_owned();
    let run = env.handover(dir, &["continue", key, "--successor"]);
    if run.code == 2 && run.stdout.contains("diverged") {
        return; // Nothing is restored from a diverged session without a choice.
    }
    assert_eq!(run.code, 0, "{}", run.snapshot());
    // The version restored: the one whose tasks the file now holds.
    let file: Value = serde_json::from_slice(
        &std::fs::read(
            dir.join(".claude/handover")
                .join(key)
                .join("project-state.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let tasks = tasks_of(&file);
    let version = model.versions[&id]
        .iter()
        .position(|v| v.tasks == tasks)
        .expect("the restored state is a version that was written");
    model.files.insert((clone, id), version);
    model.restores += 1;
}

#[test]
fn clones_that_write_restore_and_sync_in_any_order_agree_on_every_session() {
    let mut records = 0;
    let mut totals = (0, 0, 0, 0);
    let mut diverged_runs = 0;
    for seed in 1..=RUNS as u64 {
        let env = TestEnv::new();
        let clones = setup(&env);
        let mut model = Model::default();
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ seed.wrapping_mul(0xBF58_476D_1CE4_E5B9));
        for _ in 0..OPS {
            let clone = rng.below(CLONES);
            match rng.below(10) {
                0..=2 => write(&env, &mut model, &clones, clone, &mut rng),
                3 => concurrent(&env, &mut model, &clones, clone),
                4..=6 => {
                    run_ok(&env, &clones[clone], &["sync"]);
                    model.syncs += 1;
                }
                _ => restore(&env, &mut model, &clones, clone, &mut rng),
            }
        }
        // A final sync everywhere, twice round, so that every clone has every record.
        for dir in clones.iter().chain(&clones) {
            run_ok(&env, dir, &["sync"]);
        }
        let tips: BTreeSet<String> = clones
            .iter()
            .map(|d| env.git(d, &["rev-parse", "refs/notes/handover"]))
            .collect();
        assert_eq!(tips.len(), 1, "seed {seed}: every clone has the same store");
        let first = store_newest(&env, &clones[0]);
        for dir in &clones[1..] {
            assert_eq!(store_newest(&env, dir), first, "seed {seed}: same reading");
        }
        assert_eq!(
            first.keys().collect::<BTreeSet<_>>(),
            model.versions.keys().collect::<BTreeSet<_>>(),
            "seed {seed}: no session lost, none shadowed"
        );
        let mut any_diverged = false;
        for (id, (tasks, diverged)) in &first {
            let heads = model.heads(id);
            let expected = heads.len() > 1;
            assert_eq!(
                *diverged,
                expected,
                "seed {seed}, session {id}: divergence reported exactly when two clones wrote it from one state ({} heads)",
                heads.len()
            );
            any_diverged |= expected;
            if !expected {
                assert_eq!(
                    tasks, &heads[0].tasks,
                    "seed {seed}, session {id}: the newest is the causally last write"
                );
            }
        }
        // Each clone's status says the same: every session listed, the diverged ones too.
        for dir in &clones {
            let s = status(&env, dir);
            let mut seen: BTreeSet<String> = BTreeSet::new();
            for h in s["worktrees"][0]["handovers"]
                .as_array()
                .unwrap()
                .iter()
                .chain(s["stored"].as_array().unwrap())
            {
                seen.insert(h["session_id"].as_str().unwrap().to_owned());
            }
            let diverged: BTreeSet<String> = s["diverged"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["session_id"].as_str().unwrap().to_owned())
                .collect();
            let expected: BTreeSet<String> = first
                .iter()
                .filter(|(_, (_, d))| *d)
                .map(|(id, _)| id.clone())
                .collect();
            assert_eq!(
                diverged, expected,
                "seed {seed}: status lists the divergences"
            );
            seen.extend(diverged);
            assert_eq!(
                seen,
                first.keys().cloned().collect::<BTreeSet<_>>(),
                "seed {seed}: {} lists every session",
                dir.display()
            );
        }
        records += env
            .handover_notes(&clones[0])
            .iter()
            .map(|text| text.lines().count())
            .sum::<usize>();
        totals.0 += model.writes;
        totals.1 += model.syncs;
        totals.2 += model.restores;
        totals.3 += model.versions.len();
        diverged_runs += usize::from(any_diverged);
    }
    eprintln!(
        "{RUNS} runs × {OPS} operations on {CLONES} clones: {} writes, {} syncs (+{} final), {} restores, {} sessions, {records} records; {diverged_runs} runs with a divergence",
        totals.0,
        totals.1,
        RUNS * CLONES * 2,
        totals.2,
        totals.3
    );
    assert!(diverged_runs > 0, "the runs exercise divergence");
    assert!(diverged_runs < RUNS, "and runs without one");
}
