//! The reachability walk over the commit-graph (or decoded commits without one).

use std::collections::{BTreeMap, BinaryHeap, HashSet};

use gix::ObjectId;

use super::Repo;

use super::compact::{Compact, MANY, NONE, long_walk, two_parents};

/// The reachability walk: a priority queue by generation (commits not in the
/// commit-graph first, by commit time), propagating a bitmask of the tips that reach
/// each commit. It stops when every candidate has all the bits it asks for, or when
/// nothing left in the queue can reach an open candidate any more: every remaining
/// commit is in the graph and its generation is below that of every open candidate.
///
/// Commits in the graph are keyed by their graph position in flat vectors, and their
/// parents come from the graph as positions; only commits outside it (newer than the
/// graph, or all of them without one) are decoded, and kept only until passed on.
pub(super) struct Walk<'a> {
    repo: &'a Repo,
    graph: Option<&'a gix::commitgraph::Graph>,
    /// Commits read from their objects, not the graph.
    pub(super) parsed: std::cell::Cell<usize>,
    /// Graph positions already looked up ([`super::compact::positions`]); any id not
    /// here is looked up in the graph.
    known: Option<&'a IdMap<u32>>,
    /// The compact copy of the graph read ahead for the session, if it was.
    ahead: Option<std::rc::Rc<Compact>>,
}

/// A commit in the walk: its position in the commit-graph, or its id when it is not
/// in the graph.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(super) enum Node {
    Pos(u32),
    Id(ObjectId),
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Entry {
    generation: u32,
    time: i64,
    node: Node,
}

/// Commits decoded from objects: commit time and parents.
pub(super) type Decoded = IdMap<(i64, Vec<Node>)>;

/// A map keyed by object id, hashed by the id's own first bytes (gix's table): a walk
/// without a commit-graph keys every commit of the history by id, and hashing the ids
/// again with `SipHash` was ~2% of it.
pub(super) type IdMap<V> = gix::hashtable::HashMap<ObjectId, V>;

/// Not in the commit-graph: newer than everything in it.
pub(super) const NO_GENERATION: u32 = u32::MAX;

/// The walk's state of a commit outside the graph: the tips that reach it (`mask`),
/// those already passed on to its parents (`done`), and, for a candidate, the tips it
/// still waits for (`waiting`).
#[derive(Clone, Copy, Default)]
pub(super) struct State<M> {
    pub(super) mask: M,
    pub(super) done: M,
    pub(super) waiting: M,
}

/// A set of branch tips, a bit each: `u64` for up to 64 tips, `u128` for more, so
/// that one walk answers for 128 tips (200 worktrees' branches in two walks, not four).
pub(super) trait Mask:
    Copy
    + Default
    + Eq
    + Ord
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitAnd<Output = Self>
    + std::ops::Not<Output = Self>
{
    const BITS: usize;
    /// The set of tip `i` alone.
    fn bit(i: usize) -> Self;
    fn is_empty(self) -> bool {
        self == Self::default()
    }
}

impl Mask for u64 {
    const BITS: usize = 64;
    fn bit(i: usize) -> Self {
        1 << i
    }
}

impl Mask for u128 {
    const BITS: usize = 128;
    fn bit(i: usize) -> Self {
        1 << i
    }
}

impl<'a> Walk<'a> {
    pub(super) fn new(repo: &'a Repo, graph: Option<&'a gix::commitgraph::Graph>) -> Self {
        Walk {
            repo,
            graph,
            parsed: std::cell::Cell::new(0),
            known: None,
            ahead: None,
        }
    }

    /// The walk, given the compact copy read ahead (if there is one).
    pub(super) fn with_compact(mut self, ahead: Option<std::rc::Rc<Compact>>) -> Self {
        self.ahead = ahead;
        self
    }

    /// The walk, told the graph positions of ids already looked up.
    pub(super) fn knowing(mut self, known: &'a IdMap<u32>) -> Self {
        self.known = Some(known);
        self
    }

    pub(super) fn node_of(&self, id: ObjectId) -> Node {
        if let Some(pos) = self.known.and_then(|k| k.get(&id)) {
            return Node::Pos(*pos);
        }
        match self.graph.and_then(|g| g.lookup(id)) {
            Some(pos) => Node::Pos(pos.0),
            None => Node::Id(id),
        }
    }

