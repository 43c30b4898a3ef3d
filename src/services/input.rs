//! Input for `save` and `here`: a file or standard input, bounded.

use std::io::{IsTerminal as _, Read as _};
use std::path::{Path, PathBuf};

use crate::support::error::{Error, Result, msg};

/// Input for `save` and `here`: the file named, or stdin. Returns the bytes and a name
/// for error messages.
pub fn read_input(from: Option<&Path>) -> Result<(Vec<u8>, PathBuf)> {
    if let Some(path) = from {
        return Ok((crate::support::fsio::read_limited(path)?, path.to_owned()));
    }
    if std::io::stdin().is_terminal() {
        return Err(Error::usage_hint(
            msg(crate::k!("err.stdin_terminal"), &[]),
            msg(crate::k!("err.stdin_hint"), &[]),
        ));
    }
    let limit = crate::support::fsio::MAX_FILE_SIZE;
    let mut bytes = Vec::new();
    std::io::stdin()
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io(crate::support::error::STDIN, "read", e))?;
    if bytes.len() as u64 > limit {
        return Err(Error::TooLarge {
            file: crate::support::error::STDIN.into(),
            size: bytes.len() as u64,
            limit,
        });
    }
    Ok((bytes, PathBuf::from(crate::support::error::STDIN)))
}
