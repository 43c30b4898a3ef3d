//! Refs read as pointing at a fixed commit while a guard lives ([`Repo::pin`]).

use gix::ObjectId;

use super::Repo;

/// While it lives, the ref it names reads as the commit it was pinned at
/// ([`Repo::pin`]).
pub struct Pinned<'a> {
    repo: &'a Repo,
    name: String,
}

impl Drop for Pinned<'_> {
    fn drop(&mut self) {
        self.repo.pins.borrow_mut().remove(&self.name);
    }
}

impl Repo {
    /// Read `name` as pointing at `at` (a full hex id) until the guard is dropped; no
    /// pin when `at` is not an id.
    pub fn pin(&self, name: &str, at: &str) -> Pinned<'_> {
        if let Ok(id) = ObjectId::from_hex(at.as_bytes()) {
            self.pins.borrow_mut().insert(name.to_owned(), id);
        }
        Pinned {
            repo: self,
            name: name.to_owned(),
        }
    }

    /// The commit `name` is pinned at, when it is.
    pub(super) fn pinned_at(&self, name: &str) -> Option<ObjectId> {
        self.pins.borrow().get(name).copied()
    }
}
