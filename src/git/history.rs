//! History questions: recent commits, which recorded commits are reachable, and
//! which commits are newer than a handover.

use std::collections::{HashMap, HashSet};

use gix::ObjectId;
use gix::bstr::ByteSlice;

use super::walk::{IdMap, Mask, Walk};
use super::{
    CommitAnswer, CommitFound, CommitId, CommitLine, History, NEWEST_SHOWN, NewerCommits,
    NewerQuery, Repo, TOOL_COMMIT_MARK, TOOL_COMMITS_LOOKED_AT, subject_of,
};
use crate::support::error::{Error, Result, msg};

use super::resolve::Resolved;
use super::session::past;

/// The answers of [`History::check_commits`], with what the session knows of them.
#[derive(Debug)]
pub struct Checked {
    /// One answer per query, in order; `Err` when the history could not be read.
    pub answers: Result<Vec<CommitAnswer>>,
    /// The session was stopped by its deadline (now or before): what it did not reach
    /// is [`CommitFound::Unknown`].
    pub cut_short: bool,
    /// Why the commit-graph was set aside this session (the answers were read from
    /// the objects instead), if it was.
    pub damaged: Option<String>,
    /// Recorded commits a shallow clone does not have: unchecked (they may lie beyond
    /// its boundary), not missing.
    pub shallow: usize,
}

/// One walk of [`History::check_commits`]: what each sha names, whether each commit is
/// reachable (in the order of the commits), whether a negative verdict came of it, and
/// whether it is whole.
struct Walked {
    resolved: Vec<Resolved>,
    reachable: Vec<bool>,
    negative: bool,
    complete: bool,
}

impl History<'_> {
    /// The newest `n` commits from `tip`, newest first.
    pub fn recent_commits(&mut self, tip: CommitId, n: usize) -> Result<Vec<CommitLine>> {
        let repo = self.repo;
        Ok(self
            .newest_commits(tip.0, None, n)?
            .into_iter()
            .map(|(_, id)| repo.commit_line(id))
            .collect())
    }

    /// The history of `tip`, newest commit first by commit time (ties: descendants
    /// first), at most `limit` commits; with `since`, it stops at older commits. One
    /// walk through the run's shared commit-graph ([`Walk::newest_first`]).
    pub(super) fn newest_commits(
        &mut self,
        tip: ObjectId,
        since: Option<i64>,
        limit: usize,
    ) -> Result<Vec<(i64, ObjectId)>> {
        let graph = self.graph();
        let walk = Walk::new(self.repo, graph.as_deref());
        let out = walk.newest_first(tip, since, limit).map_err(|id| {
            Error::git(
                msg(crate::k!("git.walk"), &[]),
                format!("commit {id} cannot be read"),
            )
        });
        self.walked(walk.parsed.get());
        out
    }
}

impl Repo {
    /// The subject of commit `id` (empty when it cannot be read).
    pub fn subject(&self, id: CommitId) -> String {
        self.commit_line(id.0).subject
    }

    pub(super) fn commit_line(&self, id: ObjectId) -> CommitLine {
        let kind = self.repo.object_hash();
        // What gix reads (where the packs read git's way did not have it) is not
        // checked against the id: a damaged index could give another commit's subject,
        // so it is hashed here.
        let subject = self
            .commit_data(id)
            .filter(|data| {
                gix::objs::compute_hash(kind, gix::objs::Kind::Commit, data)
                    .is_ok_and(|actual| actual == id)
            })
            .and_then(|data| {
                gix::objs::CommitRefIter::from_bytes(&data, kind)
                    .message()
                    .ok()
                    .map(|m| subject_of(m.as_bytes()))
            })
            .unwrap_or_default();
        CommitLine {
            id: CommitId(id),
            subject,
        }
    }

    /// The packs read git's way ([`super::packed`]), listed on first use.
    pub(super) fn packs(&self) -> &super::packed::Packs {
        self.packs.get_or_init(|| {
            super::packed::Packs::at(
                self.repo.objects.store_ref().path(),
                self.repo.object_hash(),
            )
        })
    }

