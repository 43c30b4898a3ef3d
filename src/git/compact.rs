//! A compact copy of the commit-graph for long walks: generation and first two parents
//! of every commit, by graph position.
//!
//! The graph's records sit at positions ordered by object id, so a long walk reads them
//! at random, a cache (and TLB) miss each: most of the time of a walk over 300,000
//! commits. The copy (12 bytes a commit) stays in cache. It is read from the graph
//! files with `pread` in file order rather than through gix's mapping, so that the
//! graph's records are not all made resident for the rest of the run; a few
//! positions are then checked against gix's reading, and on any disagreement (a layout
//! this reading does not know) the copy is made through gix instead.

use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// No parent, and (second parent) an octopus merge whose parents are read from the
/// graph again.
pub(super) const NONE: u32 = u32::MAX;
pub(super) const MANY: u32 = u32::MAX - 1;

/// The commit-graph format's "no parent" and "extra edges" marks.
const NO_PARENT: u32 = 0x7000_0000;
const EXTRA_EDGES: u32 = 0x8000_0000;

pub(super) struct Compact(pub(super) Vec<[u32; 3]>);

/// After this many commits a walk reads the graph from a [`Compact`] copy, and from a
/// graph of this many commits on the copy is read ahead beside many state files; a
/// test sets `GIT_HANDOVER_TEST_LONG_WALK` (0: from the start, and always read ahead)
/// to see every way give the same answers.
pub(super) fn long_walk() -> u32 {
    static AFTER: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *AFTER.get_or_init(|| {
        crate::support::testing::knob("GIT_HANDOVER_TEST_LONG_WALK")
            .and_then(|v| v.parse().ok())
            .unwrap_or(16_384)
    })
}

impl Compact {
    /// The copy of `graph`, whose files are in the objects directory's `info`.
    pub(super) fn of(graph: &gix::commitgraph::Graph, info: &Path) -> Self {
        let total = graph.num_commits() as usize;
        if let Some(all) = read_files(info, graph.object_hash(), total)
            && agrees(graph, &all)
        {
            return Compact(all);
        }
        Compact(through_gix(graph))
    }
}

/// The graph files being read into a compact copy on another thread
/// ([`super::History::read_graph_ahead`]).
pub struct Ahead<'scope>(Option<std::thread::ScopedJoinHandle<'scope, Option<Vec<[u32; 3]>>>>);

impl super::History<'_> {
    /// Start reading the commit-graph's records on another thread (in `scope`), for a
    /// long walk the caller expects to make once it has read what it is reading now
    /// (`status` parsing hundreds of state files: otherwise the walk waits for its
    /// copy, or reads the graph's scattered records for its first steps). Nothing is
    /// started for a graph too small to need a copy, or when no
    /// thread can be started.
    pub fn read_graph_ahead<'scope>(
        &mut self,
        scope: &'scope std::thread::Scope<'scope, '_>,
    ) -> Ahead<'scope> {
        let Some(graph) = self.graph() else {
            return Ahead(None);
        };
        let total = graph.num_commits() as usize;
        if total < long_walk() as usize {
            return Ahead(None);
        }
        let info = self.repo.repo.objects.store_ref().path().join("info");
        let hash = graph.object_hash();
        Ahead(
            std::thread::Builder::new()
                .spawn_scoped(scope, move || read_files(&info, hash, total))
                .ok(),
        )
    }

    /// The copy read ahead, checked against the graph and kept for the session's walks.
    /// A copy that could not be read, or does not say what gix says, is not kept: a
    /// walk that turns out long makes its own then, as it would have.
    pub fn take_graph_ahead(&mut self, ahead: Ahead<'_>) {
        let Some(read) = ahead.0.and_then(|t| t.join().ok()).flatten() else {
            return;
        };
        if let Some(graph) = self.graph()
            && agrees(&graph, &read)
        {
            self.compact = Some(std::rc::Rc::new(Compact(read)));
        }
    }
}

/// Every record as gix reads it through its mapping.
fn through_gix(graph: &gix::commitgraph::Graph) -> Vec<[u32; 3]> {
    let mut all = Vec::with_capacity(graph.num_commits() as usize);
    all.extend(graph.iter_commits().map(|c| {
        let (p1, p2) = two_parents(c);
        [c.generation(), p1, p2]
    }));
    all
}

