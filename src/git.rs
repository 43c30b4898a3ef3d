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

mod notes;
pub use notes::{NotesMerge, StoredNote};

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

    /// The repository's common git directory (shared by all worktrees).
    pub fn common_dir(&self) -> PathBuf {
        self.repo.common_dir().to_owned()
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
            // Read the worktree's HEAD through the main repository's ref store rather
            // than opening a repository per worktree (each would map the packs again).
            let mut wt = proxy
                .id()
                .map_or_else(|_| Worktree::empty(), |id| linked_head(&main, id));
            let Some(path) = base else { continue };
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
        let r = self
            .repo
            .try_find_reference(format!("refs/heads/{branch}").as_str())
            .ok()??;
        target_commit(r)
    }

    /// The newest `n` commits from `tip`, newest first.
    pub fn recent_commits(&self, tip: CommitId, n: usize) -> Result<Vec<CommitLine>> {
        let walk = self.newest_first(tip.0, None)?;
        walk.take(n)
            .map(|info| {
                let info = info.map_err(|e| Error::git("walk history", e))?;
                Ok(self.commit_line(info.id))
            })
            .collect()
    }

    /// The history of `tip`, newest commit first (by commit time), using the
    /// commit-graph when there is one; with `since`, it stops at older commits.
    fn newest_first(&self, tip: ObjectId, since: Option<i64>) -> Result<gix::revision::Walk<'_>> {
        let sorting = match since {
            Some(seconds) => gix::revision::walk::Sorting::ByCommitTimeCutoff {
                order: CommitTimeOrder::default(),
                seconds,
            },
            None => gix::revision::walk::Sorting::ByCommitTime(CommitTimeOrder::default()),
        };
        self.repo
            .rev_walk([tip])
            .sorting(sorting)
            .use_commit_graph(true)
            .all()
            .map_err(|e| Error::git("walk history", e))
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
        let graph = self.repo.commit_graph_if_enabled().ok().flatten();
        let resolved: Vec<Resolved> = queries
            .iter()
            .map(|(sha, _)| self.resolve(sha, graph.as_ref()))
            .collect();
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

    /// What a recorded sha names. A commit in the commit-graph is answered from the
    /// graph alone: reading object headers from the pack for thousands of shas touches
    /// (and, with the kernel's fault-around, maps in) most of a large pack.
    fn resolve(&self, sha: &str, graph: Option<&gix::commitgraph::Graph>) -> Resolved {
        let sha = sha.trim();
        if sha.len() < 4 || sha.len() > 40 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Resolved::Missing;
        }
        if let Some(found) = graph.and_then(|g| in_graph(g, sha)) {
            return found;
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

    /// Look among the newest commits of `tip` for equivalents of `lost` commits.
    ///
    /// Amending and rebasing keep the author and the author date, so those are the
    /// cheap first filter; among the commits that pass it, one with the same change
    /// (paths and contents against the first parent, the role of git's patch id) wins,
    /// else one with the same subject. The walk reads commits newest first and stops at
    /// the oldest lost commit's time (a rewrite is never older than its original) or
    /// after `REWRITE_SEARCH_DEPTH` commits; trees are compared only for the few
    /// commits that pass the filter.
    fn find_rewritten(
        &self,
        tip: ObjectId,
        lost: &[(usize, ObjectId)],
    ) -> Result<Vec<(usize, ObjectId)>> {
        let keys: Vec<(usize, ObjectId, Ident)> = lost
            .iter()
            .filter_map(|(i, id)| self.ident(*id).map(|k| (*i, *id, k)))
            .collect();
        let Some(oldest) = keys.iter().map(|(_, _, k)| k.committed).min() else {
            return Ok(Vec::new());
        };
        let walk = self.newest_first(tip, Some(oldest))?;
        let mut by_change: Vec<Option<ObjectId>> = vec![None; keys.len()];
        let mut by_subject: Vec<Option<ObjectId>> = vec![None; keys.len()];
        let mut lost_changes: Vec<Option<Vec<Change>>> = vec![None; keys.len()];
        for info in walk.take(REWRITE_SEARCH_DEPTH) {
            let info = info.map_err(|e| Error::git("walk history", e))?;
            let Some(key) = self.ident(info.id) else {
                continue;
            };
            for (k, (_, lost_id, lost_key)) in keys.iter().enumerate() {
                if by_change[k].is_some() || key.author != lost_key.author {
                    continue;
                }
                let lost_change = lost_changes[k].get_or_insert_with(|| self.changes(*lost_id));
                if !lost_change.is_empty() && self.changes(info.id) == *lost_change {
                    by_change[k] = Some(info.id);
                } else if by_subject[k].is_none() && key.subject == lost_key.subject {
                    by_subject[k] = Some(info.id);
                }
            }
        }
        Ok(keys
            .iter()
            .enumerate()
            .filter_map(|(k, (i, _, _))| by_change[k].or(by_subject[k]).map(|id| (*i, id)))
            .collect())
    }

    /// Author (name, e-mail, date as written), subject and commit time of a commit.
    fn ident(&self, id: ObjectId) -> Option<Ident> {
        let commit = self.repo.find_commit(id).ok()?;
        let decoded = commit.decode().ok()?;
        let author = decoded.author().ok()?;
        let committed = decoded
            .committer()
            .ok()
            .and_then(|c| c.time().ok())
            .map_or(0, |t| t.seconds);
        Some(Ident {
            author: (
                author.name.to_str_lossy().into_owned(),
                author.email.to_str_lossy().into_owned(),
                author.time.to_owned(),
            ),
            subject: subject_of(decoded.message),
            committed,
        })
    }

    /// What a commit changed against its first parent, sorted.
    fn changes(&self, id: ObjectId) -> Vec<Change> {
        let Ok(commit) = self.repo.find_commit(id) else {
            return Vec::new();
        };
        let tree = commit.tree_id().ok().map(gix::Id::detach);
        let parent_tree = commit
            .parent_ids()
            .next()
            .and_then(|p| self.repo.find_commit(p).ok())
            .and_then(|p| p.tree_id().ok().map(gix::Id::detach));
        let mut changes = Vec::new();
        self.diff_trees(parent_tree, tree, &mut Vec::new(), &mut changes);
        changes.sort();
        changes
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
            let walk = self.newest_first(tip, Some(since))?;
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

/// Look a full or abbreviated sha up among the commit-graph's sorted ids: `None` when
/// no commit in the graph has it (the object database must be asked), `Ambiguous` when
/// several commits share the prefix.
fn in_graph(graph: &gix::commitgraph::Graph, sha: &str) -> Option<Resolved> {
    use std::cmp::Ordering;
    let at = |pos: u32| graph.id_at(gix::commitgraph::Position(pos));
    let n = graph.num_commits();
    let matches_at =
        |pos: u32, cmp: &dyn Fn(&gix::oid) -> Ordering| pos < n && cmp(at(pos)) == Ordering::Equal;
    if sha.len() == 40 {
        let id = ObjectId::from_hex(sha.as_bytes()).ok()?;
        return graph.lookup(id).map(|_| Resolved::Commit(id));
    }
    let prefix = gix::hash::Prefix::from_hex(sha).ok()?;
    // `cmp_oid` orders the prefix against an id: Greater while the id is below it.
    let cmp = |id: &gix::oid| prefix.cmp_oid(id);
    let (mut lo, mut hi) = (0u32, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if cmp(at(mid)) == Ordering::Greater {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    if !matches_at(lo, &cmp) {
        return None;
    }
    if matches_at(lo + 1, &cmp) {
        return Some(Resolved::Ambiguous);
    }
    Some(Resolved::Commit(at(lo).to_owned()))
}

enum Resolved {
    Commit(ObjectId),
    NotACommit(ObjectId),
    Missing,
    Ambiguous,
}

type Change = (Vec<u8>, Option<ObjectId>, Option<ObjectId>);

struct Ident {
    author: (String, String, String),
    subject: String,
    committed: i64,
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

/// The commit a branch points to. A branch names its commit directly, so its id is
/// taken as is, without reading the object (which would touch the pack); a symbolic
/// reference is followed.
fn target_commit(mut r: gix::Reference<'_>) -> Option<CommitId> {
    if let Some(id) = r.try_id() {
        return Some(CommitId(id.detach()));
    }
    r.peel_to_id().ok().map(|id| CommitId(id.detach()))
}

/// Branch and HEAD of the linked worktree `id`, from its `worktrees/<id>/HEAD`.
fn linked_head(main: &gix::Repository, id: &gix::bstr::BStr) -> Worktree {
    let mut wt = Worktree::empty();
    let name = format!("worktrees/{id}/HEAD");
    let Ok(Some(head)) = main.try_find_reference(name.as_str()) else {
        return wt;
    };
    match head.target() {
        gix::refs::TargetRef::Symbolic(branch) => {
            wt.branch = Some(branch.shorten().to_str_lossy().into_owned());
            wt.head = main
                .try_find_reference(branch)
                .ok()
                .flatten()
                .and_then(target_commit);
        }
        gix::refs::TargetRef::Object(oid) => {
            wt.detached = true;
            wt.head = Some(CommitId(oid.to_owned()));
        }
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

/// Commits decoded from objects: commit time and parents.
type Decoded = HashMap<ObjectId, (i64, Vec<Node>)>;

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

    /// What orders a node in the queue: its generation and commit time.
    fn key(&self, node: Node, decoded: &mut Decoded) -> Option<Entry> {
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
    fn parents_into(&self, node: Node, decoded: &mut Decoded, out: &mut Vec<Node>) {
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
    fn decode(&self, id: ObjectId, decoded: &mut Decoded) -> Option<(i64, Vec<Node>)> {
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
    fn run(
        &self,
        bit_of: &HashMap<ObjectId, u64>,
        needed: &HashMap<ObjectId, u64>,
    ) -> HashMap<ObjectId, u64> {
        let graph_len = self.graph.map_or(0, |g| g.num_commits() as usize);
        let mut mask = Bits::new(graph_len);
        let mut done = Bits::new(graph_len);
        let mut decoded = Decoded::new();
        let mut parents = Vec::new();
        let mut heap: BinaryHeap<Entry> = BinaryHeap::new();
        // Open candidates: by node, with their generation; those in the graph also
        // counted by generation, to know how deep the walk must go.
        let candidates: HashMap<Node, (ObjectId, u64)> = needed
            .iter()
            .map(|(id, bits)| (self.node_of(*id), (*id, *bits)))
            .collect();
        // The bits each open candidate still waits for, indexed like the masks, so the
        // hot loop asks no hash map whether a commit is a candidate.
        let mut waiting = Bits::new(graph_len);
        let mut open = candidates.len();
        let mut open_generations: BTreeMap<u32, usize> = BTreeMap::new();
        for (node, (_, bits)) in &candidates {
            *waiting.slot(*node) = *bits;
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
            *mask.slot(node) |= bit;
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
            let m = mask.get(node);
            if m & !done.get(node) == 0 {
                continue;
            }
            *done.slot(node) = m;
            let wanted = waiting.get(node);
            if wanted != 0 && wanted & !m == 0 {
                *waiting.slot(node) = 0;
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
                let pm = mask.slot(p);
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
            .map(|(node, (id, _))| (*id, mask.get(*node)))
            .collect()
    }
}
