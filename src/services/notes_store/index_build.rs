//! Building the notes index from every note (issue 36), in memory bounded whatever the
//! store's size: notes are read one at a time in tree order through a reader that maps
//! a bounded part of the packs (`git::NoteReader`), each record's head is written to
//! one of [`SPILL`] scratch files by its group's part, and the scratch files are then
//! taken one at a time: their groups' entries worked out (the few lines that win read
//! again) and their members' parts written. What is held at once is the heads of one
//! scratch file's groups, not of the store (at 1,000,000 records: 37 s / 716 MiB before,
//! all heads at once).
//!
//! Not resumable: the scratch files are anonymous (gone with the process), so a build
//! killed midway starts over. Making it resume would need the scratch files and the
//! position in the listing kept under the index's directory, checked as the index's
//! files are; not done.

use std::collections::BTreeMap;
use std::io::{BufWriter, Read, Seek, Write};

use super::index_file::{Files, Heads, Times};
use super::index_kept::{Tops, summary_of};
use super::index_members::{Member, PARTS, Parts, part_of};
use super::index_scan::{entry_of, group_name, newest_time, oversize, scan};
use crate::git::{CommitId, NoteReader, NoteText, Repo};
use crate::model::changes::Summary;
use crate::model::record::{Group, Head, HeadLine, MAX_NOTE_SIZE, RecordKind};
use crate::support::error::{Error, Result};

/// How many scratch files the heads are spread over (each a set of whole parts).
/// Heads are held in memory up to this many bytes in all (a small store's build makes
/// no file), then each scratch moves to a file as it is next written.
const IN_MEMORY: usize = 4 << 20;

/// One part each: 4,000 heads a file at 1,000,000 records (64 files: 75.8 MiB at the
/// peak of a build and `log -n 1`; 256: 60.6 MiB for the build). A file that cannot
/// be made is memory instead.
const SPILL: usize = 256;

/// The index of notes commit `now`, read whole from the store, its members' parts
/// written as they are made (the manifest is written by the caller, unless a part
/// could not be written). `Ok(None)` when, and only when, `budget` passed before the
/// notes were read (nothing is kept).
pub(super) fn build(
    repo: &Repo,
    files: &Files,
    now: CommitId,
    budget: Option<std::time::Instant>,
) -> Result<Option<(Heads, Parts, Times)>> {
    let mut reader = repo.note_reader();
    let notes = reader.listing(now)?;
    let mut heads = Heads::default();
    let mut times = Times::new();
    let dir = files.heads.parent().unwrap_or(std::path::Path::new("."));
    let mut spill: Vec<Scratch> = (0..SPILL).map(|_| Scratch::Memory(Vec::new())).collect();
    let mut spilled = 0;
    let mut buf = Vec::new();
    let mut tops = Tops::default();
    for (ni, (object, blob)) in notes.iter().enumerate() {
        if budget.is_some_and(|b| std::time::Instant::now() >= b) {
            return Ok(None);
        }
        // Unreadable: as the store's own reader would fail, say it from there.
        let Ok(text) = text_of(&mut reader, *blob) else {
            return Err(super::index_scan::missing(object));
        };
        let skips = match &text {
            None => vec![oversize(reader.size(*blob).unwrap_or_default())],
            Some(t) => {
                let (found, skips) = scan(t);
                if let Some(at) = newest_time(&found) {
                    times.insert(*object, at);
                }
                for (line_no, line, head) in found {
                    let g = group_name(Group::of(&head));
                    let read = (head.kind == RecordKind::Session && tops.wants(&g, head.saved_at))
                        .then(|| summary_of(line));
                    if read.as_ref().is_some_and(Result::is_ok) {
                        tops.whole(&g, head.saved_at);
                    }
                    buf.clear();
                    encode(&mut buf, &g, ni, line_no, &head);
                    put_read(&mut buf, read.as_ref());
                    let to = &mut spill[part_of(&g) % SPILL];
                    spilled += buf.len();
                    if spilled > IN_MEMORY {
                        to.move_to_file(dir);
                    }
                    to.write(&buf)
                        .map_err(|e| Error::io(dir, "write a scratch file in", e))?;
                }
                skips
            }
        };
        if !skips.is_empty() {
            heads.notes.insert(object.to_string(), skips);
        }
    }
    let mut parts = Parts::empty();
    for (i, file) in spill.into_iter().enumerate() {
        let groups = read_back(file).map_err(|e| Error::io(dir, "read a scratch file in", e))?;
        let mut made: BTreeMap<usize, BTreeMap<String, Member>> = (0..PARTS)
            .filter(|p| p % SPILL == i)
            .map(|p| (p, BTreeMap::new()))
            .collect();
        for (g, read) in groups {
            let (lines, mut reads): (Vec<_>, Vec<_>) = read.into_iter().unzip();
            let mut m = Member::default();
            for l in &lines {
                let note = notes[l.note].0;
                if m.notes.last() != Some(&note) {
                    m.notes.push(note);
                }
            }
            m.seen = super::index_scan::seen_of(lines.iter().map(|l| &l.head));
            m.kept = super::index_scan::kept_of(&lines, &notes, &mut |i| reads[i].take());
            let mut fetch = refetch(&mut reader, &notes);
            let entry = entry_of(lines, &notes, &mut fetch);
            m.entry = Some(entry.clone());
            heads.groups.insert(g.clone(), entry);
            made.entry(part_of(&g)).or_default().insert(g, m);
        }
        for (p, members) in made {
            // Not written: the index is not kept (`Parts::write` then refuses), and this
            // run answers from what was built all the same.
            parts.put(files, p, &members);
        }
    }
    Ok(Some((heads, parts, times)))
}

