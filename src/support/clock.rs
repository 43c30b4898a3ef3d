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

/// The local time zone, as `jiff::tz::TimeZone::system()` finds it, found once per
/// run. Without `TZ` (and `TZDIR`), where `/etc/localtime` is a link into a zoneinfo
/// directory, that zone is the file the link leads to, read here: jiff would look the
/// name up in its zone database, which it builds by walking every directory under
/// `/usr/share/zoneinfo` (a hundred directories, once per run and per copy of jiff;
/// gix has its own), and whose file for that name is the link's own target. Else
/// jiff's own way.
pub fn local_zone() -> jiff::tz::TimeZone {
    static ZONE: std::sync::OnceLock<jiff::tz::TimeZone> = std::sync::OnceLock::new();
    let plain = || std::env::var_os("TZ").is_none() && std::env::var_os("TZDIR").is_none();
    ZONE.get_or_init(|| {
        plain()
            .then(|| linked_zone(std::path::Path::new("/etc/localtime")))
            .flatten()
            .unwrap_or_else(jiff::tz::TimeZone::system)
    })
    .clone()
}

/// The zone of `link`, a link into a zoneinfo directory (`…/zoneinfo/Asia/Tokyo`):
/// the `TZif` file it leads to, named as it names it; `None` when it is anything else.
fn linked_zone(link: &std::path::Path) -> Option<jiff::tz::TimeZone> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    const NEEDLE: &str = "zoneinfo/";
    let target = std::fs::read_link(link).ok()?;
    let target = target.to_str()?;
    let name = &target[target.rfind(NEEDLE)? + NEEDLE.len()..];
    // Opened without blocking (a FIFO is refused, not waited on), a regular file only,
    // read bounded: a `TZif` file is a few kilobytes; anything longer is not one.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(link)
        .ok()?;
    if !file.metadata().ok()?.is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(1 << 20).read_to_end(&mut bytes).ok()?;
    jiff::tz::TimeZone::tzif(name, &bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A link into the zoneinfo directory is the zone jiff finds by its name: the same
    /// offset at every instant asked (each side of a summer-time change, old and new).
    #[test]
    fn a_linked_zone_is_the_zone_its_name_is() {
        let dir = tempfile::tempdir().unwrap();
        for name in ["Asia/Tokyo", "America/New_York", "Europe/London", "Etc/UTC"] {
            let file = std::path::Path::new("/usr/share/zoneinfo").join(name);
            if !file.is_file() {
                continue;
            }
            let link = dir.path().join(name.replace('/', "-"));
            std::os::unix::fs::symlink(&file, &link).unwrap();
            let ours = linked_zone(&link).expect("a link into zoneinfo is read");
            let theirs = jiff::tz::db().get(name).unwrap();
            for at in [
                "1990-07-01T00:00:00Z",
                "2026-03-08T06:59:59Z",
                "2026-03-08T07:00:00Z",
                "2026-11-01T05:59:59Z",
                "2026-11-01T06:00:00Z",
                "2026-12-06T05:00:00Z",
            ] {
                let t: Timestamp = at.parse().unwrap();
                assert_eq!(ours.to_offset(t), theirs.to_offset(t), "{name} at {at}");
            }
        }
        // Not a link, or a link elsewhere: not read here (jiff's own way then).
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"x").unwrap();
        assert!(linked_zone(&plain).is_none());
        let elsewhere = dir.path().join("elsewhere");
        std::os::unix::fs::symlink(&plain, &elsewhere).unwrap();
        assert!(linked_zone(&elsewhere).is_none());
    }
}
