//! All repository access, through gix. No gix type leaves this module: callers see
//! paths, strings and [`CommitId`].

use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::traverse::commit::simple::CommitTimeOrder;
use jiff::Timestamp;

use crate::error::{Error, Result};
use crate::verdict::CommitState;

/// A commit id. Only this module makes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CommitId(ObjectId);

impl CommitId {
    pub fn short(&self) -> String {
        self.0.to_hex_with_len(7).to_string()
    }
}

impl fmt::Display for CommitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One worktree of the repository, as `git worktree list` sees it.
#[derive(Debug, Clone)]
pub struct Worktree {
    /// Canonical when the directory exists, else as registered.
    pub path: PathBuf,
    pub is_main: bool,
    pub is_bare: bool,
    pub head: Option<CommitId>,
    /// The short branch name, when HEAD is on a branch (also when it is unborn).
    pub branch: Option<String>,
    pub detached: bool,
    /// The lock reason (possibly empty) of a locked worktree.
    pub locked: Option<String>,
    pub prunable: bool,
    pub exists: bool,
}

/// A commit for people to read: short id and subject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitLine {
    pub id: CommitId,
    pub subject: String,
}

/// Commits on a branch newer than a handover.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewerCommits {
    pub count: usize,
    /// The newest few, newest first.
    pub newest: Vec<CommitLine>,
}

/// A question for [`Repo::newer_commits`].
pub struct NewerQuery<'a> {
    pub tip: CommitId,
    pub since: Timestamp,
    /// Full ids of commits the handover records itself; they do not count.
    pub exclude: &'a [String],
}

/// The answer for one recorded sha.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitAnswer {
    pub state: CommitState,
    pub full: Option<String>,
    pub rewritten: Option<String>,
}

/// How many of the newest commits of a branch are searched for a rewritten equivalent.
const REWRITE_SEARCH_DEPTH: usize = 1000;

/// How many newer commits are shown by subject.
const NEWEST_SHOWN: usize = 3;

/// Walking more commits than this without a commit-graph earns a hint to write one.
const SLOW_WALK: usize = 20_000;

pub struct Repo {
    repo: gix::Repository,
    /// Commits read from objects (not from a commit-graph) by this run's walks.
    walked_without_graph: std::cell::Cell<usize>,
}

/// Open the repository containing `dir`, honouring `GIT_DIR` and friends like git.
pub fn discover(dir: &Path) -> Result<Repo> {
    let repo =
        gix::discover_with_environment_overrides(dir).map_err(|_| Error::NotARepository {
            dir: dir.to_owned(),
        })?;
    Ok(Repo {
        repo,
        walked_without_graph: std::cell::Cell::new(0),
    })
}

