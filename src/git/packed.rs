//! Reading objects from packs without opening their indexes gix's way.
//!
//! gix checks a pack index on opening by reading its whole offset table before the
//! first lookup (most of a session-start hook on a large pack), and then keeps the
//! index and the pack mapped: every page a long walk touched stays resident (a walk
//! without a commit-graph touches the whole pack and index). Git itself checks only
//! the index's size when opening it, and each large offset when it is used. This
//! module looks ids up git's way, with `pread` (an interpolation search: ids are
//! spread evenly, so one read of [`WINDOW`] ids nearly always holds the one looked
//! for), every bound checked on use, and decodes the entry with gix's own pack reader
//! through a mapping made again every [`REMAP_EVERY`] reads.
//!
//! Every object read here is hashed and compared with the id it was asked for: a
//! damaged index or pack can make a lookup miss (the caller then asks gix, which
//! reports the damage), never answer with other content. Only [`Packs::kind`] is not
//! hashed (it reads entry headers); its callers believe it only when it says commit.

use std::cell::{Cell, OnceCell, RefCell};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

use gix::odb::pack;

/// The largest object decoded here: commits and tags, never blobs.
const MAX_OBJECT: usize = 16 << 20;

const V2_MAGIC: [u8; 4] = *b"\xfftOc";
const HEADER_LEN: usize = 8 + 256 * 4;
const HEADER: u64 = HEADER_LEN as u64;
/// The longest id (SHA-256).
const MAX_HASH: usize = 32;
/// How many ids one read of an index brings in.
const WINDOW: usize = 128;

/// The packs of one object directory, their indexes opened on first use.
pub(super) struct Packs {
    all: Vec<Pack>,
    hash: gix::hash::Kind,
    /// The pack that gave the last answer.
    last: Cell<usize>,
}

struct Pack {
    idx_path: PathBuf,
    idx: OnceCell<Option<Index>>,
    /// The pack's mapping (`None`: not opened; `Some(None)`: it cannot be), let go of
    /// and made again every [`REMAP_EVERY`] reads (see there).
    #[allow(clippy::option_option)]
    data: RefCell<Option<Option<pack::data::File>>>,
    reads: Cell<u32>,
    /// Inflating state, kept from one object to the next (its window is 32 KiB).
    inflate: RefCell<gix::zlib::Inflate>,
}

/// A long walk without a commit-graph reads every commit of the history from the
/// pack; each page of a mapping it touches (and, through the kernel's fault-around,
/// its neighbours) stays resident while the mapping lives: the whole pack. Mapped
/// again after this many reads, the walk keeps
/// only a window of it resident, for an `mmap` every few hundred commits.
const REMAP_EVERY: u32 = 256;

/// A version 2 pack index, checked for size only.
struct Index {
    file: File,
    fan: [u32; 256],
    count: u64,
    /// How many 64-bit offsets follow the 32-bit ones.
    large: u64,
}

impl Packs {
    /// The packs in `objects/pack`, newest first (as git and gix look), then those of
    /// its alternates (`objects/info/alternates`, followed as gix follows them; when
    /// they cannot be, their objects are left to gix).
    pub(super) fn at(objects: &std::path::Path, hash: gix::hash::Kind) -> Self {
        let cwd = std::env::current_dir().unwrap_or_default();
        let alternates = gix::odb::alternate::resolve(objects.to_owned(), &cwd).unwrap_or_default();
        let packs = std::iter::once(objects)
            .chain(alternates.iter().map(PathBuf::as_path))
            .flat_map(Self::in_dir)
            .map(|idx_path| Pack {
                idx_path,
                idx: OnceCell::new(),
                data: RefCell::new(None),
                reads: Cell::new(0),
                inflate: RefCell::default(),
            })
            .collect();
        Self {
            all: packs,
            hash,
            last: Cell::new(0),
        }
    }

    /// The pack indexes of one object directory, newest first.
    fn in_dir(objects: &std::path::Path) -> Vec<PathBuf> {
        let mut found: Vec<(std::time::SystemTime, PathBuf)> =
            std::fs::read_dir(objects.join("pack"))
                .into_iter()
                .flatten()
                .flatten()
                .filter_map(|e| {
                    let path = e.path();
                    (path.extension().is_some_and(|x| x == "idx")).then(|| {
                        let mtime = e
                            .metadata()
                            .and_then(|m| m.modified())
                            .unwrap_or(std::time::UNIX_EPOCH);
                        (mtime, path)
                    })
                })
                .collect();
        found.sort_by_key(|f| std::cmp::Reverse(f.0));
        found.into_iter().map(|(_, path)| path).collect()
    }

    /// The object `id`, when a pack holds it, it could be read, and it hashes to `id`.
    pub(super) fn find(&self, id: &gix::oid) -> Option<(gix::objs::Kind, Vec<u8>)> {
        self.first(|p| p.find(id, self.hash))
    }