    /// The bytes of commit `id`, for the walks and searches that read many commits:
    /// from the packs read git's way first, hashed (gix's store maps every pack and
    /// index it reads, and a walk without a commit-graph reads all of them: the whole
    /// pack and index would stay resident), then through
    /// gix (loose objects, an index only gix reads). `None` when it is not a commit or
    /// cannot be read.
    pub(super) fn commit_data(&self, id: ObjectId) -> Option<Vec<u8>> {
        match self.packs().find(&id) {
            Some((gix::objs::Kind::Commit, data)) => return Some(data),
            Some(_) => return None,
            None => {}
        }
        let mut commit = self.repo.find_commit(id).ok()?;
        Some(std::mem::take(&mut commit.data))
    }
}

impl History<'_> {
    /// Check recorded shas: each `(sha, tip)` asks whether `sha` names a commit reachable
    /// from `tip`. All of them are answered by one history walk (per 64 distinct tips),
    /// ordered by commit-graph generation and stopped as soon as the answer is known.
    /// Unreachable commits are then looked for among the newest commits of their tip,
    /// as rewritten (amended or rebased) equivalents.
    pub fn check_commits(&mut self, queries: &[(&str, CommitId)]) -> Checked {
        let mut answers = self.answers(queries);
        let mut shallow = 0;
        if let Ok(answers) = &mut answers
            && answers.iter().any(|a| a.found == CommitFound::Missing)
            && self.repo.is_shallow()
        {
            for a in answers
                .iter_mut()
                .filter(|a| a.found == CommitFound::Missing)
            {
                a.found = CommitFound::Unknown;
                shallow += 1;
            }
        }
        Checked {
            answers,
            cut_short: self.cut_short(),
            damaged: self.damaged(),
            shallow,
        }
    }

    /// [`History::check_commits`]'s answers.
    fn answers(&mut self, queries: &[(&str, CommitId)]) -> Result<Vec<CommitAnswer>> {
        let shared = self.graph();
        let graph = shared.as_deref();
        // Each full id decoded once, for the graph lookups, `resolve` and the walk.
        let full: Vec<Option<ObjectId>> = queries
            .iter()
            .map(|(sha, _)| {
                let sha = sha.trim();
                (sha.len() == 40)
                    .then(|| ObjectId::from_hex(sha.as_bytes()).ok())
                    .flatten()
            })
            .collect();
        let first = self.walk_of(queries, &full, graph);
        let Walked {
            mut resolved,
            mut reachable,
            negative,
            mut complete,
        } = first;
        // A negative verdict from the commit-graph is believed only when the graph holds
        // up; a damaged one is set aside and the answer read from the objects.
        if negative
            && let Some(graph) = graph
            && !self.graph_holds(graph)
        {
            let again = self.walk_of(queries, &full, None);
            (resolved, reachable, complete) = (again.resolved, again.reachable, again.complete);
        }
        // When the check above hashed the graph, it let go of the run's mapping; this
        // last reference goes too, so the hashed pages do not stay resident through
        // the search below (which maps the graph again).
        drop(shared);

        let mut answers = Vec::with_capacity(queries.len());
        let mut to_search: HashMap<ObjectId, Vec<(usize, ObjectId)>> = HashMap::new();
        // The walk's answers are in the order of the commits it was asked about.
        let mut reachable = reachable.into_iter();
        for (i, ((_, tip), r)) in queries.iter().zip(&resolved).enumerate() {
            let reached = matches!(r, Resolved::Commit(_)) && reachable.next() == Some(true);
            let (found, full) = match r {
                Resolved::Missing => (CommitFound::Missing, None),
                Resolved::Ambiguous => (CommitFound::Ambiguous, None),
                Resolved::NotACommit(id) => (CommitFound::Unreachable, Some(id.to_string())),
                Resolved::Commit(id) if reached => (CommitFound::Reachable, Some(id.to_string())),
                // The walk was stopped by the deadline before it knew.
                Resolved::Commit(id) if !complete => (CommitFound::Unknown, Some(id.to_string())),
                Resolved::Commit(id) => {
                    to_search.entry(tip.0).or_default().push((i, *id));
                    (CommitFound::Unreachable, Some(id.to_string()))
                }
            };
            answers.push(CommitAnswer {
                found,
                full,
                rewritten: None,
            });
        }
        for (tip, lost) in to_search {
            if self.out_of_time() {
                break;
            }
            for (i, new) in self.find_rewritten(tip, &lost)? {
                answers[i].rewritten = Some(new.to_string());
            }
        }
        Ok(answers)
    }

    /// One walk for [`History::answers`], through `graph` or from the objects alone.
    fn walk_of(
        &mut self,
        queries: &[(&str, CommitId)],
        full: &[Option<ObjectId>],
        graph: Option<&gix::commitgraph::Graph>,
    ) -> Walked {
        let repo = self.repo;
        // Every full id looked up in the graph at once, in order.
        let known = graph.map_or_else(IdMap::default, |g| {
            let ids: Vec<ObjectId> = full.iter().flatten().copied().collect();
            super::compact::positions(g, &ids)
        });
        // Without looking at the disk again (a miss would make the object store
        // list the objects and pack directories, ~17 system calls each) ...
        let mut resolved: Vec<Resolved> = queries
            .iter()
            .zip(full)
            .enumerate()
            .map(|(i, ((sha, _), id))| {
                let r = repo.resolve(sha, *id, graph, &known, false);
                if i == 0 {
                    crate::support::testing::pause("resolve");
                }
                r
            })
            .collect();
        // ... then the misses again, after one look at the disk: packs written
        // while the run went on (a gc, a fetch) are seen, once a run, not per sha.
        let mut looked = false;
        for (((sha, _), id), r) in queries.iter().zip(full).zip(resolved.iter_mut()) {
            if matches!(r, Resolved::Missing) {
                let refresh = !std::mem::replace(&mut looked, true);
                *r = repo.resolve(sha, *id, graph, &known, refresh);
            }
        }
        let mut walk_queries: Vec<(ObjectId, ObjectId)> = Vec::new();
        for ((_, tip), r) in queries.iter().zip(&resolved) {
            if let Resolved::Commit(id) = r {
                walk_queries.push((*id, tip.0));
            }
        }
        let (reachable, complete) = self.reachable_in(&walk_queries, graph, &known);
        if !complete {
            self.stopped();
        }
        let negative = complete
            && (reachable.iter().any(|r| !r)
                || resolved.iter().any(|r| !matches!(r, Resolved::Commit(_))));
        Walked {
            resolved,
            reachable,
            negative,
            complete,
        }
    }
}

