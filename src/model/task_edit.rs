//! Edits of one task (`git handover task`): add, start, done, block, reopen, edit,
//! remove.

use serde_json::{Map, Value};

use super::session::array_mut;

/// The task edits of `git handover task`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskEdit {
    Add {
        description: String,
        files: Vec<String>,
        next: Option<String>,
    },
    Start,
    Done {
        commit: String,
    },
    Block {
        reasons: Vec<String>,
    },
    Reopen,
    /// Replace what is given; what is `None` (or an empty file list) stays.
    Edit {
        description: Option<String>,
        next: Option<String>,
        files: Vec<String>,
    },
    Remove,
}

/// Why a task edit cannot be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskError {
    NoSuchTask,
    AlreadyExists,
}

/// Apply `edit` to task `id`, stamping `last_touched` with `now`.
pub fn edit_task(
    doc: &mut Map<String, Value>,
    id: &str,
    edit: TaskEdit,
    now: &str,
) -> Result<(), TaskError> {
    let tasks = array_mut(doc, "active_tasks");
    let positions: Vec<usize> = tasks
        .iter()
        .enumerate()
        .filter(|(_, t)| t.get("id").and_then(Value::as_str) == Some(id))
        .map(|(i, _)| i)
        .collect();
    if let TaskEdit::Add {
        description,
        files,
        next,
    } = edit
    {
        if !positions.is_empty() {
            return Err(TaskError::AlreadyExists);
        }
        let mut task = Map::new();
        task.insert("id".into(), Value::from(id));
        task.insert("description".into(), Value::from(description));
        task.insert("status".into(), Value::from("pending"));
        task.insert("file_paths".into(), Value::from(files));
        if let Some(next) = next {
            task.insert("next_action".into(), Value::from(next));
        }
        task.insert("last_touched".into(), Value::from(now));
        tasks.push(Value::Object(task));
        return Ok(());
    }
    if positions.is_empty() {
        return Err(TaskError::NoSuchTask);
    }
    if edit == TaskEdit::Remove {
        // Every copy of a duplicated id goes: one left behind would keep the session
        // from ever being finished.
        for i in positions.into_iter().rev() {
            tasks.remove(i);
        }
        return Ok(());
    }
    // A hand-edited file may hold the same id twice: every copy is edited, so the
    // session can still be finished with the CLI.
    for i in positions {
        if let Value::Object(task) = &mut tasks[i] {
            apply(task, &edit, now);
        }
    }
    Ok(())
}

