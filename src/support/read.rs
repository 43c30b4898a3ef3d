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
    open_with(path, libc::O_NONBLOCK | libc::O_NOCTTY)
}

/// Open `path` for reading with `flags`, only a regular file accepted.
fn open_with(path: &Path, flags: i32) -> std::io::Result<std::fs::File> {
    let file = OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok(file)
}

/// Open `path` for reading in part, as [`read_regular`] opens it: a final link is not
/// followed, opening never blocks, and only a regular file is accepted. For the
/// tool's own files read a piece at a time (the notes index's `.open`).
pub fn open_own(path: &Path) -> std::io::Result<std::fs::File> {
    open_with(path, libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY)
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

/// The last bytes of a file, as [`read_tail`] found them.
#[derive(Debug)]
pub struct Tail {
    /// At most the limit, from `start` to the end the file had when it was opened.
    pub bytes: Vec<u8>,
    /// Where `bytes` begin in the file: 0 when the whole file was read.
    pub start: u64,
    /// The file's size when it was opened.
    pub total: u64,
}

/// Why [`read_tail`] read nothing.
#[derive(Debug)]
pub enum TailRefused {
    /// Nothing at the path.
    Missing,
    /// The path itself is not a regular file (a FIFO, a directory, a device).
    NotRegular,
    /// The path is a link to no regular file (dangling, a loop, a FIFO, a device).
    Link,
    Io(std::io::Error),
}

/// Read at most the last `limit` bytes of the regular file at `path`. A final link is
/// followed only to a regular file: agents' own directories are often links into a
/// dotfiles checkout, and the file opened is checked, not the name, so a link swapped
/// for a FIFO in between is still refused. Opening never blocks (`O_NONBLOCK`: a FIFO
/// is opened and refused, not waited on), and one seek skips to the tail, so a 200 MB
/// file costs what a `limit`-sized one does.
pub fn read_tail(path: &Path, limit: u64) -> std::result::Result<Tail, TailRefused> {
    use std::io::{Seek as _, SeekFrom};
    let linked = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta.file_type().is_symlink(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(TailRefused::Missing),
        Err(e) => return Err(TailRefused::Io(e)),
    };
    let opened = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path);
    let file = match opened {
        Ok(file) => file,
        Err(e) if linked && e.kind() == std::io::ErrorKind::NotFound => {
            return Err(TailRefused::Link);
        }
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(TailRefused::Link),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(TailRefused::Missing),
        Err(e) => return Err(TailRefused::Io(e)),
    };
    let meta = file.metadata().map_err(TailRefused::Io)?;
    if !meta.is_file() {
        return Err(if linked {
            TailRefused::Link
        } else {
            TailRefused::NotRegular
        });
    }
    let total = meta.len();
    let start = total.saturating_sub(limit);
    let mut file = file;
    file.seek(SeekFrom::Start(start)).map_err(TailRefused::Io)?;
    let mut bytes = Vec::with_capacity(usize::try_from(total - start).unwrap_or(0));
    file.take(limit)
        .read_to_end(&mut bytes)
        .map_err(TailRefused::Io)?;
    Ok(Tail {
        bytes,
        start,
        total,
    })
}
