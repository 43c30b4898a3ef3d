//! What `sync` or a remote claim fetched: checked to be a notes store before any ref
//! of the user's moves, then moved where it belongs.

use std::collections::HashMap;

use gix::ObjectId;
use gix::bstr::ByteSlice;
use gix::refs::transaction::PreviousValue;

use super::Repo;
use crate::support::error::{Error, Result, msg};

impl Repo {
    /// Why the object `name` points to is not a notes store, or `None` when it is one:
    /// a commit whose tree holds only notes (fan-out directories of hex names and blobs
    /// named by an object id) and whose every note is lines of JSON objects. Checked
    /// before anything fetched is let near a ref of the user's. A note over
    /// `max_note_size` bytes is a problem too. Entries the same as in notes commit
    /// `since` (of our own history: the merge base with ours) were checked when they
    /// came, and are passed over unopened: the cost is what the remote brings.
    pub fn notes_problem(
        &self,
        name: &str,
        since: Option<super::CommitId>,
        max_note_size: usize,
    ) -> Result<Option<String>> {
        let Some(id) = self.ref_commit_raw(name)? else {
            return Ok(Some(format!("{name} does not exist")));
        };
        let object = match self.repo.find_object(id) {
            Ok(o) => o,
            Err(e) => return Ok(Some(format!("its object {id} cannot be read: {e}"))),
        };
        if object.kind != gix::object::Kind::Commit {
            return Ok(Some(format!(
                "it points to a {} ({id}), not to a commit",
                object.kind
            )));
        }
        let tree = match object.into_commit().tree_id() {
            Ok(t) => t.detach(),
            Err(e) => return Ok(Some(format!("its commit {id} has no readable tree: {e}"))),
        };
        let base = match since {
            Some(c) => Some(self.tree_of(Some(c.0))?),
            None => None,
        };
        Ok(self.tree_problem(tree, base, max_note_size))
    }

    /// [`Repo::notes_problem`] of notes tree `tree`; entries the same in `base` (a tree
    /// of our own notes history) are passed over unopened.
    fn tree_problem(
        &self,
        tree: ObjectId,
        base: Option<ObjectId>,
        max_note_size: usize,
    ) -> Option<String> {
        let hex_len = self.repo.object_hash().len_in_hex();
        let mut pending = vec![(tree, base, String::new())];
        while let Some((tree, base, prefix)) = pending.pop() {
            let Ok(tree) = self.repo.find_tree(tree) else {
                return Some(format!("its tree {tree} cannot be read"));
            };
            let Ok(decoded) = tree.decode() else {
                return Some(format!("its tree {} cannot be read", tree.id));
            };
            let ours = base.and_then(|b| self.repo.find_tree(b).ok());
            let ours = ours.as_ref().and_then(|t| t.decode().ok());
            // Our entries by name, looked up once each: a flat tree (no fan-out) of n
            // notes costs n lookups, not n² comparisons.
            let ours: HashMap<&[u8], (gix::objs::tree::EntryMode, &gix::oid)> = (ours.iter())
                .flat_map(|o| o.entries.iter())
                .map(|e| (e.filename.as_bytes(), (e.mode, e.oid)))
                .collect();
            for entry in decoded.entries {
                let same = ours.get(entry.filename.as_bytes());
                if same.is_some_and(|(mode, oid)| *mode == entry.mode && *oid == entry.oid) {
                    continue;
                }
                let name = entry.filename.to_str().unwrap_or("");
                let full = format!("{prefix}{name}");
                let hex = !name.is_empty() && name.bytes().all(|b| b.is_ascii_hexdigit());
                if hex && entry.mode.is_tree() && full.len() < hex_len {
                    let under = same
                        .filter(|(mode, _)| mode.is_tree())
                        .map(|(_, oid)| (*oid).to_owned());
                    pending.push((entry.oid.to_owned(), under, full));
                    continue;
                }
                if !(hex && entry.mode.is_blob() && full.len() == hex_len) {
                    return Some(format!(
                        "{:?} in its tree is not a note",
                        entry.filename.to_string()
                    ));
                }
                if let Some(why) = self.note_problem(entry.oid, &full, max_note_size) {
                    return Some(why);
                }
            }
        }
        None
    }

    /// Why the note `blob` of object `full` is over the size limit or holds a line that
    /// opens a JSON object and is not one (a record cut short or forged).
    fn note_problem(&self, blob: &gix::oid, full: &str, max_note_size: usize) -> Option<String> {
        // The size from the object's header: nothing over the limit is inflated.
        let Ok(header) = self.repo.find_header(blob) else {
            return Some(format!("the note of {full} cannot be read"));
        };
        if usize::try_from(header.size()).map_or(true, |n| n > max_note_size) {
            return Some(format!("the note of {full} is over the size limit"));
        }
        let Ok(blob) = self.repo.find_blob(blob) else {
            return Some(format!("the note of {full} cannot be read"));
        };
        for (i, line) in blob.data.split(|b| *b == b'\n').enumerate() {
            // A line that does not open a JSON object is no record: another tool's
            // (`git notes --ref=handover add -m …`), skipped by every reader and carried
            // untouched. Refusing it would let one such line, once pushed, stop every
            // other clone's sync. A line that opens one must be whole.
            let first = line.iter().find(|b| !b.is_ascii_whitespace());
            if first != Some(&b'{') {
                continue;
            }
            if !matches!(
                serde_json::from_slice::<serde_json::Value>(line),
                Ok(serde_json::Value::Object(_))
            ) {
                return Some(format!(
                    "line {} of the note of {full} is not a JSON object",
                    i + 1
                ));
            }
        }
        None
    }

