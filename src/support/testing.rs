//! Forced interleavings for the race tests: `GIT_HANDOVER_TEST_PAUSE=<point>:<ms>` makes
//! the process sleep at that point, so a test can hold one writer inside a critical
//! step while another runs. Unset (always, outside tests), it costs one lookup a process.

use std::time::Duration;

/// The variable that names a pause point and its length in milliseconds.
pub const PAUSE_ENV: &str = "GIT_HANDOVER_TEST_PAUSE";

/// Sleep here when the test asked for a pause at `point`.
pub fn pause(point: &str) {
    // Read once a process: some points are passed once per commit of a walk.
    static SPEC: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let Some(spec) = SPEC.get_or_init(|| std::env::var(PAUSE_ENV).ok()) else {
        return;
    };
    for item in spec.split(',') {
        if let Some((name, ms)) = item.split_once(':')
            && name == point
            && let Ok(ms) = ms.parse::<u64>()
        {
            std::thread::sleep(Duration::from_millis(ms));
        }
    }
}