/// A note's text; `Ok(None)` over the size limit; `Err(())` when its blob is not in
/// the object database.
pub(super) fn text_of(
    reader: &mut NoteReader<'_>,
    blob: NoteText,
) -> std::result::Result<Option<Vec<u8>>, ()> {
    match reader.text_or_size(blob, MAX_NOTE_SIZE) {
        Some(Ok(text)) => Ok(Some(text)),
        Some(Err(_)) => Ok(None),
        None => Err(()),
    }
}

/// The line `line_no` of note `ni` of `notes`, read again (the build keeps heads
/// only); the last note read is kept, as a session's sides are often on one note.
fn refetch<'a>(
    reader: &'a mut NoteReader<'_>,
    notes: &'a [(CommitId, NoteText)],
) -> impl FnMut(usize, usize) -> Option<Vec<u8>> + 'a {
    let mut last: Option<(usize, Vec<u8>)> = None;
    move |ni, line_no| {
        if last.as_ref().is_none_or(|(n, _)| *n != ni) {
            last = Some((ni, reader.text(notes.get(ni)?.1, MAX_NOTE_SIZE)?));
        }
        let text = &last.as_ref()?.1;
        Some(
            text.split(|b| *b == b'\n')
                .nth(line_no.checked_sub(1)?)?
                .to_vec(),
        )
    }
}

fn put_str(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        None => out.extend_from_slice(&u32::MAX.to_le_bytes()),
        Some(s) => {
            let len = u32::try_from(s.len()).unwrap_or(u32::MAX - 1);
            out.extend_from_slice(&len.to_le_bytes());
            out.extend_from_slice(&s.as_bytes()[..len as usize]);
        }
    }
}

/// One record's head in a scratch file: its group, where it is, its head.
fn encode(out: &mut Vec<u8>, g: &str, ni: usize, line_no: usize, h: &Head) {
    put_str(out, Some(g));
    for n in [ni, line_no] {
        out.extend_from_slice(&u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }
    put_str(out, Some(&h.key));
    out.extend_from_slice(&h.saved_at.as_nanosecond().to_le_bytes());
    out.push(match h.kind {
        RecordKind::Session => 0,
        RecordKind::ContinueHere => 1,
    });
    put_str(out, h.session_id.as_deref());
    out.push(u8::from(h.seq.is_some()));
    out.extend_from_slice(&h.seq.unwrap_or(0).to_le_bytes());
    put_str(out, h.parent.as_deref());
    put_str(out, h.hash.as_deref());
    let n = u32::try_from(h.set_aside.len()).unwrap_or(0);
    out.extend_from_slice(&n.to_le_bytes());
    for s in h.set_aside.iter().take(n as usize) {
        put_str(out, Some(s));
    }
}

/// Reads a scratch file back.
struct Back<'a>(&'a [u8]);

