//! `project-state.json`: the structured session state of SPEC section 2.
//!
//! The JSON document itself is the source of truth: it is kept whole (every key the
//! tool does not know stays where it was, at every level), and the typed view the rest
//! of the tool reads is derived from it by validation. Writing serialises the document.

use std::borrow::Cow;
use std::path::Path;

use jiff::Timestamp;
use serde_json::{Map, Value};

use crate::support::error::{Error, Result};

mod fast;
pub mod known;
pub mod strict;
mod validate;

use validate::{Validator, field_error, top};
pub use validate::{parse_rfc3339, parse_stamp};

/// The lowest and highest `version` read.
pub const MIN_VERSION: u64 = 2;
pub const MAX_VERSION: u64 = 5;

pub const READY: &str = "READY";
pub const ALL_COMPLETE: &str = "ALL_COMPLETE";

/// A session's status: derived from its tasks on every write (SPEC section 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionStatus {
    /// Some task is not done.
    Ready,
    /// No tasks, or every task done.
    AllComplete,
}

impl SessionStatus {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            READY => Some(SessionStatus::Ready),
            ALL_COMPLETE => Some(SessionStatus::AllComplete),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SessionStatus::Ready => READY,
            SessionStatus::AllComplete => ALL_COMPLETE,
        }
    }
}

impl std::fmt::Display for SessionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A point in time read from a handover file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    pub at: Timestamp,
    /// The text as written.
    pub raw: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskStatus {
    Done,
    InProgress,
    Blocked,
    /// Any other status (`pending` is common): kept and shown as written.
    Other(String),
}

