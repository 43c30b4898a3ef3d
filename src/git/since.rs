//! What a worktree did since a commit, in git's words: the commits made on top of it
//! (reachable from HEAD and not from it, newest first), the paths each changed, and
//! the tracked files whose content in the worktree is not HEAD's (git status's staged
//! and unstaged columns; files git does not track are not looked at). Every answer is
//! bounded: a number of commits, a number of files, and a deadline.

use std::path::Path;
use std::time::Instant;

use gix::bstr::ByteSlice;

use super::{CommitId, Repo, subject_of};

/// A commit made since the start.
#[derive(Debug, Clone)]
pub struct SinceCommit {
    pub id: CommitId,
    pub subject: String,
    /// Committer time, seconds since the epoch.
    pub time: i64,
    /// The paths it changed against its first parent (the newest commits only: see
    /// [`Repo::commits_since`]).
    pub files: Vec<String>,
}

/// The commits made since a start, newest first.
#[derive(Debug, Clone, Default)]
pub struct Since {
    pub commits: Vec<SinceCommit>,
    /// More commits than were looked at (the limit or the deadline came first).
    pub more: bool,
    /// The paths whose content differs between the start's tree and HEAD's: what the
    /// commits changed, all of them together (a file changed and changed back is not
    /// one).
    pub files: Vec<String>,
}

/// A tracked file whose content differs from HEAD's: its path and what the worktree
/// holds (the blob id of its content, `-` when it was deleted, `?` when it could not
/// be read). Two looks with the same words saw the same file.
pub type Dirty = (String, String);

/// Files larger than this are not hashed: they count as changed.
const HASH_LIMIT: u64 = 16 << 20;

impl Repo {
    /// HEAD's commit of this worktree, as a full hex id.
    pub fn head_hex(&self) -> Option<String> {
        self.repo.head_id().ok().map(|id| id.detach().to_string())
    }

    /// The commits reachable from HEAD and not from `start` (hex), newest first, at
    /// most `limit`, the newest `with_files` of them with the paths each changed, and
    /// the paths changed from `start` to HEAD in one tree diff (stopped at `deadline`).
    /// An unknown `start` makes no commits. (A tree diff per commit for all of them
    /// was most of a session-end's time with 100 loose commits; the record keeps the
    /// newest 10 commits' files.)
    pub fn commits_since(
        &self,
        start: &str,
        limit: usize,
        with_files: usize,
        deadline: Instant,
    ) -> Since {
        let mut since = Since::default();
        let Ok(start) = gix::ObjectId::from_hex(start.as_bytes()) else {
            return since;
        };
        let Ok(head) = self.repo.head_id() else {
            return since;
        };
        if head.detach() == start || self.repo.find_commit(start).is_err() {
            return since;
        }
        // One commit's trees are the next one's parent's: read each object once.
        let mut repo = self.repo.clone();
        repo.object_cache_size(Some(4 << 20));
        let Ok(walk) = repo
            .rev_walk([head.detach()])
            .with_hidden([start])
            .sorting(gix::revision::walk::Sorting::ByCommitTime(
                gix::traverse::commit::simple::CommitTimeOrder::NewestFirst,
            ))
            .all()
        else {
            return since;
        };
        // Whether `start` is an ancestor of HEAD: then a commit walked has it as a parent.
        let mut above_start = false;
        for info in walk {
            let Ok(info) = info else { break };
            if since.commits.len() >= limit || Instant::now() >= deadline {
                since.more = true;
                break;
            }
            let Ok(commit) = repo.find_commit(info.id) else {
                continue;
            };
            let subject = commit
                .message_raw()
                .ok()
                .map(|m| subject_of(m.as_bytes()))
                .unwrap_or_default();
            let time = commit.time().map(|t| t.seconds).unwrap_or_default();
            above_start |= commit.parent_ids().any(|p| p == start);
            let files = if since.commits.len() < with_files {
                paths(super::rewritten::changes_in(&repo, info.id))
            } else {
                Vec::new()
            };
            since.commits.push(SinceCommit {
                id: CommitId(info.id),
                subject,
                time,
                files,
            });
        }
        // A walk stopped by its limit or deadline never reached the oldest commit, the
        // one whose parent is the start: asked of the history instead.
        if !above_start && since.more {
            above_start = self.notes_descends(CommitId(start), CommitId(head.detach()));
        }
        if !above_start {
            // HEAD is not on top of the start (a branch switched, a history
            // rewritten): the tree diff would count the other line's files, so the
            // commits' own are taken, each.
            let from = with_files.min(since.commits.len());
            for c in &mut since.commits[from..] {
                if Instant::now() >= deadline {
                    break;
                }
                c.files = paths(super::rewritten::changes_in(&repo, c.id.0));
            }
            let mut all: Vec<String> = since.commits.iter().flat_map(|c| c.files.clone()).collect();
            all.sort();
            all.dedup();
            since.files = all;
        } else if Instant::now() < deadline {
            let tree = |id: gix::ObjectId| {
                repo.find_commit(id)
                    .ok()
                    .and_then(|c| c.tree_id().ok().map(gix::Id::detach))
            };
            since.files = paths(super::rewritten::tree_changes(
                &repo,
                tree(start),
                tree(head.detach()),
            ));
        }
        since
    }