/// A commit's first two parents (`NONE` where it has fewer), the second `MANY` for an
/// octopus merge, as gix reads them.
pub(super) fn two_parents(c: gix::commitgraph::file::Commit<'_>) -> (u32, u32) {
    let mut parents = c.iter_parents().map_while(std::result::Result::ok);
    let p1 = parents.next().map_or(NONE, |q| q.0);
    let p2 = match (parents.next(), parents.next()) {
        (None, _) => NONE,
        (Some(q), None) => q.0,
        (Some(_), Some(_)) => MANY,
    };
    (p1, p2)
}

/// Whether the copy says what gix says at a spread of positions, the first and the
/// last included.
fn agrees(graph: &gix::commitgraph::Graph, all: &[[u32; 3]]) -> bool {
    let n = all.len();
    (0..=64).map(|k| k * (n.saturating_sub(1)) / 64).all(|p| {
        let Ok(pos) = u32::try_from(p) else {
            return false;
        };
        let c = graph.commit_at(gix::commitgraph::Position(pos));
        let (p1, p2) = two_parents(c);
        all.get(p) == Some(&[c.generation(), p1, p2])
    })
}

/// The graph files as gix opens them from `info` (`Graph::at`): the single file when
/// there is one, else the chain's files, base first. `None` for a layout left to gix.
fn graph_files(info: &Path) -> Option<Vec<PathBuf>> {
    if info.join("commit-graph-chain").exists() {
        return None;
    }
    let single = info.join("commit-graph");
    if single.is_file() {
        return Some(vec![single]);
    }
    let dir = info.join("commit-graphs");
    let chain =
        crate::support::fsio::read_regular(&dir.join("commit-graph-chain"), 1 << 20).ok()?;
    let chain = String::from_utf8(chain).ok()?;
    Some(
        chain
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|h| dir.join(format!("graph-{h}.graph")))
            .collect(),
    )
}

fn be32(b: &[u8]) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(..4)?.try_into().ok()?))
}

fn be64(b: &[u8]) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(..8)?.try_into().ok()?))
}

/// Every record of every file, in position order, its parents made positions or
/// marks as gix's parent iterator reads them (an out-of-range parent ends the list).
fn read_files(info: &Path, hash: gix::hash::Kind, total: usize) -> Option<Vec<[u32; 3]>> {
    let h = hash.len_in_bytes();
    let record = h + 16;
    let mut all: Vec<[u32; 3]> = Vec::with_capacity(total);
    for path in graph_files(info)? {
        let file = crate::support::fsio::open_regular(&path).ok()?;
        let len = file.metadata().ok()?.len();
        let mut head = [0u8; 8];
        file.read_exact_at(&mut head, 0).ok()?;
        if &head[..4] != b"CGPH" || head[4] != 1 {
            return None;
        }
        let chunks = usize::from(head[6]);
        let mut table = vec![0u8; (chunks + 1) * 12];
        file.read_exact_at(&mut table, 8).ok()?;
        let offset = |id: &[u8]| {
            table
                .chunks_exact(12)
                .take(chunks)
                .find(|e| &e[..4] == id)
                .and_then(|e| be64(&e[4..]))
        };
        // The commit count is the fan-out table's last entry.
        let mut last = [0u8; 4];
        file.read_exact_at(&mut last, offset(b"OIDF")? + 255 * 4)
            .ok()?;
        let count = u64::from(u32::from_be_bytes(last));
        let start = offset(b"CDAT")?;
        let end = start.checked_add(count.checked_mul(record as u64)?)?;
        if end > len || all.len() + usize::try_from(count).ok()? > total {
            return None;
        }
        let mut buf = vec![0u8; record * 4096];
        let mut at = start;
        while at < end {
            let n = usize::try_from((end - at).min(buf.len() as u64)).ok()?;
            file.read_exact_at(&mut buf[..n], at).ok()?;
            for r in buf[..n].chunks_exact(record) {
                all.push([be32(&r[h + 8..])? >> 2, be32(&r[h..])?, be32(&r[h + 4..])?]);
            }
            at += n as u64;
        }
    }
    if all.len() != total {
        return None;
    }
    let valid = |p: u32| (p as usize) < total;
    for e in &mut all {
        let (p1, p2) = (e[1], e[2]);
        (e[1], e[2]) = if p1 == NO_PARENT || p1 & EXTRA_EDGES != 0 || !valid(p1) {
            (NONE, NONE)
        } else if p2 == NO_PARENT {
            (p1, NONE)
        } else if p2 & EXTRA_EDGES != 0 {
            (p1, MANY)
        } else if valid(p2) {
            (p1, p2)
        } else {
            (p1, NONE)
        };
    }
    Some(all)
}

