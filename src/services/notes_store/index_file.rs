//! The notes index's files and how they are checked: `<name>.heads` (what the
//! readers answer from: each group's newest record and sides, where they are),
//! `<name>.members` (which notes hold each group's records, read only to bring the
//! index up to date), `<name>.times` (each note's newest `saved_at`, for `log -n`) and
//! `<name>.open` (the part the hook, `continue` and `status` read, written and read by
//! [`super::open_file`]). Each
//! starts with a header naming the format, the notes ref, the notes commit it reflects
//! and the SHA-256 of the rest; a file whose header or sum does not hold is not used.
//! `<name>.delta` (`index_delta.rs`) lays what changed since over the other three: a
//! reader of each applies it when it was written over that very file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::git::{CommitId, NoteText};

/// The format, and the reader it was built by: an index built by another version of the
/// tool is built again, since how records are read (a new record kind, claims) may have
/// changed. A change to how a record line is read within one version bumps the number.
pub(super) const MAGIC: &str = concat!("git-handover notes-index 9 ", env!("CARGO_PKG_VERSION"));
/// Bounds for reading the files back: far beyond any real store's index.
const HEADS_LIMIT: u64 = 256 << 20;
const TIMES_LIMIT: u64 = 1 << 30;

/// Where a record is: the note (by the object it annotates), the note's blob, the line.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Located {
    pub note: String,
    pub blob: String,
    pub line: usize,
}

/// One group's answer (a session's, or an old key's): its newest record and the sides
/// it diverged into, the keys its records carry, and its lines passed over.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct GroupEntry {
    pub newest: Option<Located>,
    #[serde(default)]
    pub sides: Vec<Located>,
    #[serde(default)]
    pub keys: Vec<String>,
    /// The keys of its other records (continue-here notes, records without a session
    /// id among them) not in `keys`: what `log KEY` looks for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other_keys: Vec<String>,
    /// (note, line, why).
    #[serde(default)]
    pub skipped: Vec<(String, usize, String)>,
    /// The newest record's key, and whether its state is finished: what a listing
    /// decides on before it reads the record.
    #[serde(default)]
    pub key: String,
    #[serde(default)]
    pub finished: bool,
}

/// A line of a note that is no record (or the whole note, over the size limit).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct NoteSkip {
    pub line: usize,
    pub why: String,
}

/// The readers' half of the index.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Heads {
    /// By group name: `i:<session id>` or `k:<key>` (records without an id).
    pub groups: BTreeMap<String, GroupEntry>,
    /// By note (annotated object, hex): its lines that are not records.
    pub notes: BTreeMap<String, Vec<NoteSkip>>,
    /// Only the groups an update of `index_delta.rs` asked for are here (each taken
    /// from its members' part as it is asked for), not every group.
    #[serde(skip)]
    pub partial: bool,
}

/// Whether a group is listed: a group of records without an id is not when a group
/// with ids has its key (those records are that session's, written before ids).
pub fn shown(heads: &Heads) -> impl Fn(&str) -> bool + '_ {
    let with_ids: std::collections::HashSet<&str> = (heads.groups.iter())
        .filter(|(g, _)| g.starts_with("i:"))
        .flat_map(|(_, e)| e.keys.iter().map(String::as_str))
        .collect();
    move |g: &str| g.strip_prefix("k:").is_none_or(|k| !with_ids.contains(k))
}

/// Every line passed over, as the store's reader says them: by note, its own lines
/// first, then each shown group's in group order.
pub fn said(heads: &Heads) -> Vec<(String, usize, String)> {
    let shown = shown(heads);
    let mut skipped: Vec<(&str, usize, usize, usize, &str)> = Vec::new();
    for (note, skips) in &heads.notes {
        for (i, s) in skips.iter().enumerate() {
            skipped.push((note, 0, i, s.line, &s.why));
        }
    }
    let mut n = 0;
    for (_, e) in heads.groups.iter().filter(|(g, _)| shown(g)) {
        for (note, line, why) in &e.skipped {
            n += 1;
            skipped.push((note, 1, n, *line, why));
        }
    }
    skipped.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
    (skipped.into_iter())
        .map(|(note, _, _, line, why)| (note.to_owned(), line, why.to_owned()))
        .collect()
}

