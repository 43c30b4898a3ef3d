//! `hook post-commit`: after a commit, the unfinished tasks of this worktree's ready
//! session whose files the commit touched are stamped with the commit's time, and with
//! `handover.recordCommits=true` the commit joins `architecture_changes`.

use serde_json::Value;

use crate::model::auto_record;
use crate::services::context::Context;
use crate::services::sessions;
use crate::support::error::{Error, LockOwner, Result};

/// What the hook did for a commit.
#[derive(Debug)]
pub enum PostCommit {
    /// Nothing to do, or nothing changed.
    Unchanged,
    Written,
    /// Another writer held the session's lock: the hook did not wait (a commit is never
    /// held for it) and wrote nothing.
    Skipped {
        key: String,
        owner: Option<LockOwner>,
    },
}

/// Whether `path` (changed by the commit) is `file` or lies below it (a task may name
/// a directory).
fn touches(path: &str, file: &str) -> bool {
    let file = file.trim_start_matches("./").trim_end_matches('/');
    !file.is_empty() && (path == file || path.starts_with(&format!("{file}/")))
}

/// Update the session for HEAD's commit.
pub fn run(ctx: &Context) -> Result<PostCommit> {
    let wt = ctx.current_worktree()?;
    let (Some(session), _) = ctx.ready_session(&wt, &crate::cli::shared::TeamArgs::default())?
    else {
        return Ok(PostCommit::Unchanged);
    };
    let record = ctx.settings.record_commits;
    // Cheap looks first, before any object is read: most sessions name no files, and
    // most commits touch none of those they name.
    let state = crate::model::state::View::read(&session.state_file())?;
    let open_files = || {
        state
            .tasks
            .iter()
            .filter(|t| t.status != crate::model::state::TaskStatus::Done)
            .flat_map(|t| &t.file_paths)
    };
    if open_files().next().is_none() && !record {
        return Ok(PostCommit::Unchanged);
    }
    let Some((commit, time, subject, paths)) = ctx.repo.head_changes() else {
        return Ok(PostCommit::Unchanged);
    };
    let relevant = open_files().any(|f| paths.iter().any(|p| touches(p, f)));
    if !relevant && !record {
        return Ok(PostCommit::Unchanged);
    }
    let stamp = jiff::Timestamp::from_second(time).map_or_else(
        |_| crate::model::session::format_time(ctx.now),
        crate::model::session::format_time,
    );
    let sha = commit.to_string();
    // The lock is tried, never waited for: an agent's write may hold it for a while.
    let tx = sessions::Transaction::recorded(ctx, &wt)?.without_waiting();
    let written = tx.update(&session, |current| {
        let mut doc = current.into_document();
        if let Some(Value::Array(tasks)) = doc.get_mut("active_tasks") {
            for task in tasks.iter_mut().filter_map(Value::as_object_mut) {
                let done = task.get("status").and_then(Value::as_str) == Some("done");
                let hit = task
                    .get("file_paths")
                    .and_then(Value::as_array)
                    .is_some_and(|files| {
                        files
                            .iter()
                            .filter_map(Value::as_str)
                            .any(|f| paths.iter().any(|p| touches(p, f)))
                    });
                if hit && !done {
                    task.insert("last_touched".into(), Value::from(stamp.clone()));
                }
            }
        }
        if record {
            let changes = doc
                .entry("architecture_changes")
                .or_insert_with(|| Value::Array(Vec::new()));
            // A commit any entry names (full or short sha, whoever wrote it) is known.
            if let Value::Array(list) = changes
                && !list.iter().any(|c| {
                    (c.get("commit_sha").and_then(Value::as_str))
                        .is_some_and(|s| auto_record::same_commit(s, &sha))
                })
            {
                list.push(serde_json::json!({"commit_sha": sha, "summary": subject,
                    auto_record::RECORDED_BY: {"automatic": true, "hook": "post-commit"}}));
                // Ten, as `save` keeps: one entry per commit would grow the state until
                // it could not be written any more; only the hooks' own entries make room.
                auto_record::make_room(list);
            }
        }
        Ok(doc)
    });
    match written {
        Ok(w) if w.changed => Ok(PostCommit::Written),
        Ok(_) => Ok(PostCommit::Unchanged),
        Err(Error::Locked { owner, .. }) => Ok(PostCommit::Skipped {
            key: session.key.clone(),
            owner,
        }),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::touches;

    #[test]
    fn a_task_file_or_directory_is_touched_by_the_paths_below_it() {
        assert!(touches("src/lex.rs", "src/lex.rs"));
        assert!(touches("src/lex.rs", "./src/lex.rs"));
        assert!(touches("src/lex/mod.rs", "src/lex/"));
        assert!(!touches("src/lexer.rs", "src/lex"));
        assert!(!touches("src/lex.rs", ""));
    }
}