impl super::Repo {
    /// For the tests: whether the commit-graph's records read with `pread` (`Some`) are
    /// every one what gix reads through its mapping (`true`); `None` when there is no
    /// graph or the reading left it to gix.
    #[doc(hidden)]
    pub fn compact_reading_agrees(&self) -> Option<bool> {
        let shared = self.repo.commit_graph_if_enabled().ok().flatten()?;
        let graph = &shared;
        let info = self.repo.objects.store_ref().path().join("info");
        let read = read_files(&info, graph.object_hash(), graph.num_commits() as usize)?;
        Some(read == through_gix(graph))
    }

    /// For the tests: whether [`positions`] finds every id of the commit-graph where
    /// `Graph::lookup` does, asked all at once and one at a time, and finds none of
    /// the ids one off each of them (absent); `None` when there is no graph.
    #[doc(hidden)]
    pub fn graph_positions_agree(&self) -> Option<bool> {
        let shared = self.repo.commit_graph_if_enabled().ok().flatten()?;
        let graph = &shared;
        let ids: Vec<gix::ObjectId> = graph.iter_ids().map(ToOwned::to_owned).collect();
        let absent: Vec<gix::ObjectId> = ids
            .iter()
            .map(|id| {
                let mut bytes = id.as_bytes().to_vec();
                let last = bytes.len() - 1;
                bytes[last] ^= 1;
                gix::ObjectId::from_bytes_or_panic(&bytes)
            })
            .filter(|id| graph.lookup(id).is_none())
            .collect();
        let mut asked = ids.clone();
        asked.extend(&absent);
        let all = positions(graph, &asked);
        let each_alone = ids
            .iter()
            .all(|id| positions(graph, &[*id]).get(id).copied() == graph.lookup(id).map(|p| p.0));
        Some(
            each_alone
                && all.len() == ids.len()
                && ids
                    .iter()
                    .all(|id| all.get(id).copied() == graph.lookup(id).map(|p| p.0)),
        )
    }
}

/// The positions in `graph` of those of `ids` it holds, as `Graph::lookup` gives them,
/// found in about one read each.
///
/// `Graph::lookup` halves the fan-out range: about ten reads of the object-id table for
/// a graph of 300,000 commits, each a cache miss, for every one of the 10,000 shas that
/// 1,000 sessions record, and the walk asked again for each. Here the ids are taken in
/// order: each search starts at the previous one's position, and since ids are spread
/// evenly, an interpolated guess from there nearly always lands on it, in memory the
/// previous read already brought near. Positions are sorted by id within each file of
/// the graph, not across a chain's files: a position found is always the id's (it is
/// compared), and an id not found this way is asked of gix, so a miss here is never
/// taken as absence.
pub(super) fn positions(
    graph: &gix::commitgraph::Graph,
    ids: &[gix::ObjectId],
) -> gix::hashtable::HashMap<gix::ObjectId, u32> {
    use std::cmp::Ordering;
    let mut sorted: Vec<&gix::ObjectId> = ids.iter().collect();
    sorted.sort_unstable();
    sorted.dedup();
    let key = |o: &gix::oid| u128::from(be64(o.as_bytes()).unwrap_or(0));
    let at = |p: u32| graph.id_at(gix::commitgraph::Position(p));
    let n = graph.num_commits();
    let mut out = gix::hashtable::HashMap::default();
    out.reserve(sorted.len());
    // Everything before `from` (whose key is `k_from`) is below the ids still asked.
    let (mut from, mut k_from) = (0u32, 0u128);
    for id in sorted {
        let want = key(id);
        let (mut lo, mut hi) = (from, n);
        let (mut k_lo, mut k_hi) = (k_from, 1u128 << 64);
        let mut guesses = 0;
        let mut found = None;
        while lo < hi {
            let mid = if guesses < 4 && k_lo <= want && want < k_hi {
                guesses += 1;
                let step = u128::from(hi - lo) * (want - k_lo) / (k_hi - k_lo);
                lo + u32::try_from(step).map_or(hi - lo - 1, |s| s.min(hi - lo - 1))
            } else {
                lo + (hi - lo) / 2
            };
            let there = at(mid);
            match id.as_ref().cmp(there) {
                Ordering::Equal => {
                    found = Some(mid);
                    break;
                }
                Ordering::Less => (hi, k_hi) = (mid, key(there) + 1),
                Ordering::Greater => (lo, k_lo) = (mid + 1, key(there)),
            }
        }
        match found {
            Some(p) => {
                (from, k_from) = (p, want);
                out.insert(*id, p);
            }
            None => {
                if let Some(p) = graph.lookup(id) {
                    out.insert(*id, p.0);
                }
            }
        }
    }
    out
}
