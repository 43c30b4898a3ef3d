//! The notes index's members (which notes hold each group's records), kept in parts so
//! that an update reads and rewrites only the parts of the groups whose notes changed,
//! not the whole table (issue 36: at 1,000,000 records the table is 20 MB; one record
//! appended made the next reader read, copy and rewrite all of it).
//!
//! A group's part is fixed by its name (FNV-1a, [`PARTS`] parts). `<name>.members` is the
//! manifest: the usual header (format, ref, commit, sum of the body) and a body of the
//! SHA-256 of each part's file, all zeros for a part with no group (no file). A part is
//! `<name>.members.d/<xxx>`, its groups in name order: name length (u32 LE), name, the
//! length of the group's body (u32 LE), then the body (decoded only when the group is
//! asked for: a part holds about 10 groups at 1,000,000 records, an update asks for one): count
//! (u32 LE), count × 20-byte note ids, then the group's seen names: count (u32 LE),
//! count × u64 LE, sorted — [`seen`] of every record's `session_hash` and of every
//! name its records give as `parent` or set aside (what lets an update add one record
//! on top of a group's newest without reading the group's notes, `index_update.rs`;
//! a name that collides only sends it the long way), the group's kept records, and its
//! entry of `.heads` (length u32 LE, then JSON; length 0: none), which an update laid
//! over the files as a delta (`index_delta.rs`) starts from instead of reading `.heads`
//! whole (an entry whose records' note only had lines appended since may still name
//! that note's older blob: the same line there). A part whose bytes are not the ones its manifest
//! names (a half-written update, another process's newer part, a forged file) is not
//! used: the index is then built afresh. Parts are written before the manifest.

use std::collections::BTreeMap;
use std::path::PathBuf;

use sha2::{Digest, Sha256};

use super::index_file::Files;
use super::index_kept::{Cursor, Kept};
use crate::git::CommitId;

/// How many parts: at 1,000,000 records (10,000 sessions, 10 a part) about 36 KB each;
/// an update reads, sums and writes its groups' parts (with 256 parts, 143 KB each:
/// 0.4 ms more of the update after another tool's record).
pub const PARTS: usize = 1024;
const PART_LIMIT: u64 = 64 << 20;
const EMPTY: [u8; 32] = [0; 32];

/// The part of group `name`.
pub fn part_of(name: &str) -> usize {
    usize::try_from(seen(name) % PARTS as u64).unwrap_or(0)
}

/// One group's notes, seen names and newest records that hold a state.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Member {
    pub notes: Vec<CommitId>,
    pub seen: Vec<u64>,
    pub kept: Kept,
    /// The group's entry of `.heads`.
    pub entry: Option<super::index_file::GroupEntry>,
}

/// A part's groups: each as read (its body's place in the part's bytes, decoded when
/// first asked for) or decoded.
#[derive(Default)]
struct Part {
    bytes: Vec<u8>,
    groups: BTreeMap<String, Slot>,
}

enum Slot {
    Read(std::ops::Range<usize>),
    Decoded(Box<Member>),
}

