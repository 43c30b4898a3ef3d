//! Clones that share a notes store through a bare remote, as the sync and remote-claim
//! tests make them.

use std::path::{Path, PathBuf};

use super::TestEnv;

impl TestEnv {
    /// `<root>/remote.git`: a bare clone of `<root>/seed`, a repository of one commit.
    pub fn bare_remote(&self) -> PathBuf {
        let seed = self.init("seed");
        self.commit(&seed, "a", "a\n", "first", "2026-11-30T10:00:00Z");
        let remote = self.root().join("remote.git");
        self.git(
            self.root(),
            &["clone", "-q", "--bare", "seed", remote.to_str().unwrap()],
        );
        remote
    }

    /// `<root>/<name>`: a clone of `remote` with the notes store enabled.
    pub fn store_clone(&self, remote: &Path, name: &str) -> PathBuf {
        self.git(
            self.root(),
            &["clone", "-q", remote.to_str().unwrap(), name],
        );
        let dir = self.root().join(name);
        self.git(&dir, &["config", "handover.store", "notes"]);
        dir
    }
}
