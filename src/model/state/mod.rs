//! `project-state.json`: the structured session state of SPEC section 2.
//!
//! The JSON document itself is the source of truth: it is kept whole (every key the
//! tool does not know stays where it was, at every level), and the typed view the rest
//! of the tool reads is derived from it by validation. Writing serialises the document.

use std::path::Path;

use jiff::Timestamp;
use serde_json::{Map, Value};

use crate::support::error::{Error, Result};

mod validate;

pub use validate::parse_stamp;
use validate::{Validator, field_error, top};

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
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Workspace {
    pub root: Option<String>,
    pub branch: Option<String>,
    pub is_worktree: Option<bool>,
}

/// A validated `project-state.json`.
#[derive(Debug, Clone)]
pub struct State {
    doc: Map<String, Value>,
    pub version: u64,
    pub status: SessionStatus,
    pub generated_at: Option<Stamp>,
    pub session_id: Option<String>,
    pub workspace: Workspace,
    pub tasks: Vec<Task>,
    /// Things accepted but worth saying (a bare date, a naive local time).
    pub warnings: Vec<crate::support::error::Msg>,
}

/// The most JSON values (objects, arrays, strings, numbers, literals) a state may hold.
/// Each value costs a hundred bytes or more once parsed, so a 16 MiB file of tiny
/// values would take gigabytes; a real handover holds a few thousand.
pub const MAX_VALUES: usize = 1_000_000;