    /// What orders a node in the queue: its generation and commit time.
    pub(super) fn key(&self, node: Node, decoded: &mut Decoded) -> Option<Entry> {
        match (node, self.graph) {
            (Node::Pos(p), Some(graph)) => {
                let c = graph.commit_at(gix::commitgraph::Position(p));
                let time = i64::try_from(c.committer_timestamp()).unwrap_or(i64::MAX);
                Some(Entry {
                    generation: c.generation(),
                    time,
                    node,
                })
            }
            (Node::Pos(_), None) => None,
            (Node::Id(id), _) => {
                let (time, _) = self.decode(id, decoded)?;
                Some(Entry {
                    generation: NO_GENERATION,
                    time,
                    node,
                })
            }
        }
    }

    /// The parents of a node, into `out` (cleared first).
    pub(super) fn parents_into(&self, node: Node, decoded: &mut Decoded, out: &mut Vec<Node>) {
        out.clear();
        match (node, self.graph) {
            (Node::Pos(p), Some(graph)) => {
                let c = graph.commit_at(gix::commitgraph::Position(p));
                out.extend(
                    c.iter_parents()
                        .filter_map(std::result::Result::ok)
                        .map(|p| Node::Pos(p.0)),
                );
            }
            (Node::Pos(_), None) => {}
            (Node::Id(id), _) => {
                if let Some((_, parents)) = self.decode(id, decoded) {
                    out.extend(parents);
                }
            }
        }
    }

    /// Commit time and parents of a commit outside the graph, decoded once.
    pub(super) fn decode(&self, id: ObjectId, decoded: &mut Decoded) -> Option<(i64, Vec<Node>)> {
        if let Some(known) = decoded.get(&id) {
            return Some(known.clone());
        }
        self.parsed.set(self.parsed.get() + 1);
        let data = self.repo.commit_data(id)?;
        // Read up to the committer, the last field a walk needs (not the message, nor
        // a signature, which can be most of a commit).
        let mut parents: Vec<Node> = Vec::new();
        let mut time = None;
        for token in gix::objs::CommitRefIter::from_bytes(&data, self.repo.repo.object_hash()) {
            match token.ok()? {
                gix::objs::commit::ref_iter::Token::Parent { id } => parents.push(self.node_of(id)),
                gix::objs::commit::ref_iter::Token::Committer { signature } => {
                    time = Some(signature.time().map_or(0, |t| t.seconds));
                    break;
                }
                _ => {}
            }
        }
        let time = time?;
        if self.repo.is_shallow_boundary(&id) {
            // The end of a shallow clone's history, as git reads it.
            parents.clear();
        }
        decoded.insert(id, (time, parents.clone()));
        Some((time, parents))
    }

