//! What changed in a notes ref between two of its commits, read from their trees
//! alone: subtrees both sides share are passed over unopened, so the cost is what
//! changed, not what the store holds (the notes index, issue 36).

use std::collections::BTreeMap;

use gix::ObjectId;

use super::{CommitId, Repo};
use crate::support::error::{Error, Result, msg};

/// A note that differs between two notes commits: the object it annotates and its
/// blob on each side (`None`: no note there). Blobs are named by [`NoteText`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoteChange {
    pub object: CommitId,
    pub old: Option<NoteText>,
    pub new: Option<NoteText>,
}

/// A note's blob: two are equal when their texts are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NoteText(pub(super) ObjectId);

impl NoteText {
    pub fn to_hex(self) -> String {
        self.0.to_string()
    }

    pub fn from_hex(hex: &str) -> Option<NoteText> {
        ObjectId::from_hex(hex.as_bytes()).ok().map(NoteText)
    }
}

impl CommitId {
    /// The commit id of `hex` (a full id), for ids read back from the tool's own files.
    pub fn from_hex(hex: &str) -> Option<CommitId> {
        ObjectId::from_hex(hex.as_bytes()).ok().map(CommitId)
    }

    /// The id's 20 bytes, for the tool's own binary files.
    pub fn as_bytes(&self) -> &[u8] {
        self.0.as_bytes()
    }

    /// The id of 20 bytes written by [`CommitId::as_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Option<CommitId> {
        (bytes.len() == 20).then(|| CommitId(ObjectId::from_bytes_or_panic(bytes)))
    }
}

fn change((o, a, b): Changed) -> NoteChange {
    NoteChange {
        object: CommitId(o),
        old: a.map(NoteText),
        new: b.map(NoteText),
    }
}

/// A note that differs: (annotated object, blob before, blob after).
pub(super) type Changed = (ObjectId, Option<ObjectId>, Option<ObjectId>);

/// One tree's entries by name: (is a tree, id).
type Entries = BTreeMap<Vec<u8>, (bool, ObjectId)>;

impl Repo {
    /// The commit `notes_ref` points to, `None` when it does not exist.
    pub fn notes_commit_of(&self, notes_ref: &str) -> Result<Option<CommitId>> {
        Ok(self.ref_commit(notes_ref)?.map(CommitId))
    }

    /// Whether `old` is `new` or one of its ancestors (a notes ref that only grew).
    pub fn notes_descends(&self, old: CommitId, new: CommitId) -> bool {
        old == new
            || self
                .repo
                .merge_base(old.0, new.0)
                .is_ok_and(|base| base.map(gix::Id::detach) == Some(old.0))
    }

    /// The notes that differ between notes commits `old` and `new`, in object order.
    pub fn notes_diff(&self, old: CommitId, new: CommitId) -> Result<Vec<NoteChange>> {
        let old_tree = self.tree_of(Some(old.0))?;
        let new_tree = self.tree_of(Some(new.0))?;
        Ok((self.note_changes(old_tree, new_tree)?)
            .into_iter()
            .map(change)
            .collect())
    }

    /// Whether `old` is `new` or one of its ancestors and, when it is, the notes that
    /// differ between them ([`Repo::notes_descends`], [`Repo::notes_diff`]), read
    /// through an object store opened for them and dropped after
    /// ([`Repo::fresh_store`]): the walk and the tree diff touch pack pages all over the
    /// packs after a large fetch (2,000 notes commits at 1,000,000 records), which the
    /// repository's own store would keep mapped for the rest of the run. One store
    /// serves the walk and a usual diff; a diff of more trees reads each of the rest
    /// through a store of its own ([`DiffTrees`]). Falls back to the repository's own
    /// store when another cannot be opened.
    pub fn notes_descent(&self, old: CommitId, new: CommitId) -> Result<Option<Vec<NoteChange>>> {
        // A few commits on top by first parents (the usual case: other processes'
        // writes since): no merge-base walk and no store opened for it (a store's packs
        // mapped and faulted in again were most of such an update's time); the first
        // trees through the repository's own store, as a usual diff's.
        if self.first_parents_reach(old, new, NEAR_COMMITS) {
            let (old_tree, new_tree) = (self.tree_of(Some(old.0))?, self.tree_of(Some(new.0))?);
            let mut trees = DiffTrees {
                repo: self,
                own: None,
                read: Some(0),
            };
            let changes = self.note_changes_by(&mut trees, old_tree, new_tree)?;
            return Ok(Some(changes.into_iter().map(change).collect()));
        }
        let own = self
            .fresh_store()
            .map(|repo| Repo::with(repo, self.deadline));
        let by = own.as_ref().unwrap_or(self);
        if !by.notes_descends(old, new) {
            return Ok(None);
        }
        let (old_tree, new_tree) = (by.tree_of(Some(old.0))?, by.tree_of(Some(new.0))?);
        let mut trees = DiffTrees {
            repo: self,
            own: own.map(|by| by.repo),
            read: Some(0),
        };
        let changes = self.note_changes_by(&mut trees, old_tree, new_tree)?;
        Ok(Some(changes.into_iter().map(change).collect()))
    }

