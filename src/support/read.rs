//! Bounded reads of regular files. Reads open without following a final link and
//! without blocking, accept regular files only and read at most a limit: a FIFO, a
//! device or a link to `/dev/zero` where a handover file should be is refused, not
//! waited on.

use std::fs::OpenOptions;
use std::io::Read as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

use crate::support::error::{Error, Result};

/// Handover files over this size are refused (SPEC section 2).
pub const MAX_FILE_SIZE: u64 = 16 * 1024 * 1024;

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
pub(crate) fn kind_of(meta: &std::fs::Metadata) -> &'static str {
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