    /// For each candidate, the bits of the tips that reach it.
    ///
    /// Commits outside the graph (newer than it) go first, by commit time, their state
    /// kept by id. Commits of the graph then go by generation, highest first, from a
    /// queue of `(generation << 32 | position, mask)`: a parent's generation is below
    /// each child's, so every push of a commit comes before its turn, its pushes come
    /// out together, and their masks make its whole mask. It is passed on once, and no
    /// per-commit state is kept: an array over graph positions (ordered by object id,
    /// so every parent is a cache miss) was 80% of a walk of 300,000 commits.
    ///
    /// `out_of_time` is asked every few thousand commits; when it says so, the walk
    /// stops and says it is not whole (`false`): a tip's bit in a mask is still a
    /// proof, its absence proves nothing then.
    pub(super) fn run<M: Mask>(
        &self,
        bit_of: &IdMap<M>,
        needed: &IdMap<M>,
        out_of_time: &dyn Fn() -> bool,
    ) -> (IdMap<M>, bool) {
        let graph_len = self.graph.map_or(0, |g| g.num_commits() as usize);
        // Commits outside the graph (few: newer than it), by id.
        let mut bits: IdMap<State<M>> = IdMap::default();
        let mut decoded = Decoded::default();
        let mut parents = Vec::new();
        let mut outside: BinaryHeap<Entry> = BinaryHeap::new();
        let mut inside: BinaryHeap<(u64, M, u32, u32)> = BinaryHeap::new();
        // A queue entry: the key `(generation << 32 | position)`, the tips' mask, and
        // the commit's parents as read with its generation, so that its record (a
        // cache miss: positions are ordered by object id) is read once per push and
        // not again when it comes out. `MANY` marks an octopus merge, read again then.
        // A long walk reads generation and parents from a compact copy of the graph's
        // records ([`Compact`]), made once it is known to be long.
        let compact: std::cell::OnceCell<std::rc::Rc<Compact>> = std::cell::OnceCell::new();
        if let Some(graph) = self.graph {
            if let Some(ahead) = self.ahead.clone() {
                let _ = compact.set(ahead);
            } else if long_walk() == 0 {
                let _ = compact.set(std::rc::Rc::new(Compact::of(
                    graph,
                    &self.repo.repo.objects.store_ref().path().join("info"),
                )));
            }
        }
        let generation_of = |p: u32| match (compact.get(), self.graph) {
            (Some(c), _) => c.0.get(p as usize).map_or(NO_GENERATION, |e| e[0]),
            (None, Some(g)) => g.commit_at(gix::commitgraph::Position(p)).generation(),
            (None, None) => NO_GENERATION,
        };
        let entry_of = |p: u32, mask: M| -> (u64, M, u32, u32) {
            let Some(graph) = self.graph else {
                return (u64::from(p), mask, NONE, NONE);
            };
            if let Some(c) = compact.get()
                && let Some(&[generation, p1, p2]) = c.0.get(p as usize)
            {
                return ((u64::from(generation) << 32) | u64::from(p), mask, p1, p2);
            }
            let c = graph.commit_at(gix::commitgraph::Position(p));
            let (p1, p2) = two_parents(c);
            (
                (u64::from(c.generation()) << 32) | u64::from(p),
                mask,
                p1,
                p2,
            )
        };
        // Candidates in the graph, by position: a bit per position says whether to
        // look one up.
        let mut in_graph: Vec<(u32, ObjectId)> = Vec::with_capacity(needed.len());
        let mut flagged = vec![0u64; graph_len.div_ceil(64)];
        let mut open_generations: BTreeMap<u32, usize> = BTreeMap::new();
        let mut out: IdMap<M> = IdMap::default();
        out.reserve(needed.len());
        let mut open = 0usize;
        for (id, wanted) in needed {
            out.insert(*id, M::default());
            open += 1;
            match (self.node_of(*id), self.graph) {
                (Node::Pos(p), Some(_)) => {
                    in_graph.push((p, *id));
                    flagged[p as usize / 64] |= 1 << (p % 64);
                    *open_generations.entry(generation_of(p)).or_default() += 1;
                }
                _ => bits.entry(*id).or_default().waiting = *wanted,
            }
        }
        in_graph.sort_unstable_by_key(|(p, _)| *p);
        let push = |node: Node,
                    mask: M,
                    bits: &mut IdMap<State<M>>,
                    decoded: &mut Decoded,
                    outside: &mut BinaryHeap<Entry>,
                    inside: &mut BinaryHeap<(u64, M, u32, u32)>| {
            match (node, self.graph) {
                (Node::Pos(p), Some(_)) => inside.push(entry_of(p, mask)),
                (Node::Pos(_), None) => {}
                (Node::Id(id), _) => {
                    let pm = &mut bits.entry(id).or_default().mask;
                    if !(mask & !*pm).is_empty() {
                        *pm |= mask;
                        if let Some(entry) = self.key(node, decoded) {
                            outside.push(entry);
                        }
                    }
                }
            }
        };
        for (tip, bit) in bit_of {
            let node = self.node_of(*tip);
            push(
                node,
                *bit,
                &mut bits,
                &mut decoded,
                &mut outside,
                &mut inside,
            );
        }
        // Outside the graph: a commit may be passed on again when more bits reach it.
        let mut steps = 0u32;
        let mut complete = true;
        while open > 0
            && let Some(entry) = outside.pop()
        {
            steps = steps.wrapping_add(1);
            if steps.is_multiple_of(1024) && out_of_time() {
                complete = false;
                break;
            }
            let node = entry.node;
            let Node::Id(id) = node else { continue };
            let slot = bits.entry(id).or_default();
            let state = *slot;
            let m = state.mask;
            if (m & !state.done).is_empty() {
                continue;
            }
            slot.done = m;
            if !state.waiting.is_empty() && (state.waiting & !m).is_empty() {
                slot.waiting = M::default();
                open -= 1;
            }
            self.parents_into(node, &mut decoded, &mut parents);
            // Its parents are not asked for again unless more tips reach it (then it
            // is read again): kept, they would hold every commit of a walk without a
            // commit-graph in memory.
            decoded.remove(&id);
            for &p in &parents {
                push(p, m, &mut bits, &mut decoded, &mut outside, &mut inside);
            }
        }
        for id in needed.keys() {
            if let Some(state) = bits.get(id) {
                out.insert(*id, state.mask);
            }
        }
        // The graph, by generation.
        while open > 0
            && let Some((top, mut m, p1, p2)) = inside.pop()
        {
            steps = steps.wrapping_add(1);
            if !complete || (steps.is_multiple_of(4096) && out_of_time()) {
                complete = false;
                break;
            }
            if steps >= long_walk()
                && compact.get().is_none()
                && let Some(graph) = self.graph
            {
                let _ = compact.set(std::rc::Rc::new(Compact::of(
                    graph,
                    &self.repo.repo.objects.store_ref().path().join("info"),
                )));
            }
            let generation = (top >> 32) as u32;
            if open_generations
                .keys()
                .next()
                .is_none_or(|lowest| generation < *lowest)
            {
                break;
            }
            while let Some(&(next, more, _, _)) = inside.peek()
                && next == top
            {
                m |= more;
                inside.pop();
            }
            #[allow(clippy::cast_possible_truncation)]
            let p = top as u32;
            if flagged[p as usize / 64] & (1 << (p % 64)) != 0
                && let Ok(at) = in_graph.binary_search_by_key(&p, |(q, _)| *q)
            {
                out.insert(in_graph[at].1, m);
                open -= 1;
                if let Some(n) = open_generations.get_mut(&generation) {
                    *n -= 1;
                    if *n == 0 {
                        open_generations.remove(&generation);
                    }
                }
            }
            if p2 == MANY {
                self.parents_into(Node::Pos(p), &mut decoded, &mut parents);
            } else {
                parents.clear();
                parents.extend([p1, p2].into_iter().filter(|q| *q != NONE).map(Node::Pos));
            }
            for &parent in &parents {
                if let Node::Pos(q) = parent {
                    inside.push(entry_of(q, m));
                }
            }
        }
        (out, complete)
    }