    /// The kind of object `id`, when a pack holds it and its headers can be read. Not
    /// hashed: a damaged index can name another object's kind here (git, which reads
    /// kinds from headers too, believes it as well); the caller believes only a commit.
    pub(super) fn kind(&self, id: &gix::oid) -> Option<gix::objs::Kind> {
        self.first(|p| p.kind(id, self.hash))
    }

    /// The first answer of `ask` over the packs, the pack of the last answer asked
    /// first (as git does): a walk reads most commits from one large pack, and every
    /// pack asked before the one holding an id costs a read of its index (a repository
    /// between two `gc`s can hold 50 packs).
    fn first<T>(&self, ask: impl Fn(&Pack) -> Option<T>) -> Option<T> {
        let last = self.last.get();
        if let Some(found) = self.all.get(last).and_then(&ask) {
            return Some(found);
        }
        let (i, found) = self
            .all
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != last)
            .find_map(|(i, p)| ask(p).map(|f| (i, f)))?;
        self.last.set(i);
        Some(found)
    }
}

impl Pack {
    /// The index, opened on first use (`None` when it cannot be read git's way).
    fn index(&self, hash: gix::hash::Kind) -> Option<&Index> {
        self.idx
            .get_or_init(|| Index::open(&self.idx_path, hash))
            .as_ref()
    }

    /// `with` given the pack's data, mapped when first needed and again every
    /// [`REMAP_EVERY`] calls.
    fn with_data<T>(
        &self,
        hash: gix::hash::Kind,
        with: impl FnOnce(&pack::data::File) -> Option<T>,
    ) -> Option<T> {
        let reads = self.reads.get().wrapping_add(1);
        self.reads.set(reads);
        let mut data = self.data.borrow_mut();
        if reads.is_multiple_of(REMAP_EVERY) && matches!(*data, Some(Some(_))) {
            *data = None;
        }
        let data = data
            .get_or_insert_with(|| {
                // gix opens the pack blocking: a FIFO in its place is refused first.
                let path = self.idx_path.with_extension("pack");
                std::fs::metadata(&path)
                    .ok()
                    .filter(std::fs::Metadata::is_file)?;
                pack::data::File::at(path, hash)
                    .ok()
                    .map(|f| f.with_alloc_limit_bytes(Some(MAX_OBJECT * 2)))
            })
            .as_ref()?;
        with(data)
    }

    fn find(&self, id: &gix::oid, hash: gix::hash::Kind) -> Option<(gix::objs::Kind, Vec<u8>)> {
        let idx = self.index(hash)?;
        let offset = idx.offset_of(id, hash)?;
        self.with_data(hash, |data| {
            let entry = data.entry(offset).ok()?;
            let mut out = Vec::new();
            let resolve = |base: &gix::oid, _: &mut Vec<u8>| {
                Ok(idx
                    .offset_of(base, hash)
                    .and_then(|o| data.entry(o).ok())
                    .map(pack::data::decode::entry::ResolvedBase::InPack))
            };
            let outcome = data
                .decode_entry(
                    entry,
                    &mut out,
                    &mut self.inflate.borrow_mut(),
                    &resolve,
                    &mut pack::cache::Never,
                )
                .ok()?;
            if out.len() > MAX_OBJECT {
                return None;
            }
            let actual = gix::objs::compute_hash(hash, outcome.kind, &out).ok()?;
            (actual == id).then_some((outcome.kind, out))
        })
    }

    /// The kind of object `id`, from the headers of its entry and of the entries its
    /// deltas rest on, nothing inflated but the first bytes of a delta.
    fn kind(&self, id: &gix::oid, hash: gix::hash::Kind) -> Option<gix::objs::Kind> {
        let idx = self.index(hash)?;
        let offset = idx.offset_of(id, hash)?;
        self.with_data(hash, |data| {
            let entry = data.entry(offset).ok()?;
            let resolve = |base: &gix::oid| {
                Ok(idx
                    .offset_of(base, hash)
                    .and_then(|o| data.entry(o).ok())
                    .map(pack::data::decode::header::ResolvedBase::InPack))
            };
            data.decode_header(entry, &mut self.inflate.borrow_mut(), &resolve)
                .ok()
                .map(|o| o.kind)
        })
    }
}