/// By note (the annotated object): the newest `saved_at` of its records, what `log -n`
/// reads the notes in the order of, stopping when no unread note can hold a newer one.
pub type Times = BTreeMap<CommitId, jiff::Timestamp>;

/// The files of the index of one notes ref.
pub struct Files {
    pub heads: PathBuf,
    pub members: PathBuf,
    pub times: PathBuf,
    pub open: PathBuf,
    pub delta: PathBuf,
}

impl Files {
    pub fn at(base: &Path) -> Files {
        let with = |ext: &str| {
            let mut p = base.as_os_str().to_owned();
            p.push(ext);
            PathBuf::from(p)
        };
        Files {
            heads: with(".heads"),
            members: with(".members"),
            times: with(".times"),
            open: with(".open"),
            delta: with(".delta"),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

pub(super) fn wrap(kind: &str, notes_ref: &str, commit: CommitId, body: &[u8]) -> Vec<u8> {
    let sum = hex(&Sha256::digest(body));
    let mut out = format!("{MAGIC} {kind}\n{notes_ref}\n{commit}\n{sum}\n").into_bytes();
    out.extend_from_slice(body);
    out
}

/// The body of a file of `kind`, and the notes commit it reflects, when its header
/// names this format and `notes_ref` and its sum holds.
pub(super) fn unwrap(bytes: &[u8], kind: &str, notes_ref: &str) -> Option<(CommitId, Vec<u8>)> {
    let mut at = 0;
    let mut line = || {
        let end = at + bytes.get(at..)?.iter().position(|b| *b == b'\n')?;
        let l = std::str::from_utf8(&bytes[at..end]).ok()?;
        at = end + 1;
        Some(l)
    };
    if line()? != format!("{MAGIC} {kind}") || line()? != notes_ref {
        return None;
    }
    let commit = CommitId::from_hex(line()?)?;
    let sum = line()?.to_owned();
    let body = &bytes[at..];
    (hex(&Sha256::digest(body)) == sum).then(|| (commit, body.to_vec()))
}

/// The readers' half as of its notes commit, with its fourth header line (its sum),
/// when the file is there and whole (what a delta was laid over: `index_delta.rs`).
pub fn read_heads(files: &Files, notes_ref: &str) -> Option<(CommitId, Heads, String)> {
    let bytes = crate::support::read::read_regular(&files.heads, HEADS_LIMIT).ok()?;
    let (commit, body) = unwrap(&bytes, "heads", notes_ref)?;
    let heads: Heads = serde_json::from_slice(&body).ok()?;
    Some((commit, heads, header(&bytes)?[3].to_owned()))
}

/// The first four lines of an index file (format, ref, commit, sum or sizes).
pub(super) fn header(bytes: &[u8]) -> Option<[&str; 4]> {
    let mut at = 0;
    let mut lines = [""; 4];
    for l in &mut lines {
        let end = at + bytes.get(at..)?.iter().position(|b| *b == b'\n')?;
        *l = std::str::from_utf8(&bytes[at..end]).ok()?;
        at = end + 1;
    }
    Some(lines)
}

/// The times as of their notes commit, with its fourth header line, when the file is
/// there and whole.
pub fn read_times(files: &Files, notes_ref: &str) -> Option<(CommitId, Times, String)> {
    let bytes = crate::support::read::read_regular(&files.times, TIMES_LIMIT).ok()?;
    let (of, body) = unwrap(&bytes, "times", notes_ref)?;
    if body.len() % 36 != 0 {
        return None;
    }
    // 20-byte id, then the time in nanoseconds (i128 LE).
    let mut out = Times::new();
    for chunk in body.chunks_exact(36) {
        let ns = i128::from_le_bytes(chunk[20..].try_into().ok()?);
        let at = jiff::Timestamp::from_nanosecond(ns).ok()?;
        out.insert(CommitId::from_bytes(&chunk[..20])?, at);
    }
    Some((of, out, header(&bytes)?[3].to_owned()))
}

/// `l` naming its note's blob as `moved` says it is now (a note whose lines were only
/// appended to since holds the record at the same line): what a delta lays over.
pub fn relocate(moved: &BTreeMap<String, String>, l: &mut Located) {
    if let Some(b) = moved.get(&l.note) {
        l.blob.clone_from(b);
    }
}

/// An index file's first bytes (a regular file's, a link not followed), enough for its
/// header, and its size.
pub(super) fn first_bytes(path: &Path) -> Option<(std::fs::File, Vec<u8>, u64)> {
    use std::io::Read;
    let mut f = crate::support::read::open_own(path).ok()?;
    let meta = f.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut first = Vec::with_capacity(1024);
    (&mut f).take(1024).read_to_end(&mut first).ok()?;
    Some((f, first, meta.len()))
}

/// The `.times` file of `base` whose fourth header line is `line`, its records
/// (20-byte id, i128 LE ns, sorted) read one at a time, its body not summed (a reader
/// of the times sums it): what an update laid over the files looks a note's time up in.
pub(super) struct TimesFile {
    file: std::fs::File,
    at: u64,
    n: u64,
}

impl TimesFile {
    pub fn open(files: &Files, notes_ref: &str, base: CommitId, line: &str) -> Option<TimesFile> {
        let (file, first, size) = first_bytes(&files.times)?;
        let lines = header(&first)?;
        if lines[0] != format!("{MAGIC} times")
            || lines[1] != notes_ref
            || lines[2] != base.to_string()
            || lines[3] != line
        {
            return None;
        }
        let at: u64 = lines.iter().map(|l| l.len() as u64 + 1).sum();
        let body = size.checked_sub(at)?;
        (body % 36 == 0).then_some(TimesFile {
            file,
            at,
            n: body / 36,
        })
    }

    /// The time of `note` (`Ok(None)`: the file has none); `Err`: the file does not
    /// read.
    pub fn find(&self, note: CommitId) -> Result<Option<i128>, ()> {
        use std::os::unix::fs::FileExt;
        let (mut lo, mut hi) = (0, self.n);
        let mut rec = [0u8; 36];
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            (self.file.read_exact_at(&mut rec, self.at + mid * 36)).map_err(drop)?;
            match rec[..20].cmp(note.as_bytes()) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let ns = rec[20..].try_into().map_err(drop)?;
                    return Ok(Some(i128::from_le_bytes(ns)));
                }
            }
        }
        Ok(None)
    }
}