    /// The tracked files of this worktree whose content differs from HEAD's, staged or
    /// not, sorted by path, at most `limit` (`true` with them when there were more, or
    /// the deadline came first). A worktree without an index or HEAD has none.
    pub fn dirty_files(&self, limit: usize, deadline: Instant) -> (Vec<Dirty>, bool) {
        let mut out = Vec::new();
        let Some(root) = self.repo.workdir().map(Path::to_owned) else {
            return (out, false);
        };
        let Ok(index) = self.repo.index_or_empty() else {
            return (out, false);
        };
        let head_tree = self
            .repo
            .head_commit()
            .ok()
            .and_then(|c| c.tree_id().ok().map(gix::Id::detach))
            .and_then(|t| self.repo.index_from_tree(&t).ok());
        let kind = self.repo.object_hash();
        let in_head = |path: &[u8]| -> Option<gix::ObjectId> {
            let head = head_tree.as_ref()?;
            let e = head.entry_by_path(path.as_bstr())?;
            Some(e.id)
        };
        let mut more = false;
        for entry in index.entries() {
            if Instant::now() >= deadline || out.len() >= limit {
                more = true;
                break;
            }
            if entry.mode.is_submodule() || entry.stage_raw() != 0 {
                continue;
            }
            let rel = entry.path(&index);
            let staged = head_tree.is_some() && in_head(rel) != Some(entry.id);
            let Ok(rel_path) = gix::path::from_bstr(rel) else {
                continue;
            };
            let file = root.join(rel_path);
            let content = match std::fs::symlink_metadata(&file) {
                Err(_) => Some("-".to_owned()),
                Ok(meta) if same_stat(&meta, &entry.stat) && !staged => None,
                Ok(meta) => Some(content_id(&file, &meta, kind)),
            };
            let path = rel.to_str_lossy().into_owned();
            match content {
                Some(id)
                    if staged || gix::ObjectId::from_hex(id.as_bytes()).ok() != Some(entry.id) =>
                {
                    out.push((path, id));
                }
                Some(_) | None => {}
            }
        }
        // Files HEAD has that the index no longer does (`git rm --cached`, `git rm`).
        if let Some(head) = &head_tree
            && !more
        {
            for e in head.entries() {
                if out.len() >= limit {
                    more = true;
                    break;
                }
                let rel = e.path(head);
                if index.entry_by_path(rel).is_none() {
                    let Ok(rel_path) = gix::path::from_bstr(rel) else {
                        continue;
                    };
                    let file = root.join(rel_path);
                    let id = std::fs::symlink_metadata(&file)
                        .map_or_else(|_| "-".to_owned(), |m| content_id(&file, &m, kind));
                    out.push((rel.to_str_lossy().into_owned(), id));
                }
            }
        }
        out.sort();
        (out, more)
    }
}

/// Whether a file's metadata still matches what the index recorded (size and mtime).
fn same_stat(meta: &std::fs::Metadata, stat: &gix::index::entry::Stat) -> bool {
    use std::os::unix::fs::MetadataExt as _;
    // The index keeps the low 32 bits of the size and of the seconds.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (size, secs, nsecs) = (
        meta.size() as u32,
        meta.mtime() as u32,
        meta.mtime_nsec() as u32,
    );
    size == stat.size && secs == stat.mtime.secs && nsecs == stat.mtime.nsecs
}

/// The blob id of what the worktree holds at `file` (a link's target text), or `?`.
fn content_id(file: &Path, meta: &std::fs::Metadata, kind: gix::hash::Kind) -> String {
    let data = if meta.file_type().is_symlink() {
        std::fs::read_link(file)
            .ok()
            .map(|t| t.into_os_string().into_encoded_bytes())
    } else if meta.is_file() && meta.len() <= HASH_LIMIT {
        std::fs::read(file).ok()
    } else {
        None
    };
    data.and_then(|d: Vec<u8>| gix::objs::compute_hash(kind, gix::objs::Kind::Blob, &d).ok())
        .map_or_else(|| "?".to_owned(), |id| id.to_string())
}

/// The paths of a tree diff's changes, as text.
fn paths(changes: Vec<super::rewritten::Change>) -> Vec<String> {
    changes
        .into_iter()
        .map(|(p, _, _)| String::from_utf8_lossy(&p).into_owned())
        .collect()
}