impl TaskStatus {
    pub fn parse(s: &str) -> Self {
        match s {
            "done" => TaskStatus::Done,
            "in_progress" => TaskStatus::InProgress,
            "blocked" => TaskStatus::Blocked,
            other => TaskStatus::Other(other.to_owned()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            TaskStatus::Done => "done",
            TaskStatus::InProgress => "in_progress",
            TaskStatus::Blocked => "blocked",
            TaskStatus::Other(s) => s,
        }
    }

    /// `in_progress` or `blocked`: the tasks a successor must pick up.
    pub fn is_open(&self) -> bool {
        matches!(self, TaskStatus::InProgress | TaskStatus::Blocked)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub id: String,
    pub description: String,
    pub status: TaskStatus,
    pub commit_sha: Option<String>,
    pub file_paths: Vec<String>,
    pub next_action: Option<String>,
    pub blockers: Vec<String>,
    pub last_touched: Option<Stamp>,
    /// The lease on the task (SPEC section 10), if any.
    pub claim: Option<crate::model::claim::Claim>,
    /// A claim of the task lost to another clone's (SPEC section 10), told to its holder.
    pub lost: Option<crate::model::claim::Lost>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Workspace {
    pub root: Option<String>,
    pub branch: Option<String>,
    pub is_worktree: Option<bool>,
}

/// A validated `project-state.json`: the document as written, which the write path
/// changes and writes back whole, and its read-only [`View`] (through `Deref`).
#[derive(Debug, Clone)]
pub struct State {
    doc: Map<String, Value>,
    view: View,
}

impl std::ops::Deref for State {
    type Target = View;
    fn deref(&self) -> &View {
        &self.view
    }
}

/// The typed, read-only view of a state: what readers (status, continue, the hook)
/// use. It never writes anything back, so it does not keep the document.
#[derive(Debug, Clone)]
pub struct View {
    pub version: u64,
    pub status: SessionStatus,
    pub generated_at: Option<Stamp>,
    pub session_id: Option<String>,
    pub workspace: Workspace,
    pub tasks: Vec<Task>,
    /// Decisions, known issues, approaches, observations and notes, as written.
    pub extras: crate::model::extras::Extras,
    /// Things accepted but worth saying (a bare date, a naive local time).
    pub warnings: Vec<crate::support::error::Msg>,
}

/// Where a state's tasks come from: the document's `active_tasks` value, or the
/// typed reading's tasks (an array of objects, known to be there).
enum Tasks<'a, 'v> {
    Doc(Option<&'v Value>),
    /// Their fields are taken out as they are validated.
    Typed(&'a mut [fast::RawTask]),
}

/// The most JSON values (objects, arrays, strings, numbers, literals) a state may hold.
/// A parsed value's cost has a ceiling (an order-keeping map each, numbers kept as
/// text), so this bounds what any one state costs to read and rewrite, whatever its
/// shape, inside the memory budget; a real handover holds a few thousand values.
pub const MAX_VALUES: usize = 150_000;

/// Whether `bytes` (JSON) hold more than `limit` values, counted in one pass over the
/// bytes without parsing them (and without allocating).
pub fn over_value_limit(bytes: &[u8], limit: usize) -> bool {
    let mut count = 0usize;
    let mut in_scalar = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        match b {
            b'"' => {
                // A string: to its closing quote, an escaped character at a time
                // (most of a state's bytes are in strings).
                loop {
                    match memchr::memchr2(b'"', b'\\', &bytes[i..]) {
                        None => i = bytes.len(),
                        Some(at) if bytes[i + at] == b'\\' => {
                            i = (i + at + 2).min(bytes.len());
                            continue;
                        }
                        Some(at) => i += at + 1,
                    }
                    break;
                }
                in_scalar = false;
                count += 1;
            }
            b'{' | b'[' => {
                in_scalar = false;
                count += 1;
            }
            b'}' | b']' | b',' | b':' | b' ' | b'\t' | b'\n' | b'\r' => in_scalar = false,
            _ => {
                if !in_scalar {
                    in_scalar = true;
                    count += 1;
                }
            }
        }
        if count > limit {
            return true;
        }
    }
    false
}

/// Refuse `bytes` (JSON) when they hold more than [`MAX_VALUES`] values, counted
/// before anything is parsed.
pub fn check_value_count(bytes: &[u8], file: &Path) -> Result<()> {
    if over_value_limit(bytes, MAX_VALUES) {
        return Err(Error::TooManyValues {
            file: file.to_owned(),
            limit: MAX_VALUES,
        });
    }
    Ok(())
}

impl State {
    /// Read and validate the file at `path`, refusing files over [`MAX_FILE_SIZE`].
    pub fn read(path: &Path) -> Result<State> {
        let bytes = crate::support::fsio::read_limited(path)?;
        State::parse(&bytes, path)
    }

    /// Parse and validate `bytes`; `file` only names the source in errors.
    pub fn parse(bytes: &[u8], file: &Path) -> Result<State> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        check_value_count(bytes, file)?;
        let value = strict::from_slice(bytes).map_err(|e| Error::json(file, &e))?;
        let Value::Object(doc) = value else {
            return Err(field_error(file, "(root)", "must be a JSON object"));
        };
        State::from_doc(doc, file)
    }

    /// Validate a document and derive the typed view.
    pub fn from_doc(doc: Map<String, Value>, file: &Path) -> Result<State> {
        let mut view = View::validated(
            &|key| doc.get(key),
            Tasks::Doc(doc.get("active_tasks")),
            file,
        )?;
        view.extras = crate::model::extras::from_doc(&doc);
        Ok(State { doc, view })
    }

    /// Keep only the typed view: for readers that never write the state back (status
    /// holds hundreds of states at once).
    #[must_use]
    pub fn into_view(self) -> View {
        self.view
    }

    /// The whole document, unknown keys included, in its original order.
    /// The whole document, given up by the view.
    pub fn into_document(self) -> Map<String, Value> {
        self.doc
    }

    pub fn document(&self) -> &Map<String, Value> {
        &self.doc
    }

    /// The document as the tool writes it: two-space indented JSON and a final newline.
    pub fn to_json_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(&self.doc).expect("a JSON map always serialises");
        out.push(b'\n');
        out
    }
}

impl View {
    /// Read the file at `path` for reading only (it is never written back): the typed
    /// reading where it applies, else the document's. The same view and the same
    /// errors either way.
    pub fn read(path: &Path) -> Result<View> {
        let bytes = crate::support::fsio::read_limited(path)?;
        View::parse(&bytes, path)
    }

    /// [`View::read`] of `bytes`; `file` only names the source in errors.
    pub fn parse(bytes: &[u8], file: &Path) -> Result<View> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        check_value_count(bytes, file)?;
        let Some(mut raw) = fast::read(bytes) else {
            return State::parse(bytes, file).map(State::into_view);
        };
        let mut tasks = raw.active_tasks.take().unwrap_or_default();
        let mut view = View::validated(&|key| raw.field(key), Tasks::Typed(&mut tasks), file)?;
        let approaches: Vec<Option<&Value>> = tasks
            .iter()
            .map(|t| t.field("attempted_approaches"))
            .collect();
        view.extras = crate::model::extras::from_fields(&|key| raw.field(key), &approaches);
        Ok(view)
    }

    /// The view of `get` (a state's top-level fields) and its tasks, validated: every
    /// error names the file and the field. One validator for the document and for the
    /// typed reading ([`View::read`]). The extras are filled in by the caller.
    fn validated<'v>(
        get: &dyn Fn(&str) -> Option<&'v Value>,
        tasks: Tasks<'_, 'v>,
        file: &Path,
    ) -> Result<View> {
        let mut v = Validator {
            file,
            warnings: Vec::new(),
        };
        let version = match get("version") {
            None | Some(Value::Null) => return Err(field_error(file, "version", "is missing")),
            Some(Value::Number(n)) => match n.as_u64() {
                Some(n) if (MIN_VERSION..=MAX_VERSION).contains(&n) => n,
                _ => {
                    return Err(field_error(
                        file,
                        "version",
                        &format!(
                            "is {n}, but only versions {MIN_VERSION} to {MAX_VERSION} are read"
                        ),
                    ));
                }
            },
            Some(_) => return Err(field_error(file, "version", "must be a number")),
        };
        let status = match get("status") {
            None | Some(Value::Null) => return Err(field_error(file, "status", "is missing")),
            Some(Value::String(s)) if SessionStatus::parse(s).is_some() => {
                SessionStatus::parse(s).expect("checked")
            }
            Some(Value::String(s)) => {
                return Err(field_error(
                    file,
                    "status",
                    &format!("is {s:?}, expected \"{READY}\" or \"{ALL_COMPLETE}\""),
                ));
            }
            Some(_) => return Err(field_error(file, "status", "must be a string")),
        };
        let tasks = match tasks {
            // Collected into a vector of the exact size: a `Result` collect cannot know
            // it, and grew the vector past its need (with many sessions, fresh pages,
            // each faulted in).
            Tasks::Typed(items) => {
                let mut tasks = Vec::with_capacity(items.len());
                for (i, item) in items.iter_mut().enumerate() {
                    tasks.push(v.task_fields(&mut |key| item.take(key).map(Cow::Owned), i)?);
                }
                tasks
            }
            Tasks::Doc(None) => return Err(field_error(file, "active_tasks", "is missing")),
            Tasks::Doc(Some(Value::Null)) => {
                return Err(field_error(
                    file,
                    "active_tasks",
                    "is null; it must be an array",
                ));
            }
            Tasks::Doc(Some(Value::Array(items))) => {
                let mut tasks = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    tasks.push(v.task(item, i)?);
                }
                tasks
            }
            Tasks::Doc(Some(_)) => {
                return Err(field_error(file, "active_tasks", "must be an array"));
            }
        };
        // The same id twice: `task` could only ever reach the first. Said, not fatal.
        let mut seen: std::collections::HashMap<&str, usize> =
            std::collections::HashMap::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            if let Some(&first) = seen.get(task.id.as_str()) {
                v.warnings.push(crate::support::error::msg(
                    crate::k!("warn.duplicate_id"),
                    &[
                        ("file", &file.display()),
                        ("id", &format!("{:?}", task.id)),
                        ("first", &first),
                        ("again", &i),
                    ],
                ));
            } else {
                seen.insert(task.id.as_str(), i);
            }
        }
        let generated_at = v.stamp(get("generated_at").map(Cow::Borrowed), &top("generated_at"))?;
        let session_id = v.string(get("session_id").map(Cow::Borrowed), &top("session_id"))?;
        let workspace = match get("workspace") {
            None | Some(Value::Null) => Workspace::default(),
            Some(Value::Object(w)) => Workspace {
                root: v.string(w.get("root").map(Cow::Borrowed), &top("workspace.root"))?,
                branch: v
                    .string(w.get("branch").map(Cow::Borrowed), &top("workspace.branch"))?
                    .filter(|b| !b.is_empty()),
                is_worktree: match w.get("is_worktree") {
                    None | Some(Value::Null) => None,
                    Some(Value::Bool(b)) => Some(*b),
                    Some(_) => {
                        return Err(field_error(
                            file,
                            "workspace.is_worktree",
                            "must be a boolean",
                        ));
                    }
                },
            },
            Some(_) => return Err(field_error(file, "workspace", "must be an object")),
        };
        let warnings = v.warnings;
        Ok(View {
            version,
            status,
            generated_at,
            session_id,
            workspace,
            tasks,
            extras: crate::model::extras::Extras::default(),
            warnings,
        })
    }

    /// A branch session has `workspace.branch`; a team session does not (SPEC section 1).
    pub fn is_branch_session(&self) -> bool {
        self.workspace.branch.is_some()
    }

    pub fn is_ready(&self) -> bool {
        self.status == SessionStatus::Ready
    }

    pub fn done_count(&self) -> usize {
        self.tasks
            .iter()
            .filter(|t| t.status == TaskStatus::Done)
            .count()
    }

    /// The task a successor should take first: the first `in_progress`, else the first
    /// `blocked`, else the first task that is not done.
    pub fn next_task(&self) -> Option<&Task> {
        self.tasks
            .iter()
            .find(|t| t.status == TaskStatus::InProgress)
            .or_else(|| self.tasks.iter().find(|t| t.status == TaskStatus::Blocked))
            .or_else(|| self.tasks.iter().find(|t| t.status != TaskStatus::Done))
    }
}

#[cfg(test)]
mod tests;