impl History<'_> {
    /// Whether each `(candidate, tip)` pair is reachable (in the order asked), read
    /// through `graph` (or from the objects alone), and whether the answer is whole
    /// (the deadline did not stop it). One walk for up to 64 distinct tips, else one
    /// per 128: each commit carries a bit per tip that reaches it.
    pub(super) fn reachable_in(
        &mut self,
        queries: &[(ObjectId, ObjectId)],
        graph: Option<&gix::commitgraph::Graph>,
        known: &IdMap<u32>,
    ) -> (Vec<bool>, bool) {
        let mut tips: Vec<ObjectId> = queries.iter().map(|(_, t)| *t).collect();
        tips.sort_unstable();
        tips.dedup();
        if tips.len() <= u64::BITS as usize {
            self.reachable_by::<u64>(queries, &tips, graph, known)
        } else {
            self.reachable_by::<u128>(queries, &tips, graph, known)
        }
    }

    /// [`History::reachable_in`] with a bit per tip in an `M`: one walk per `M::BITS` tips.
    fn reachable_by<M: Mask>(
        &mut self,
        queries: &[(ObjectId, ObjectId)],
        tips: &[ObjectId],
        graph: Option<&gix::commitgraph::Graph>,
        known: &IdMap<u32>,
    ) -> (Vec<bool>, bool) {
        let mut out = vec![false; queries.len()];
        for chunk in tips.chunks(M::BITS) {
            let bit_of: IdMap<M> = chunk
                .iter()
                .enumerate()
                .map(|(i, t)| (*t, M::bit(i)))
                .collect();
            let mut needed: IdMap<M> = IdMap::default();
            needed.reserve(queries.len());
            for (c, t) in queries {
                if let Some(bit) = bit_of.get(t) {
                    *needed.entry(*c).or_default() |= *bit;
                }
            }
            let walk = Walk::new(self.repo, graph)
                .knowing(known)
                .with_compact(self.compact.clone());
            // Stopped by the deadline: what was proven stays, the rest is unknown.
            let deadline = self.deadline();
            let (masks, complete) = walk.run(&bit_of, &needed, &|| past(deadline));
            self.walked(walk.parsed.get());
            for ((c, t), reached) in queries.iter().zip(out.iter_mut()) {
                if let (Some(bit), Some(mask)) = (bit_of.get(t), masks.get(c))
                    && !(*mask & *bit).is_empty()
                {
                    *reached = true;
                }
            }
            if !complete {
                return (out, false);
            }
        }
        (out, true)
    }

    /// For each query, the commits reachable from its tip that are newer than its
    /// `since` (by committer time) and not excluded. One walk per distinct tip, down to
    /// the oldest `since` asked of it.
    pub fn newer_commits(&mut self, queries: &[NewerQuery<'_>]) -> Result<Vec<NewerCommits>> {
        let repo = self.repo;
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
            let mut list: Vec<(i64, ObjectId)> = self
                .newest_commits(tip, Some(since), usize::MAX)?
                .into_iter()
                .filter(|(time, _)| *time > since)
                .collect();
            // Newest first by time; the walk's own (topological) order breaks ties, as
            // a rebase gives many commits the same time (the sort is stable).
            list.sort_by_key(|c| std::cmp::Reverse(c.0));
            // The tool's own commits (a consumed note's removal) are not newer work;
            // they are recent, so the newest few are looked at.
            let mut checked = 0;
            list.retain(|(_, id)| {
                checked += 1;
                checked > TOOL_COMMITS_LOOKED_AT || !repo.is_tool_commit(*id)
            });
            newer_by_tip.insert(tip, list);
        }
        // Sessions on one branch share its newest commits: each line is read once.
        let mut lines: HashMap<ObjectId, CommitLine> = HashMap::new();
        Ok(queries
            .iter()
            .map(|q| {
                let since = q.since.as_second();
                let mut result = NewerCommits::default();
                let newer = newer_by_tip.get(&q.tip.0).map_or(&[][..], Vec::as_slice);
                // The own commits are decoded only where the branch has newer ones.
                let excluded: HashSet<ObjectId> = if newer.first().is_some_and(|(t, _)| *t > since)
                {
                    q.own
                        .iter()
                        .filter_map(|e| ObjectId::from_hex(e.as_bytes()).ok())
                        .collect()
                } else {
                    HashSet::new()
                };
                // Newest first: the first commit not newer ends the list.
                for (time, id) in newer {
                    if *time <= since {
                        break;
                    }
                    if excluded.contains(id) {
                        continue;
                    }
                    result.count += 1;
                    if result.newest.len() < NEWEST_SHOWN {
                        let line = lines.entry(*id).or_insert_with(|| repo.commit_line(*id));
                        result.newest.push(line.clone());
                    }
                }
                result
            })
            .collect())
    }
}

impl Repo {
    /// Whether `id` is a commit git-handover made itself (`continue` consuming a
    /// tracked note).
    pub(super) fn is_tool_commit(&self, id: ObjectId) -> bool {
        let Some(data) = self.commit_data(id) else {
            return false;
        };
        let kind = self.repo.object_hash();
        let Ok(message) = gix::objs::CommitRefIter::from_bytes(&data, kind).message() else {
            return false;
        };
        let subject = subject_of(message.as_bytes());
        subject.starts_with("Consume ") && subject.ends_with(TOOL_COMMIT_MARK)
    }
}