/// A name's 64-bit FNV-1a (for [`Member::seen`]).
pub fn seen(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The members as read so far: the manifest's sums, the parts loaded, and which of
/// them were changed (to be written back).
pub struct Parts {
    sums: Vec<[u8; 32]>,
    loaded: BTreeMap<usize, Part>,
    changed: std::collections::BTreeSet<usize>,
    /// A part could not be written: no manifest may name the parts.
    broken: bool,
    /// Every group asked for (what an update touched).
    asked: std::collections::BTreeSet<String>,
    /// A build's: once its manifest is written, the files of no part are removed.
    built: bool,
}

fn dir(files: &Files) -> PathBuf {
    let mut p = files.members.as_os_str().to_owned();
    p.push(".d");
    PathBuf::from(p)
}

fn part_path(files: &Files, part: usize) -> PathBuf {
    dir(files).join(format!("{part:03x}"))
}

/// The groups of part `part` read from its bytes, their bodies not decoded; `None` when
/// the bytes do not hold them or a group is not of this part.
fn read_part(bytes: Vec<u8>, part: usize) -> Option<Part> {
    let mut groups = BTreeMap::new();
    let mut c = Cursor(&bytes);
    while !c.0.is_empty() {
        let len = c.u32()?;
        let name = String::from_utf8(c.take(len)?.to_vec()).ok()?;
        let len = c.u32()?;
        let start = bytes.len() - c.0.len();
        c.take(len)?;
        if part_of(&name) != part {
            return None;
        }
        groups.insert(name, Slot::Read(start..start + len));
    }
    Some(Part { bytes, groups })
}

/// A group's body read back; `None` when the bytes do not hold one.
fn decode(body: &[u8]) -> Option<Member> {
    let mut c = Cursor(body);
    let count = c.u32()?;
    let mut m = Member::default();
    m.notes.reserve(count.min(1 << 16));
    for _ in 0..count {
        m.notes.push(CommitId::from_bytes(c.take(20)?)?);
    }
    let count = c.u32()?;
    m.seen.reserve(count.min(1 << 16));
    for _ in 0..count {
        m.seen.push(c.u64()?);
    }
    m.kept = super::index_kept::decode(&mut c)?;
    let len = c.u32()?;
    if len > 0 {
        m.entry = Some(serde_json::from_slice(c.take(len)?).ok()?);
    }
    c.0.is_empty().then_some(m)
}

/// Group `name` with body `body` appended to a part's bytes.
fn put_group(out: &mut Vec<u8>, name: &str, body: &[u8]) -> Option<()> {
    out.extend_from_slice(&u32::try_from(name.len()).ok()?.to_le_bytes());
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&u32::try_from(body.len()).ok()?.to_le_bytes());
    out.extend_from_slice(body);
    Some(())
}

/// A group's body.
fn encode_member(m: &Member) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    body.extend_from_slice(&u32::try_from(m.notes.len()).ok()?.to_le_bytes());
    for n in &m.notes {
        body.extend_from_slice(n.as_bytes());
    }
    body.extend_from_slice(&u32::try_from(m.seen.len()).ok()?.to_le_bytes());
    for s in &m.seen {
        body.extend_from_slice(&s.to_le_bytes());
    }
    super::index_kept::encode(&mut body, &m.kept);
    let entry = match &m.entry {
        Some(e) => serde_json::to_vec(e).ok()?,
        None => Vec::new(),
    };
    body.extend_from_slice(&u32::try_from(entry.len()).ok()?.to_le_bytes());
    body.extend_from_slice(&entry);
    Some(body)
}

/// A build's part (every group decoded): a group without notes is left out.
fn encode(members: &BTreeMap<String, Member>) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for (name, m) in members.iter().filter(|(_, m)| !m.notes.is_empty()) {
        put_group(&mut out, name, &encode_member(m)?)?;
    }
    Some(out)
}

impl Part {
    /// Its bytes again, the groups not decoded copied as read; a group without notes
    /// is left out.
    fn encode(&self) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(self.bytes.len() + 4096);
        for (name, slot) in &self.groups {
            match slot {
                Slot::Read(r) => put_group(&mut out, name, self.bytes.get(r.clone())?)?,
                Slot::Decoded(m) if m.notes.is_empty() => {}
                Slot::Decoded(m) => put_group(&mut out, name, &encode_member(m)?)?,
            }
        }
        Some(out)
    }

    /// Group `g`, decoded (an empty one when the part has none); `None` when its body
    /// does not hold one.
    fn member(&mut self, g: &str) -> Option<&mut Member> {
        let slot = (self.groups)
            .entry(g.to_owned())
            .or_insert_with(|| Slot::Decoded(Box::default()));
        if let Slot::Read(r) = slot {
            *slot = Slot::Decoded(Box::new(decode(self.bytes.get(r.clone())?)?));
        }
        match slot {
            Slot::Decoded(m) => Some(m),
            Slot::Read(_) => None,
        }
    }
}

impl Parts {
    /// The manifest of `commit`, when it is there, whole and of that commit (no part
    /// read yet).
    pub fn open(files: &Files, notes_ref: &str, commit: CommitId) -> Option<Parts> {
        let bytes = crate::support::read::read_regular(&files.members, PART_LIMIT).ok()?;
        let (of, body) = super::index_file::unwrap(&bytes, "members", notes_ref)?;
        if of != commit || body.len() != PARTS * 32 {
            return None;
        }
        Some(Parts {
            sums: body
                .chunks_exact(32)
                .map(|c| c.try_into().unwrap_or(EMPTY))
                .collect(),
            loaded: BTreeMap::new(),
            changed: std::collections::BTreeSet::new(),
            broken: false,
            asked: std::collections::BTreeSet::new(),
            built: false,
        })
    }