    /// Whether `old` is `new` or reached from it by at most `steps` first parents.
    fn first_parents_reach(&self, old: CommitId, new: CommitId, steps: usize) -> bool {
        let mut at = new.0;
        for _ in 0..=steps {
            if at == old.0 {
                return true;
            }
            let Ok(commit) = self.repo.find_commit(at) else {
                return false;
            };
            let Some(parent) = commit.parent_ids().next() else {
                return false;
            };
            at = parent.detach();
        }
        false
    }

    /// The notes that differ between notes trees `old` and `new`: (annotated object,
    /// blob in `old`, blob in `new`), in object order.
    pub(super) fn note_changes(&self, old: ObjectId, new: ObjectId) -> Result<Vec<Changed>> {
        let mut trees = DiffTrees {
            repo: self,
            own: None,
            read: None,
        };
        self.note_changes_by(&mut trees, old, new)
    }

    /// [`Repo::note_changes`], the compared trees read by `trees`.
    fn note_changes_by(
        &self,
        trees: &mut DiffTrees<'_>,
        old: ObjectId,
        new: ObjectId,
    ) -> Result<Vec<Changed>> {
        let mut olds = BTreeMap::new();
        let mut news = BTreeMap::new();
        self.diff_trees(trees, (old, new), "", &mut olds, &mut news)?;
        let mut objects: Vec<&ObjectId> = olds.keys().chain(news.keys()).collect();
        objects.sort();
        objects.dedup();
        Ok(objects
            .into_iter()
            .filter_map(|o| {
                let (a, b) = (olds.get(o).copied(), news.get(o).copied());
                (a != b).then_some((*o, a, b))
            })
            .collect())
    }

    /// The note blob of `object` in notes commit `at`, if it has one.
    pub fn note_text_at(&self, at: CommitId, object: CommitId) -> Result<Option<NoteText>> {
        let tree = self.tree_of(Some(at.0))?;
        let mut state = gix::note::plumbing::State::new(tree, &self.repo)
            .map_err(|e| Error::git(msg(crate::k!("git.read_notes_tree"), &[]), e))?;
        state
            .get(&object.0, &self.repo)
            .map(|b| b.map(NoteText))
            .map_err(|e| Error::git(msg(crate::k!("git.read_notes_tree"), &[]), e))
    }

    /// A note's text; `None` when it is over `limit` bytes (not inflated: its size comes
    /// from the object's header) or no longer in the object database.
    pub fn note_text(&self, blob: NoteText, limit: usize) -> Option<Vec<u8>> {
        let size = self.repo.find_header(blob.0).ok()?.size();
        if usize::try_from(size).map_or(true, |n| n > limit) {
            return None;
        }
        Some(self.repo.find_blob(blob.0).ok()?.take_data())
    }

