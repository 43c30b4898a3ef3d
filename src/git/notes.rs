//! The notes store in git (SPEC section 8): reading every note of a notes ref (flat or
//! fan-out trees) and appending a record with a compare-and-swap update of the ref.
//! Merging another notes ref is `notes_merge.rs`.

use std::time::{Duration, Instant};

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::refs::transaction::PreviousValue;

use super::{CommitId, Repo};
use crate::support::error::{Error, Result, msg};

/// One note: the commit it annotates and its text.
#[derive(Debug, Clone)]
pub struct StoredNote {
    pub commit: CommitId,
    /// Empty for a note over the size limit, which is never read.
    pub text: Vec<u8>,
    /// The size of a note over the size limit ([`crate::model::record::MAX_NOTE_SIZE`]),
    /// from its object's header: a note of a gigabyte costs nothing to pass over.
    pub oversize: Option<u64>,
}

impl StoredNote {
    /// Why the note is not read, when it is over the size limit (as the records'
    /// reader says it of a text over the limit).
    pub fn oversize_problem(&self) -> Option<String> {
        self.oversize.map(|size| {
            format!(
                "the note is {size} bytes, over the limit of {}",
                crate::model::record::MAX_NOTE_SIZE
            )
        })
    }
}

pub(super) const MESSAGE: &str = "Notes added by 'git handover'";

/// What [`Repo::notes_edit`] made: the notes commit, the one it was made on (`None`:
/// the ref had none), how many attempts it took, and the note it edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotesEdited {
    pub commit: CommitId,
    pub parent: Option<CommitId>,
    pub attempts: usize,
    pub note: EditedNote,
}

/// The note an edit made: its blob before (none: there was no note) and after, its text
/// now, and the length of its text before (for the notes index, `index::after_write`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditedNote {
    pub was: Option<super::NoteText>,
    pub now: super::NoteText,
    pub text: Vec<u8>,
    pub before: usize,
}

impl Repo {
    /// The commit HEAD of the repository's worktree points to, if any.
    pub fn head_commit(&self) -> Option<CommitId> {
        self.repo.head_id().ok().map(|id| CommitId(id.detach()))
    }

    /// The commit a (notes) reference points to, `None` when it does not exist.
    pub(super) fn ref_commit(&self, name: &str) -> Result<Option<ObjectId>> {
        if let Some(at) = self.pinned_at(name) {
            return Ok(Some(at));
        }
        let reference = self
            .repo
            .try_find_reference(name)
            .map_err(|e| Error::git(msg(crate::k!("git.read"), &[("what", &name)]), e))?;
        match reference {
            None => Ok(None),
            Some(mut r) => r
                .peel_to_id()
                .map(|id| Some(id.detach()))
                .map_err(|e| Error::git(msg(crate::k!("git.read"), &[("what", &name)]), e)),
        }
    }

    /// The full id `name` points to, for reports.
    pub fn ref_target(&self, name: &str) -> Result<Option<String>> {
        Ok(self.ref_commit(name)?.map(|id| id.to_string()))
    }

    pub(super) fn tree_of(&self, commit: Option<ObjectId>) -> Result<ObjectId> {
        match commit {
            None => Ok(ObjectId::empty_tree(self.repo.object_hash())),
            Some(c) => self
                .repo
                .find_commit(c)
                .and_then(|c| c.tree_id().map(gix::Id::detach))
                .map_err(|e| {
                    Error::git(
                        msg(crate::k!("git.read_notes_commit"), &[("commit", &c)]),
                        e,
                    )
                }),
        }
    }

    /// Every note of `notes_ref`, in the order of the objects they annotate (whatever
    /// the tree's fan-out: the notes index reads a part of the store in the same order);
    /// nothing when the ref does not exist.
    pub fn notes_all(&self, notes_ref: &str) -> Result<Vec<StoredNote>> {
        let Some(commit) = self.ref_commit(notes_ref)? else {
            return Ok(Vec::new());
        };
        let tree = self.tree_of(Some(commit))?;
        let mut out = Vec::new();
        let mut entries = self.note_entries(tree)?;
        entries.sort();
        for (annotated, blob) in entries {
            let unreadable = |e: gix::Error| {
                Error::git(
                    msg(crate::k!("git.read_note_of"), &[("object", &annotated)]),
                    e,
                )
            };
            // The size from the object's header first: nothing over the limit is inflated.
            let size = self.repo.find_header(blob).map_err(unreadable)?.size();
            if usize::try_from(size).map_or(true, |n| n > crate::model::record::MAX_NOTE_SIZE) {
                out.push(StoredNote {
                    commit: CommitId(annotated),
                    text: Vec::new(),
                    oversize: Some(size),
                });
                continue;
            }
            let mut blob = self.repo.find_blob(blob).map_err(unreadable)?;
            out.push(StoredNote {
                commit: CommitId(annotated),
                text: blob.take_data(),
                oversize: None,
            });
        }
        Ok(out)
    }

