//! A process held at a test pause point until the test opens its gate
//! (`GIT_HANDOVER_TEST_GATE`, see `src/support/testing.rs`): the interleaving a race
//! test forces holds however slowly the machine runs the test's other steps; the
//! pause's milliseconds are only a watchdog. A gate opened by [`Paused::release`] stays
//! open; [`Paused::next_round`] opens the one pass the process is held at, so a test
//! holds the same point in each round of a command that retries.

use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Output};

use super::{EventLog, TestEnv};

/// A child waiting at its pause point. Waiting for it opens its gate first; so does
/// dropping it (a test that failed leaves no process waiting out its watchdog).
pub struct Paused {
    child: Option<Child>,
    gate: PathBuf,
    /// The pass at the point it is held at (from 1), for [`Paused::next_round`].
    pass: usize,
}

impl Paused {
    pub(super) fn new(child: Child, gate: PathBuf) -> Paused {
        Paused {
            child: Some(child),
            gate,
            pass: 1,
        }
    }

    /// Let the process go on from its pause, and through every later pass at its point.
    pub fn release(&self) {
        std::fs::create_dir_all(self.gate.parent().unwrap()).unwrap();
        std::fs::write(&self.gate, b"").unwrap();
    }

    /// Let the process go on from the pass it is held at only, and return once it is
    /// held at its point again (its next round: `Some(pass)`), or has ended (`None`;
    /// then it is waited for). `log` is its own (`spawn_at_pause_logged`): a pass is
    /// known reached when the point is logged that many times.
    #[track_caller]
    pub fn next_round(&mut self, log: &EventLog) -> Option<usize> {
        let point = self.gate.file_name().unwrap().to_str().unwrap().to_owned();
        let this_pass = self.gate.with_file_name(format!("{point}.{}", self.pass));
        std::fs::create_dir_all(this_pass.parent().unwrap()).unwrap();
        std::fs::write(&this_pass, b"").unwrap();
        self.pass += 1;
        // A watchdog of a thousand polls, as for the first pass.
        for _ in 0..1000 {
            if log.count(&point) >= self.pass {
                return Some(self.pass);
            }
            if self.try_wait().unwrap().is_some() {
                return None;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("neither ended nor reached pass {} at {point}", self.pass);
    }

    fn child(&mut self) -> &mut Child {
        self.child.as_mut().expect("the child is still held")
    }

    /// SIGKILL it where it waits.
    pub fn kill(&mut self) -> std::io::Result<()> {
        self.child().kill()
    }

    /// Its exit status (its gate opened first).
    pub fn wait(&mut self) -> std::io::Result<ExitStatus> {
        self.release();
        self.child().wait()
    }

    /// Whether it has ended, without opening its gate.
    pub fn try_wait(&mut self) -> std::io::Result<Option<ExitStatus>> {
        self.child().try_wait()
    }

    /// Its exit status and output (its gate opened first).
    pub fn wait_with_output(mut self) -> std::io::Result<Output> {
        self.release();
        self.child.take().expect("held").wait_with_output()
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        if self.child.is_some() {
            let _ = std::fs::write(&self.gate, b"");
        }
    }
}

/// What [`super::finish`] waits for: a plain child, or one held at a pause (let go).
pub trait Finish {
    fn output(self) -> Output;
}

impl Finish for Child {
    fn output(self) -> Output {
        self.wait_with_output().unwrap()
    }
}

impl Finish for Paused {
    fn output(self) -> Output {
        self.wait_with_output().unwrap()
    }
}

impl TestEnv {
    /// `git-handover` started in `dir` in the background with the pause `pause`
    /// (`point:ms`, `GIT_HANDOVER_TEST_PAUSE`) forced, stdout and stderr piped: a race
    /// with an interleaving the test then forces.
    pub fn spawn_paused(&self, dir: &Path, args: &[&str], pause: &str) -> std::process::Child {
        self.paused_command(dir, args, pause)
            .spawn()
            .expect("git-handover runs")
    }

    /// [`TestEnv::spawn_paused`], returned once the process is inside its pause (it
    /// logged the point, see [`EventLog`]), and held there until the test lets it go
    /// ([`Paused::release`], or waiting for it): what the test does next happens while
    /// the process waits, however slowly either runs. The pause's milliseconds are a
    /// watchdog only.
    #[track_caller]
    pub fn spawn_at_pause(&self, dir: &Path, args: &[&str], pause: &str) -> Paused {
        self.spawn_at_pause_logged(dir, args, pause).0
    }

    /// [`TestEnv::spawn_at_pause`], with the log of the process's events (every point
    /// and event it goes on to reach too, counted once it ended).
    #[track_caller]
    pub fn spawn_at_pause_logged(
        &self,
        dir: &Path,
        args: &[&str],
        pause: &str,
    ) -> (Paused, EventLog) {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let point = pause.split_once(':').map_or(pause, |(point, _)| point);
        let n = N.fetch_add(1, Ordering::Relaxed);
        let log = self.event_log(&format!("paused-{n}"));
        let gates = self.home.join(format!("gates-{n}"));
        let child = self
            .paused_command(dir, args, pause)
            .env("GIT_HANDOVER_TEST_LOG", log.path())
            .env("GIT_HANDOVER_TEST_GATE", &gates)
            .spawn()
            .expect("git-handover runs");
        let mut held = Paused::new(child, gates.join(point));
        // A watchdog of a thousand polls, far beyond any start, for a point never reached.
        for _ in 0..1000 {
            if log.count(point) > 0 {
                return (held, log);
            }
            if let Some(status) = held.try_wait().unwrap() {
                panic!("{args:?} ended ({status}) before its pause at {point}");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = held.kill();
        panic!("{args:?} never reached its pause at {point}");
    }

    /// `git-handover` started in `dir` in the background, stdout and stderr piped, its
    /// test points and events logged to `log`.
    pub fn spawn_logged(&self, dir: &Path, args: &[&str], log: &EventLog) -> std::process::Child {
        self.paused_command(dir, args, "")
            .env("GIT_HANDOVER_TEST_LOG", log.path())
            .spawn()
            .expect("git-handover runs")
    }

    /// Wait until `log` has `event`, while `child` runs (a watchdog of a thousand polls).
    #[track_caller]
    #[allow(clippy::unused_self)] // A method, so tests read `env.until_logged(..)` like the rest.
    pub fn until_logged(&self, log: &EventLog, event: &str, child: &mut std::process::Child) {
        for _ in 0..1000 {
            if log.count(event) > 0 {
                return;
            }
            if let Some(status) = child.try_wait().unwrap() {
                panic!("ended ({status}) before {event} was logged");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        panic!("{event} never logged");
    }
}