    /// A reader of many note blobs in bounded memory ([`NoteReader`]).
    pub fn note_reader(&self) -> NoteReader<'_> {
        NoteReader {
            repo: self,
            own: None,
            reads: 0,
        }
    }

    /// A [`NoteReader`] whose first blobs (one fewer than [`READS_PER_STORE`]) are read
    /// through the repository's own store: for a reader of a few notes (an update after
    /// a write or two), to which opening a store of its own costs as much as the rest of
    /// its work.
    pub fn note_reader_here(&self) -> NoteReader<'_> {
        NoteReader {
            repo: self,
            own: None,
            reads: 1,
        }
    }

    /// The size of a note's blob, from its object's header.
    pub fn note_size(&self, blob: NoteText) -> Option<u64> {
        self.repo.find_header(blob.0).ok().map(|h| h.size())
    }

    /// Every (annotated object, blob) of notes commit `at`, in object order.
    pub fn notes_listing(&self, at: CommitId) -> Result<Vec<(CommitId, NoteText)>> {
        let mut out: Vec<(CommitId, NoteText)> = self
            .note_entries(self.tree_of(Some(at.0))?)?
            .into_iter()
            .map(|(o, b)| (CommitId(o), NoteText(b)))
            .collect();
        out.sort();
        Ok(out)
    }

    /// Compare two notes (sub)trees at `prefix`: entries equal on both sides are passed
    /// over; subtrees of one name on both sides are compared in turn; anything else is
    /// read whole into `olds` / `news` (a fan-out that changed shape lands there from
    /// both sides and is compared note by note).
    fn diff_trees(
        &self,
        trees: &mut DiffTrees<'_>,
        (old, new): (ObjectId, ObjectId),
        prefix: &str,
        olds: &mut BTreeMap<ObjectId, ObjectId>,
        news: &mut BTreeMap<ObjectId, ObjectId>,
    ) -> Result<()> {
        if old == new {
            return Ok(());
        }
        let (a, b) = (trees.entries(old)?, trees.entries(new)?);
        let mut names: Vec<&Vec<u8>> = a.keys().chain(b.keys()).collect();
        names.sort();
        names.dedup();
        for name in names {
            let (x, y) = (a.get(name), b.get(name));
            if x == y {
                continue;
            }
            let Ok(text) = std::str::from_utf8(name) else {
                continue;
            };
            let full = format!("{prefix}{text}");
            if let (Some((true, x)), Some((true, y))) = (x, y) {
                self.diff_trees(trees, (*x, *y), &full, olds, news)?;
                continue;
            }
            for (side, out) in [(x, &mut *olds), (y, &mut *news)] {
                match side {
                    Some((true, tree)) => out.extend(self.note_entries_at(*tree, &full)?),
                    Some((false, blob)) => {
                        if let Ok(id) = ObjectId::from_hex(full.as_bytes()) {
                            out.insert(id, *blob);
                        }
                    }
                    None => {}
                }
            }
        }
        Ok(())
    }
}

/// How many trees a notes diff reads through the store its walk was read through
/// before it reads each further tree through a store of its own: a usual diff (one
/// claim, one save: the two roots and a fan-out subtree on each side) opens one store,
/// not one per tree; the diff after a large fetch (every one of the 256 subtrees
/// changed, a tree a delta chain of up to 50 scattered over the packs) does not keep
/// them all mapped at once (through one store: 80,560 KB peak against 58,016 KB, `status
/// --json` after 2,000 notes commits at 1,000,000 records).
const TREES_PER_DIFF_STORE: usize = 8;

/// The first parents a notes descent follows before it asks for the merge base.
const NEAR_COMMITS: usize = 16;

/// The trees a notes diff compares, read through an object store opened for the diff
/// and, past [`TREES_PER_DIFF_STORE`] trees, through one opened for each (`read` is
/// `None`: every tree through the repository's own store, `sync`'s merge).
struct DiffTrees<'r> {
    repo: &'r Repo,
    own: Option<gix::Repository>,
    read: Option<usize>,
}

impl DiffTrees<'_> {
    fn entries(&mut self, tree: ObjectId) -> Result<Entries> {
        if let Some(read) = &mut self.read {
            if *read >= TREES_PER_DIFF_STORE {
                self.own = self.repo.fresh_store();
            }
            *read += 1;
        }
        let tree = (self.own.as_ref().unwrap_or(&self.repo.repo))
            .find_tree(tree)
            .map_err(|e| Error::git(msg(crate::k!("git.read_notes_tree"), &[]), e))?;
        let decoded = tree
            .decode()
            .map_err(|e| Error::git(msg(crate::k!("git.read_notes_tree"), &[]), e))?;
        Ok(decoded
            .entries
            .iter()
            .filter(|e| e.mode.is_tree() || e.mode.is_blob())
            .map(|e| (e.filename.to_vec(), (e.mode.is_tree(), e.oid.to_owned())))
            .collect())
    }
}

