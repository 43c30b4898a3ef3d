//! Worktrees as `git worktree list` shows them: main first, linked by path.

// The repository types and helpers of the parent module.
#[allow(clippy::wildcard_imports)]
use super::*;

impl Repo {
    /// Every worktree: the main one first, then linked ones ordered by path, as
    /// `git worktree list` orders them. Locked and prunable ones are included.
    pub fn worktrees(&self) -> Result<Vec<Worktree>> {
        let main = self
            .repo
            .main_repo()
            .map_err(|e| Error::git(msg(crate::k!("git.open_main"), &[]), e))?;
        let mut out = Vec::new();
        let main_path = main
            .workdir()
            .map_or_else(|| main.common_dir().to_owned(), Path::to_owned);
        let mut first = head_info(&main);
        first.path = normalize(&main_path);
        first.is_main = true;
        first.is_bare = main.workdir().is_none();
        first.exists = main_path.is_dir();
        main.git_dir().clone_into(&mut first.git_dir);
        out.push(first);

        let proxies = main
            .worktrees()
            .map_err(|e| Error::git(msg(crate::k!("git.list_worktrees"), &[]), e))?;
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
            proxy.git_dir().clone_into(&mut wt.git_dir);
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
