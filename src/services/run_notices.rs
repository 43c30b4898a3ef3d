//! The notices this process gathered so far ([`RunNotices`]), each taken once: plain
//! `log` asks after its stream as well as after its opening, and says each only once.

use crate::facts::run_notices::RunNotices;

/// What the run ran into since the last call.
pub fn take() -> RunNotices {
    RunNotices {
        stale_locks: crate::support::fsio::take_over_notices(),
        index_unkept: crate::services::notes_store::index_unkept(),
    }
}

#[cfg(test)]
mod tests {
    /// A stale lock taken over is taken once, by whichever asks first. Other unit tests
    /// take locks over at the same time: only this one's lock is counted.
    #[test]
    fn a_stale_lock_taken_over_is_taken_once() {
        use std::time::{Duration, SystemTime};
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("file");
        let lock = crate::support::lock::lock_path(&target);
        // Nameless and old: its writer died while making it.
        std::fs::write(&lock, "").unwrap();
        (std::fs::File::options().write(true).open(&lock).unwrap())
            .set_modified(SystemTime::now() - Duration::from_secs(3600))
            .unwrap();
        let held = crate::support::fsio::Lock::acquire(&target, Duration::from_millis(10));
        assert!(held.is_ok());
        let mine = || {
            (super::take().stale_locks.into_iter())
                .filter(|(l, _)| l == &lock)
                .count()
        };
        assert_eq!(mine(), 1);
        assert_eq!(mine(), 0);
    }
}
