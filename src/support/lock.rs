//! git-style `<file>.lock` locks held across read-modify-write.
//!
//! A lock file holds the pid and host of its owner. A lock left by a killed process is
//! taken over only when it is older than the lock timeout and its process is gone
//! (checked on this host through `/proc`: a process that started after the lock was
//! written is not its owner); otherwise waiting ends with exit status 4.
//! The takeover is decided and done while holding an advisory lock on the lock's
//! directory, so two waiters can never both remove "the stale lock" (the second would
//! remove the fresh lock the first just took).

use std::fs::OpenOptions;
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::support::error::{Error, LockOwner, Result};
use crate::support::read::read_regular;

/// The most of a lock file read (it holds a pid and a host name).
const MAX_LOCK_SIZE: u64 = 1024;

/// Stale locks this process removed, for the command to say so (commands do not print;
/// the lock is taken deep inside a write).
static TAKEN_OVER: std::sync::Mutex<Vec<(PathBuf, Option<LockOwner>)>> =
    std::sync::Mutex::new(Vec::new());

/// The stale locks removed so far, with the owner each named, emptied.
pub fn take_over_notices() -> Vec<(PathBuf, Option<LockOwner>)> {
    TAKEN_OVER
        .lock()
        .map(|mut v| std::mem::take(&mut *v))
        .unwrap_or_default()
}

/// The owner a lock file names, for messages.
pub fn lock_owner(lock: &Path) -> Option<LockOwner> {
    let text = read_regular(lock, MAX_LOCK_SIZE).ok()?;
    let text = String::from_utf8_lossy(&text);
    let mut parts = text.split_whitespace();
    let pid = parts.next()?.to_owned();
    Some(LockOwner {
        pid,
        host: parts.next().map(str::to_owned),
    })
}

/// A held lock; dropping it releases the lock.
#[derive(Debug)]
pub struct Lock {
    path: PathBuf,
}