impl Index {
    fn open(path: &std::path::Path, hash: gix::hash::Kind) -> Option<Self> {
        let file = crate::support::fsio::open_regular(path).ok()?;
        let len = file.metadata().ok()?.len();
        let mut head = [0u8; HEADER_LEN];
        file.read_exact_at(&mut head, 0).ok()?;
        // Version 2 only; a version 1 index (not written since 2009) is left to gix.
        if head[..4] != V2_MAGIC || head[4..8] != [0, 0, 0, 2] {
            return None;
        }
        let mut fan = [0u32; 256];
        for (i, f) in fan.iter_mut().enumerate() {
            let at = 8 + i * 4;
            *f = u32::from_be_bytes(head[at..at + 4].try_into().ok()?);
        }
        if fan.windows(2).any(|w| w[0] > w[1]) {
            return None;
        }
        let count = u64::from(fan[255]);
        let h = hash.len_in_bytes() as u64;
        // ids, CRCs, 32-bit offsets, then 64-bit offsets and the two trailing hashes.
        let fixed = HEADER + count * (h + 8) + 2 * h;
        if len < fixed || !(len - fixed).is_multiple_of(8) {
            return None;
        }
        Some(Self {
            file,
            fan,
            count,
            large: (len - fixed) / 8,
        })
    }

    /// Where in the pack `id` starts. The fan-out entry of its first byte bounds the
    /// ids to look at; ids are spread evenly, so the values of the ids at the ends of
    /// the range say about where in it `id` is (an interpolation search), and a window
    /// of [`WINDOW`] ids read there holds it most of the time, the next window nearly
    /// always: a walk without a commit-graph looks up every commit, in one or two
    /// `pread`s, not the dozen of a binary search. Every bound is checked on use.
    fn offset_of(&self, id: &gix::oid, hash: gix::hash::Kind) -> Option<u64> {
        let want = id.as_bytes();
        let hl = hash.len_in_bytes();
        if want.len() != hl || hl > MAX_HASH {
            return None;
        }
        let h = hl as u64;
        let first = usize::from(want[0]);
        let mut lo = if first == 0 {
            0
        } else {
            u64::from(self.fan[first - 1])
        };
        let mut hi = u64::from(self.fan[first]).min(self.count);
        // Ids as numbers, from the eight bytes after the first (which all share):
        // those in [lo, hi) lie in [lo_value, hi_value].
        let value = |id: &[u8]| u64::from_be_bytes(id[1..9].try_into().expect("9 bytes"));
        let target = value(want);
        let (mut lo_value, mut hi_value) = (0u64, u64::MAX);
        let w = WINDOW as u64;
        let mut buf = [0u8; WINDOW * MAX_HASH];
        let mut tries = 0;
        while lo < hi {
            let n = hi - lo;
            tries += 1;
            let start = if n <= w {
                lo
            } else if tries > 3 {
                // Ids not spread as expected (a damaged index): halve the range.
                lo + n / 2 - w / 2
            } else {
                let span = u128::from(hi_value.saturating_sub(lo_value)).max(1);
                let above = u128::from(target.saturating_sub(lo_value)).min(span);
                #[allow(clippy::cast_possible_truncation)] // at most `n`
                let at = lo + (u128::from(n) * above / span) as u64;
                at.saturating_sub(w / 2).clamp(lo, hi - w)
            };
            let len = n.min(w);
            #[allow(clippy::cast_possible_truncation)] // at most `WINDOW * MAX_HASH`
            let window = &mut buf[..(len * h) as usize];
            self.file.read_exact_at(window, HEADER + start * h).ok()?;
            let (head, last) = (&window[..hl], &window[window.len() - hl..]);
            if head > want {
                (hi, hi_value) = (start, value(head));
            } else if last < want {
                (lo, lo_value) = (start + len, value(last));
            } else {
                let at = window.chunks_exact(hl).position(|i| i == want)?;
                return self.offset_at(start + at as u64, h);
            }
        }
        None
    }