    /// The (annotated object, note blob) pairs of a notes tree. Fan-out directories are
    /// followed; entries that are not notes (other names, other modes) are passed over,
    /// as git does.
    pub(super) fn note_entries(&self, tree: ObjectId) -> Result<Vec<(ObjectId, ObjectId)>> {
        self.note_entries_at(tree, "")
    }

    /// [`Repo::note_entries`] of a subtree whose path is `prefix`.
    pub(super) fn note_entries_at(
        &self,
        tree: ObjectId,
        prefix: &str,
    ) -> Result<Vec<(ObjectId, ObjectId)>> {
        let kind = self.repo.object_hash();
        let mut find = |id: ObjectId| self.repo.find_tree(id).ok().map(|t| t.detach().data);
        Self::note_entries_with(&mut find, kind, tree, prefix)
    }

    /// [`Repo::note_entries_at`], each tree's bytes read by `find` (a reader that
    /// bounds what the store maps, `NoteReader::listing`).
    pub(super) fn note_entries_with(
        find: &mut dyn FnMut(ObjectId) -> Option<Vec<u8>>,
        kind: gix::hash::Kind,
        tree: ObjectId,
        prefix: &str,
    ) -> Result<Vec<(ObjectId, ObjectId)>> {
        let hex_len = kind.len_in_hex();
        let mut out = Vec::new();
        let mut pending = vec![(tree, prefix.to_owned())];
        while let Some((tree, prefix)) = pending.pop() {
            let data = find(tree).ok_or_else(|| Error::GitSaid {
                action: msg(crate::k!("git.read_notes_tree"), &[]),
                why: msg(crate::k!("git.notes_tree_gone"), &[]),
            })?;
            let decoded = gix::objs::TreeRef::from_bytes(&data, kind)
                .map_err(|e| Error::git(msg(crate::k!("git.read_notes_tree"), &[]), e))?;
            for entry in decoded.entries {
                let Ok(name) = entry.filename.to_str() else {
                    continue;
                };
                if name.is_empty() || !name.bytes().all(|b| b.is_ascii_hexdigit()) {
                    continue;
                }
                let full = format!("{prefix}{name}");
                if entry.mode.is_tree() && full.len() < hex_len {
                    pending.push((entry.oid.to_owned(), full));
                } else if entry.mode.is_blob()
                    && full.len() == hex_len
                    && let Ok(id) = ObjectId::from_hex(full.as_bytes())
                {
                    out.push((id, entry.oid.to_owned()));
                }
            }
        }
        Ok(out)
    }

    /// A commit of `tree` with `parents`, by the configured identity, or by
    /// `git-handover` when none is configured (a note must not fail a save).
    pub(super) fn notes_commit(
        &self,
        message: &str,
        tree: ObjectId,
        parents: &[ObjectId],
    ) -> Result<ObjectId> {
        // git's identity with the time worked out without gix's zone database walk
        // (`identity.rs`); `git-handover` when none is configured.
        let commit = match (self.committer(), self.author()) {
            (Some(committer), Some(author)) => self.repo.new_commit_as(
                committer.as_ref(),
                author.as_ref(),
                message,
                tree,
                parents.iter().copied(),
            ),
            _ => {
                let time = super::identity::now().to_string();
                let sig = gix::actor::SignatureRef {
                    name: "git-handover".into(),
                    email: "git-handover@localhost".into(),
                    time: time.as_str(),
                };
                self.repo
                    .new_commit_as(sig, sig, message, tree, parents.iter().copied())
            }
        }
        .map(|c| c.id);
        commit.map_err(|e| Error::git(msg(crate::k!("git.write_notes_commit"), &[]), e))
    }

    /// Move `name` from `expected` (absent when `None`) to `new`, with a reflog entry.
    pub(super) fn swap_ref(
        &self,
        name: &str,
        expected: Option<ObjectId>,
        new: ObjectId,
        message: &str,
    ) -> std::result::Result<(), String> {
        let constraint = expected.map_or(PreviousValue::MustNotExist, |c| {
            PreviousValue::MustExistAndMatch(gix::refs::Target::Object(c))
        });
        self.set_ref(name, new, constraint, format!("notes: {message}"))
    }

    /// When `name`'s lock file (`<ref>.lock`, git's) is there: a stale lock, named with
    /// its age. A race with live writers leaves no lock behind for long.
    pub(super) fn ref_lock_error(&self, name: &str) -> Option<Error> {
        let lock =
            crate::support::paths::lexical(self.repo.common_dir()).join(format!("{name}.lock"));
        let meta = std::fs::symlink_metadata(&lock).ok()?;
        let age = meta
            .modified()
            .ok()
            .and_then(|m| std::time::SystemTime::now().duration_since(m).ok())
            .unwrap_or_default();
        Some(Error::RefLocked {
            reference: name.to_owned(),
            lock,
            age,
        })
    }

