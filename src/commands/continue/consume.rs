//! Consuming the note briefed on: a verified copy kept (in the notes store, or under
//! the handover root's `consumed/`), then the note removed, its removal committed when
//! it is tracked.

use std::path::{Path, PathBuf};

use super::{Candidate, Effect};
use crate::git::subprocess::Removal;
use crate::services::context::Context;
use crate::services::sessions;
use crate::support::error::{Error, Result, msg};
use crate::support::fsio;

/// Keep a copy of the note under the handover root's `consumed/`, read back and
/// compared byte for byte.
pub(super) fn copy_to_consumed(
    ctx: &Context,
    note: &Candidate,
    path: &Path,
    bytes: &[u8],
) -> Result<PathBuf> {
    let root = note.worktree.path.join(&ctx.settings.dir);
    sessions::make_dirs(&root, Path::new("consumed"))?;
    let stamp = ctx
        .now
        .to_zoned_datetime(crate::support::clock::local_zone())
        .strftime("%Y%m%d-%H%M%S")
        .to_string();
    let name = path.file_name().map_or_else(
        || "CONTINUE_HERE.md".into(),
        |n| n.to_string_lossy().into_owned(),
    );
    let mut copy = root.join("consumed").join(format!("{stamp}-{name}"));
    let mut n = 2;
    while std::fs::symlink_metadata(&copy).is_ok() {
        copy = root.join("consumed").join(format!("{stamp}-{n}-{name}"));
        n += 1;
    }
    fsio::write_atomic(&copy, bytes)?;
    if fsio::read_limited(&copy).ok().as_deref() != Some(bytes) {
        return Err(Error::usage(msg(
            crate::k!("err.copy_unreadable"),
            &[("path", &copy.display())],
        )));
    }
    Ok(copy)
}

/// Keep a copy of the note in the notes store, read back and compared: the text the
/// note of `commit` holds for it.
fn copy_to_store(ctx: &Context, note: &Candidate, rel: &Path, text: &str) -> Result<String> {
    let record = crate::model::record::Record {
        key: rel.display().to_string(),
        worktree: Some(note.worktree.path.display().to_string()),
        branch: note.worktree.branch.clone(),
        saved_at: ctx.now,
        kind: crate::model::record::RecordKind::ContinueHere,
        session_id: None,
        seq: None,
        parent: None,
        set_aside: Vec::new(),
        state: None,
        text: Some(text.to_owned()),
    };
    let commit = ctx.store().record(&record)?.expect("the store is enabled");
    let kept = ctx
        .repo
        .notes_all(&ctx.settings.notes_ref)?
        .into_iter()
        .filter(|n| n.commit == commit)
        .flat_map(|n| crate::model::record::parse_note(&n.text))
        .filter_map(|p| p.record.ok())
        .any(|r| r.key == record.key && r.text.as_deref() == Some(text));
    if !kept {
        return Err(Error::usage(msg(
            crate::k!("err.copy_unreadable"),
            &[(
                "path",
                &format!("{} on {}", ctx.settings.notes_ref, commit.short()),
            )],
        )));
    }
    Ok(format!("{} on {}", ctx.settings.notes_ref, commit.short()))
}

/// Consume the note that was briefed (`briefed`, its bytes then): under the note's own
/// lock (the one `here` takes), check it still holds those bytes, keep a verified copy
/// (in the notes store when it is enabled and the note is UTF-8 text, else under the
/// handover root's `consumed/`, bytes as they are), then remove it: a tracked note with
/// `git rm` and a commit of that path alone, refused during a merge or rebase.
pub(super) fn consume(ctx: &Context, note: &Candidate, briefed: &[u8]) -> Result<Effect> {
    let path = note.handover.file.clone();
    crate::support::testing::pause("consume");
    let _lock = fsio::Lock::acquire(&path, ctx.settings.lock_timeout)?;
    let bytes = fsio::read_limited(&path)?;
    if bytes != briefed {
        return Ok(Effect::Kept {
            path,
            copy: None,
            why: crate::k!("consume.kept_changed"),
            detail: String::new(),
        });
    }
    let rel = path
        .strip_prefix(&note.worktree.path)
        .unwrap_or(&path)
        .to_owned();
    let copy = match std::str::from_utf8(&bytes) {
        Ok(text) if ctx.store().enabled() => copy_to_store(ctx, note, &rel, text)?,
        _ => copy_to_consumed(ctx, note, &path, &bytes)?
            .display()
            .to_string(),
    };
    let removal = crate::git::subprocess::remove_tracked(
        &note.worktree.git_dir,
        &note.worktree.path,
        &rel,
        &format!("Consume {} {}", rel.display(), crate::git::TOOL_COMMIT_MARK),
    )?;
    let committed = match removal {
        Removal::Committed => true,
        Removal::Untracked => {
            std::fs::remove_file(&path).map_err(|e| Error::io(&path, "remove", e))?;
            false
        }
        Removal::Kept { why, detail } => {
            return Ok(Effect::Kept {
                path,
                copy: Some(copy),
                why,
                detail,
            });
        }
    };
    Ok(Effect::Consumed {
        path,
        copy,
        committed,
    })
}