impl Lock {
    /// Lock `target` by creating `<target>.lock` exclusively, retrying with backoff for
    /// up to `timeout`.
    pub fn acquire(target: &Path, timeout: Duration) -> Result<Lock> {
        let path = lock_path(target);
        let start = Instant::now();
        let mut pause = Duration::from_millis(1);
        let mut last_look = None::<Instant>;
        loop {
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(&path)
            {
                Ok(mut file) => {
                    // One write, so a kill cannot leave half a name behind (a
                    // formatted write may take several system calls).
                    let owner = format!("{} {}\n", std::process::id(), hostname());
                    let _ = file.write_all(owner.as_bytes());
                    return Ok(Lock { path });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(Error::io(&path, "create the lock", e)),
            }
            // Look for a stale lock now and then (each look reads the lock file), and
            // once more before giving up.
            let every = (timeout / 4).min(Duration::from_millis(50));
            let out_of_time = start.elapsed() >= timeout;
            if out_of_time || last_look.is_none_or(|t| t.elapsed() >= every) {
                last_look = Some(Instant::now());
                if remove_if_stale(&path, timeout) {
                    continue;
                }
            }
            if out_of_time {
                let age = std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .ok()
                    .map(|t| SystemTime::now().duration_since(t).unwrap_or_default());
                return Err(Error::Locked {
                    owner: lock_owner(&path),
                    age,
                    lock: path,
                    waited: timeout,
                });
            }
            crate::support::testing::note("lock-wait");
            std::thread::sleep(pause + jitter(pause));
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

/// Remove `lock` if it is stale, deciding and removing while holding an advisory lock
/// on its directory: whoever looks next sees the lock as it is then (a fresh one taken
/// meanwhile is not stale). Returns whether it was removed.
pub fn remove_if_stale(lock: &Path, timeout: Duration) -> bool {
    let dir = lock
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Ok(guard) = std::fs::File::open(dir) else {
        return false;
    };
    // Another waiter is deciding: its answer will be visible on the next look.
    if guard.try_lock().is_err() {
        return false;
    }
    if !is_stale(lock, timeout) {
        return false;
    }
    crate::support::testing::pause("takeover");
    let owner = lock_owner(lock);
    let removed = std::fs::remove_file(lock).is_ok();
    if removed && let Ok(mut v) = TAKEN_OVER.lock() {
        v.push((lock.to_owned(), owner));
    }
    removed
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

pub fn lock_path(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    target.with_file_name(name)
}

/// A lock is stale when it is older than `timeout` and its owner is gone: it names a
/// process on this host that no longer exists, or it names no process at all (its
/// writer died while creating it). A lock from another host is never stale.
pub fn is_stale(lock: &Path, timeout: Duration) -> bool {
    let Some(written) = std::fs::metadata(lock).and_then(|m| m.modified()).ok() else {
        return false;
    };
    let old_enough = SystemTime::now()
        .duration_since(written)
        .is_ok_and(|age| age >= timeout);
    if !old_enough {
        return false;
    }
    let Ok(text) = read_regular(lock, MAX_LOCK_SIZE) else {
        return false;
    };
    let text = String::from_utf8_lossy(&text);
    let mut parts = text.split_whitespace();
    let pid = parts.next().and_then(|p| p.parse::<u32>().ok());
    match (pid, parts.next()) {
        (Some(pid), Some(host)) => host == hostname() && !owner_alive(pid, written),
        // Killed between writing its pid and its host: the pid is ours to check.
        (Some(pid), None) => !owner_alive(pid, written),
        // Nameless: its writer died while making it, or is about to write its name. A
        // caller that does not wait looks at once, and would take a lock being made:
        // it leaves the lock to those that wait.
        (None, _) => !timeout.is_zero(),
    }
}

/// Whether the process that wrote a lock at `written` still runs: a process with its
/// pid exists and did not start after the lock was written (after a crash and a reboot,
/// or many processes later, the pid names somebody else).
fn owner_alive(pid: u32, written: SystemTime) -> bool {
    process_alive(pid) && !started_after(pid, written)
}

/// Whether process `pid` started clearly after `at`, from its start in `/proc/<pid>/stat`
/// (clock ticks since boot, at the 100 a second Linux reports to every program) and the
/// boot time in `/proc/stat` (whole seconds). Two seconds of slack cover both roundings;
/// anything that cannot be read answers no, so a lock is never taken from a live owner
/// on a guess.
fn started_after(pid: u32, at: SystemTime) -> bool {
    const TICKS_PER_SECOND: u64 = 100;
    let read = |path: &str| read_regular(Path::new(path), 64 * 1024).ok();
    let Some(stat) = read(&format!("/proc/{pid}/stat")) else {
        return false;
    };
    let stat = String::from_utf8_lossy(&stat);
    // The command name, in parentheses, may hold spaces: fields are counted after it.
    let Some((_, fields)) = stat.rsplit_once(')') else {
        return false;
    };
    // Field 22 of the whole line, the 20th after the name.
    let Some(ticks) = fields
        .split_whitespace()
        .nth(19)
        .and_then(|t| t.parse::<u64>().ok())
    else {
        return false;
    };
    let Some(boot) = read("/proc/stat").and_then(|s| {
        let s = String::from_utf8_lossy(&s).into_owned();
        s.lines()
            .find_map(|l| l.strip_prefix("btime "))
            .and_then(|b| b.trim().parse::<u64>().ok())
    }) else {
        return false;
    };
    let started = SystemTime::UNIX_EPOCH
        + Duration::from_secs(boot)
        + Duration::from_millis(ticks.saturating_mul(1000) / TICKS_PER_SECOND);
    started > at + Duration::from_secs(2)
}

/// Whether a process with this pid exists on this host. Without `/proc` nothing can be
/// known, and the process is taken to be alive.
fn process_alive(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new("/proc").join(pid.to_string()).exists()
}

/// This machine's name (`localhost` when it has none to give).
pub fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|h| h.trim().to_owned())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}

/// Up to half of `pause`, varying by process and time, so writers do not retry in step.
fn jitter(pause: Duration) -> Duration {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let seed = u64::from(nanos ^ std::process::id().wrapping_mul(2_654_435_761));
    let max = u64::try_from(pause.as_micros() / 2)
        .unwrap_or(u64::MAX)
        .max(1);
    Duration::from_micros(seed % max)
}

#[cfg(test)]
mod tests {
    use super::{Lock, hostname, is_stale, lock_path};
    use std::time::{Duration, SystemTime};

    #[test]
    fn lock_is_exclusive_and_released_on_drop() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("project-state.json");
        let held = Lock::acquire(&target, Duration::from_millis(50)).unwrap();
        assert!(dir.path().join("project-state.json.lock").exists());
        let err = Lock::acquire(&target, Duration::from_millis(20)).unwrap_err();
        assert_eq!(err.exit_code(), 4);
        assert!(err.to_string().contains("project-state.json.lock"), "{err}");
        drop(held);
        assert!(!dir.path().join("project-state.json.lock").exists());
        Lock::acquire(&target, Duration::from_millis(20)).unwrap();
    }

    /// A lock file at `lock` holding `text`, last written `age` ago.
    fn lock_file(lock: &std::path::Path, text: &str, age: Duration) {
        std::fs::write(lock, text).unwrap();
        std::fs::File::options()
            .write(true)
            .open(lock)
            .unwrap()
            .set_modified(SystemTime::now() - age)
            .unwrap();
    }

    #[test]
    fn a_stale_lock_of_a_dead_process_is_taken_over_only_when_old() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("s.json");
        let lock = lock_path(&target);
        let old = Duration::from_secs(60);
        // A pid that cannot exist (above the kernel's maximum).
        lock_file(&lock, &format!("4194305 {}\n", hostname()), old);
        drop(Lock::acquire(&target, Duration::from_millis(10)).unwrap());
        // A writer killed half-way through writing its name, or before writing anything.
        for partial in ["4194305", ""] {
            lock_file(&lock, partial, old);
            drop(Lock::acquire(&target, Duration::from_millis(10)).unwrap());
        }
        // A live process's lock is never taken over, however old: pid 1 started before
        // any lock of a test was written.
        lock_file(&lock, &format!("1 {}\n", hostname()), old);
        assert_eq!(
            Lock::acquire(&target, Duration::from_millis(10))
                .unwrap_err()
                .exit_code(),
            4
        );
    }

    /// After a crash the pid a lock names can belong to a process that started later:
    /// that process is not the lock's owner, and the lock is taken over once old.
    #[test]
    fn a_lock_whose_pid_was_reused_is_stale() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("s.json");
        let lock = lock_path(&target);
        let mut child = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let set =
            |age: Duration| lock_file(&lock, &format!("{} {}\n", child.id(), hostname()), age);
        // Written an hour before the process with that pid started: not its lock.
        set(Duration::from_secs(3600));
        assert!(is_stale(&lock, Duration::from_millis(10)));
        drop(Lock::acquire(&target, Duration::from_millis(10)).unwrap());
        // Written after it started (as its owner writes it): held while it runs.
        std::thread::sleep(Duration::from_millis(20));
        set(Duration::from_millis(10));
        assert!(!is_stale(&lock, Duration::from_millis(1)));
        let _ = child.kill();
        let _ = child.wait();
        assert!(is_stale(&lock, Duration::from_millis(1)));
    }
}
