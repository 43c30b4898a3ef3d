//! The open part of the notes index, `<name>.open`: the groups shown whose newest
//! record is unfinished or diverged (each with its records' lines, copied from their
//! notes), and every line passed over, so that the hook, `continue` and `status` read
//! a file the size of the open sessions, not of every session, and no note.
//!
//! Laid out so that a reader reads what it wants and no more:
//!
//! ```text
//! <MAGIC> open\n<notes ref>\n<notes commit>\n<head length> <body length> <SHA-256 of head>\n
//! <head: JSON, the lines passed over, the diverged groups, the body's SHA-256>
//! <body: one line per group, by name: <SHA-256 of the rest>\t<group, a JSON string>\t<entry JSON>\n>
//! ```
//!
//! The group is written as a JSON string, so a session id holding a TAB or a newline
//! (a record anyone can write) is escaped like the rest of the line, and `.open` is
//! still written.
//!
//! The hook in its usual case (its session on disk) reads the header and the head only
//! (a few hundred bytes): whether its session diverged, and the lines passed over. A
//! listing reads the body whole and checks it against the head's sum; a single group is
//! found by its line and checked by the line's own sum. A file whose header names
//! another format, ref or commit, whose length is not the one its header says (half
//! written), or whose sums do not hold is not used.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::FileExt;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::index_file::{Files, Heads, Located, MAGIC, parse_located, shown};
use crate::git::{CommitId, NoteText};
use crate::model::record::{Group, RecordKind};

/// Bounds for reading the file back: far beyond any real store's open sessions.
const HEAD_LIMIT: u64 = 64 << 20;
const BODY_LIMIT: u64 = 1 << 30;
/// What the first read takes: the header and, in the usual case, the whole head.
const FIRST_READ: usize = 16 << 10;

/// One open group: where its newest record and sides are, what a listing decides on
/// before it reads them, and the records' lines themselves as their notes hold them
/// (the newest first, then each side), so that a listing reads no note.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct OpenEntry {
    pub newest: Located,
    #[serde(default)]
    pub sides: Vec<Located>,
    pub key: String,
    pub finished: bool,
    pub lines: Vec<String>,
}

impl OpenEntry {
    /// Whether the entry is one an `.open` can hold: open (unfinished or diverged), one
    /// line per record it locates.
    fn well_formed(&self) -> bool {
        (!self.finished || !self.sides.is_empty()) && self.lines.len() == 1 + self.sides.len()
    }

    /// Whether this entry locates the same records as the group's entry in `heads`.
    pub fn same_place(&self, e: &super::index_file::GroupEntry) -> bool {
        e.newest.as_ref() == Some(&self.newest)
            && e.sides == self.sides
            && e.key == self.key
            && e.finished == self.finished
    }
}

/// The open part in memory: what is written, and what a listing reads back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Open {
    pub groups: BTreeMap<String, OpenEntry>,
    /// (note, line, why), in the order the readers say them.
    pub said: Vec<(String, usize, String)>,
}

/// The head: what every reader of the file wants.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Head {
    said: Vec<(String, usize, String)>,
    /// The groups whose newest record has sides.
    diverged: Vec<String>,
    groups: usize,
    /// The SHA-256 of the body.
    body: String,
}

