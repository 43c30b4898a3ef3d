//! Test-only points. Forced interleavings for the race tests:
//! `GIT_HANDOVER_TEST_PAUSE=<point>:<ms>` makes the process wait at that point, so a
//! test can hold one writer inside a critical step while another runs. With
//! `GIT_HANDOVER_TEST_GATE=<dir>` the wait ends when the test makes the file
//! `<dir>/<point>` (the gate opened, for good: every later pass at the point goes
//! through) or `<dir>/<point>.<n>` (the gate of the process's `n`th pass at the point
//! alone, counted from 1: a test holds the same point in each of several rounds,
//! opening one round at a time), `<ms>` being only a watchdog: the interleaving
//! then holds however slowly the test's other steps run; without a gate it is a sleep. And counts
//! instead of clocks: with `GIT_HANDOVER_TEST_LOG=<file>`, every point reached and every
//! event noted appends its name to that file, a line each, so a test asserts on what
//! happened (the walk looked at the clock once, the lock was waited for) rather than on
//! how long it took. Unset (always, outside tests), each costs one lookup a process.
//!
//! All of it exists only in builds with debug assertions (the test builds): in a
//! release build (`cargo install`) every point is empty and every knob unset, so no
//! environment variable can make an installed binary sleep or lift a deadline.

/// The variable that names a pause point and its length in milliseconds.
#[cfg(debug_assertions)]
pub const PAUSE_ENV: &str = "GIT_HANDOVER_TEST_PAUSE";

/// The variable that names the directory of the gates a pause waits for.
#[cfg(debug_assertions)]
pub const GATE_ENV: &str = "GIT_HANDOVER_TEST_GATE";

/// The variable that names the file test points and events are appended to.
#[cfg(debug_assertions)]
pub const LOG_ENV: &str = "GIT_HANDOVER_TEST_LOG";

/// The value of a test knob (`GIT_HANDOVER_TEST_…`), in test builds only.
pub fn knob(name: &str) -> Option<String> {
    if cfg!(debug_assertions) {
        std::env::var(name).ok()
    } else {
        None
    }
}

/// Sleep here when the test asked for a pause at `point` (and note that it was reached).
#[cfg(not(debug_assertions))]
#[inline]
pub fn pause(_point: &str) {}

/// Append `event` to the test log, when a test asked for one.
#[cfg(not(debug_assertions))]
#[inline]
pub fn note(_event: &str) {}

#[cfg(debug_assertions)]
pub use live::{note, pause};

#[cfg(debug_assertions)]
mod live {
    use std::path::PathBuf;
    use std::sync::OnceLock;
    use std::time::Duration;

    use super::{GATE_ENV, LOG_ENV, PAUSE_ENV, knob};

    /// Wait here when the test asked for a pause at `point` (and note that it was
    /// reached): until its gate opens, or for its milliseconds when it has none.
    pub fn pause(point: &str) {
        // Read once a process: some points are passed once per commit of a walk.
        static SPEC: OnceLock<Option<String>> = OnceLock::new();
        static GATE: OnceLock<Option<PathBuf>> = OnceLock::new();
        note(point);
        let Some(spec) = SPEC.get_or_init(|| knob(PAUSE_ENV)) else {
            return;
        };
        let gate = GATE.get_or_init(|| knob(GATE_ENV).map(PathBuf::from));
        for item in spec.split(',') {
            if let Some((name, ms)) = item.split_once(':')
                && name == point
                && let Ok(ms) = ms.parse::<u64>()
            {
                let gates = gate.as_ref().map(|g| {
                    let pass = passed(point);
                    (g.join(point), g.join(format!("{point}.{pass}")))
                });
                wait(gates, Duration::from_millis(ms));
            }
        }
    }

    /// The how-manieth pass of this process at `point` this is (from 1).
    fn passed(point: &str) -> u64 {
        static PASSES: std::sync::Mutex<Vec<(String, u64)>> = std::sync::Mutex::new(Vec::new());
        let mut passes = PASSES
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, n)) = passes.iter_mut().find(|(p, _)| p == point) {
            *n += 1;
            return *n;
        }
        passes.push((point.to_owned(), 1));
        1
    }

    /// Until either gate exists, the point's for good or this pass's (at most
    /// `limit`), or `limit` without gates.
    fn wait(gates: Option<(PathBuf, PathBuf)>, limit: Duration) {
        let Some((for_good, this_pass)) = gates else {
            std::thread::sleep(limit);
            return;
        };
        let start = std::time::Instant::now();
        while !for_good.exists() && !this_pass.exists() && start.elapsed() < limit {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Append `event` to the test log, when a test asked for one. One `write` of one line
    /// in append mode: processes that share the log never interleave within a line.
    pub fn note(event: &str) {
        use std::io::Write as _;
        static LOG: OnceLock<Option<PathBuf>> = OnceLock::new();
        let Some(path) = LOG.get_or_init(|| std::env::var_os(LOG_ENV).map(PathBuf::from)) else {
            return;
        };
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = file.write_all(format!("{event}\n").as_bytes());
        }
    }
}
