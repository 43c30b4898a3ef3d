//! Finding the rewritten equivalent of a commit a rebase or amend left behind.

use gix::ObjectId;
use gix::bstr::ByteSlice;

use super::{CommitId, History, REWRITE_SEARCH_DEPTH, Repo, subject_of};
use crate::support::error::Result;

impl History<'_> {
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
        &mut self,
        tip: ObjectId,
        lost: &[(usize, ObjectId)],
    ) -> Result<Vec<(usize, ObjectId)>> {
        let repo = self.repo;
        let keys: Vec<(usize, ObjectId, Ident)> = lost
            .iter()
            .filter_map(|(i, id)| repo.ident(*id).map(|k| (*i, *id, k)))
            .collect();
        let Some(oldest) = keys.iter().map(|(_, _, k)| k.committed).min() else {
            return Ok(Vec::new());
        };
        let walk = self.newest_commits(tip, Some(oldest), REWRITE_SEARCH_DEPTH)?;
        let mut by_change: Vec<Option<ObjectId>> = vec![None; keys.len()];
        let mut by_subject: Vec<Option<ObjectId>> = vec![None; keys.len()];
        let mut lost_changes: Vec<Option<Vec<Change>>> = vec![None; keys.len()];
        for (_, id) in walk {
            if self.out_of_time() {
                break;
            }
            let Some(key) = repo.ident(id) else {
                continue;
            };
            // This commit's change, worked out once whatever the number of lost commits
            // it is compared with (one agent's commits share their author).
            let mut change: Option<Vec<Change>> = None;
            for (k, (_, lost_id, lost_key)) in keys.iter().enumerate() {
                if by_change[k].is_some() || key.author != lost_key.author {
                    continue;
                }
                let lost_change = lost_changes[k].get_or_insert_with(|| repo.changes(*lost_id));
                if !lost_change.is_empty()
                    && *change.get_or_insert_with(|| repo.changes(id)) == *lost_change
                {
                    by_change[k] = Some(id);
                } else if by_subject[k].is_none() && key.subject == lost_key.subject {
                    by_subject[k] = Some(id);
                }
            }
        }
        Ok(keys
            .iter()
            .enumerate()
            .filter_map(|(k, (i, _, _))| by_change[k].or(by_subject[k]).map(|id| (*i, id)))
            .collect())
    }
}

impl Repo {
    /// Author (name, e-mail, date as written), subject and commit time of a commit.
    pub(super) fn ident(&self, id: ObjectId) -> Option<Ident> {
        let data = self.commit_data(id)?;
        let decoded = gix::objs::CommitRef::from_bytes(&data, self.repo.object_hash()).ok()?;
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

    /// What a commit changed against its first parent (the blobs, by path), sorted:
    /// gix's own tree diff, without rename tracking, like the paths and contents git's
    /// patch id compares.
    pub(super) fn changes(&self, id: ObjectId) -> Vec<Change> {
        changes_in(&self.repo, id)
    }
}

/// [`Repo::changes`] through `repo` (a handle with an object cache, where one commit's
/// trees are read again as the next one's parent's).
pub(super) fn changes_in(repo: &gix::Repository, id: ObjectId) -> Vec<Change> {
    crate::support::testing::note("tree-diff");
    let Ok(commit) = repo.find_commit(id) else {
        return Vec::new();
    };
    let new = commit.tree_id().ok().map(gix::Id::detach);
    let old = commit
        .parent_ids()
        .next()
        .and_then(|p| repo.find_commit(p).ok())
        .and_then(|p| p.tree_id().ok().map(gix::Id::detach));
    tree_changes(repo, old, new)
}

/// What changed from the tree `old` to the tree `new` (none: empty), the blobs by
/// path, sorted.
pub(super) fn tree_changes(
    repo: &gix::Repository,
    old: Option<ObjectId>,
    new: Option<ObjectId>,
) -> Vec<Change> {
    use gix::diff::tree::recorder::Change as C;
    let tree_data = |tree: Option<ObjectId>| -> Vec<u8> {
        tree.and_then(|t| repo.find_tree(t).ok())
            .map(|t| t.data.clone())
            .unwrap_or_default()
    };
    let (new, old) = (tree_data(new), tree_data(old));
    let kind = repo.object_hash();
    let mut recorder = gix::diff::tree::Recorder::default();
    let diffed = gix::diff::tree(
        gix::objs::TreeRefIter::from_bytes(&old, kind),
        gix::objs::TreeRefIter::from_bytes(&new, kind),
        gix::diff::tree::State::default(),
        &repo.objects,
        &mut recorder,
    );
    if diffed.is_err() {
        return Vec::new();
    }
    let mut changes: Vec<Change> = recorder
        .records
        .into_iter()
        .filter_map(|c| match c {
            C::Addition {
                entry_mode,
                oid,
                path,
                ..
            } => (!entry_mode.is_tree()).then(|| (path.into(), None, Some(oid))),
            C::Deletion {
                entry_mode,
                oid,
                path,
                ..
            } => (!entry_mode.is_tree()).then(|| (path.into(), Some(oid), None)),
            C::Modification {
                previous_entry_mode,
                previous_oid,
                entry_mode,
                oid,
                path,
            } => {
                let old = (!previous_entry_mode.is_tree()).then_some(previous_oid);
                let new = (!entry_mode.is_tree()).then_some(oid);
                (old.is_some() || new.is_some()).then(|| (path.into(), old, new))
            }
        })
        .collect();
    changes.sort();
    changes
}

pub(super) type Change = (Vec<u8>, Option<ObjectId>, Option<ObjectId>);

pub(super) struct Ident {
    author: (String, String, String),
    subject: String,
    committed: i64,
}

impl Repo {
    /// HEAD's commit, its committer time (seconds), its subject and the paths it
    /// changed against its first parent: what the post-commit hook needs.
    pub fn head_changes(&self) -> Option<(CommitId, i64, String, Vec<String>)> {
        let id = self.repo.head_id().ok()?.detach();
        let commit = self.repo.find_commit(id).ok()?;
        let time = commit.time().ok()?.seconds;
        let subject = commit
            .message_raw()
            .ok()
            .map(|m| subject_of(m.as_bytes()))
            .unwrap_or_default();
        let paths = self
            .changes(id)
            .into_iter()
            .map(|(p, _, _)| String::from_utf8_lossy(&p).into_owned())
            .collect();
        Some((CommitId(id), time, subject, paths))
    }
}