/// Which groups `heads` lists as open (shown, with a newest record, unfinished or
/// diverged), by name.
pub fn open_groups(heads: &Heads) -> Vec<(&String, &super::index_file::GroupEntry)> {
    let shown = shown(heads);
    (heads.groups.iter())
        .filter(|(g, e)| shown(g) && e.newest.is_some() && (!e.finished || !e.sides.is_empty()))
        .collect()
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

fn sum(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The file's bytes for `open` as of `commit`.
fn encode(notes_ref: &str, commit: CommitId, open: &Open) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    for (g, e) in &open.groups {
        let rest = format!(
            "{}\t{}",
            serde_json::to_string(g).ok()?,
            serde_json::to_string(e).ok()?
        );
        body.extend_from_slice(sum(rest.as_bytes()).as_bytes());
        body.push(b'\t');
        body.extend_from_slice(rest.as_bytes());
        body.push(b'\n');
    }
    let head = Head {
        said: open.said.clone(),
        diverged: (open.groups.iter())
            .filter(|(_, e)| !e.sides.is_empty())
            .map(|(g, _)| g.clone())
            .collect(),
        groups: open.groups.len(),
        body: sum(&body),
    };
    let head = serde_json::to_vec(&head).ok()?;
    let mut out = format!(
        "{MAGIC} open\n{notes_ref}\n{commit}\n{} {} {}\n",
        head.len(),
        body.len(),
        sum(&head)
    )
    .into_bytes();
    out.extend_from_slice(&head);
    // The header and head put before the body where it lies (the body is most of the
    // file: never held twice).
    body.reserve_exact(out.len());
    body.splice(0..0, out);
    Some(body)
}

/// Write the open part for `commit` (best effort), taken from the index of that commit.
pub fn write_open(files: &Files, notes_ref: &str, commit: CommitId, open: &Open) {
    let Some(bytes) = encode(notes_ref, commit, open) else {
        return;
    };
    if let Some(dir) = files.open.parent()
        && std::fs::create_dir_all(dir).is_err()
    {
        return;
    }
    let _ = crate::support::fsio::write_cache(&files.open, &bytes);
}

/// What changed since an `.open` was written, laid over it (`index_delta.rs`): the
/// notes commit it is then of, what its head would say, the open groups whose entries
/// changed (none: no longer open), how many are open, the blob of each changed note.
pub struct Laid {
    pub commit: CommitId,
    pub said: Vec<(String, usize, String)>,
    pub diverged: Vec<String>,
    pub open: BTreeMap<String, Option<OpenEntry>>,
    pub count: usize,
    pub moved: BTreeMap<String, String>,
}

/// The file's body (or a line of it) did not hold.
pub struct Unheld;

/// An `.open` whose header and head hold: its body is read only when asked for.
pub struct OpenFile {
    pub commit: CommitId,
    pub said: Vec<(String, usize, String)>,
    diverged: Vec<String>,
    groups: usize,
    /// What changed since the file's commit, laid over it (`index_delta.rs`).
    over: Option<Box<Laid>>,
    /// The header's fourth line (the lengths and the head's sum).
    sizes: String,
    body_sum: String,
    file: std::fs::File,
    body_at: u64,
    body_len: u64,
}

/// The header's four lines in `bytes`: (format, ref, commit, lengths and sum), and
/// where the head starts.
fn header(bytes: &[u8]) -> Option<([&str; 4], usize)> {
    let mut at = 0;
    let mut lines = [""; 4];
    for l in &mut lines {
        let end = at + bytes.get(at..)?.iter().position(|b| *b == b'\n')?;
        *l = std::str::from_utf8(&bytes[at..end]).ok()?;
        at = end + 1;
    }
    Some((lines, at))
}

impl OpenFile {
    /// The file at `files.open` (a link there not followed, a FIFO not waited on) when
    /// it is a regular file of this format and of
    /// `notes_ref`, as long as its header says, and its head's sum holds.
    pub fn read(files: &Files, notes_ref: &str) -> Option<OpenFile> {
        let mut file = crate::support::read::open_own(&files.open).ok()?;
        let size = file.metadata().ok()?.len();
        let mut first = Vec::with_capacity(FIRST_READ);
        (&mut file)
            .take(FIRST_READ as u64)
            .read_to_end(&mut first)
            .ok()?;
        let ([kind, of_ref, commit, sizes], at) = header(&first)?;
        if kind.strip_prefix(MAGIC) != Some(" open") || of_ref != notes_ref {
            return None;
        }
        let commit = CommitId::from_hex(commit)?;
        let sizes_line = sizes;
        let mut sizes = sizes.split(' ');
        let head_len: u64 = sizes.next()?.parse().ok()?;
        let body_len: u64 = sizes.next()?.parse().ok()?;
        let head_sum = sizes.next()?;
        let at = at as u64;
        if sizes.next().is_some()
            || head_len > HEAD_LIMIT
            || body_len > BODY_LIMIT
            || at + head_len + body_len != size
        {
            return None;
        }
        let head = match first.get(usize::try_from(at).ok()?..usize::try_from(at + head_len).ok()?)
        {
            Some(h) => h.to_vec(),
            None => {
                let mut h = vec![0; usize::try_from(head_len).ok()?];
                file.read_exact_at(&mut h, at).ok()?;
                h
            }
        };
        if sum(&head) != head_sum {
            return None;
        }
        let head: Head = serde_json::from_slice(&head).ok()?;
        Some(OpenFile {
            commit,
            said: head.said,
            diverged: head.diverged,
            groups: head.groups,
            over: None,
            sizes: sizes_line.to_owned(),
            body_sum: head.body,
            file,
            body_at: at + head_len,
            body_len,
        })
    }

    /// The header's fourth line: what a delta laid over the file names it by.
    pub fn sizes(&self) -> &str {
        &self.sizes
    }

    /// The file as of `laid.commit`: what changed since laid over it.
    pub fn lay(&mut self, laid: Laid) {
        self.commit = laid.commit;
        self.said.clone_from(&laid.said);
        self.diverged.clone_from(&laid.diverged);
        self.over = Some(Box::new(laid));
    }

    /// The body, when its sum holds.
    fn body(&self) -> Option<Vec<u8>> {
        let mut body = vec![0; usize::try_from(self.body_len).ok()?];
        self.file.read_exact_at(&mut body, self.body_at).ok()?;
        (sum(&body) == self.body_sum).then_some(body)
    }

    /// Every group, when the body holds whole (its sum, each line's sum, the count
    /// the head says, each entry well formed).
    ///
    /// Read line by line and summed as read: the body is never held whole beside what
    /// it is parsed into (at 10,000 open groups a 27.7 MB body, which doubled the peak
    /// of the update that carries from it).
    pub fn groups(&self) -> Option<BTreeMap<String, OpenEntry>> {
        use std::io::{BufRead, Seek};
        let mut file = &self.file;
        file.seek(std::io::SeekFrom::Start(self.body_at)).ok()?;
        let mut body = std::io::BufReader::with_capacity(64 << 10, file.take(self.body_len));
        let (mut summed, mut read) = (Sha256::new(), 0u64);
        let mut out = BTreeMap::new();
        let mut line = Vec::new();
        loop {
            line.clear();
            let n = body.read_until(b'\n', &mut line).ok()?;
            if n == 0 {
                break;
            }
            summed.update(&line);
            read += n as u64;
            let l = line.strip_suffix(b"\n").unwrap_or(&line);
            if !l.is_empty() {
                let (g, e) = entry_of(l)?;
                out.insert(g, e);
            }
        }
        let holds = read == self.body_len && hex(&summed.finalize()) == self.body_sum;
        if !holds || out.len() != self.groups {
            return None;
        }
        let Some(d) = &self.over else {
            return Some(out);
        };
        for e in out.values_mut() {
            for l in std::iter::once(&mut e.newest).chain(e.sides.iter_mut()) {
                super::index_file::relocate(&d.moved, l);
            }
        }
        for (g, e) in &d.open {
            match e {
                Some(e) if e.well_formed() => drop(out.insert(g.clone(), e.clone())),
                Some(_) => return None,
                None => drop(out.remove(g)),
            }
        }
        (out.len() == d.count).then_some(out)
    }

    /// Group `group`'s entry when it diverged (`None`: it did not, or is not open);
    /// [`Unheld`] when the file does not hold. Only a diverged group's line is read:
    /// the usual answer comes from the head alone.
    pub fn diverged(&self, group: &str) -> Result<Option<OpenEntry>, Unheld> {
        if !self.diverged.iter().any(|g| g == group) {
            return Ok(None);
        }
        if let Some(d) = &self.over
            && let Some(e) = d.open.get(group)
        {
            return match e {
                Some(e) if !e.sides.is_empty() && e.well_formed() => Ok(Some(e.clone())),
                _ => Err(Unheld),
            };
        }
        let body = self.body().ok_or(Unheld)?;
        for line in body.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            let (g, e) = entry_of(line).ok_or(Unheld)?;
            if g == group {
                let mut e = e;
                if let Some(d) = &self.over {
                    for l in std::iter::once(&mut e.newest).chain(e.sides.iter_mut()) {
                        super::index_file::relocate(&d.moved, l);
                    }
                }
                return if e.sides.is_empty() {
                    Err(Unheld)
                } else {
                    Ok(Some(e))
                };
            }
        }
        Err(Unheld)
    }
}