    /// No part yet: a build's, each part written by [`Parts::put`] as it is made.
    pub fn empty() -> Parts {
        Parts {
            sums: vec![EMPTY; PARTS],
            loaded: BTreeMap::new(),
            changed: std::collections::BTreeSet::new(),
            broken: false,
            asked: std::collections::BTreeSet::new(),
            built: true,
        }
    }

    /// Write part `part` now (its groups are not kept), for the manifest
    /// [`Parts::write`] writes last. When it cannot be written, no manifest is.
    pub fn put(&mut self, files: &Files, part: usize, members: &BTreeMap<String, Member>) {
        if self.write_part(files, part, members).is_none() {
            self.broken = true;
        }
    }

    fn write_part(
        &mut self,
        files: &Files,
        part: usize,
        members: &BTreeMap<String, Member>,
    ) -> Option<()> {
        std::fs::create_dir_all(dir(files)).ok()?;
        let body = encode(members)?;
        let path = part_path(files, part);
        if body.is_empty() {
            self.sums[part] = EMPTY;
            let _ = std::fs::remove_file(&path);
            return Some(());
        }
        self.sums[part] = Sha256::digest(&body).into();
        crate::support::fsio::write_cache(&path, &body).ok()
    }

    /// Part `part`, read (and checked against the manifest) on first use; `None` when
    /// its file is not the one the manifest names.
    fn part(&mut self, files: &Files, part: usize) -> Option<&mut Part> {
        if !self.loaded.contains_key(&part) {
            let sum = *self.sums.get(part)?;
            let m = if sum == EMPTY {
                Part::default()
            } else {
                let bytes =
                    crate::support::read::read_regular(&part_path(files, part), PART_LIMIT).ok()?;
                if <[u8; 32]>::from(Sha256::digest(&bytes)) != sum {
                    return None;
                }
                read_part(bytes, part)?
            };
            self.loaded.insert(part, m);
        }
        self.loaded.get_mut(&part)
    }

    /// Group `g`'s notes and seen names (empty when it has none); `None`: its part
    /// does not hold.
    pub fn get(&mut self, files: &Files, g: &str) -> Option<&Member> {
        static NONE: Member = Member {
            notes: Vec::new(),
            seen: Vec::new(),
            kept: Kept {
                records: Vec::new(),
                all: true,
            },
            entry: None,
        };
        if !self.asked.contains(g) {
            self.asked.insert(g.to_owned());
        }
        let part = self.part(files, part_of(g))?;
        if !part.groups.contains_key(g) {
            return Some(&NONE);
        }
        part.member(g).map(|m| &*m)
    }

    /// Group `g`'s notes and seen names, to change; `None`: its part does not hold.
    pub fn get_mut(&mut self, files: &Files, g: &str) -> Option<&mut Member> {
        let part = part_of(g);
        self.changed.insert(part);
        if !self.asked.contains(g) {
            self.asked.insert(g.to_owned());
        }
        self.part(files, part)?.member(g)
    }

    /// The groups an update of a partial `heads` (`index_delta.rs`) asked for, each
    /// taken from its part (what `index_update.rs` calls before it settles the groups).
    pub fn fill(&mut self, heads: &mut super::index_file::Heads, files: &Files) {
        if !heads.partial {
            return;
        }
        let asked: Vec<String> = self.asked.iter().cloned().collect();
        for g in asked {
            if heads.groups.contains_key(&g) {
                continue;
            }
            if let Some(e) = self.get(files, &g).and_then(|m| m.entry.clone()) {
                heads.groups.insert(g, e);
            }
        }
    }

    /// Every group asked for so far.
    pub fn asked(&self) -> &std::collections::BTreeSet<String> {
        &self.asked
    }

