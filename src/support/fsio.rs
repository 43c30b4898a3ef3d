//! Safe writes: git-style `<file>.lock` locks held across read-modify-write, and atomic
//! replacement through a temporary file in the same directory.
//!
//! A lock file holds the pid and host of its owner. A lock left by a killed process is
//! taken over only when it is older than the lock timeout and its process is gone
//! (checked on this host through `/proc`); otherwise waiting ends with exit status 4.
//! The takeover is decided and done while holding an advisory lock on the lock's
//! directory, so two waiters can never both remove "the stale lock" (the second would
//! remove the fresh lock the first just took).
//!
//! Reads open without following a final link and without blocking, accept regular
//! files only and read at most a limit: a FIFO, a device or a link to `/dev/zero` where
//! a handover file should be is refused, not waited on.

use std::fs::OpenOptions;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::support::error::{Error, LockOwner, Result};

/// Handover files over this size are refused (SPEC section 2).
pub const MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// The most of a lock file read (it holds a pid and a host name).
const MAX_LOCK_SIZE: u64 = 1024;

/// The prefix of temporary files, so a later writer can remove what a killed one left.
const TEMP_PREFIX: &str = ".git-handover-tmp-";

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
                if take_over(&path, timeout) {
                    continue;
                }
            }
            if out_of_time {
                return Err(Error::Locked {
                    owner: lock_owner(&path),
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
fn take_over(lock: &Path, timeout: Duration) -> bool {
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
fn is_stale(lock: &Path, timeout: Duration) -> bool {
    let old_enough = std::fs::metadata(lock)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .is_some_and(|age| age >= timeout);
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

/// Read a handover file, refusing one over [`MAX_FILE_SIZE`].
pub fn read_limited(path: &Path) -> Result<Vec<u8>> {
    read_regular(path, MAX_FILE_SIZE)
}

/// Read `path`, a regular file of at most `limit` bytes. The last component is not
/// followed when it is a link, opening never blocks (a FIFO is refused, not waited
/// on), and no more than `limit` bytes are read even from a file that grows.
pub fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY)
        .open(path)
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                Error::NotRegular {
                    path: path.to_owned(),
                    kind: crate::k!("file.link"),
                }
            } else {
                Error::io(path, "read", e)
            }
        })?;
    let meta = file.metadata().map_err(|e| Error::io(path, "read", e))?;
    if !meta.is_file() {
        return Err(Error::NotRegular {
            path: path.to_owned(),
            kind: kind_of(&meta),
        });
    }
    if meta.len() > limit {
        return Err(Error::TooLarge {
            file: path.to_owned(),
            size: meta.len(),
            limit,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(path, "read", e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge {
            file: path.to_owned(),
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok(bytes)
}

/// Open `path` (links followed) for reading without ever blocking, and only when it
/// is a regular file: a FIFO where git keeps a file is refused, not waited on. For
/// git's own files read in part (pack indexes, graph records, admin files).
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// `read_regular`, or `None` when there is no file at `path` at all.
pub fn read_if_exists(path: &Path, limit: u64) -> Result<Option<Vec<u8>>> {
    match read_regular(path, limit) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(Error::Io { source, .. }) if source.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// What a non-regular file is: a catalog key, for the error.
fn kind_of(meta: &std::fs::Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    let t = meta.file_type();
    if t.is_dir() {
        crate::k!("file.dir")
    } else if t.is_fifo() {
        crate::k!("file.fifo")
    } else if t.is_socket() {
        crate::k!("file.socket")
    } else if t.is_char_device() || t.is_block_device() {
        crate::k!("file.device")
    } else if t.is_symlink() {
        crate::k!("file.link")
    } else {
        crate::k!("file.other")
    }
}

/// Replace `path` with `bytes` atomically: write a temporary file in the same
/// directory, flush it to disk, rename it over `path`, then sync the directory.
/// Readers see the old content or the new, never a mix. A replaced file keeps its mode
/// and group; a new one gets the umask's mode, like any file a program creates.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let old = std::fs::symlink_metadata(path).ok();
    if let Some(m) = old.as_ref().filter(|m| !m.is_file()) {
        // Never write through a link or over a FIFO, a device or a directory.
        return Err(Error::NotRegular {
            path: path.to_owned(),
            kind: kind_of(m),
        });
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, "create a temporary file in", e))?;
    if let Some(old) = &old {
        // The group first: changing it may clear set-id bits the mode then restores.
        let _ = std::os::unix::fs::fchown(tmp.as_file(), None, Some(old.gid()));
        tmp.as_file()
            .set_permissions(std::fs::Permissions::from_mode(old.mode() & 0o7777))
            .map_err(|e| Error::io(path, "keep the mode of", e))?;
    }
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

/// Where a write to a user's file lands: a symbolic link (a dotfile manager's
/// `~/.claude/settings.json`) is followed to the file it names, as git does for its own
/// config, so the link stays a link; anything else is written in place.
pub fn through_links(path: &Path) -> PathBuf {
    let mut at = path.to_owned();
    for _ in 0..40 {
        match std::fs::read_link(&at) {
            Ok(target) => {
                at = match at.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            Err(_) => break,
        }
    }
    at
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
