//! Merging another notes ref into ours in the way `git notes merge -s cat_sort_uniq`
//! does (SPEC section 8), at the cost of what the two sides changed since they parted:
//! the notes that differ from the merge base on either side are found by a diff of the
//! notes trees (`notes_diff.rs`, subtrees both sides share passed over unopened), and
//! only they are looked at; a note the same on the base and on both sides is what
//! every merge keeps (issue 36). With no merge base (a ref rewritten) the base is the
//! empty tree, and every note of both sides is looked at, as before.

use std::collections::BTreeMap;

use gix::ObjectId;

use super::{CommitId, Repo};
use crate::support::error::{Error, Result, msg};

/// The test knob that makes a merge look at every note of both sides, as before issue
/// 36: what the incremental merge is compared with.
pub const WHOLE_MERGE: &str = "GIT_HANDOVER_TEST_WHOLE_MERGE";

/// What merging another notes ref into ours did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotesMerge {
    /// The other ref does not exist.
    NoOther,
    /// Ours already holds everything the other has.
    UpToDate,
    /// Ours was behind (or absent) and now points where the other does.
    FastForward,
    /// A merge commit: `combined` notes were changed on both sides and joined.
    Merged { combined: usize },
}

/// A note's blob, as the sides of a notes merge hold it: two are equal when their
/// texts are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NoteBlob(ObjectId);

/// What a notes merge does with one annotated object's note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteChoice {
    /// Keep the local note as it is.
    Keep,
    /// Take the other side's note (none there: remove the local one).
    Take,
    /// Remove the local note.
    Remove,
    /// Join the two notes' texts ([`NoteRules::join`]); only when both sides have one.
    Join,
}

/// The rules a notes merge follows, note by note: git walks the two refs and writes
/// the result; what a change on either side means is the caller's to say.
pub trait NoteRules {
    /// The choice for one annotated object, from its note on the merge base, here and
    /// on the other side (`None`: no note there).
    fn choose(
        &self,
        base: Option<&NoteBlob>,
        local: Option<&NoteBlob>,
        theirs: Option<&NoteBlob>,
    ) -> NoteChoice;
    /// The text of two notes joined.
    ///
    /// A note the same on the base and on both sides is not asked about: it is kept,
    /// whatever the rules (a merge looks only at what changed since the base).
    fn join(&self, local: &[u8], theirs: &[u8]) -> Vec<u8>;
}

/// One annotated object's note on the merge base, here and on the other side.
type Three = [Option<ObjectId>; 3];

impl Repo {
    /// The merge base of two notes commits, `None` when they share no history (a ref
    /// rewritten) or one cannot be found.
    pub fn notes_merge_base(&self, a: CommitId, b: CommitId) -> Option<CommitId> {
        self.repo
            .merge_base(a.0, b.0)
            .ok()
            .flatten()
            .map(|id| CommitId(id.detach()))
    }