    /// Each group asked for takes its entry from `heads` (its `.heads` entry as of the
    /// commit about to be written; none when it has none), its part rewritten only when
    /// that changes it. `None`: a part does not hold.
    pub fn take_entries(&mut self, files: &Files, heads: &super::index_file::Heads) -> Option<()> {
        for g in std::mem::take(&mut self.asked) {
            let e = heads.groups.get(&g);
            if self.get(files, &g)?.entry.as_ref() != e {
                self.get_mut(files, &g)?.entry = e.cloned();
            }
        }
        Some(())
    }

    /// Write the changed parts, then the manifest of `commit`. `None` when a write
    /// failed (the index is then not of `commit`, and is built again next time).
    pub fn write(mut self, files: &Files, notes_ref: &str, commit: CommitId) -> Option<()> {
        if self.broken {
            return None;
        }
        // The index's directory and the parts' (made here: the members come first).
        std::fs::create_dir_all(dir(files)).ok()?;
        for part in std::mem::take(&mut self.changed) {
            let body = match self.loaded.get(&part) {
                Some(p) => p.encode()?,
                None => Vec::new(),
            };
            let path = part_path(files, part);
            if body.is_empty() {
                self.sums[part] = EMPTY;
                let _ = std::fs::remove_file(&path);
                continue;
            }
            self.sums[part] = Sha256::digest(&body).into();
            crate::support::fsio::write_cache(&path, &body).ok()?;
        }
        // A test kills the process here: parts of the new commit under the old manifest.
        crate::support::testing::pause("notes-index-parts");
        let body = self.sums.concat();
        let manifest = super::index_file::wrap("members", notes_ref, commit, &body);
        crate::support::fsio::write_cache(&files.members, &manifest).ok()?;
        if self.built {
            sweep(files);
        }
        Some(())
    }
}

/// Remove the files of the parts' directory that are no part (an index of another
/// format's parts: 256 of them, named by two hex digits, were 36 MB at 1,000,000
/// records); another process's temporary files are left alone.
fn sweep(files: &Files) {
    let Ok(entries) = std::fs::read_dir(dir(files)) else {
        return;
    };
    let part = |name: &str| {
        name.len() == 3
            && usize::from_str_radix(name, 16).is_ok_and(|p| p < PARTS)
            && name
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if !part(&name) && !name.starts_with(crate::support::fsio::TEMP_PREFIX) {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Remove the members' files (the manifest and every part).
pub fn forget(files: &Files) {
    let _ = std::fs::remove_file(&files.members);
    let _ = std::fs::remove_dir_all(dir(files));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(n: u8) -> Member {
        Member {
            notes: vec![CommitId::from_bytes(&[n; 20]).unwrap()],
            seen: vec![u64::from(n), 7],
            ..Member::default()
        }
    }

    #[test]
    fn a_part_read_lazily_writes_back_what_it_read_and_what_changed() {
        // Three groups of one part, as a build writes them.
        let names: Vec<String> = (0..5000)
            .map(|i| format!("i:s{i}"))
            .filter(|g| part_of(g) == 3)
            .take(3)
            .collect();
        let built: BTreeMap<String, Member> = names
            .iter()
            .zip(1..)
            .map(|(g, n)| (g.clone(), member(n)))
            .collect();
        let bytes = encode(&built).unwrap();
        // Nothing asked: written back byte for byte.
        let mut part = read_part(bytes.clone(), 3).unwrap();
        assert_eq!(part.encode().unwrap(), bytes);
        // One asked and changed, one emptied: the third copied as read.
        part.member(&names[0]).unwrap().seen.push(9);
        part.member(&names[1]).unwrap().notes.clear();
        let mut want = built.clone();
        want.get_mut(&names[0]).unwrap().seen.push(9);
        want.get_mut(&names[1]).unwrap().notes.clear();
        assert_eq!(part.encode().unwrap(), encode(&want).unwrap());
        // Not of this part: not read; a body that does not read as one: not decoded.
        assert!(read_part(bytes.clone(), 4).is_none());
        let mut longer = read_part(bytes, 3).unwrap();
        let Some(Slot::Read(r)) = longer.groups.get_mut(&names[2]) else {
            panic!("read lazily");
        };
        r.start -= 1;
        assert!(longer.member(&names[2]).is_none());
    }
}