/// A path made canonical when it exists; lexically cleaned otherwise, so that a
/// missing directory still compares equal to the same spelling elsewhere.
pub fn normalize(path: &Path) -> PathBuf {
    if let Ok(p) = gix::path::realpath(path) {
        return p;
    }
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

impl Repo {
    /// The worktree the repository was discovered from, if it has one.
    pub fn current_worktree(&self) -> Option<PathBuf> {
        self.repo.workdir().map(normalize)
    }

    /// The raw value of a configuration key, as git would read it (all scopes, includes).
    pub fn config_string(&self, key: &str) -> Option<String> {
        self.repo
            .config_snapshot()
            .string(key)
            .map(|v| v.to_str_lossy().into_owned())
    }

    /// Every worktree: the main one first, then linked ones ordered by path, as
    /// `git worktree list` orders them. Locked and prunable ones are included.
    pub fn worktrees(&self) -> Result<Vec<Worktree>> {
        let main = self
            .repo
            .main_repo()
            .map_err(|e| Error::git("open the main worktree", e))?;
        let mut out = Vec::new();
        let main_path = main
            .workdir()
            .map_or_else(|| main.common_dir().to_owned(), Path::to_owned);
        let mut first = head_info(&main);
        first.path = normalize(&main_path);
        first.is_main = true;
        first.is_bare = main.workdir().is_none();
        first.exists = main_path.is_dir();
        out.push(first);

        let proxies = main
            .worktrees()
            .map_err(|e| Error::git("list worktrees", e))?;
        let mut linked = Vec::with_capacity(proxies.len());
        for proxy in proxies {
            let base = proxy.base().ok();
            let locked = proxy.lock_reason().map(|r| r.to_str_lossy().into_owned());
            let prunable = proxy.is_prunable();
            let (mut wt, path) = match proxy.into_repo_with_possibly_inaccessible_worktree() {
                Ok(repo) => (head_info(&repo), base),
                Err(_) => (Worktree::empty(), base),
            };
            let Some(path) = path else { continue };
            wt.exists = path.is_dir();
            wt.path = normalize(&path);
            wt.locked = locked;
            wt.prunable = prunable;
            linked.push(wt);
        }
        linked.sort_by(|a, b| a.path.cmp(&b.path));
        out.extend(linked);
        Ok(out)
    }

    /// The commit `rev` names (`HEAD`, `main~2`, a sha, a tag), peeled to a commit.
    pub fn resolve_commit(&self, rev: &str) -> Option<CommitId> {
        let id = self.repo.rev_parse_single(rev).ok()?;
        let commit = id.object().ok()?.peel_to_commit().ok()?;
        Some(CommitId(commit.id))
    }

    /// A hint to write a commit-graph, when this run walked much history without one.
    pub fn commit_graph_hint(&self) -> Option<String> {
        (self.walked_without_graph.get() > SLOW_WALK && !self.has_commit_graph()).then(|| {
            format!(
                "{} commits were read without a commit-graph; `git commit-graph write --reachable` makes this much faster",
                self.walked_without_graph.get()
            )
        })
    }

    /// Whether a commit-graph is present and enabled (`core.commitGraph`).
    pub fn has_commit_graph(&self) -> bool {
        self.repo.commit_graph_if_enabled().ok().flatten().is_some()
    }

    /// The commit a local branch points to, if the branch exists.
    pub fn branch_tip(&self, branch: &str) -> Option<CommitId> {
        let mut r = self
            .repo
            .try_find_reference(format!("refs/heads/{branch}").as_str())
            .ok()??;
        r.peel_to_id().ok().map(|id| CommitId(id.detach()))
    }

    /// The newest `n` commits from `tip`, newest first.
    pub fn recent_commits(&self, tip: CommitId, n: usize) -> Result<Vec<CommitLine>> {
        let walk = self
            .repo
            .rev_walk([tip.0])
            .sorting(gix::revision::walk::Sorting::ByCommitTime(
                CommitTimeOrder::default(),
            ))
            .use_commit_graph(true)
            .all()
            .map_err(|e| Error::git("walk history", e))?;
        walk.take(n)
            .map(|info| {
                let info = info.map_err(|e| Error::git("walk history", e))?;
                Ok(self.commit_line(info.id))
            })
            .collect()
    }

    fn commit_line(&self, id: ObjectId) -> CommitLine {
        let subject = self
            .repo
            .find_commit(id)
            .ok()
            .and_then(|c| c.message_raw().ok().map(|m| subject_of(m.as_bytes())))
            .unwrap_or_default();
        CommitLine {
            id: CommitId(id),
            subject,
        }
    }

    /// Check recorded shas: each `(sha, tip)` asks whether `sha` names a commit reachable
    /// from `tip`. All of them are answered by one history walk (per 64 distinct tips),
    /// ordered by commit-graph generation and stopped as soon as the answer is known.
    /// Unreachable commits are then looked for among the newest commits of their tip,
    /// as rewritten (amended or rebased) equivalents.
    pub fn check_commits(&self, queries: &[(String, CommitId)]) -> Result<Vec<CommitAnswer>> {
        let resolved: Vec<Resolved> = queries.iter().map(|(sha, _)| self.resolve(sha)).collect();
        let mut walk_queries: Vec<(ObjectId, ObjectId)> = Vec::new();
        for ((_, tip), r) in queries.iter().zip(&resolved) {
            if let Resolved::Commit(id) = r {
                walk_queries.push((*id, tip.0));
            }
        }
        let reachable = self.reachable(&walk_queries);

        let mut answers = Vec::with_capacity(queries.len());
        let mut to_search: HashMap<ObjectId, Vec<(usize, ObjectId)>> = HashMap::new();
        for (i, ((_, tip), r)) in queries.iter().zip(&resolved).enumerate() {
            let (state, full) = match r {
                Resolved::Missing => (CommitState::Missing, None),
                Resolved::Ambiguous => (CommitState::Ambiguous, None),
                Resolved::NotACommit(id) => (CommitState::Unreachable, Some(id.to_string())),
                Resolved::Commit(id) if reachable.contains(&(*id, tip.0)) => {
                    (CommitState::Ok, Some(id.to_string()))
                }
                Resolved::Commit(id) => {
                    to_search.entry(tip.0).or_default().push((i, *id));
                    (CommitState::Unreachable, Some(id.to_string()))
                }
            };
            answers.push(CommitAnswer {
                state,
                full,
                rewritten: None,
            });
        }
        for (tip, lost) in to_search {
            for (i, new) in self.find_rewritten(tip, &lost)? {
                answers[i].rewritten = Some(new.to_string());
            }
        }
        Ok(answers)
    }

    fn resolve(&self, sha: &str) -> Resolved {
        let sha = sha.trim();
        if sha.len() < 4 || sha.len() > 40 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Resolved::Missing;
        }
        let id = if sha.len() == 40 {
            match ObjectId::from_hex(sha.as_bytes()) {
                Ok(id) if self.repo.has_object(id) => id,
                _ => return Resolved::Missing,
            }
        } else {
            let Ok(prefix) = gix::hash::Prefix::from_hex(sha) else {
                return Resolved::Missing;
            };
            match self.repo.objects.lookup_prefix(prefix, None) {
                Ok(Some(Ok(id))) => id,
                Ok(Some(Err(()))) => return Resolved::Ambiguous,
                Ok(None) | Err(_) => return Resolved::Missing,
            }
        };
        match self.repo.find_header(id) {
            Ok(h) if h.kind() == gix::object::Kind::Commit => Resolved::Commit(id),
            Ok(_) => Resolved::NotACommit(id),
            Err(_) => Resolved::Missing,
        }
    }

    /// Which `(candidate, tip)` pairs are reachable. One walk per 64 distinct tips:
    /// each commit carries a bit per tip that reaches it.
    fn reachable(&self, queries: &[(ObjectId, ObjectId)]) -> HashSet<(ObjectId, ObjectId)> {
        let mut tips: Vec<ObjectId> = queries.iter().map(|(_, t)| *t).collect();
        tips.sort_unstable();
        tips.dedup();
        let graph = self.repo.commit_graph_if_enabled().ok().flatten();
        let mut out = HashSet::new();
        for chunk in tips.chunks(64) {
            let bit_of: HashMap<ObjectId, u64> = chunk
                .iter()
                .enumerate()
                .map(|(i, t)| (*t, 1u64 << i))
                .collect();
            let mut needed: HashMap<ObjectId, u64> = HashMap::new();
            for (c, t) in queries {
                if let Some(bit) = bit_of.get(t) {
                    *needed.entry(*c).or_default() |= bit;
                }
            }
            let walk = Walk::new(&self.repo, graph.as_ref());
            let masks = walk.run(&bit_of, &needed);
            self.walked_without_graph
                .set(self.walked_without_graph.get() + walk.parsed.get());
            for (c, t) in queries {
                if let (Some(bit), Some(mask)) = (bit_of.get(t), masks.get(c)) {
                    if mask & bit != 0 {
                        out.insert((*c, *t));
                    }
                }
            }
        }
        out
    }

    /// Look among the newest commits of `tip` for equivalents of `lost` commits: the
    /// same change (paths and contents against the first parent), else the same author,
    /// author date and subject.
    fn find_rewritten(
        &self,
        tip: ObjectId,
        lost: &[(usize, ObjectId)],
    ) -> Result<Vec<(usize, ObjectId)>> {
        let keys: Vec<(usize, RewriteKey)> = lost
            .iter()
            .filter_map(|(i, id)| self.rewrite_key(*id).map(|k| (*i, k)))
            .collect();
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let walk = self
            .repo
            .rev_walk([tip])
            .sorting(gix::revision::walk::Sorting::ByCommitTime(
                CommitTimeOrder::default(),
            ))
            .use_commit_graph(true)
            .all()
            .map_err(|e| Error::git("walk history", e))?;
        let mut found: Vec<(usize, ObjectId)> = Vec::new();
        let mut by_change: Vec<Option<ObjectId>> = vec![None; keys.len()];
        let mut by_ident: Vec<Option<ObjectId>> = vec![None; keys.len()];
        for info in walk.take(REWRITE_SEARCH_DEPTH) {
            let info = info.map_err(|e| Error::git("walk history", e))?;
            let Some(key) = self.rewrite_key(info.id) else {
                continue;
            };
            for (k, (_, lost_key)) in keys.iter().enumerate() {
                if by_change[k].is_none()
                    && key.changes.is_some()
                    && key.changes == lost_key.changes
                {
                    by_change[k] = Some(info.id);
                }
                if by_ident[k].is_none() && key.ident == lost_key.ident {
                    by_ident[k] = Some(info.id);
                }
            }
        }
        for (k, (i, _)) in keys.iter().enumerate() {
            if let Some(id) = by_change[k].or(by_ident[k]) {
                found.push((*i, id));
            }
        }
        Ok(found)
    }

    fn rewrite_key(&self, id: ObjectId) -> Option<RewriteKey> {
        let commit = self.repo.find_commit(id).ok()?;
        let decoded = commit.decode().ok()?;
        let author = decoded.author().ok()?;
        let ident = (
            author.name.to_str_lossy().into_owned(),
            author.email.to_str_lossy().into_owned(),
            author.time.to_owned(),
            subject_of(decoded.message),
        );
        let tree = decoded.tree();
        let parent_tree = decoded
            .parents()
            .next()
            .and_then(|p| self.repo.find_commit(p).ok())
            .and_then(|p| p.tree_id().ok().map(gix::Id::detach));
        let mut changes = Vec::new();
        self.diff_trees(parent_tree, Some(tree), &mut Vec::new(), &mut changes);
        changes.sort();
        Some(RewriteKey {
            ident,
            changes: (!changes.is_empty()).then_some(changes),
        })
    }

    /// The changed blobs between two trees, as `(path, old, new)`.
    fn diff_trees(
        &self,
        a: Option<ObjectId>,
        b: Option<ObjectId>,
        prefix: &mut Vec<u8>,
        out: &mut Vec<(Vec<u8>, Option<ObjectId>, Option<ObjectId>)>,
    ) {
        if a == b {
            return;
        }
        let entries = |id: Option<ObjectId>| -> BTreeMap<Vec<u8>, (bool, ObjectId)> {
            id.and_then(|id| self.repo.find_tree(id).ok())
                .and_then(|t| {
                    t.decode().ok().map(|d| {
                        d.entries
                            .iter()
                            .map(|e| (e.filename.to_vec(), (e.mode.is_tree(), e.oid.to_owned())))
                            .collect()
                    })
                })
                .unwrap_or_default()
        };
        let (ea, eb) = (entries(a), entries(b));
        let names: std::collections::BTreeSet<&Vec<u8>> = ea.keys().chain(eb.keys()).collect();
        for name in names {
            let (x, y) = (ea.get(name), eb.get(name));
            if x == y {
                continue;
            }
            let len = prefix.len();
            prefix.extend_from_slice(name);
            prefix.push(b'/');
            let tree_of = |e: Option<&(bool, ObjectId)>| e.filter(|e| e.0).map(|e| e.1);
            let blob_of = |e: Option<&(bool, ObjectId)>| e.filter(|e| !e.0).map(|e| e.1);
            if tree_of(x).is_some() || tree_of(y).is_some() {
                self.diff_trees(tree_of(x), tree_of(y), prefix, out);
            }
            if blob_of(x) != blob_of(y) {
                out.push((prefix[..prefix.len() - 1].to_vec(), blob_of(x), blob_of(y)));
            }
            prefix.truncate(len);
        }
    }

    /// For each query, the commits reachable from its tip that are newer than its
    /// `since` (by committer time) and not excluded. One walk per distinct tip, down to
    /// the oldest `since` asked of it.
    pub fn newer_commits(&self, queries: &[NewerQuery<'_>]) -> Result<Vec<NewerCommits>> {
        let mut oldest: HashMap<ObjectId, i64> = HashMap::new();
        for q in queries {
            let s = q.since.as_second();
            oldest
                .entry(q.tip.0)
                .and_modify(|o| *o = (*o).min(s))
                .or_insert(s);
        }
        let mut newer_by_tip: HashMap<ObjectId, Vec<(i64, ObjectId)>> = HashMap::new();
        for (tip, since) in oldest {
            let walk = self
                .repo
                .rev_walk([tip])
                .sorting(gix::revision::walk::Sorting::ByCommitTimeCutoff {
                    order: CommitTimeOrder::default(),
                    seconds: since,
                })
                .use_commit_graph(true)
                .all()
                .map_err(|e| Error::git("walk history", e))?;
            let mut list = Vec::new();
            for info in walk {
                let info = info.map_err(|e| Error::git("walk history", e))?;
                if info.generation.is_none() {
                    self.walked_without_graph
                        .set(self.walked_without_graph.get() + 1);
                }
                let time = match info.commit_time {
                    Some(t) => t,
                    None => self.commit_time(info.id).unwrap_or(i64::MIN),
                };
                if time > since {
                    list.push((time, info.id));
                }
            }
            list.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            newer_by_tip.insert(tip, list);
        }
        Ok(queries
            .iter()
            .map(|q| {
                let since = q.since.as_second();
                let excluded: HashSet<&str> = q.exclude.iter().map(String::as_str).collect();
                let mut result = NewerCommits::default();
                for (time, id) in newer_by_tip.get(&q.tip.0).into_iter().flatten() {
                    if *time <= since || excluded.contains(id.to_string().as_str()) {
                        continue;
                    }
                    result.count += 1;
                    if result.newest.len() < NEWEST_SHOWN {
                        result.newest.push(self.commit_line(*id));
                    }
                }
                result
            })
            .collect())
    }

    fn commit_time(&self, id: ObjectId) -> Option<i64> {
        let commit = self.repo.find_commit(id).ok()?;
        commit.time().ok().map(|t| t.seconds)
    }
}

enum Resolved {
    Commit(ObjectId),
    NotACommit(ObjectId),
    Missing,
    Ambiguous,
}

type Change = (Vec<u8>, Option<ObjectId>, Option<ObjectId>);

struct RewriteKey {
    ident: (String, String, String, String),
    changes: Option<Vec<Change>>,
}

impl Worktree {
    /// The name sessions of this worktree are filed under: the branch, or
    /// `detached-<sha7>` for a detached HEAD; `None` on an unborn detached HEAD.
    pub fn branch_key(&self) -> Option<String> {
        match (&self.branch, self.detached, self.head) {
            (Some(b), false, _) => Some(b.clone()),
            (_, _, Some(head)) => Some(format!("detached-{}", head.short())),
            _ => None,
        }
    }

    fn empty() -> Self {
        Worktree {
            path: PathBuf::new(),
            is_main: false,
            is_bare: false,
            head: None,
            branch: None,
            detached: false,
            locked: None,
            prunable: false,
            exists: false,
        }
    }
}

fn head_info(repo: &gix::Repository) -> Worktree {
    let mut wt = Worktree::empty();
    if let Ok(head) = repo.head() {
        wt.detached = head.is_detached();
        wt.branch = head
            .referent_name()
            .map(|n| n.shorten().to_str_lossy().into_owned());
        wt.head = head.id().map(|id| CommitId(id.detach()));
    }
    wt
}

/// The first line of a commit message.
fn subject_of(message: &[u8]) -> String {
    message
        .lines()
        .next()
        .map(|l| l.to_str_lossy().trim().to_owned())
        .unwrap_or_default()
}

/// The reachability walk: a priority queue by generation (commits not in the
/// commit-graph first, by commit time), propagating a bitmask of the tips that reach
/// each commit. It stops when every candidate has all the bits it asks for, or when
/// nothing left in the queue can reach an open candidate any more: every remaining
/// commit is in the graph and its generation is below that of every open candidate.
///
/// Commits in the graph are keyed by their graph position in flat vectors, and their
/// parents come from the graph as positions; only commits outside it (newer than the
/// graph, or all of them without one) are decoded and kept in a map.
struct Walk<'a> {
    repo: &'a gix::Repository,
    graph: Option<&'a gix::commitgraph::Graph>,
    /// Commits read from their objects, not the graph.
    parsed: std::cell::Cell<usize>,
}