impl Back<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let (a, b) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = b;
        Some(a)
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    /// A string that may be absent; `Err(())` when the bytes do not hold one.
    fn opt(&mut self) -> std::result::Result<Option<String>, ()> {
        let len = self.u32().ok_or(())?;
        if len == u32::MAX {
            return Ok(None);
        }
        let bytes = self.take(usize::try_from(len).map_err(|_| ())?).ok_or(())?;
        String::from_utf8(bytes.to_vec()).map(Some).map_err(|_| ())
    }
    fn str(&mut self) -> Option<String> {
        self.opt().ok()?
    }
    /// [`put_read`] read back; `None`: the bytes do not hold it.
    fn read(&mut self) -> Option<WholeRead> {
        if self.take(1)? == [0] {
            return Some(None);
        }
        let mut c = super::index_kept::Cursor(self.0);
        let read = super::index_kept::take_read(&mut c)?;
        self.0 = c.0;
        Some(Some(read))
    }

    fn line(&mut self) -> Option<(String, HeadLine<'static>)> {
        let g = self.str()?;
        let note = usize::try_from(self.u32()?).ok()?;
        let line_no = usize::try_from(self.u32()?).ok()?;
        let key = self.str()?;
        let ns = i128::from_le_bytes(self.take(16)?.try_into().ok()?);
        let saved_at = jiff::Timestamp::from_nanosecond(ns).ok()?;
        let kind = match self.take(1)? {
            [0] => RecordKind::Session,
            _ => RecordKind::ContinueHere,
        };
        let session_id = self.opt().ok()?;
        let has_seq = self.take(1)? == [1];
        let seq = u64::from_le_bytes(self.take(8)?.try_into().ok()?);
        let parent = self.opt().ok()?;
        let hash = self.opt().ok()?;
        let n = self.u32()?;
        let set_aside = (0..n).map(|_| self.str()).collect::<Option<Vec<_>>>()?;
        let head = Head {
            key,
            saved_at,
            kind,
            session_id,
            seq: has_seq.then_some(seq),
            parent,
            set_aside,
            hash,
        };
        Some((
            g,
            HeadLine {
                note,
                line_no,
                line: None,
                head,
            },
        ))
    }
}

/// Where heads are spilled: an anonymous file in the index's directory, or memory
/// when none can be made there (a read-only repository, few file descriptors): the
/// build then holds the heads as before, but still answers.
enum Scratch {
    File(BufWriter<std::fs::File>),
    Memory(Vec<u8>),
}

impl Scratch {
    /// Move to an anonymous file in `dir`, what is held so far with it; stays in memory
    /// when no file can be made there.
    fn move_to_file(&mut self, dir: &std::path::Path) {
        let Scratch::Memory(held) = self else { return };
        let _ = std::fs::create_dir_all(dir);
        let Ok(file) = tempfile::tempfile_in(dir) else {
            return;
        };
        let mut file = BufWriter::new(file);
        if file.write_all(held).is_ok() {
            *self = Scratch::File(file);
        }
    }

    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self {
            Scratch::File(f) => f.write_all(bytes),
            Scratch::Memory(m) => {
                m.extend_from_slice(bytes);
                Ok(())
            }
        }
    }

    fn bytes(self) -> std::io::Result<Vec<u8>> {
        match self {
            Scratch::Memory(m) => Ok(m),
            Scratch::File(f) => {
                let mut file = f
                    .into_inner()
                    .map_err(std::io::IntoInnerError::into_error)?;
                file.rewind()?;
                let mut bytes = Vec::new();
                file.read_to_end(&mut bytes)?;
                Ok(bytes)
            }
        }
    }
}

/// What the first pass read of a record whole: `None`, not read.
type WholeRead = Option<std::result::Result<Summary, String>>;

