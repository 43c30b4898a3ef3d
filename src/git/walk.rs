//! The reachability walk over the commit-graph (or decoded commits without one).

use std::collections::{BinaryHeap, HashSet};

use gix::ObjectId;

use super::Repo;
use super::compact::{Compact, MANY, NONE, long_walk, two_parents};

mod run;
use run::Run;

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
/// again with `SipHash` showed in its profile.
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
    /// so every parent is a cache miss) was most of a long walk's time.
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
        let mut run = Run::new(self);
        run.ask(needed);
        for (tip, bit) in bit_of {
            run.push(self.node_of(*tip), *bit);
        }
        run.walk_outside(needed, out_of_time);
        run.walk_inside(out_of_time);
        (run.out, run.complete)
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