/// Write the files for `commit` after its members (`index_members.rs`): the times
/// next, so that readers that find the new heads never pair them with older ones
/// unnoticed (each names its commit). Best effort: an index that cannot be written is
/// rebuilt next time (`false`: a file was not written).
pub fn write(files: &Files, notes_ref: &str, commit: CommitId, index: (&Heads, &Times)) -> bool {
    let (heads, times) = index;
    let mut body = Vec::with_capacity(times.len() * 36);
    for (note, at) in times {
        body.extend_from_slice(note.as_bytes());
        body.extend_from_slice(&at.as_nanosecond().to_le_bytes());
    }
    let times = wrap("times", notes_ref, commit, &body);
    if crate::support::fsio::write_cache(&files.times, &times).is_err() {
        return false;
    }
    // A test stops here, between the two files, to kill the process mid-update.
    crate::support::testing::pause("notes-index-write");
    let Ok(body) = serde_json::to_vec(heads) else {
        return false;
    };
    crate::support::fsio::write_cache(&files.heads, &wrap("heads", notes_ref, commit, &body))
        .is_ok()
}

/// A located record's note and blob, when the index's text names real ids.
pub fn parse_located(l: &Located) -> Option<(CommitId, NoteText)> {
    Some((CommitId::from_hex(&l.note)?, NoteText::from_hex(&l.blob)?))
}
