//! One reachability walk ([`Walk::run`]) in its steps.

use std::collections::{BTreeMap, BinaryHeap};

use gix::ObjectId;

use super::{Compact, Decoded, Entry, IdMap, MANY, Mask, NO_GENERATION, NONE, Node, State, Walk};
use super::{long_walk, two_parents};

/// The state of one [`Walk::run`], in the steps it goes through: the candidates asked
/// about ([`Run::ask`]), the tips pushed ([`Run::push`]), commits outside the graph
/// ([`Run::walk_outside`]), then the graph by generation ([`Run::walk_inside`]).
pub(super) struct Run<'w, 'a, M> {
    walk: &'w Walk<'a>,
    /// Commits outside the graph (few: newer than it), by id.
    bits: IdMap<State<M>>,
    decoded: Decoded,
    parents: Vec<Node>,
    outside: BinaryHeap<Entry>,
    /// A queue entry: the key `(generation << 32 | position)`, the tips' mask, and
    /// the commit's parents as read with its generation, so that its record (a
    /// cache miss: positions are ordered by object id) is read once per push and
    /// not again when it comes out. `MANY` marks an octopus merge, read again then.
    inside: BinaryHeap<(u64, M, u32, u32)>,
    /// A long walk reads generation and parents from a compact copy of the graph's
    /// records ([`Compact`]), made once it is known to be long.
    compact: std::cell::OnceCell<std::rc::Rc<Compact>>,
    /// Candidates in the graph, by position: a bit per position says whether to
    /// look one up.
    in_graph: Vec<(u32, ObjectId)>,
    flagged: Vec<u64>,
    open_generations: BTreeMap<u32, usize>,
    pub(super) out: IdMap<M>,
    open: usize,
    steps: u32,
    pub(super) complete: bool,
}

impl<'w, 'a, M: Mask> Run<'w, 'a, M> {
    pub(super) fn new(walk: &'w Walk<'a>) -> Self {
        let graph_len = walk.graph.map_or(0, |g| g.num_commits() as usize);
        let compact: std::cell::OnceCell<std::rc::Rc<Compact>> = std::cell::OnceCell::new();
        if let Some(graph) = walk.graph {
            if let Some(ahead) = walk.ahead.clone() {
                let _ = compact.set(ahead);
            } else if long_walk() == 0 {
                let _ = compact.set(std::rc::Rc::new(Compact::of(
                    graph,
                    &walk.repo.repo.objects.store_ref().path().join("info"),
                )));
            }
        }
        Run {
            walk,
            bits: IdMap::default(),
            decoded: Decoded::default(),
            parents: Vec::new(),
            outside: BinaryHeap::new(),
            inside: BinaryHeap::new(),
            compact,
            in_graph: Vec::new(),
            flagged: vec![0u64; graph_len.div_ceil(64)],
            open_generations: BTreeMap::new(),
            out: IdMap::default(),
            open: 0,
            steps: 0,
            complete: true,
        }
    }

    fn generation_of(&self, p: u32) -> u32 {
        match (self.compact.get(), self.walk.graph) {
            (Some(c), _) => c.0.get(p as usize).map_or(NO_GENERATION, |e| e[0]),
            (None, Some(g)) => g.commit_at(gix::commitgraph::Position(p)).generation(),
            (None, None) => NO_GENERATION,
        }
    }

    #[inline]
    fn entry_of(&self, p: u32, mask: M) -> (u64, M, u32, u32) {
        let Some(graph) = self.walk.graph else {
            return (u64::from(p), mask, NONE, NONE);
        };
        if let Some(c) = self.compact.get()
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
    }

    /// The candidates: each starts with no tips, and waits for those it asks for.
    pub(super) fn ask(&mut self, needed: &IdMap<M>) {
        self.in_graph.reserve(needed.len());
        self.out.reserve(needed.len());
        for (id, wanted) in needed {
            self.out.insert(*id, M::default());
            self.open += 1;
            match (self.walk.node_of(*id), self.walk.graph) {
                (Node::Pos(p), Some(_)) => {
                    self.in_graph.push((p, *id));
                    self.flagged[p as usize / 64] |= 1 << (p % 64);
                    let generation = self.generation_of(p);
                    *self.open_generations.entry(generation).or_default() += 1;
                }
                _ => self.bits.entry(*id).or_default().waiting = *wanted,
            }
        }
        self.in_graph.sort_unstable_by_key(|(p, _)| *p);
    }

