//! Reading a few objects without opening pack indexes gix's way.
//!
//! gix checks a pack index on opening by reading its whole offset table (on the
//! benchmark's 1.8 M-object pack: 7 MB, ~1,700 page faults and 10 M instructions, two
//! thirds of a session-start hook) before the first lookup. Git itself checks only the
//! index's size when opening it, and each large offset when it is used. A briefing
//! reads a handful of objects (the subjects of the newest commits), so for those this
//! module looks the id up git's way: the fan-out entry and a binary search over the
//! ids, each read with `pread`, every bound checked on use. The entry is then decoded
//! by gix's own pack reader.
//!
//! Every object read here is hashed and compared with the id it was asked for: a
//! damaged index or pack can make a lookup miss (the caller then asks gix, which
//! reports the damage), never answer with other content.

use std::cell::OnceCell;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;

use gix::odb::pack;

/// The largest object decoded here: commits and tags, never blobs.
const MAX_OBJECT: usize = 16 << 20;

const V2_MAGIC: [u8; 4] = *b"\xfftOc";
const HEADER_LEN: usize = 8 + 256 * 4;
const HEADER: u64 = HEADER_LEN as u64;

/// The packs of one object directory, their indexes opened on first use.
pub(super) struct Packs {
    packs: Vec<Pack>,
    hash: gix::hash::Kind,
}

struct Pack {
    idx_path: PathBuf,
    idx: OnceCell<Option<Index>>,
    data: OnceCell<Option<pack::data::File>>,
}

/// A version 2 pack index, checked for size only.
struct Index {
    file: File,
    fan: [u32; 256],
    count: u64,
    /// How many 64-bit offsets follow the 32-bit ones.
    large: u64,
}

impl Packs {
    /// The packs in `objects/pack`, newest first (as git and gix look).
    pub(super) fn at(objects: &std::path::Path, hash: gix::hash::Kind) -> Self {
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
        Self {
            packs: found
                .into_iter()
                .map(|(_, idx_path)| Pack {
                    idx_path,
                    idx: OnceCell::new(),
                    data: OnceCell::new(),
                })
                .collect(),
            hash,
        }
    }

    /// The object `id`, when a pack holds it, it could be read, and it hashes to `id`.
    pub(super) fn find(&self, id: &gix::oid) -> Option<(gix::objs::Kind, Vec<u8>)> {
        self.packs.iter().find_map(|p| p.find(id, self.hash))
    }
}

impl Pack {
    fn find(&self, id: &gix::oid, hash: gix::hash::Kind) -> Option<(gix::objs::Kind, Vec<u8>)> {
        let idx = self
            .idx
            .get_or_init(|| Index::open(&self.idx_path, hash))
            .as_ref()?;
        let offset = idx.offset_of(id, hash)?;
        let data = self
            .data
            .get_or_init(|| {
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
                &mut gix::zlib::Inflate::default(),
                &resolve,
                &mut pack::cache::Never,
            )
            .ok()?;
        if out.len() > MAX_OBJECT {
            return None;
        }
        let actual = gix::objs::compute_hash(hash, outcome.kind, &out).ok()?;
        (actual == id).then_some((outcome.kind, out))
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

    /// Where in the pack `id` starts, by the fan-out entry of its first byte and a
    /// binary search over the ids it covers.
    fn offset_of(&self, id: &gix::oid, hash: gix::hash::Kind) -> Option<u64> {
        let want = id.as_bytes();
        let hl = hash.len_in_bytes();
        if want.len() != hl {
            return None;
        }
        let h = hl as u64;
        let first = usize::from(want[0]);
        let mut lo = if first == 0 {
            0
        } else {
            u64::from(self.fan[first - 1])
        };
        let mut hi = u64::from(self.fan[first]);
        let mut buf = [0u8; 32];
        let buf = &mut buf[..hl];
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            self.file.read_exact_at(buf, HEADER + mid * h).ok()?;
            match (*buf).cmp(want) {
                std::cmp::Ordering::Equal => return self.offset_at(mid, h),
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
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

    /// A version 2 index of one object (id `0x01…`) whose 32-bit offset is `small`,
    /// followed by the 64-bit offsets `large`.
    fn index(small: u32, large: &[u64]) -> Index {
        let mut bytes = V2_MAGIC.to_vec();
        bytes.extend(2u32.to_be_bytes());
        for i in 0..256u32 {
            bytes.extend(u32::from(i >= 1).to_be_bytes());
        }
        bytes.extend([1u8; 20]);
        bytes.extend(0u32.to_be_bytes()); // CRC
        bytes.extend(small.to_be_bytes());
        for l in large {
            bytes.extend(l.to_be_bytes());
        }
        bytes.extend([0u8; 40]);
        let path = std::env::temp_dir().join(format!(
            "git-handover-idx-{}-{small}-{}",
            std::process::id(),
            large.len()
        ));
        std::fs::write(&path, bytes).unwrap();
        let idx = Index::open(&path, gix::hash::Kind::Sha1).expect("a well-formed index");
        std::fs::remove_file(&path).unwrap();
        idx
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