/// Apply a change of status or text to one task.
fn apply(task: &mut Map<String, Value>, edit: &TaskEdit, now: &str) {
    match edit.clone() {
        TaskEdit::Add { .. } | TaskEdit::Remove => unreachable!("handled above"),
        TaskEdit::Edit {
            description,
            next,
            files,
        } => {
            if let Some(d) = description {
                task.insert("description".into(), Value::from(d));
            }
            if let Some(n) = next {
                task.insert("next_action".into(), Value::from(n));
            }
            if !files.is_empty() {
                task.insert("file_paths".into(), Value::from(files));
            }
        }
        TaskEdit::Start => {
            // Started again, the task is no longer blocked by what blocked it.
            task.insert("status".into(), Value::from("in_progress"));
            task.remove("blockers");
        }
        TaskEdit::Done { commit } => {
            task.insert("status".into(), Value::from("done"));
            task.insert("commit_sha".into(), Value::from(commit));
        }
        TaskEdit::Block { reasons } => {
            task.insert("status".into(), Value::from("blocked"));
            let blockers = match task
                .entry("blockers")
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                Value::Array(b) => b,
                other => {
                    *other = Value::Array(Vec::new());
                    other.as_array_mut().expect("just made an array")
                }
            };
            for r in reasons {
                let r = Value::from(r);
                if !blockers.contains(&r) {
                    blockers.push(r);
                }
            }
        }
        TaskEdit::Reopen => {
            // Open again, the task is neither blocked nor done: what blocked it and the
            // commit that finished it belong to the closed task, and a kept `commit_sha`
            // would later be checked (and shown unreachable or rewritten) as its own.
            task.insert("status".into(), Value::from("in_progress"));
            task.remove("blockers");
            task.remove("commit_sha");
        }
    }
    task.insert("last_touched".into(), Value::from(now));
    // A task a hook made (`Continue: …`) is the agent's or the person's once they edit
    // it: no longer marked as recorded automatically (the stop gate counts it updated).
    task.remove(crate::model::auto_record::RECORDED_BY);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::session::seal;
    use serde_json::json;

    #[test]
    fn task_edits() {
        let mut doc = Map::new();
        let now = "2026-11-30T12:00:00+00:00";
        edit_task(
            &mut doc,
            "T1",
            TaskEdit::Add {
                description: "d".into(),
                files: vec!["a.rs".into()],
                next: Some("n".into()),
            },
            now,
        )
        .unwrap();
        assert_eq!(edit_task(&mut doc, "T1", TaskEdit::Start, now), Ok(()));
        assert_eq!(doc["active_tasks"][0]["status"], "in_progress");
        edit_task(
            &mut doc,
            "T1",
            TaskEdit::Block {
                reasons: vec!["r1".into(), "r1".into(), "r2".into()],
            },
            now,
        )
        .unwrap();
        assert_eq!(doc["active_tasks"][0]["blockers"], json!(["r1", "r2"]));
        edit_task(&mut doc, "T1", TaskEdit::Reopen, now).unwrap();
        assert_eq!(doc["active_tasks"][0].get("blockers"), None);
        edit_task(
            &mut doc,
            "T1",
            TaskEdit::Done {
                commit: "abc".into(),
            },
            now,
        )
        .unwrap();
        assert_eq!(doc["active_tasks"][0]["commit_sha"], "abc");
        assert_eq!(doc["active_tasks"][0]["last_touched"], now);
        edit_task(&mut doc, "T1", TaskEdit::Reopen, now).unwrap();
        assert_eq!(doc["active_tasks"][0].get("commit_sha"), None);
        assert_eq!(doc["active_tasks"][0]["status"], "in_progress");
        edit_task(
            &mut doc,
            "T1",
            TaskEdit::Done {
                commit: "abc".into(),
            },
            now,
        )
        .unwrap();
        assert_eq!(
            edit_task(&mut doc, "T9", TaskEdit::Start, now),
            Err(TaskError::NoSuchTask)
        );
        let add = TaskEdit::Add {
            description: String::new(),
            files: vec![],
            next: None,
        };
        assert_eq!(
            edit_task(&mut doc, "T1", add, now),
            Err(TaskError::AlreadyExists)
        );
        seal(&mut doc);
        assert_eq!(doc["status"], "ALL_COMPLETE");
    }

    #[test]
    fn edit_changes_only_what_is_given_and_remove_removes() {
        let mut doc = Map::new();
        let now = "2026-11-30T12:00:00+00:00";
        let add = |doc: &mut Map<String, Value>, id: &str| {
            edit_task(
                doc,
                id,
                TaskEdit::Add {
                    description: "d".into(),
                    files: vec!["a.rs".into()],
                    next: Some("n".into()),
                },
                now,
            )
            .unwrap();
        };
        add(&mut doc, "T1");
        add(&mut doc, "T2");
        let edit = TaskEdit::Edit {
            description: None,
            next: Some("m".into()),
            files: Vec::new(),
        };
        edit_task(&mut doc, "T1", edit, now).unwrap();
        assert_eq!(doc["active_tasks"][0]["description"], "d");
        assert_eq!(doc["active_tasks"][0]["next_action"], "m");
        assert_eq!(doc["active_tasks"][0]["file_paths"], json!(["a.rs"]));
        assert_eq!(edit_task(&mut doc, "T1", TaskEdit::Remove, now), Ok(()));
        assert_eq!(doc["active_tasks"].as_array().unwrap().len(), 1);
        assert_eq!(doc["active_tasks"][0]["id"], "T2");
        assert_eq!(
            edit_task(&mut doc, "T1", TaskEdit::Remove, now),
            Err(TaskError::NoSuchTask)
        );
    }

    /// A task a hook made is the editor's once edited: the mark goes.
    #[test]
    fn an_edited_task_is_no_longer_the_hooks() {
        let mut doc = json!({"active_tasks": [{"id": "T1", "status": "in_progress",
            "recorded_by": {"automatic": true}}]})
        .as_object()
        .unwrap()
        .clone();
        let next = TaskEdit::Edit {
            description: None,
            next: Some("parse".into()),
            files: vec![],
        };
        edit_task(&mut doc, "T1", next, "t1").unwrap();
        assert!(doc["active_tasks"][0].get("recorded_by").is_none());
    }
}
