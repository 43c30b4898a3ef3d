//! Safe file access: atomic replacement through a temporary file in the same
//! directory, and bounded reads (the locks held across read-modify-write are in
//! `support::lock`, re-exported here).
//!
//! Reads open without following a final link and without blocking, accept regular
//! files only and read at most a limit: a FIFO, a device or a link to `/dev/zero` where
//! a handover file should be is refused, not waited on.

use std::fs::OpenOptions;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};

use crate::support::error::{Error, Result};
pub use crate::support::lock::{Lock, take_over_notices};

/// Handover files over this size are refused (SPEC section 2).
pub const MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

/// The prefix of temporary files, so a later writer can remove what a killed one left.
const TEMP_PREFIX: &str = ".git-handover-tmp-";

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