/// Refuse `bytes` (JSON) when they hold more than [`MAX_VALUES`] values, counted in
/// one pass over the bytes before anything is parsed.
pub fn check_value_count(bytes: &[u8], file: &Path) -> Result<()> {
    let mut count = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut in_scalar = false;
    for &b in bytes {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
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
        if count > MAX_VALUES {
            return Err(Error::TooManyValues {
                file: file.to_owned(),
                limit: MAX_VALUES,
            });
        }
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
        let value: Value = serde_json::from_slice(bytes).map_err(|e| Error::json(file, &e))?;
        let Value::Object(doc) = value else {
            return Err(field_error(file, "(root)", "must be a JSON object"));
        };
        State::from_doc(doc, file)
    }

    /// Validate a document and derive the typed view.
    pub fn from_doc(doc: Map<String, Value>, file: &Path) -> Result<State> {
        let mut v = Validator {
            file,
            warnings: Vec::new(),
        };
        let version = match doc.get("version") {
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
        let status = match doc.get("status") {
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
        let tasks = match doc.get("active_tasks") {
            None => return Err(field_error(file, "active_tasks", "is missing")),
            Some(Value::Null) => {
                return Err(field_error(
                    file,
                    "active_tasks",
                    "is null; it must be an array",
                ));
            }
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| v.task(item, i))
                .collect::<Result<Vec<_>>>()?,
            Some(_) => return Err(field_error(file, "active_tasks", "must be an array")),
        };
        // The same id twice: `task` could only ever reach the first. Said, not fatal.
        for (i, task) in tasks.iter().enumerate() {
            if let Some(first) = tasks[..i].iter().position(|t| t.id == task.id) {
                v.warnings.push(crate::support::error::msg(
                    "warn.duplicate_id",
                    &[
                        ("file", &file.display()),
                        ("id", &format!("{:?}", task.id)),
                        ("first", &first),
                        ("again", &i),
                    ],
                ));
            }
        }
        let generated_at = v.stamp(doc.get("generated_at"), &top("generated_at"))?;
        let session_id = v.string(doc.get("session_id"), &top("session_id"))?;
        let workspace = match doc.get("workspace") {
            None | Some(Value::Null) => Workspace::default(),
            Some(Value::Object(w)) => Workspace {
                root: v.string(w.get("root"), &top("workspace.root"))?,
                branch: v
                    .string(w.get("branch"), &top("workspace.branch"))?
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
        Ok(State {
            doc,
            version,
            status,
            generated_at,
            session_id,
            workspace,
            tasks,
            warnings,
        })
    }

    /// Keep only the typed view: for readers that never write the state back (status
    /// holds hundreds of states at once). `document` and `to_json_bytes` are then empty.
    #[must_use]
    pub fn into_view(mut self) -> State {
        self.doc = Map::new();
        self
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
mod tests {
    use super::*;
    use crate::support::fsio::MAX_FILE_SIZE;

    fn parse(s: &str) -> Result<State> {
        State::parse(
            s.as_bytes(),
            Path::new("/w/.claude/handover/main/1/project-state.json"),
        )
    }

    const WITH_UNKNOWN_KEYS: &str = r#"{
  "version": 3,
  "x_top_first": {"nested": [1, 2.50, {"deep": null}]},
  "generated_at": "2026-11-30T10:15:00+09:00",
  "session_id": "s-1",
  "status": "READY",
  "workspace": {
    "root": "/abs/wt",
    "x_ws": "kept",
    "branch": "feature/x",
    "is_worktree": true
  },
  "active_tasks": [
    {
      "id": "T1",
      "x_task": {"a": 1},
      "description": "first",
      "status": "done",
      "commit_sha": "3f2a9c1",
      "file_paths": ["src/a.rs"],
      "last_touched": "2026-11-30T09:00:00Z"
    },
    {
      "id": "T2",
      "description": "second",
      "status": "pending",
      "big": 123456789012345678901234567890
    }
  ],
  "recent_decisions": [
    {
      "decision": "use gix",
      "x_decision": ["why", "not"],
      "rationale": "speed",
      "date": "2026-11-29"
    }
  ],
  "session_hash": "abc",
  "x_top_last": true
}
"#;

    #[test]
    fn unknown_keys_survive_a_round_trip_at_every_level() {
        // Compact JSON shows key order and number text exactly (map equality would not).
        let compact = |text: &str| {
            let v: Value = serde_json::from_str(text).unwrap();
            serde_json::to_string(&v).unwrap()
        };
        let state = parse(WITH_UNKNOWN_KEYS).unwrap();
        let written = String::from_utf8(state.to_json_bytes()).unwrap();
        assert_eq!(compact(&written), compact(WITH_UNKNOWN_KEYS));
        for kept in [
            "\"x_top_first\"",
            "\"x_ws\": \"kept\"",
            "\"x_task\"",
            "\"x_decision\"",
            "2.50",
            "123456789012345678901234567890",
            "\"x_top_last\": true",
        ] {
            assert!(written.contains(kept), "{kept} lost:\n{written}");
        }
        // Writing what was written changes nothing.
        let again = parse(&written).unwrap();
        assert_eq!(String::from_utf8(again.to_json_bytes()).unwrap(), written);
    }

    #[test]
    fn typed_view() {
        let s = parse(WITH_UNKNOWN_KEYS).unwrap();
        assert_eq!(s.version, 3);
        assert!(s.is_ready());
        assert!(s.is_branch_session());
        assert_eq!(s.workspace.branch.as_deref(), Some("feature/x"));
        assert_eq!(s.workspace.root.as_deref(), Some("/abs/wt"));
        assert_eq!(s.tasks.len(), 2);
        assert_eq!(s.tasks[1].status, TaskStatus::Other("pending".into()));
        assert_eq!(s.done_count(), 1);
        assert_eq!(s.next_task().unwrap().id, "T2");
        assert_eq!(
            s.generated_at.as_ref().unwrap().at.to_string(),
            "2026-11-30T01:15:00Z"
        );
        assert!(s.warnings.is_empty());
    }

    #[test]
    fn versions_two_to_five() {
        for v in 2..=5 {
            assert!(
                parse(&format!(
                    r#"{{"version":{v},"status":"READY","active_tasks":[]}}"#
                ))
                .is_ok()
            );
        }
        let err = parse(r#"{"version":6,"status":"READY","active_tasks":[]}"#).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid handover /w/.claude/handover/main/1/project-state.json: field `version` is 6, but only versions 2 to 5 are read"
        );
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let err = parse("{\n  \"version\": 3,\n  \"status\": READY\n}").unwrap_err();
        match &err {
            Error::InvalidJson { line, column, .. } => assert_eq!((*line, *column), (3, 13)),
            other => panic!("{other:?}"),
        }
        assert_eq!(err.exit_code(), 3);
        assert!(err.to_string().starts_with(
            "invalid json in /w/.claude/handover/main/1/project-state.json at line 3, column 13: expected value"
        ));
    }

    #[test]
    fn field_errors_name_the_path() {
        let cases = [
            (
                r#"{"status":"READY","active_tasks":[]}"#,
                "version",
                "is missing",
            ),
            (r#"{"version":3,"active_tasks":[]}"#, "status", "is missing"),
            (
                r#"{"version":3,"status":"DONE","active_tasks":[]}"#,
                "status",
                "is \"DONE\", expected \"READY\" or \"ALL_COMPLETE\"",
            ),
            (
                r#"{"version":3,"status":"READY"}"#,
                "active_tasks",
                "is missing",
            ),
            (
                r#"{"version":3,"status":"READY","active_tasks":{}}"#,
                "active_tasks",
                "must be an array",
            ),
            (
                r#"{"version":3,"status":"READY","active_tasks":[{},{},{"status":7}]}"#,
                "active_tasks[2].status",
                "must be a string",
            ),
            (
                r#"{"version":3,"status":"READY","active_tasks":[{"file_paths":["a",1]}]}"#,
                "active_tasks[0].file_paths[1]",
                "must be a string",
            ),
            (
                r#"{"version":3,"status":"READY","active_tasks":[{"last_touched":"yesterday"}]}"#,
                "active_tasks[0].last_touched",
                "is \"yesterday\", not an RFC 3339 timestamp",
            ),
            (
                r#"{"version":3,"status":"READY","active_tasks":[],"workspace":[]}"#,
                "workspace",
                "must be an object",
            ),
            ("[1]", "(root)", "must be a JSON object"),
        ];
        for (input, want_field, want_message) in cases {
            match parse(input).unwrap_err() {
                Error::InvalidField { field, message, .. } => {
                    assert_eq!(
                        (field.as_str(), message.as_str()),
                        (want_field, want_message),
                        "{input}"
                    );
                }
                other => panic!("{input}: {other:?}"),
            }
        }
    }

    #[test]
    fn nulls_are_absent_values() {
        let s = parse(r#"{"version":3,"status":"READY","active_tasks":[{"id":"T1","blockers":null,"commit_sha":null}],"workspace":null}"#).unwrap();
        assert!(s.tasks[0].blockers.is_empty());
        assert_eq!(s.tasks[0].commit_sha, None);
    }

    #[test]
    fn bare_dates_and_naive_times_are_accepted_with_a_warning() {
        let s = parse(
            r#"{"version":3,"status":"READY","active_tasks":[],"generated_at":"2026-11-30"}"#,
        )
        .unwrap();
        assert_eq!(s.warnings.len(), 1);
        assert!(
            s.warnings[0].to_string().contains("bare date"),
            "{:?}",
            s.warnings
        );
        let s = parse(r#"{"version":3,"status":"READY","active_tasks":[],"generated_at":"2026-11-30T10:00:00"}"#).unwrap();
        assert!(
            s.warnings[0].to_string().contains("naive local time"),
            "{:?}",
            s.warnings
        );
    }

    #[test]
    fn instants_not_strings_are_compared() {
        let (a, _) = parse_stamp("2026-11-30T10:15:00+09:00").unwrap();
        let (b, _) = parse_stamp("2026-11-30T01:15:00Z").unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn bom_is_accepted_and_deep_nesting_is_an_error_not_a_crash() {
        let with_bom = format!(
            "\u{feff}{}",
            r#"{"version":2,"status":"READY","active_tasks":[]}"#
        );
        assert!(parse(&with_bom).is_ok());
        let deep = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        assert_eq!(parse(&deep).unwrap_err().exit_code(), 3);
    }

    #[test]
    fn oversized_files_are_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("project-state.json");
        let f = std::fs::File::create(&path).unwrap();
        f.set_len(MAX_FILE_SIZE + 1).unwrap();
        let err = State::read(&path).unwrap_err();
        assert!(matches!(err, Error::TooLarge { .. }), "{err:?}");
        assert_eq!(err.exit_code(), 3);
    }
}
