//! Writing JSON: `serde_json`'s pretty layout byte for byte, through a buffer of our own,
//! and the status document written as it is rendered (its worktrees on two threads
//! when there are many handovers).

use serde::Serialize;

use crate::commands::status;

/// [`to_string`] written to `out` as it is made, through a buffer of its own: serde's
/// many small writes then go to a `Vec` the compiler sees, not through `out`'s vtable
/// one token at a time (a large share of writing a large report).
fn to_writer(out: &mut dyn std::io::Write, v: &impl Serialize) -> std::io::Result<()> {
    let mut chunked = Chunked {
        buf: Vec::with_capacity(Chunked::SIZE + 4096),
        out,
    };
    v.serialize(&mut serde_json::Serializer::with_formatter(
        &mut chunked,
        Pretty::default(),
    ))
    .map_err(std::io::Error::from)?;
    chunked.buf.push(b'\n');
    chunked.out.write_all(&chunked.buf)
}

/// Pretty JSON and a final newline.
pub fn to_string(v: &impl Serialize) -> String {
    let mut bytes = Vec::with_capacity(4096);
    v.serialize(&mut serde_json::Serializer::with_formatter(
        &mut bytes,
        Pretty::default(),
    ))
    .expect("output structs serialise");
    bytes.push(b'\n');
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// A buffer in front of a writer, handed on a chunk at a time.
struct Chunked<'a> {
    buf: Vec<u8>,
    out: &'a mut dyn std::io::Write,
}

impl Chunked<'_> {
    const SIZE: usize = 1 << 16;
}

impl std::io::Write for Chunked<'_> {
    #[inline]
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.write_all(bytes)?;
        Ok(bytes.len())
    }

    #[inline]
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.buf.extend_from_slice(bytes);
        if self.buf.len() >= Self::SIZE {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `serde_json`'s `PrettyFormatter` (two spaces a level, `[]` and `{}` when empty, `": "`
/// between key and value), byte for byte, with each line's indentation written at once
/// rather than a level at a time.
#[derive(Default)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    /// A newline (after a comma when not `first`) and the indentation of `depth`.
    #[inline]
    fn line<W: ?Sized + std::io::Write>(
        writer: &mut W,
        comma: bool,
        depth: usize,
    ) -> std::io::Result<()> {
        const SPACES: &[u8; 64] =
            b"                                                                ";
        if comma {
            writer.write_all(b",")?;
        }
        writer.write_all(b"\n")?;
        let mut left = depth * 2;
        while left > 0 {
            let n = left.min(SPACES.len());
            writer.write_all(&SPACES[..n])?;
            left -= n;
        }
        Ok(())
    }

    /// An array or object begins: one level deeper, nothing in it yet.
    #[inline]
    fn open<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(bracket)
    }

    /// It ends: on a line of its own unless it is empty (`[]`, `{}`).
    #[inline]
    fn close<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        bracket: &[u8],
    ) -> std::io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            Self::line(writer, false, self.depth)?;
        }
        writer.write_all(bracket)
    }
}

impl serde_json::ser::Formatter for Pretty {
    #[inline]
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"[")
    }

    #[inline]
    fn end_array<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"]")
    }

    #[inline]
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        Self::line(writer, !first, self.depth)
    }

    #[inline]
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    #[inline]
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.open(writer, b"{")
    }

    #[inline]
    fn end_object<W: ?Sized + std::io::Write>(&mut self, writer: &mut W) -> std::io::Result<()> {
        self.close(writer, b"}")
    }

    #[inline]
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        Self::line(writer, !first, self.depth)
    }

    #[inline]
    fn begin_object_value<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
    ) -> std::io::Result<()> {
        writer.write_all(b": ")
    }

    #[inline]
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _: &mut W) -> std::io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// From this many handovers, the status document's worktrees are rendered on two
/// threads: with many sessions writing the document was a visible share of `status`,
/// with the second core idle.
const SPLIT_FROM: usize = 256;

/// The status document of `report`, written to `out` as it is rendered: the same bytes
/// as [`to_writer`] of [`super::status`]. With many handovers, the later worktrees
/// (about half the handovers) are rendered on another thread into memory while this
/// one writes the first ones.
pub fn write_status(out: &mut dyn std::io::Write, report: &status::Report) -> std::io::Result<()> {
    // The document without its worktrees is split where they go: no string holds a
    // line break, so this line can only be the array's own.
    const OPEN: &str = "\n  \"worktrees\": [";
    const EMPTY: &str = "\n  \"worktrees\": [],";
    let total: usize = report.worktrees.iter().map(|w| w.handovers.len()).sum();
    if total < SPLIT_FROM {
        return to_writer(out, &super::status(report));
    }
    let frame = to_string(&super::status_without_worktrees(report));
    let at = frame.find(EMPTY).expect("the frame has its worktrees");
    let (before, after) = (&frame[..at], &frame[at + EMPTY.len()..]);
    // Where the later half starts: the first worktree past half the handovers.
    let mut seen = 0;
    let split = report
        .worktrees
        .iter()
        .position(|w| {
            seen += w.handovers.len();
            seen * 2 > total
        })
        .map_or(report.worktrees.len(), |i| i + 1);
    let (first, later) = report.worktrees.split_at(split);
    let mut chunked = Chunked {
        buf: Vec::with_capacity(Chunked::SIZE + 4096),
        out,
    };
    std::thread::scope(|s| {
        let rendered = std::thread::Builder::new()
            .spawn_scoped(s, || render_worktrees(later, !first.is_empty()))
            .ok();
        std::io::Write::write_all(&mut chunked, before.as_bytes())?;
        std::io::Write::write_all(&mut chunked, OPEN.as_bytes())?;
        write_worktrees(&mut chunked, first, false)?;
        let later = match rendered {
            Some(t) => t.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            None => render_worktrees(later, !first.is_empty()),
        };
        std::io::Write::write_all(&mut chunked, &later)?;
        if !report.worktrees.is_empty() {
            std::io::Write::write_all(&mut chunked, b"\n  ")?;
        }
        std::io::Write::write_all(&mut chunked, b"],")?;
        std::io::Write::write_all(&mut chunked, after.as_bytes())?;
        chunked.out.write_all(&chunked.buf)
    })
}

/// [`write_worktrees`] into memory.
fn render_worktrees(
    worktrees: &[crate::facts::assessed::WorktreeHandovers],
    after: bool,
) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_worktrees(&mut bytes, worktrees, after).expect("writing to memory");
    bytes
}

/// The worktrees as elements of the status document's array (two levels deep), each
/// after a comma when `after` another.
fn write_worktrees<W: std::io::Write>(
    out: &mut W,
    worktrees: &[crate::facts::assessed::WorktreeHandovers],
    after: bool,
) -> std::io::Result<()> {
    for (i, w) in worktrees.iter().enumerate() {
        Pretty::line(out, after || i > 0, 2)?;
        super::worktree_of(w)
            .serialize(&mut serde_json::Serializer::with_formatter(
                &mut *out,
                Pretty {
                    depth: 2,
                    has_value: false,
                },
            ))
            .map_err(std::io::Error::from)?;
    }
    Ok(())
}
