//! Finding the rewritten equivalent of a commit a rebase or amend left behind.

// The repository types and helpers of the parent module.
#[allow(clippy::wildcard_imports)]
use super::*;

impl Repo {
    /// Look among the newest commits of `tip` for equivalents of `lost` commits.
    ///
    /// Amending and rebasing keep the author and the author date, so those are the
    /// cheap first filter; among the commits that pass it, one with the same change
    /// (paths and contents against the first parent, the role of git's patch id) wins,
    /// else one with the same subject. The walk reads commits newest first and stops at
    /// the oldest lost commit's time (a rewrite is never older than its original) or
    /// after `REWRITE_SEARCH_DEPTH` commits; trees are compared only for the few
    /// commits that pass the filter.
    pub(super) fn find_rewritten(
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
    pub(super) fn ident(&self, id: ObjectId) -> Option<Ident> {
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
    pub(super) fn changes(&self, id: ObjectId) -> Vec<Change> {
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
    pub(super) fn diff_trees(
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
}

pub(super) type Change = (Vec<u8>, Option<ObjectId>, Option<ObjectId>);

pub(super) struct Ident {
    author: (String, String, String),
    subject: String,
    committed: i64,
}