    /// The object a reference points to, without peeling.
    fn ref_commit_raw(&self, name: &str) -> Result<Option<ObjectId>> {
        let reference = self
            .repo
            .try_find_reference(name)
            .map_err(|e| Error::git(msg(crate::k!("git.read"), &[("what", &name)]), e))?;
        Ok(reference.and_then(|r| r.target().try_id().map(ToOwned::to_owned)))
    }

    /// Point `name` at what `from` points to (whatever it pointed to before), then
    /// remove `from`.
    pub fn move_ref(&self, from: &str, name: &str) -> Result<()> {
        let Some(id) = self.ref_commit_raw(from)? else {
            return Ok(());
        };
        self.set_ref(name, id, PreviousValue::Any, "git handover sync: fetched")
            .map_err(|e| Error::git(msg(crate::k!("git.write"), &[("what", &name)]), e))?;
        self.delete_ref(from)
    }

    /// Point `name` at `to` only while it still points at `expected` (`None`: while it
    /// does not exist); `false` when it moved meanwhile and was left alone.
    pub fn advance_ref(&self, name: &str, expected: Option<&str>, to: &str) -> Result<bool> {
        let write = |e: &dyn std::fmt::Display| {
            Error::git(
                msg(crate::k!("git.write"), &[("what", &name)]),
                e.to_string(),
            )
        };
        let to = ObjectId::from_hex(to.as_bytes()).map_err(|e| write(&e))?;
        let previous = match expected {
            Some(hex) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(
                ObjectId::from_hex(hex.as_bytes()).map_err(|e| write(&e))?,
            )),
            None => PreviousValue::MustNotExist,
        };
        Ok((self.set_ref(name, to, previous, "git handover: pushed")).is_ok())
    }

    /// Remove `name` if it exists.
    pub fn delete_ref(&self, name: &str) -> Result<()> {
        use gix::refs::transaction::{Change, RefEdit, RefLog};
        if self.ref_commit_raw(name)?.is_none() {
            return Ok(());
        }
        self.edit_ref(RefEdit {
            change: Change::Delete {
                expected: PreviousValue::Any,
                log: RefLog::AndReference,
            },
            name: name
                .try_into()
                .map_err(|e| Error::git(msg(crate::k!("git.write"), &[("what", &name)]), e))?,
            deref: false,
        })
        .map(|_| ())
        .map_err(|e| Error::git(msg(crate::k!("git.write"), &[("what", &name)]), e))
    }
}

#[cfg(test)]
mod tests {
    use gix::objs::tree::{Entry, EntryKind};

    /// A flat notes tree (no fan-out) of a few thousand notes, checked against a base
    /// that has most of them: what the base has the same is passed over unopened
    /// (here it would not pass the check), what differs is read, whatever its place.
    #[test]
    fn a_flat_notes_tree_of_thousands_is_checked_against_its_base() {
        const N: usize = 4000;
        let dir = tempfile::tempdir().unwrap();
        gix::init(dir.path()).unwrap();
        let repo = super::super::discover(dir.path()).unwrap();
        let blob = |text: &str| repo.repo.write_blob(text.as_bytes()).unwrap().detach();
        let tree = |notes: &[(String, gix::ObjectId)]| {
            let mut entries: Vec<Entry> = (notes.iter())
                .map(|(name, oid)| Entry {
                    mode: EntryKind::Blob.into(),
                    filename: name.as_str().into(),
                    oid: *oid,
                })
                .collect();
            entries.sort_by(|a, b| a.filename.cmp(&b.filename));
            let tree = gix::objs::Tree { entries };
            repo.repo.write_object(&tree).unwrap().detach()
        };
        // Not a note's lines (a record cut short): only a base that has it the same lets
        // it pass.
        let junk = blob("{not json\n");
        let good = blob("{\"key\":\"a\"}\n");
        let names: Vec<String> = (0..N).map(|i| format!("{i:040x}")).collect();
        let base: Vec<(String, gix::ObjectId)> = names.iter().map(|n| (n.clone(), junk)).collect();
        let base_tree = tree(&base);
        // The remote's: the base's notes and new good ones, in the middle and at the end.
        let mut theirs = base.clone();
        theirs.extend((N..N + 100).map(|i| (format!("{:040x}", i * 7919), good)));
        let theirs_tree = tree(&theirs);
        assert_eq!(
            repo.tree_problem(theirs_tree, Some(base_tree), 1 << 20),
            None
        );
        // Without the base every note is read: the junk is found.
        let whole = repo.tree_problem(theirs_tree, None, 1 << 20);
        assert!(whole.is_some_and(|w| w.contains("is not a JSON object")));
        // One of the base's notes changed to junk of another kind: found.
        let mut changed = base.clone();
        changed[N / 2].1 = blob("{1}\n");
        let why = repo.tree_problem(tree(&changed), Some(base_tree), 1 << 20);
        let name = &names[N / 2];
        assert_eq!(
            why.as_deref(),
            Some(format!("line 1 of the note of {name} is not a JSON object").as_str())
        );
    }
}