    /// `node` reached by the tips of `mask`: queued (again, outside the graph, when
    /// the mask brings new tips).
    #[inline]
    pub(super) fn push(&mut self, node: Node, mask: M) {
        match (node, self.walk.graph) {
            (Node::Pos(p), Some(_)) => {
                let entry = self.entry_of(p, mask);
                self.inside.push(entry);
            }
            (Node::Pos(_), None) => {}
            (Node::Id(id), _) => {
                let pm = &mut self.bits.entry(id).or_default().mask;
                if !(mask & !*pm).is_empty() {
                    *pm |= mask;
                    if let Some(entry) = self.walk.key(node, &mut self.decoded) {
                        self.outside.push(entry);
                    }
                }
            }
        }
    }

    /// Outside the graph: a commit may be passed on again when more bits reach it.
    pub(super) fn walk_outside(&mut self, needed: &IdMap<M>, out_of_time: &dyn Fn() -> bool) {
        let mut parents = std::mem::take(&mut self.parents);
        while self.open > 0
            && let Some(entry) = self.outside.pop()
        {
            self.steps = self.steps.wrapping_add(1);
            if self.steps.is_multiple_of(1024) && out_of_time() {
                self.complete = false;
                break;
            }
            let node = entry.node;
            let Node::Id(id) = node else { continue };
            let slot = self.bits.entry(id).or_default();
            let state = *slot;
            let m = state.mask;
            if (m & !state.done).is_empty() {
                continue;
            }
            slot.done = m;
            if !state.waiting.is_empty() && (state.waiting & !m).is_empty() {
                slot.waiting = M::default();
                self.open -= 1;
            }
            self.walk
                .parents_into(node, &mut self.decoded, &mut parents);
            // Its parents are not asked for again unless more tips reach it (then it
            // is read again): kept, they would hold every commit of a walk without a
            // commit-graph in memory.
            self.decoded.remove(&id);
            for &p in &parents {
                self.push(p, m);
            }
        }
        self.parents = parents;
        for id in needed.keys() {
            if let Some(state) = self.bits.get(id) {
                self.out.insert(*id, state.mask);
            }
        }
    }

    /// The graph, by generation.
    pub(super) fn walk_inside(&mut self, out_of_time: &dyn Fn() -> bool) {
        let mut parents = std::mem::take(&mut self.parents);
        while self.open > 0
            && let Some((top, mut m, p1, p2)) = self.inside.pop()
        {
            self.steps = self.steps.wrapping_add(1);
            if !self.complete || (self.steps.is_multiple_of(4096) && out_of_time()) {
                self.complete = false;
                break;
            }
            if self.steps >= long_walk()
                && self.compact.get().is_none()
                && let Some(graph) = self.walk.graph
            {
                let _ = self.compact.set(std::rc::Rc::new(Compact::of(
                    graph,
                    &self.walk.repo.repo.objects.store_ref().path().join("info"),
                )));
            }
            let generation = (top >> 32) as u32;
            if self
                .open_generations
                .keys()
                .next()
                .is_none_or(|lowest| generation < *lowest)
            {
                break;
            }
            while let Some(&(next, more, _, _)) = self.inside.peek()
                && next == top
            {
                m |= more;
                self.inside.pop();
            }
            #[allow(clippy::cast_possible_truncation)]
            let p = top as u32;
            self.found_in_graph(p, generation, m);
            if p2 == MANY {
                self.walk
                    .parents_into(Node::Pos(p), &mut self.decoded, &mut parents);
            } else {
                parents.clear();
                parents.extend([p1, p2].into_iter().filter(|q| *q != NONE).map(Node::Pos));
            }
            for &parent in &parents {
                if let Node::Pos(q) = parent {
                    let entry = self.entry_of(q, m);
                    self.inside.push(entry);
                }
            }
        }
        self.parents = parents;
    }

    /// The graph commit at `p`, reached by the tips of `m`: when it is a candidate,
    /// its answer, and one candidate fewer open (at its generation).
    #[inline]
    fn found_in_graph(&mut self, p: u32, generation: u32, m: M) {
        if self.flagged[p as usize / 64] & (1 << (p % 64)) != 0
            && let Ok(at) = self.in_graph.binary_search_by_key(&p, |(q, _)| *q)
        {
            self.out.insert(self.in_graph[at].1, m);
            self.open -= 1;
            if let Some(n) = self.open_generations.get_mut(&generation) {
                *n -= 1;
                if *n == 0 {
                    self.open_generations.remove(&generation);
                }
            }
        }
    }
}
