//! Worktrees as `git worktree list` shows them: main first, linked by path.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use gix::ObjectId;
use gix::bstr::ByteSlice;

use super::{CommitId, Repo, Worktree, normalize};
use crate::support::error::{Error, Result, msg};

impl Repo {
    /// Every worktree: the main one first, then linked ones ordered by path, as
    /// `git worktree list` orders them. Locked and prunable ones are included.
    pub fn worktrees(&self) -> Result<Vec<Worktree>> {
        let main = self
            .repo
            .main_repo()
            .map_err(|e| Error::git(msg(crate::k!("git.open_main"), &[]), e))?;
        let mut out = vec![main_entry(&main)];

        // Linked worktrees, read from their admin directories like `git worktree list`
        // does: each file once (gix's proxies read `gitdir` three times and look every
        // ref up through the store, which stats `packed-refs` each time: dozens of
        // system calls a worktree), and `packed-refs` parsed once for all.
        let admin = main.common_dir().join("worktrees");
        let mut ids: Vec<std::ffi::OsString> = match std::fs::read_dir(&admin) {
            Ok(entries) => entries
                .filter_map(|e| e.ok().map(|e| e.file_name()))
                .collect(),
            Err(_) => Vec::new(),
        };
        ids.sort();
        let refs = Refs::new(&main);
        let mut parents = Parents::default();
        let mut linked: Vec<Worktree> = ids
            .iter()
            .filter_map(|id| linked_entry(&refs, &mut parents, &admin.join(id), id))
            .collect();
        linked.sort_by(|a, b| a.path.cmp(&b.path));
        out.extend(linked);
        Ok(out)
    }

    /// The worktree the repository was discovered from, exactly as [`Repo::worktrees`]
    /// lists it, without listing the others (a briefing in its own worktree needs no
    /// more: ~10 system calls a worktree saved). `None` when it is not a worktree git
    /// lists in the usual layout (bare, `GIT_WORK_TREE` elsewhere, `core.worktree`):
    /// the caller then lists them all.
    pub fn this_worktree(&self) -> Option<Worktree> {
        let current = self.current_worktree()?;
        let git_dir = self.repo.git_dir();
        let common = self.repo.common_dir();
        let wt = if git_dir == common {
            if normalize(common.parent()?) != current || common.file_name()? != ".git" {
                return None;
            }
            main_entry(&self.repo)
        } else {
            // `<common>/worktrees/<id>`, compared lexically (gix spells the common
            // directory `<admin>/../..`).
            let lexical = |p: &Path| {
                gix::path::normalize(p.into(), Path::new("/")).map(std::borrow::Cow::into_owned)
            };
            let admin = git_dir.parent()?;
            if lexical(admin)? != lexical(&common.join("worktrees"))? {
                return None;
            }
            let refs = Refs::new(&self.repo);
            linked_entry(
                &refs,
                &mut Parents::default(),
                git_dir,
                git_dir.file_name()?,
            )?
        };
        (wt.path == current).then_some(wt)
    }
}

/// The main worktree's entry (or the bare repository's).
fn main_entry(main: &gix::Repository) -> Worktree {
    let main_path = main
        .workdir()
        .map_or_else(|| main.common_dir().to_owned(), Path::to_owned);
    let mut first = head_info(main);
    first.path = normalize(&main_path);
    first.is_main = true;
    first.is_bare = main.workdir().is_none();
    first.exists = main_path.is_dir();
    main.git_dir().clone_into(&mut first.git_dir);
    first
}

/// The entry of linked worktree `id`, from its admin directory `dir`. Only a directory
/// with a `gitdir` file is a worktree (as gix and git have it); a relative `gitdir` is
/// relative to the admin directory.
fn linked_entry(
    refs: &Refs<'_>,
    parents: &mut Parents,
    dir: &Path,
    id: &std::ffi::OsStr,
) -> Option<Worktree> {
    let text = read_small(&dir.join("gitdir")).ok()?;
    let dot_git = gix::path::from_bstr(text.trim().as_bstr()).ok()?;
    let dot_git = dir.join(dot_git);
    let path = gix::discover::path::without_dot_git_dir(dot_git.clone());
    let (locked, is_locked) = match read_small(&dir.join("locked")) {
        Ok(reason) => (Some(reason.trim().to_str_lossy().into_owned()), true),
        Err(e) => (None, e.kind() != std::io::ErrorKind::NotFound),
    };
    let mut wt = refs.linked_head(dir, id);
    dir.clone_into(&mut wt.git_dir);
    (wt.path, wt.exists) = parents.resolve(&path);
    wt.prunable = !is_locked && dot_git.symlink_metadata().is_err();
    wt.locked = locked;
    Some(wt)
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

    pub(super) fn empty() -> Self {
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
            git_dir: PathBuf::new(),
        }
    }
}