    /// Merge `other_ref` into `local_ref` as `git notes merge` would: fast-forward when
    /// one contains the other, else a merge commit whose notes are what `rules` chooses
    /// for each annotated object.
    pub fn notes_merge(
        &self,
        local_ref: &str,
        other_ref: &str,
        rules: &dyn NoteRules,
    ) -> Result<NotesMerge> {
        let Some(other) = self.ref_commit(other_ref)? else {
            return Ok(NotesMerge::NoOther);
        };
        let local = self.ref_commit(local_ref)?;
        let race = |last: String| {
            self.ref_lock_error(local_ref).unwrap_or(Error::RefRace {
                reference: local_ref.to_owned(),
                attempts: 1,
                last,
            })
        };
        let Some(local) = local else {
            self.swap_ref(local_ref, None, other, "fast-forward")
                .map_err(race)?;
            return Ok(NotesMerge::FastForward);
        };
        if local == other {
            return Ok(NotesMerge::UpToDate);
        }
        let base = self
            .repo
            .merge_base(local, other)
            .map_err(|e| Error::git(msg(crate::k!("git.merge"), &[("what", &other_ref)]), e))?
            .map(gix::Id::detach);
        if base == Some(other) {
            return Ok(NotesMerge::UpToDate);
        }
        if base == Some(local) {
            self.swap_ref(local_ref, Some(local), other, "fast-forward")
                .map_err(race)?;
            return Ok(NotesMerge::FastForward);
        }
        let changes = self.merge_changes(base, local, other)?;
        let local_tree = self.tree_of(Some(local))?;
        let mut state = gix::note::plumbing::State::new(local_tree, &self.repo)
            .map_err(|e| Error::git(msg(crate::k!("git.read"), &[("what", &local_ref)]), e))?;
        let mut combined = 0;
        for (object, [b, l, t]) in &changes {
            let (b, l, t) = (b.as_ref(), l.as_ref(), t.as_ref());
            let blob = |id: Option<&ObjectId>| id.copied().map(NoteBlob);
            let change = match rules.choose(blob(b).as_ref(), blob(l).as_ref(), blob(t).as_ref()) {
                NoteChoice::Keep => continue,
                NoteChoice::Take => t.copied(),
                NoteChoice::Remove => None,
                NoteChoice::Join => {
                    let (l, t) = (l.expect("both sides"), t.expect("both sides"));
                    let read = |id: &ObjectId| -> Result<Vec<u8>> {
                        Ok(self
                            .repo
                            .find_blob(*id)
                            .map_err(|e| {
                                Error::git(
                                    msg(crate::k!("git.read_note_of"), &[("object", &object)]),
                                    e,
                                )
                            })?
                            .data
                            .clone())
                    };
                    let joined = rules.join(&read(l)?, &read(t)?);
                    combined += 1;
                    Some(
                        self.repo
                            .write_blob(&joined)
                            .map_err(|e| Error::git(msg(crate::k!("git.write_note"), &[]), e))?
                            .detach(),
                    )
                }
            };
            state
                .edit(*object, change, &self.repo)
                .map_err(|e| Error::git(msg(crate::k!("git.merge"), &[("what", &other_ref)]), e))?;
        }
        let tree = state
            .write(&self.repo)
            .map_err(|e| Error::git(msg(crate::k!("git.merge"), &[("what", &other_ref)]), e))?;
        let message = format!("Notes merged by 'git handover sync' from {other_ref}");
        let commit = self.notes_commit(&message, tree, &[local, other])?;
        self.swap_ref(local_ref, Some(local), commit, &message)
            .map_err(race)?;
        Ok(NotesMerge::Merged { combined })
    }

    /// The notes a merge of `local` and `other` from `base` looks at, with their blob
    /// on each of the three: those that differ from the base on either side, in object
    /// order. Notes on neither side are left out, as the merge of every note leaves
    /// them out.
    fn merge_changes(
        &self,
        base: Option<ObjectId>,
        local: ObjectId,
        other: ObjectId,
    ) -> Result<BTreeMap<ObjectId, Three>> {
        let base_tree = self.tree_of(base)?;
        let mut out: BTreeMap<ObjectId, Three> = BTreeMap::new();
        if crate::support::testing::knob(WHOLE_MERGE).is_some() {
            let entries = |tree| -> Result<BTreeMap<ObjectId, ObjectId>> {
                Ok(self.note_entries(tree)?.into_iter().collect())
            };
            let b = entries(base_tree)?;
            let l = entries(self.tree_of(Some(local))?)?;
            let t = entries(self.tree_of(Some(other))?)?;
            for object in l.keys().chain(t.keys()) {
                out.insert(*object, [&b, &l, &t].map(|side| side.get(object).copied()));
            }
            return Ok(out);
        }
        for (object, old, new) in self.note_changes(base_tree, self.tree_of(Some(local))?)? {
            out.insert(object, [old, new, old]);
        }
        for (object, old, new) in self.note_changes(base_tree, self.tree_of(Some(other))?)? {
            out.entry(object).or_insert([old, old, old])[2] = new;
        }
        out.retain(|_, [_, l, t]| l.is_some() || t.is_some());
        Ok(out)
    }
}
