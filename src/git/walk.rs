//! The reachability walk over the commit-graph (or decoded commits without one).

// The repository types and helpers of the parent module.
#[allow(clippy::wildcard_imports)]
use super::*;

/// The reachability walk: a priority queue by generation (commits not in the
/// commit-graph first, by commit time), propagating a bitmask of the tips that reach
/// each commit. It stops when every candidate has all the bits it asks for, or when
/// nothing left in the queue can reach an open candidate any more: every remaining
/// commit is in the graph and its generation is below that of every open candidate.
///
/// Commits in the graph are keyed by their graph position in flat vectors, and their
/// parents come from the graph as positions; only commits outside it (newer than the
/// graph, or all of them without one) are decoded and kept in a map.
pub(super) struct Walk<'a> {
    repo: &'a gix::Repository,
    graph: Option<&'a gix::commitgraph::Graph>,
    /// Commits read from their objects, not the graph.
    pub(super) parsed: std::cell::Cell<usize>,
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
pub(super) type Decoded = HashMap<ObjectId, (i64, Vec<Node>)>;

/// Not in the commit-graph: newer than everything in it.
pub(super) const NO_GENERATION: u32 = u32::MAX;

/// The walk's state of one commit: the tips that reach it (`mask`), those already
/// passed on to its parents (`done`), and, for a candidate, the tips it still waits
/// for (`waiting`). One record per commit, so one memory access reads all three.
#[derive(Clone, Copy, Default)]
pub(super) struct State {
    pub(super) mask: u64,
    pub(super) done: u64,
    pub(super) waiting: u64,
}

/// Per-commit state: sparse (a map) while the walk is small, one array over graph
/// positions once it has touched more than a sliver of the graph; a map for commits
/// outside the graph. A walk of a thousand commits in a graph of 300,000 then costs a
/// thousand entries, not three arrays of 300,000.
pub(super) struct Bits {
    dense: Vec<State>,
    sparse: HashMap<u32, State>,
    by_id: HashMap<ObjectId, State>,
    graph_len: usize,
}

impl Bits {
    pub(super) fn new(graph_len: usize) -> Self {
        Bits {
            dense: Vec::new(),
            sparse: HashMap::new(),
            by_id: HashMap::new(),
            graph_len,
        }
    }

    pub(super) fn get(&self, node: Node) -> State {
        match node {
            Node::Pos(p) if !self.dense.is_empty() => self.dense[p as usize],
            Node::Pos(p) => self.sparse.get(&p).copied().unwrap_or_default(),
            Node::Id(id) => self.by_id.get(&id).copied().unwrap_or_default(),
        }
    }

    pub(super) fn slot(&mut self, node: Node) -> &mut State {
        match node {
            Node::Pos(p) => {
                if self.dense.is_empty() && self.sparse.len() > self.graph_len / 64 + 1024 {
                    let mut dense = vec![State::default(); self.graph_len];
                    for (pos, state) in self.sparse.drain() {
                        dense[pos as usize] = state;
                    }
                    self.dense = dense;
                }
                if self.dense.is_empty() {
                    self.sparse.entry(p).or_default()
                } else {
                    &mut self.dense[p as usize]
                }
            }
            Node::Id(id) => self.by_id.entry(id).or_default(),
        }
    }
}

impl<'a> Walk<'a> {
    pub(super) fn new(
        repo: &'a gix::Repository,
        graph: Option<&'a gix::commitgraph::Graph>,
    ) -> Self {
        Walk {
            repo,
            graph,
            parsed: std::cell::Cell::new(0),
        }
    }

    pub(super) fn node_of(&self, id: ObjectId) -> Node {
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
        let commit = self.repo.find_commit(id).ok()?;
        let commit = commit.decode().ok()?;
        let time = commit
            .committer()
            .ok()
            .and_then(|c| c.time().ok())
            .map_or(0, |t| t.seconds);
        let parents: Vec<Node> = commit.parents().map(|p| self.node_of(p)).collect();
        decoded.insert(id, (time, parents.clone()));
        Some((time, parents))
    }

    /// For each candidate, the bits of the tips that reach it.
    pub(super) fn run(
        &self,
        bit_of: &HashMap<ObjectId, u64>,
        needed: &HashMap<ObjectId, u64>,
    ) -> HashMap<ObjectId, u64> {
        let graph_len = self.graph.map_or(0, |g| g.num_commits() as usize);
        let mut bits = Bits::new(graph_len);
        let mut decoded = Decoded::new();
        let mut parents = Vec::new();
        let mut heap: BinaryHeap<Entry> = BinaryHeap::new();
        // Open candidates: by node, with their generation; those in the graph also
        // counted by generation, to know how deep the walk must go.
        let candidates: HashMap<Node, (ObjectId, u64)> = needed
            .iter()
            .map(|(id, bits)| (self.node_of(*id), (*id, *bits)))
            .collect();
        // The bits each open candidate still waits for are kept with the commit's
        // state, so the hot loop asks no hash map whether a commit is a candidate.
        let mut open = candidates.len();
        let mut open_generations: BTreeMap<u32, usize> = BTreeMap::new();
        for (node, (_, wanted)) in &candidates {
            bits.slot(*node).waiting = *wanted;
            if let (Node::Pos(p), Some(g)) = (node, self.graph) {
                *open_generations
                    .entry(g.commit_at(gix::commitgraph::Position(*p)).generation())
                    .or_default() += 1;
            }
        }
        for (tip, bit) in bit_of {
            let node = self.node_of(*tip);
            let Some(entry) = self.key(node, &mut decoded) else {
                continue;
            };
            bits.slot(node).mask |= bit;
            heap.push(entry);
        }
        while let Some(top) = heap.peek() {
            if open == 0 {
                break;
            }
            if top.generation != NO_GENERATION
                && open_generations
                    .keys()
                    .next()
                    .is_none_or(|lowest| top.generation < *lowest)
            {
                break;
            }
            let node = heap.pop().expect("peeked").node;
            let state = bits.get(node);
            let m = state.mask;
            if m & !state.done == 0 {
                continue;
            }
            let slot = bits.slot(node);
            slot.done = m;
            let wanted = state.waiting;
            if wanted != 0 && wanted & !m == 0 {
                slot.waiting = 0;
                open -= 1;
                if let (Node::Pos(p), Some(g)) = (node, self.graph) {
                    let generation = g.commit_at(gix::commitgraph::Position(p)).generation();
                    if let Some(n) = open_generations.get_mut(&generation) {
                        *n -= 1;
                        if *n == 0 {
                            open_generations.remove(&generation);
                        }
                    }
                }
            }
            self.parents_into(node, &mut decoded, &mut parents);
            for &p in &parents {
                let pm = &mut bits.slot(p).mask;
                if m & !*pm != 0 {
                    *pm |= m;
                    if let Some(entry) = self.key(p, &mut decoded) {
                        heap.push(entry);
                    }
                }
            }
        }
        candidates
            .iter()
            .map(|(node, (id, _))| (*id, bits.get(*node).mask))
            .collect()
    }
}
