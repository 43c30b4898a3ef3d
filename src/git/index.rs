//! What git's index and exclude rules say of the handover roots: whether files under
//! them are tracked (they would travel with every checkout), whether a root is ignored.

use std::path::Path;

use gix::bstr::ByteSlice;

use super::Repo;

impl Repo {
    /// The paths tracked in the index of the worktree whose git directory is
    /// `git_dir` that lie under one of `dirs` (relative to the worktree, `/`
    /// separators, no trailing slash). An index that cannot be read tracks nothing.
    pub fn tracked_under(&self, git_dir: &Path, dirs: &[String]) -> Vec<String> {
        let Ok(index) = gix::index::File::at(
            git_dir.join("index"),
            self.repo.object_hash(),
            false,
            gix::index::decode::Options::default(),
        ) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for dir in dirs {
            let prefix = format!("{dir}/");
            if let Some(entries) = index.prefixed_entries(prefix.as_bytes().into()) {
                out.extend(
                    entries
                        .iter()
                        .map(|e| e.path(&index).to_str_lossy().into_owned()),
                );
            }
        }
        out
    }

    /// Whether the file `rel` (relative to this worktree) is ignored by the worktree's
    /// exclude rules. `None` when the rules cannot be read.
    pub fn is_ignored_file(&self, rel: &str) -> Option<bool> {
        self.is_ignored(rel, gix::index::entry::Mode::FILE)
    }

    /// Whether the directory `rel` (relative to this worktree) is ignored by the
    /// worktree's exclude rules: `.gitignore` files, `info/exclude`,
    /// `core.excludesFile`. `None` when the rules cannot be read.
    pub fn is_ignored_dir(&self, rel: &str) -> Option<bool> {
        self.is_ignored(rel, gix::index::entry::Mode::DIR)
    }

    fn is_ignored(&self, rel: &str, mode: gix::index::entry::Mode) -> Option<bool> {
        let index = self.repo.index_or_empty().ok()?;
        let mut stack = self
            .repo
            .excludes(
                &index,
                None,
                gix::worktree::stack::state::ignore::Source::WorktreeThenIdMappingIfNotSkipped,
            )
            .ok()?;
        let platform = stack.at_path(Path::new(rel), Some(mode)).ok()?;
        Some(platform.is_excluded())
    }
}