    /// Change the note of `commit` in `notes_ref` to what `edit` makes of its text
    /// (empty when there is none): read, edit, write, and swap the ref only if nobody
    /// moved it meanwhile; else start again, until `timeout` has passed. The ref is
    /// swapped only once `ready` succeeded (asked before each swap; its error is
    /// returned as it is). Returns the notes commit made, the one it was made on, and
    /// the number of attempts.
    pub fn notes_edit(
        &self,
        notes_ref: &str,
        commit: CommitId,
        edit: &dyn Fn(Vec<u8>) -> Vec<u8>,
        ready: &mut dyn FnMut() -> Result<()>,
        timeout: Duration,
    ) -> Result<NotesEdited> {
        let started = Instant::now();
        let mut delay = Duration::from_millis(1);
        let mut attempts = 0;
        loop {
            attempts += 1;
            let current = self.ref_commit(notes_ref)?;
            let tree = self.tree_of(current)?;
            let mut state = gix::note::plumbing::State::new(tree, &self.repo)
                .map_err(|e| Error::git(msg(crate::k!("git.read"), &[("what", &notes_ref)]), e))?;
            let old = state
                .get(&commit.0, &self.repo)
                .map_err(|e| Error::git(msg(crate::k!("git.read"), &[("what", &notes_ref)]), e))?;
            // The note's text taken, not copied: a note of HEAD grows by a record a
            // write, and `edit` (an append) extends it in place.
            let old_text = match old {
                Some(id) => self
                    .repo
                    .find_blob(id)
                    .map_err(|e| {
                        Error::git(
                            msg(crate::k!("git.read_note_of"), &[("object", &commit)]),
                            e,
                        )
                    })?
                    .take_data(),
                None => Vec::new(),
            };
            let before = old_text.len();
            let text = edit(old_text);
            let blob = self
                .repo
                .write_blob(&text)
                .map_err(|e| Error::git(msg(crate::k!("git.write_note"), &[]), e))?
                .detach();
            let edit = state
                .replace(commit.0, blob, &self.repo)
                .map_err(|e| Error::git(msg(crate::k!("git.write"), &[("what", &notes_ref)]), e))?;
            let parents: Vec<ObjectId> = current.into_iter().collect();
            let new = self.notes_commit(MESSAGE, edit.tree, &parents)?;
            ready()?;
            match self.swap_ref(notes_ref, current, new, MESSAGE) {
                Ok(()) => {
                    return Ok(NotesEdited {
                        commit: CommitId(new),
                        parent: current.map(CommitId),
                        attempts,
                        note: EditedNote {
                            was: old.map(super::NoteText),
                            now: super::NoteText(blob),
                            text,
                            before,
                        },
                    });
                }
                Err(last) => {
                    if started.elapsed() >= timeout {
                        return Err(self.ref_lock_error(notes_ref).unwrap_or(Error::RefRace {
                            reference: notes_ref.to_owned(),
                            attempts,
                            last,
                        }));
                    }
                    std::thread::sleep(jittered(delay, attempts));
                    delay = (delay * 2).min(Duration::from_millis(50));
                }
            }
        }
    }

    /// Add `notes_ref` to the local `notes.rewriteRef` values, so that `git rebase` and
    /// `git commit --amend` carry the notes over. Returns false when it was there.
    pub fn add_rewrite_ref(&self, notes_ref: &str) -> Result<bool> {
        if self.has_rewrite_ref(notes_ref) {
            return Ok(false);
        }
        self.push_local_config("notes", "rewriteRef", notes_ref)?;
        Ok(true)
    }

    /// Whether `notes_ref` is among the `notes.rewriteRef` values git reads.
    pub fn has_rewrite_ref(&self, notes_ref: &str) -> bool {
        self.repo
            .config_snapshot()
            .plumbing()
            .strings("notes.rewriteRef")
            .unwrap_or_default()
            .iter()
            .any(|v| v.as_bstr() == notes_ref.as_bytes().as_bstr())
    }

    /// Add `section.name = value` to the repository's own config file (`git config
    /// --add`), under git's lock on it, keeping everything else as written.
    pub fn push_local_config(&self, section: &str, name: &str, value: &str) -> Result<()> {
        let path = crate::support::paths::lexical(self.repo.common_dir()).join("config");
        let lock = crate::support::fsio::Lock::acquire(&path, Duration::from_secs(5))?;
        let mut file =
            gix::config::File::from_path_no_includes(path.clone(), gix::config::Source::Local)
                .map_err(|e| {
                    Error::git(msg(crate::k!("git.read"), &[("what", &path.display())]), e)
                })?;
        let edit = |e| Error::git(msg(crate::k!("git.edit"), &[("what", &path.display())]), e);
        file.section_mut_or_create_new(section, None)
            .map_err(edit)?
            .push(name, Some(value.as_bytes().as_bstr()))
            .map_err(edit)?;
        let mut bytes = Vec::new();
        file.write_to(&mut bytes)
            .map_err(|e| Error::io(&path, "write", e))?;
        crate::support::fsio::write_atomic(&path, &bytes)?;
        drop(lock);
        Ok(())
    }
}

/// `delay` stretched by up to half again, differently per attempt and process, so that
/// writers that collided once do not collide again in step.
fn jittered(delay: Duration, attempt: usize) -> Duration {
    let seed = u64::from(std::process::id()).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (attempt as u64).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let spread = u64::try_from(delay.as_micros()).unwrap_or(u64::MAX) / 2 + 1;
    delay + Duration::from_micros(seed % spread)
}