    fn offset_at(&self, i: u64, h: u64) -> Option<u64> {
        let table = HEADER + self.count * (h + 4);
        let mut word = [0u8; 4];
        self.file.read_exact_at(&mut word, table + i * 4).ok()?;
        let small = u32::from_be_bytes(word);
        if small & 0x8000_0000 == 0 {
            return Some(u64::from(small));
        }
        let at = u64::from(small & 0x7fff_ffff);
        if at >= self.large {
            return None;
        }
        let mut wide = [0u8; 8];
        self.file
            .read_exact_at(&mut wide, table + self.count * 4 + at * 8)
            .ok()?;
        Some(u64::from_be_bytes(wide))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A version 2 index of `entries` (id and 32-bit offset, sorted here by id),
    /// followed by the 64-bit offsets `large`; `name` keeps its file apart.
    fn written(mut entries: Vec<([u8; 20], u32)>, large: &[u64], name: &str) -> Index {
        entries.sort_unstable();
        let mut bytes = V2_MAGIC.to_vec();
        bytes.extend(2u32.to_be_bytes());
        for i in 0..=255u8 {
            let n = u32::try_from(entries.iter().filter(|(id, _)| id[0] <= i).count()).unwrap();
            bytes.extend(n.to_be_bytes());
        }
        for (id, _) in &entries {
            bytes.extend(id);
        }
        bytes.extend(std::iter::repeat_n(0u8, 4 * entries.len())); // CRCs
        for (_, offset) in &entries {
            bytes.extend(offset.to_be_bytes());
        }
        for l in large {
            bytes.extend(l.to_be_bytes());
        }
        bytes.extend([0u8; 40]);
        let path =
            std::env::temp_dir().join(format!("git-handover-idx-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        let idx = Index::open(&path, gix::hash::Kind::Sha1).expect("a well-formed index");
        std::fs::remove_file(&path).unwrap();
        idx
    }

    /// An index of one object (id `0x01…`) whose 32-bit offset is `small`, followed by
    /// the 64-bit offsets `large`.
    fn index(small: u32, large: &[u64]) -> Index {
        written(
            vec![([1u8; 20], small)],
            large,
            &format!("{small}-{}", large.len()),
        )
    }

    #[test]
    fn offsets_small_and_large_and_out_of_range() {
        let sha1 = gix::hash::Kind::Sha1;
        let id = gix::ObjectId::from_bytes_or_panic(&[1u8; 20]);
        let other = gix::ObjectId::from_bytes_or_panic(&[2u8; 20]);
        assert_eq!(index(12, &[]).offset_of(&id, sha1), Some(12));
        assert_eq!(index(12, &[]).offset_of(&other, sha1), None);
        // The high bit: the rest indexes the 64-bit table (packs over 2 GiB).
        let big = 5u64 << 32;
        assert_eq!(
            index(0x8000_0001, &[7, big]).offset_of(&id, sha1),
            Some(big)
        );
        // An index past the 64-bit table: no offset, never a read outside the file.
        assert_eq!(index(0x8000_0002, &[7, big]).offset_of(&id, sha1), None);
        assert_eq!(index(0x8000_0000, &[]).offset_of(&id, sha1), None);
    }

    /// An index of `ids`, the i-th smallest at offset `12 + 100 i`.
    fn index_of(mut ids: Vec<[u8; 20]>, name: &str) -> Index {
        ids.sort_unstable();
        let entries = (0u32..)
            .zip(ids)
            .map(|(i, id)| (id, 12 + 100 * i))
            .collect();
        written(entries, &[], name)
    }

    /// Every id of a large index is found at its own offset, and ids next to them are
    /// not: evenly spread ids (found by interpolation), ids crowded into one narrow
    /// range (the search then halves), and ids all but equal.
    #[test]
    fn every_id_is_found_whatever_their_spread() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let spread: Vec<[u8; 20]> = (0..20_000)
            .map(|_| {
                let mut id = [0u8; 20];
                for chunk in id.chunks_mut(8) {
                    chunk.copy_from_slice(&next().to_be_bytes()[..chunk.len()]);
                }
                id
            })
            .collect();
        // Crowded: the same first nine bytes, spread only after them.
        let crowded: Vec<[u8; 20]> = spread
            .iter()
            .map(|id| {
                let mut c = *id;
                c[..9].copy_from_slice(&[7, 1, 2, 3, 4, 5, 6, 7, 8]);
                c
            })
            .collect();
        // All but equal: they differ in the last byte alone (256 of them).
        let near: Vec<[u8; 20]> = (0..=255u8)
            .map(|b| {
                let mut id = [0x55u8; 20];
                id[19] = b;
                id
            })
            .collect();
        let sha1 = gix::hash::Kind::Sha1;
        for (name, ids) in [("spread", spread), ("crowded", crowded), ("near", near)] {
            let idx = index_of(ids.clone(), name);
            let mut sorted = ids.clone();
            sorted.sort_unstable();
            for (i, id) in sorted.iter().enumerate() {
                let oid = gix::ObjectId::from_bytes_or_panic(id);
                assert_eq!(
                    idx.offset_of(&oid, sha1),
                    Some(12 + 100 * i as u64),
                    "{name}: id {i} at its offset"
                );
                // The id just above this one, when it is not in the index itself.
                let mut above = *id;
                if let Some(b) = above.iter_mut().rev().find(|b| **b < 255) {
                    *b += 1;
                }
                if sorted.binary_search(&above).is_err() {
                    let oid = gix::ObjectId::from_bytes_or_panic(&above);
                    assert_eq!(idx.offset_of(&oid, sha1), None, "{name}: not in it");
                }
            }
        }
    }

    #[test]
    fn a_truncated_or_foreign_index_is_not_opened() {
        let path =
            std::env::temp_dir().join(format!("git-handover-idx-bad-{}", std::process::id()));
        for bytes in [Vec::new(), b"\xfftOc\0\0\0\x02".to_vec(), vec![0u8; 2000]] {
            std::fs::write(&path, bytes).unwrap();
            assert!(Index::open(&path, gix::hash::Kind::Sha1).is_none());
        }
        std::fs::remove_file(&path).unwrap();
    }
}