pub(super) fn head_info(repo: &gix::Repository) -> Worktree {
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
pub(super) fn target_commit(mut r: gix::Reference<'_>) -> Option<CommitId> {
    if let Some(id) = r.try_id() {
        return Some(CommitId(id.detach()));
    }
    r.peel_to_id().ok().map(|id| CommitId(id.detach()))
}

/// A small file's bytes, read without asking its size first (`std::fs::read` stats
/// every file it reads: for fifty worktrees' admin files, a hundred and fifty calls).
fn read_small(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut out = Vec::with_capacity(64);
    // `Take` gives no size hint, so no `stat`: reads until the end, at most 1 MiB.
    crate::support::fsio::open_regular(path)?
        .take(1 << 20)
        .read_to_end(&mut out)?;
    Ok(out)
}

/// Worktree paths made canonical, their parent directories resolved once: worktrees
/// usually sit side by side, and resolving each path whole reads every link of every
/// component again.
#[derive(Default)]
struct Parents(HashMap<PathBuf, PathBuf>);

impl Parents {
    /// The canonical path of `path` and whether it is a directory.
    fn resolve(&mut self, path: &Path) -> (PathBuf, bool) {
        let plain = path.is_absolute()
            && path.components().all(|c| {
                matches!(
                    c,
                    std::path::Component::Normal(_) | std::path::Component::RootDir
                )
            });
        if let (true, Some(parent), Some(name)) = (plain, path.parent(), path.file_name())
            && let Ok(meta) = path.symlink_metadata()
            && !meta.file_type().is_symlink()
        {
            let parent = self
                .0
                .entry(parent.to_owned())
                .or_insert_with(|| normalize(parent));
            return (parent.join(name), meta.is_dir());
        }
        (normalize(path), path.is_dir())
    }
}

/// Branch tips for the worktree listing: a loose ref file read directly, else the
/// `packed-refs` buffer loaded once; anything unusual (a symbolic branch, a file that
/// is not a plain id) through gix's ref store.
struct Refs<'a> {
    main: &'a gix::Repository,
    /// `packed-refs`, read when a branch is first not found loose.
    packed: std::cell::OnceCell<Option<gix::refs::file::packed::SharedBufferSnapshot>>,
}

impl<'a> Refs<'a> {
    fn new(main: &'a gix::Repository) -> Self {
        Refs {
            main,
            packed: std::cell::OnceCell::new(),
        }
    }

    /// Branch and HEAD of the linked worktree `id` (admin directory `dir`).
    fn linked_head(&self, dir: &Path, id: &std::ffi::OsStr) -> Worktree {
        let fallback = || {
            gix::path::os_str_into_bstr(id)
                .map_or_else(|_| Worktree::empty(), |id| linked_head(self.main, id))
        };
        let Ok(head) = read_small(&dir.join("HEAD")) else {
            return fallback();
        };
        let head = head.trim();
        let mut wt = Worktree::empty();
        if let Some(branch) = head.strip_prefix(b"ref: ") {
            let Ok(name) = gix::refs::FullName::try_from(branch.as_bstr()) else {
                return fallback();
            };
            if !name.as_bstr().starts_with(b"refs/heads/") {
                return fallback();
            }
            wt.branch = Some(name.as_ref().shorten().to_str_lossy().into_owned());
            wt.head = match self.branch_tip(&name) {
                Some(tip) => tip,
                None => return fallback(),
            };
        } else {
            let Ok(id) = ObjectId::from_hex(head) else {
                return fallback();
            };
            wt.detached = true;
            wt.head = Some(CommitId(id));
        }
        wt
    }

    /// `Some(tip)` (`Some(None)` for an unborn branch) when the branch is a plain
    /// loose or packed ref; `None` when only the ref store can say.
    #[allow(clippy::option_option)]
    fn branch_tip(&self, name: &gix::refs::FullName) -> Option<Option<CommitId>> {
        let path = self
            .main
            .common_dir()
            .join(gix::path::from_bstr(name.as_bstr()).ok()?);
        match read_small(&path) {
            Ok(text) => ObjectId::from_hex(text.trim())
                .ok()
                .map(|id| Some(CommitId(id))),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let packed = self
                    .packed
                    .get_or_init(|| self.main.refs.cached_packed_buffer().ok().flatten());
                let Some(packed) = packed else {
                    return Some(None);
                };
                match packed.try_find(name.as_ref()) {
                    Ok(Some(r)) => Some(Some(CommitId(r.target()))),
                    Ok(None) => Some(None),
                    Err(_) => None,
                }
            }
            Err(_) => None,
        }
    }
}

/// Branch and HEAD of the linked worktree `id`, from its `worktrees/<id>/HEAD`.
pub(super) fn linked_head(main: &gix::Repository, id: &gix::bstr::BStr) -> Worktree {
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