/// A commit in the walk: its position in the commit-graph, or its id when it is not
/// in the graph.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Node {
    Pos(u32),
    Id(ObjectId),
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    generation: u32,
    time: i64,
    node: Node,
}

/// Not in the commit-graph: newer than everything in it.
const NO_GENERATION: u32 = u32::MAX;

/// Per-commit bits: a vector over graph positions, a map for the rest.
struct Bits {
    by_pos: Vec<u64>,
    by_id: HashMap<ObjectId, u64>,
}

impl Bits {
    fn new(graph_len: usize) -> Self {
        Bits {
            by_pos: vec![0; graph_len],
            by_id: HashMap::new(),
        }
    }

    fn get(&self, node: Node) -> u64 {
        match node {
            Node::Pos(p) => self.by_pos[p as usize],
            Node::Id(id) => self.by_id.get(&id).copied().unwrap_or(0),
        }
    }

    fn slot(&mut self, node: Node) -> &mut u64 {
        match node {
            Node::Pos(p) => &mut self.by_pos[p as usize],
            Node::Id(id) => self.by_id.entry(id).or_default(),
        }
    }
}

impl<'a> Walk<'a> {
    fn new(repo: &'a gix::Repository, graph: Option<&'a gix::commitgraph::Graph>) -> Self {
        Walk {
            repo,
            graph,
            parsed: std::cell::Cell::new(0),
        }
    }

