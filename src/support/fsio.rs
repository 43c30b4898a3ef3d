//! Safe file access: atomic replacement through a temporary file in the same
//! directory. The bounded reads (`support::read`) and the locks held across
//! read-modify-write (`support::lock`) are re-exported here, so callers name one module.

use std::io::Write as _;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use crate::support::error::{Error, Result};
pub use crate::support::lock::{Lock, take_over_notices};
use crate::support::read::kind_of;
pub use crate::support::read::{
    MAX_FILE_SIZE, open_regular, read_if_exists, read_limited, read_regular,
};

/// The prefix of temporary files, so a later writer can remove what a killed one left.
pub const TEMP_PREFIX: &str = ".git-handover-tmp-";

/// Replace `path` with `bytes` atomically: write a temporary file in the same
/// directory, flush it to disk, rename it over `path`, then sync the directory.
/// Readers see the old content or the new, never a mix. A replaced file keeps its mode
/// and group; a new one gets the umask's mode, like any file a program creates.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    replace(path, bytes, true)
}

/// [`write_atomic`] without the directory's sync: the new content is on disk before it
/// takes the name, but the rename may not be yet, so a crash leaves `path` whole with
/// the old content or the new. For a write whose loss a crash may take back: what
/// the file held before was written with [`write_atomic`], and saying it again later
/// is harmless (a claim's confirmation, which `sync` works out again).
pub fn write_atomic_unsynced_name(path: &Path, bytes: &[u8]) -> Result<()> {
    replace(path, bytes, false)
}

/// Replace `first` and then `second`, two files of one directory, each as
/// [`write_atomic`] does, with one sync of the directory for both renames (after the
/// second; also when the second fails, so the first's rename is on disk whenever this
/// returns). A crash before it returns leaves each file whole, old or new: a session's
/// state and the `handover.md` rendered from it, one fsync fewer on every write. The
/// two temporary files are written and synced at once, the second on a thread of its
/// own (two fsyncs waited for together), then renamed in order.
pub fn write_atomic_pair(first: (&Path, &[u8]), second: (&Path, &[u8])) -> Result<()> {
    if first.0.parent() != second.0.parent() {
        write_atomic(first.0, first.1)?;
        return write_atomic(second.0, second.1);
    }
    let (one, two) = std::thread::scope(|s| {
        let two = std::thread::Builder::new().spawn_scoped(s, || Prepared::new(second.0, second.1));
        let one = Prepared::new(first.0, first.1);
        let two = match two {
            Ok(two) => two.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
            // No thread to be had: one after the other, as before.
            Err(_) => Prepared::new(second.0, second.1),
        };
        (one, two)
    });
    one?.rename(false)?;
    let done = two.and_then(|two| two.rename(true));
    if done.is_err() {
        sync_dir_of(first.0);
    }
    done
}

/// A [`write_atomic_pair`] made on a thread of its own, so that the caller's own work
/// (a write's record) goes on while the two files reach the disk (their fsyncs wait on
/// the device, not the processor). [`PairWrite::wait`] says how it went; dropped, it
/// is waited for all the same (a process never ends with a file half replaced).
pub struct PairWrite {
    handle: Option<std::thread::JoinHandle<Result<()>>>,
    /// The outcome when no thread could be made and it was written at once.
    done: Option<Result<()>>,
}

impl PairWrite {
    /// Start replacing `first` and then `second`, as [`write_atomic_pair`] does.
    pub fn start(first: (PathBuf, Vec<u8>), second: (PathBuf, Vec<u8>)) -> PairWrite {
        type Files = ((PathBuf, Vec<u8>), (PathBuf, Vec<u8>));
        let files = std::sync::Arc::new((first, second));
        let write = |f: &Files| write_atomic_pair((&f.0.0, &f.0.1), (&f.1.0, &f.1.1));
        let theirs = std::sync::Arc::clone(&files);
        let (handle, done) = match std::thread::Builder::new().spawn(move || write(&theirs)) {
            Ok(handle) => (Some(handle), None),
            // No thread to be had: the files are written here and now, as before.
            Err(_) => (None, Some(write(&files))),
        };
        PairWrite { handle, done }
    }

    /// Wait for both files to be replaced: their outcome the first time, `Ok` after.
    pub fn wait(&mut self) -> Result<()> {
        if let Some(handle) = self.handle.take() {
            return handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
        self.done.take().unwrap_or(Ok(()))
    }
}

impl Drop for PairWrite {
    fn drop(&mut self) {
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

/// Sync the directory holding `path` (its renames reach the disk); best effort.
fn sync_dir_of(path: &Path) {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

fn replace(path: &Path, bytes: &[u8], sync_dir: bool) -> Result<()> {
    Prepared::new(path, bytes)?.rename(sync_dir)
}

/// A replacement of a file made ready ahead of the decision to make it: the new content
/// in a temporary file beside it, on disk ([`write_atomic`] up to its rename); dropped,
/// the temporary file goes. A caller that decides later, under its lock, renames it in
/// with [`Prepared::replace`] (the file's mode and group as they are then).
pub struct Prepared {
    tmp: tempfile::NamedTempFile,
    path: PathBuf,
}

impl Prepared {
    /// `bytes` written and flushed to disk in a temporary file beside `path`.
    pub fn new(path: &Path, bytes: &[u8]) -> Result<Prepared> {
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
        Ok(Prepared {
            tmp,
            path: path.to_owned(),
        })
    }

    /// Rename the new content over the file (then sync its directory when `sync_dir`),
    /// keeping the mode and group the file has now.
    pub fn replace(self, sync_dir: bool) -> Result<()> {
        let now = std::fs::symlink_metadata(&self.path).ok();
        if let Some(m) = now.as_ref().filter(|m| !m.is_file()) {
            return Err(Error::NotRegular {
                kind: kind_of(m),
                path: self.path,
            });
        }
        let kept = self.tmp.as_file().metadata().ok();
        if let (Some(now), Some(kept)) = (&now, &kept)
            && (now.mode() != kept.mode() || now.gid() != kept.gid())
        {
            let file = self.tmp.as_file();
            let _ = std::os::unix::fs::fchown(file, None, Some(now.gid()));
            file.set_permissions(std::fs::Permissions::from_mode(now.mode() & 0o7777))
                .map_err(|e| Error::io(&self.path, "keep the mode of", e))?;
        }
        self.rename(sync_dir)
    }

    fn rename(self, sync_dir: bool) -> Result<()> {
        let Prepared { tmp, path } = self;
        tmp.persist(&path)
            .map_err(|e| Error::io(&path, "replace", e.error))?;
        if sync_dir {
            sync_dir_of(&path);
        }
        Ok(())
    }
}

/// Replace a cache file of the tool's own with `bytes` atomically (a temporary file
/// renamed over it), without flushing to disk: a reader sees the old content or the
/// new, and a file a crash left torn is caught by the checksum its reader checks.
pub fn write_cache(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if std::fs::symlink_metadata(path).is_ok_and(|m| !m.is_file()) {
        return Err(Error::io(
            path,
            "replace",
            std::io::ErrorKind::AlreadyExists.into(),
        ));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(dir)
        .map_err(|e| Error::io(dir, "create a temporary file in", e))?;
    tmp.as_file_mut()
        .write_all(bytes)
        .map_err(|e| Error::io(path, "write", e))?;
    tmp.persist(path)
        .map_err(|e| Error::io(path, "replace", e.error))?;
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
/// Whether `name` is the name of one of the temporary files [`write_atomic`] makes.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX)
}

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
