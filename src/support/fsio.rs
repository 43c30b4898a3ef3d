//! Safe writes: git-style `<file>.lock` locks held across read-modify-write, and atomic
//! replacement through a temporary file in the same directory.
//!
//! A lock file holds the pid and host of its owner. A lock left by a killed process is
//! taken over only when it is older than the lock timeout and its process is gone
//! (checked on this host through `/proc`); otherwise waiting ends with exit status 4.

use std::fs::OpenOptions;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::support::error::{Error, Result};

/// The prefix of temporary files, so a later writer can remove what a killed one left.
/// Handover files over this size are refused (SPEC section 2).
pub const MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

const TEMP_PREFIX: &str = ".git-handover-tmp-";

/// Stale locks this process removed, for the command to say so (commands do not print;
/// the lock is taken deep inside a write).
static TAKEN_OVER: std::sync::Mutex<Vec<(PathBuf, String)>> = std::sync::Mutex::new(Vec::new());

/// The stale locks removed so far, with the owner each named, emptied.
pub fn take_over_notices() -> Vec<(PathBuf, String)> {
    TAKEN_OVER
        .lock()
        .map(|mut v| std::mem::take(&mut *v))
        .unwrap_or_default()
}

/// The owner a lock file names (`<pid> <host>`), for messages.
pub fn lock_owner(lock: &Path) -> Option<String> {
    let text = std::fs::read(lock).ok()?;
    let text = String::from_utf8_lossy(&text);
    let mut parts = text.split_whitespace();
    match (parts.next(), parts.next()) {
        (Some(pid), Some(host)) => Some(format!("process {pid} on {host}")),
        (Some(pid), None) => Some(format!("process {pid}")),
        _ => None,
    }
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
        let mut took_over = false;
        loop {
            match OpenOptions::new().write(true).create_new(true).open(&path) {
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
            if start.elapsed() >= timeout {
                if !took_over && is_stale(&path, timeout) {
                    let owner = lock_owner(&path).unwrap_or_else(|| "no process".to_owned());
                    // Remove only if it is still the same stale file.
                    if std::fs::remove_file(&path).is_ok() {
                        if let Ok(mut v) = TAKEN_OVER.lock() {
                            v.push((path.clone(), owner));
                        }
                    }
                    took_over = true;
                    continue;
                }
                return Err(Error::Locked {
                    owner: lock_owner(&path),
                    lock: path,
                    waited: timeout,
                });
            }
            std::thread::sleep(pause + jitter(pause));
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
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
fn is_stale(lock: &Path, timeout: Duration) -> bool {
    let old_enough = std::fs::metadata(lock)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age >= timeout);
    if !old_enough {
        return false;
    }
    let Ok(text) = std::fs::read(lock) else {
        return false;
    };
    let text = String::from_utf8_lossy(&text);
    let mut parts = text.split_whitespace();
    let pid = parts.next().and_then(|p| p.parse::<u32>().ok());
    match (pid, parts.next()) {
        (Some(pid), Some(host)) => host == hostname() && !process_alive(pid),
        // Killed between writing its pid and its host: the pid is ours to check.
        (Some(pid), None) => !process_alive(pid),
        (None, _) => true,
    }
}

/// Whether a process with this pid exists on this host. Without `/proc` nothing can be
/// known, and the process is taken to be alive.
fn process_alive(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new("/proc").join(pid.to_string()).exists()
}

fn hostname() -> String {
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

/// Read a handover file, refusing one over [`MAX_FILE_SIZE`] before
/// reading it.
pub fn read_limited(path: &Path) -> Result<Vec<u8>> {
    let limit = MAX_FILE_SIZE;
    let size = std::fs::metadata(path)
        .map_err(|e| Error::io(path, "read", e))?
        .len();
    if size > limit {
        return Err(Error::TooLarge {
            file: path.to_owned(),
            size,
            limit,
        });
    }
    std::fs::read(path).map_err(|e| Error::io(path, "read", e))
}

/// Replace `path` with `bytes` atomically: write a temporary file in the same
/// directory, flush it to disk, rename it over `path`, then sync the directory.
/// Readers see the old content or the new, never a mix.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, "create a temporary file in", e))?;
    // Through the plain file: tempfile's own writer adds the temporary name to errors,
    // and the message should name the file the user knows.
    tmp.as_file_mut()
        .write_all(bytes)
        .map_err(|e| Error::io(path, "write", e))?;
    tmp.as_file()
        .sync_all()
        .map_err(|e| Error::io(path, "flush", e))?;
    tmp.persist(path)
        .map_err(|e| Error::io(path, "replace", e.error))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Remove temporary files a killed writer left in `dir`. Call it holding the lock of
/// the files in `dir`, so no live writer's temporary file is removed.
pub fn remove_stray_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let is_temp = entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with(TEMP_PREFIX));
        if is_temp && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_stale_lock_of_a_dead_process_is_taken_over_only_when_old() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("s.json");
        let lock = lock_path(&target);
        // A pid that cannot exist (above the kernel's maximum).
        std::fs::write(&lock, format!("4194305 {}\n", hostname())).unwrap();
        let old = SystemTime::now() - Duration::from_secs(60);
        std::fs::File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        let held = Lock::acquire(&target, Duration::from_millis(10)).unwrap();
        drop(held);
        // A writer killed half-way through writing its name, or before writing anything.
        for partial in ["4194305", ""] {
            std::fs::write(&lock, partial).unwrap();
            std::fs::File::options()
                .write(true)
                .open(&lock)
                .unwrap()
                .set_modified(old)
                .unwrap();
            drop(Lock::acquire(&target, Duration::from_millis(10)).unwrap());
        }
        // A live process's lock (our own pid) is never taken over, however old.
        std::fs::write(&lock, format!("{} {}\n", std::process::id(), hostname())).unwrap();
        std::fs::File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(old)
            .unwrap();
        assert_eq!(
            Lock::acquire(&target, Duration::from_millis(10))
                .unwrap_err()
                .exit_code(),
            4
        );
    }

    #[test]
    fn atomic_write_replaces_and_stray_temps_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        std::fs::write(
            dir.path().join(format!("{TEMP_PREFIX}abc")),
            "left by a killed writer",
        )
        .unwrap();
        remove_stray_temps(dir.path());
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["f.json"]);
    }
}