/// How many blobs a [`NoteReader`] reads through one object store before it opens a
/// fresh one.
const READS_PER_STORE: usize = 32;

/// Reads note blobs through an object store of its own, opened afresh every
/// [`READS_PER_STORE`] blobs: the packs a store maps stay mapped, and every page of
/// them read stays in the process's memory, until the store is dropped; reading every
/// note of a large store (the notes index's build: 200 MB of packs at 1,000,000
/// records) through one store would hold all of it. Falls back to the repository's
/// own store when one cannot be opened.
pub struct NoteReader<'a> {
    repo: &'a Repo,
    own: Option<gix::Repository>,
    reads: usize,
}

impl NoteReader<'_> {
    fn store(&mut self) -> &gix::Repository {
        if self.reads.is_multiple_of(READS_PER_STORE) {
            self.own = self.repo.fresh_store();
        }
        self.reads += 1;
        self.own.as_ref().unwrap_or(&self.repo.repo)
    }

    /// A note's text; `None` when it is over `limit` bytes or not in the object
    /// database.
    pub fn text(&mut self, blob: NoteText, limit: usize) -> Option<Vec<u8>> {
        self.text_or_size(blob, limit)?.ok()
    }

    /// A note's text, or its size when that is over `limit` bytes (not inflated: from
    /// the object's header); `None` when it is not in the object database.
    pub fn text_or_size(
        &mut self,
        blob: NoteText,
        limit: usize,
    ) -> Option<std::result::Result<Vec<u8>, u64>> {
        let store = self.store();
        let size = store.find_header(blob.0).ok()?.size();
        if usize::try_from(size).map_or(true, |n| n > limit) {
            return Some(Err(size));
        }
        Some(Ok(store.find_blob(blob.0).ok()?.take_data()))
    }

    /// [`Repo::notes_listing`], its trees read through the reader's stores (at
    /// 1,000,000 records the notes trees are 50 MB of the packs).
    pub fn listing(&mut self, at: CommitId) -> Result<Vec<(CommitId, NoteText)>> {
        let tree = self.repo.tree_of(Some(at.0))?;
        let kind = self.repo.repo.object_hash();
        // A fresh store for each tree: a tree is read through delta chains of up to 50
        // scattered over the packs, each page touched mapped with its neighbours (the
        // kernel's fault-around), so 32 trees through one store held 43 MB resident at
        // 1,000,000 records (the peak of a build and of the hook that gives it up).
        let mut find = |id| {
            self.reads = 0;
            self.store().find_tree(id).ok().map(|t| t.detach().data)
        };
        let mut out: Vec<(CommitId, NoteText)> =
            Repo::note_entries_with(&mut find, kind, tree, "")?
                .into_iter()
                .map(|(o, b)| (CommitId(o), NoteText(b)))
                .collect();
        out.sort();
        Ok(out)
    }

    /// [`Repo::note_text_at`], the notes trees read through the reader's stores (the
    /// notes of a session are all over them: at 1,000,000 records, a hundred looked up
    /// through the repository's own store left 45 MB of its packs resident).
    pub fn blob_at(&mut self, at: CommitId, object: CommitId) -> Result<Option<NoteText>> {
        let tree = self.repo.tree_of(Some(at.0))?;
        let store = self.store();
        let mut state = gix::note::plumbing::State::new(tree, store)
            .map_err(|e| Error::git(msg(crate::k!("git.read_notes_tree"), &[]), e))?;
        state
            .get(&object.0, store)
            .map(|b| b.map(NoteText))
            .map_err(|e| Error::git(msg(crate::k!("git.read_notes_tree"), &[]), e))
    }

    /// The size of a note's blob, from its object's header.
    pub fn size(&mut self, blob: NoteText) -> Option<u64> {
        self.store().find_header(blob.0).ok().map(|h| h.size())
    }
}
