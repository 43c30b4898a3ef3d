//! The one source of the current time. Tests pin it with `GIT_HANDOVER_NOW`
//! (an RFC 3339 timestamp), so every verdict is reproducible.

use jiff::Timestamp;

/// The environment variable that pins the clock.
pub const NOW_ENV: &str = "GIT_HANDOVER_NOW";

/// The current instant, or the pinned one.
///
/// An unparsable pinned value is ignored in favour of the real clock rather than
/// failing every command; tests that pin the clock assert on the output anyway.
pub fn now() -> Timestamp {
    std::env::var(NOW_ENV)
        .ok()
        .and_then(|v| v.parse::<Timestamp>().ok())
        .unwrap_or_else(Timestamp::now)
}

/// The current instant to the sub-second (records are ordered by it after `seq`); the
/// pinned one when tests pin the clock.
pub fn now_precise() -> Timestamp {
    now()
}

/// A time as the tool writes it where seconds are enough: RFC 3339 in UTC, whole
/// seconds (`2026-11-30T12:00:00Z`) — claims, their messages, the JSON documents.
pub fn utc_seconds(t: Timestamp) -> String {
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}