    fn node_of(&self, id: ObjectId) -> Node {
        match self.graph.and_then(|g| g.lookup(id)) {
            Some(pos) => Node::Pos(pos.0),
            None => Node::Id(id),
        }
    }

    /// Generation and commit time of a node, and its parents; commits outside the
    /// graph are decoded once and remembered in `decoded`.
    fn entry(
        &self,
        node: Node,
        decoded: &mut HashMap<ObjectId, (i64, Vec<Node>)>,
    ) -> Option<(Entry, Vec<Node>)> {
        match node {
            Node::Pos(p) => {
                let graph = self.graph?;
                let c = graph.commit_at(gix::commitgraph::Position(p));
                let parents = c
                    .iter_parents()
                    .filter_map(std::result::Result::ok)
                    .map(|p| Node::Pos(p.0))
                    .collect();
                let time = i64::try_from(c.committer_timestamp()).unwrap_or(i64::MAX);
                Some((
                    Entry {
                        generation: c.generation(),
                        time,
                        node,
                    },
                    parents,
                ))
            }
            Node::Id(id) => {
                if let Some((time, parents)) = decoded.get(&id) {
                    return Some((
                        Entry {
                            generation: NO_GENERATION,
                            time: *time,
                            node,
                        },
                        parents.clone(),
                    ));
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
                Some((
                    Entry {
                        generation: NO_GENERATION,
                        time,
                        node,
                    },
                    parents,
                ))
            }
        }
    }

    /// For each candidate, the bits of the tips that reach it.
    fn run(
        &self,
        bit_of: &HashMap<ObjectId, u64>,
        needed: &HashMap<ObjectId, u64>,
    ) -> HashMap<ObjectId, u64> {
        let graph_len = self.graph.map_or(0, |g| g.num_commits() as usize);
        let mut mask = Bits::new(graph_len);
        let mut done = Bits::new(graph_len);
        let mut decoded: HashMap<ObjectId, (i64, Vec<Node>)> = HashMap::new();
        let mut heap: BinaryHeap<Entry> = BinaryHeap::new();
        // Open candidates: by node, with their generation; those in the graph also
        // counted by generation, to know how deep the walk must go.
        let candidates: HashMap<Node, (ObjectId, u64)> = needed
            .iter()
            .map(|(id, bits)| (self.node_of(*id), (*id, *bits)))
            .collect();
        let mut open: HashMap<Node, u32> = HashMap::new();
        let mut open_generations: BTreeMap<u32, usize> = BTreeMap::new();
        for node in candidates.keys() {
            let generation = match (node, self.graph) {
                (Node::Pos(p), Some(g)) => g.commit_at(gix::commitgraph::Position(*p)).generation(),
                _ => NO_GENERATION,
            };
            open.insert(*node, generation);
            if generation != NO_GENERATION {
                *open_generations.entry(generation).or_default() += 1;
            }
        }
        for (tip, bit) in bit_of {
            let node = self.node_of(*tip);
            let Some((entry, _)) = self.entry(node, &mut decoded) else {
                continue;
            };
            *mask.slot(node) |= bit;
            heap.push(entry);
        }
        while let Some(top) = heap.peek() {
            if open.is_empty() {
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
            let m = mask.get(node);
            if m & !done.get(node) == 0 {
                continue;
            }
            *done.slot(node) = m;
            if let Some(generation) = open.get(&node).copied() {
                if candidates[&node].1 & !m == 0 {
                    open.remove(&node);
                    if let Some(n) = open_generations.get_mut(&generation) {
                        *n -= 1;
                        if *n == 0 {
                            open_generations.remove(&generation);
                        }
                    }
                }
            }
            let Some((_, parents)) = self.entry(node, &mut decoded) else {
                continue;
            };
            for p in parents {
                let pm = mask.slot(p);
                if m & !*pm != 0 {
                    *pm |= m;
                    if let Some((entry, _)) = self.entry(p, &mut decoded) {
                        heap.push(entry);
                    }
                }
            }
        }
        candidates
            .iter()
            .map(|(node, (id, _))| (*id, mask.get(*node)))
            .collect()
    }
}