/// What the first pass read of a record whole, after its head.
fn put_read(out: &mut Vec<u8>, read: Option<&std::result::Result<Summary, String>>) {
    out.push(u8::from(read.is_some()));
    if let Some(read) = read {
        super::index_kept::put_read(out, read);
    }
}

/// A scratch file's heads by group (with what was read of each whole), each group's in
/// the store's order.
fn read_back(
    file: Scratch,
) -> std::io::Result<BTreeMap<String, Vec<(HeadLine<'static>, WholeRead)>>> {
    let bytes = file.bytes()?;
    let mut back = Back(&bytes);
    let mut out: BTreeMap<String, Vec<(HeadLine<'static>, WholeRead)>> = BTreeMap::new();
    while !back.0.is_empty() {
        let Some(((g, line), read)) = back.line().zip(back.read()) else {
            return Err(std::io::ErrorKind::InvalidData.into());
        };
        out.entry(g).or_default().push((line, read));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_reads_back_from_its_scratch_file_as_it_was_written() {
        let full = Head {
            key: "main/s1".into(),
            saved_at: "2026-11-30T10:00:00.123456789Z".parse().unwrap(),
            kind: RecordKind::Session,
            session_id: Some("s1".into()),
            seq: Some(7),
            parent: Some("p".repeat(64)),
            set_aside: vec!["a".into(), String::new()],
            hash: Some("h".into()),
        };
        let bare = Head {
            key: "old/é".into(),
            saved_at: "1970-01-01T00:00:00Z".parse().unwrap(),
            kind: RecordKind::ContinueHere,
            session_id: None,
            seq: None,
            parent: None,
            set_aside: Vec::new(),
            hash: None,
        };
        let mut bytes = Vec::new();
        encode(&mut bytes, "i:s1", 3, 12, &full);
        encode(&mut bytes, "k:old/é", 0, 1, &bare);
        let mut back = Back(&bytes);
        let (g, l) = back.line().unwrap();
        assert_eq!((g.as_str(), l.note, l.line_no), ("i:s1", 3, 12));
        assert_eq!(l.head, full);
        let (g, l) = back.line().unwrap();
        assert_eq!((g.as_str(), l.note, l.line_no), ("k:old/é", 0, 1));
        assert_eq!(l.head, bare);
        assert!(back.0.is_empty());
        // Cut short: no line, not a wrong one.
        assert!(Back(&bytes[..bytes.len() - 1]).line().is_some());
        let mut cut = Back(&bytes[..10]);
        assert!(cut.line().is_none());
    }

    #[test]
    fn what_was_read_whole_reads_back_after_its_head() {
        let summary = Summary {
            status: "READY".into(),
            tasks: vec![("T1".into(), "done".into()), (String::new(), "é".into())],
        };
        let reads = [
            None,
            Some(Ok(summary)),
            Some(Err("field `seq` is over".into())),
        ];
        let mut bytes = Vec::new();
        for r in &reads {
            put_read(&mut bytes, r.as_ref());
        }
        let mut back = Back(&bytes);
        for r in reads {
            assert_eq!(back.read(), Some(r));
        }
        assert!(back.0.is_empty());
        assert_eq!(Back(&bytes[..bytes.len() - 1]).read().map(|_| ()), Some(()));
        let mut cut = Back(&bytes[1..bytes.len() - 1]);
        cut.read();
        assert_eq!(cut.read(), None);
    }

    #[test]
    fn a_scratch_moved_to_a_file_midway_gives_back_all_it_was_given() {
        let dir = tempfile::tempdir().unwrap();
        let mut s = Scratch::Memory(Vec::new());
        s.write(b"held ").unwrap();
        s.move_to_file(dir.path());
        assert!(matches!(s, Scratch::File(_)));
        s.write(b"then written").unwrap();
        assert_eq!(s.bytes().unwrap(), b"held then written");
        // No directory to make a file in: it stays in memory.
        std::fs::write(dir.path().join("f"), b"a file").unwrap();
        let mut t = Scratch::Memory(b"kept".to_vec());
        t.move_to_file(&dir.path().join("f").join("g"));
        assert!(matches!(t, Scratch::Memory(_)));
        assert_eq!(t.bytes().unwrap(), b"kept");
    }
}