    /// Commits reachable from `tip`, newest first by commit time (of equal times, a
    /// descendant before its ancestors: by generation, as a rebase gives many commits
    /// one time), at most `limit`; with `since`, commits older than it are neither
    /// listed nor walked past. Through the shared commit-graph where it has the
    /// commits, from the objects where it does not. `Err` names a commit that could
    /// not be read.
    pub(super) fn newest_first(
        &self,
        tip: ObjectId,
        since: Option<i64>,
        limit: usize,
    ) -> std::result::Result<Vec<(i64, ObjectId)>, ObjectId> {
        let mut decoded = Decoded::default();
        let mut parents = Vec::new();
        let mut seen: HashSet<Node> = HashSet::new();
        let mut queue: BinaryHeap<(i64, u32, Node)> = BinaryHeap::new();
        let entry = |node: Node, decoded: &mut Decoded| -> Option<(i64, u32, Node)> {
            let e = self.key(node, decoded)?;
            Some((e.time, e.generation, node))
        };
        let first = self.node_of(tip);
        queue.push(entry(first, &mut decoded).ok_or(tip)?);
        seen.insert(first);
        let mut out = Vec::new();
        while out.len() < limit
            && let Some((time, _, node)) = queue.pop()
        {
            if since.is_some_and(|s| time < s) {
                continue;
            }
            let id = match (node, self.graph) {
                (Node::Pos(p), Some(g)) => g.id_at(gix::commitgraph::Position(p)).to_owned(),
                (Node::Id(id), _) => id,
                (Node::Pos(_), None) => continue,
            };
            out.push((time, id));
            self.parents_into(node, &mut decoded, &mut parents);
            for &p in &parents {
                if seen.insert(p) {
                    let Some(e) = entry(p, &mut decoded) else {
                        let Node::Id(missing) = p else { continue };
                        return Err(missing);
                    };
                    queue.push(e);
                }
            }
        }
        Ok(out)
    }
}