/// One body line: the group and its entry, when the line's sum holds.
fn entry_of(line: &[u8]) -> Option<(String, OpenEntry)> {
    let tab = line.iter().position(|b| *b == b'\t')?;
    let (line_sum, rest) = (&line[..tab], &line[tab + 1..]);
    if sum(rest).as_bytes() != line_sum {
        return None;
    }
    let tab = rest.iter().position(|b| *b == b'\t')?;
    let group: String = serde_json::from_slice(&rest[..tab]).ok()?;
    let entry: OpenEntry = serde_json::from_slice(&rest[tab + 1..]).ok()?;
    entry.well_formed().then_some((group, entry))
}

/// The line `l` locates (its note's text read by `read`, the last one kept in `last`),
/// when it is a session record of group `group`.
pub(super) fn line_at(
    read: &mut dyn FnMut(NoteText) -> Option<Vec<u8>>,
    last: &mut Option<(NoteText, Option<Vec<u8>>)>,
    l: &Located,
    group: &str,
) -> Option<String> {
    let (_, blob) = parse_located(l)?;
    if last.as_ref().is_none_or(|(b, _)| *b != blob) {
        *last = Some((blob, read(blob)));
    }
    line_in(last.as_ref()?.1.as_deref()?, l, group)
}

/// The line `l` locates in `text` (its note's), when it is a session record of group
/// `group`.
pub(super) fn line_in(text: &[u8], l: &Located, group: &str) -> Option<String> {
    let line = super::index_scan::nth_line(text, l.line)?;
    of_group(line, group)?;
    String::from_utf8(line.to_vec()).ok()
}

/// Whether `line` is a session record of group `group` (its head read, not the rest).
pub fn of_group(line: &[u8], group: &str) -> Option<()> {
    let head = crate::model::record::parse_head(line)?;
    let name = match Group::of(&head) {
        Group::Id(id) => format!("i:{id}"),
        Group::Key(key) => format!("k:{key}"),
    };
    (name == group && head.kind == RecordKind::Session).then_some(())
}
