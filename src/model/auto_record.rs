//! What the hooks record by themselves at an agent session's pre-compact and end (SPEC
//! section 11): facts, no model involved, written into the original format's fields —
//! `architecture_changes` for the commits, `session_notes` for the rest, and
//! `attempted_approaches` of a task only when exactly one is in progress. Every entry
//! carries `recorded_by: {agent, session_id, automatic: true}`; a note also carries
//! the `fingerprint` of the content it was written with, so that a later record of
//! the same agent session replaces its own note only while nobody changed it. Nothing
//! an agent or a person wrote is changed, no task status is set, and a repeat of the
//! same facts changes nothing. Pure: the caller gives the words and the time.

use serde_json::{Map, Value};

pub use crate::model::session::RECORDED_BY;
use crate::model::session::{KEEP_ARCHITECTURE_CHANGES, KEEP_SESSION_NOTES};

/// Failed commands written as attempted approaches, at most.
const KEEP_FAILURES: usize = 5;

/// A commit made in the agent session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommitFact {
    pub sha: String,
    pub subject: String,
    pub files: Vec<String>,
    pub date: String,
}

/// A command that failed, as the transcript says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub command: String,
    pub exit_status: Option<i32>,
    pub first_error_line: String,
}

/// What an agent session did since its start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Facts {
    pub agent: String,
    pub session_id: String,
    /// Newest first.
    pub commits: Vec<CommitFact>,
    /// More commits were made than were looked at (a limit or the deadline).
    pub more_commits: bool,
    /// The files changed, committed and not, sorted.
    pub files_changed: Vec<String>,
    pub last_request: Option<String>,
    pub edited_files: Vec<String>,
    pub failed: Vec<Failure>,
}

impl Facts {
    /// Whether the agent session worked: made a commit or changed a file.
    pub fn did_work(&self) -> bool {
        !self.commits.is_empty() || !self.files_changed.is_empty() || !self.edited_files.is_empty()
    }

    /// Whether there is anything to record (a failed command is worth keeping even
    /// when nothing was changed).
    pub fn is_empty(&self) -> bool {
        !self.did_work() && self.failed.is_empty()
    }

    /// `recorded_by` of an entry written from these facts.
    fn by(&self) -> Map<String, Value> {
        let mut by = Map::new();
        by.insert("agent".into(), Value::from(self.agent.clone()));
        by.insert("session_id".into(), Value::from(self.session_id.clone()));
        by.insert("automatic".into(), Value::from(true));
        by
    }
}

/// A session note to write: its category and content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub category: &'static str,
    pub content: String,
}

/// What [`apply`] wrote.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Applied {
    pub notes: usize,
    pub changes: usize,
    pub approaches: usize,
    /// The task the approaches went to.
    pub task: Option<String>,
}

impl Applied {
    #[cfg(test)]
    pub fn is_empty(&self) -> bool {
        self.notes + self.changes + self.approaches == 0
    }
}

/// Whether `entry` was recorded automatically for agent session `session_id`.
pub fn is_automatic_of(entry: &Value, session_id: Option<&str>) -> bool {
    let Some(by) = entry.get(RECORDED_BY).and_then(Value::as_object) else {
        return false;
    };
    by.get("automatic").and_then(Value::as_bool) == Some(true)
        && session_id.is_none_or(|id| by.get("session_id").and_then(Value::as_str) == Some(id))
}

/// FNV-1a of a note's content, as hex: stable across runs and builds.
pub fn fingerprint(content: &str) -> String {
    let h = content.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{h:016x}")
}

/// Record `facts` into `doc`: `notes` as session notes, the commits as architecture
/// changes, the failed commands as attempted approaches of the one task in progress.
/// `approach` words one failed command. `now` stamps the entries.
pub fn apply(
    doc: &mut Map<String, Value>,
    facts: &Facts,
    notes: &[Note],
    approach: &dyn Fn(&Failure) -> (String, String),
    now: &str,
) -> Applied {
    let mut applied = Applied::default();
    for note in notes {
        applied.notes += usize::from(upsert_note(doc, facts, note, now));
    }
    applied.changes = add_changes(doc, facts);
    if let Some((id, n)) = add_approaches(doc, facts, approach, now) {
        applied.approaches = n;
        applied.task = (n > 0).then_some(id);
    }
    applied
}

fn array<'a>(doc: &'a mut Map<String, Value>, key: &str) -> Option<&'a mut Vec<Value>> {
    let slot = doc.entry(key).or_insert_with(|| Value::Array(Vec::new()));
    // A field a person made something else than a list is theirs: left alone.
    slot.as_array_mut()
}

/// Write one note of this agent session: its own note of the category, still as it
/// wrote it, is replaced in place; one a person changed is left, and a note is added
/// unless one of this agent session already says the same. Whether it wrote.
fn upsert_note(doc: &mut Map<String, Value>, facts: &Facts, note: &Note, now: &str) -> bool {
    let Some(list) = array(doc, "session_notes") else {
        return false;
    };
    let mine = |n: &Value| {
        is_automatic_of(n, Some(&facts.session_id))
            && n.get("category").and_then(Value::as_str) == Some(note.category)
    };
    let content = |n: &Value| n.get("content").and_then(Value::as_str).map(str::to_owned);
    if list
        .iter()
        .any(|n| mine(n) && content(n).as_deref() == Some(note.content.as_str()))
    {
        return false;
    }
    let untouched = list.iter_mut().find(|n| mine(n) && as_written(n));
    let mut by = facts.by();
    by.insert(
        "fingerprint".into(),
        Value::from(fingerprint(&note.content)),
    );
    if let Some(Value::Object(n)) = untouched {
        n.insert("recorded_at".into(), Value::from(now));
        n.insert("content".into(), Value::from(note.content.clone()));
        n.insert(RECORDED_BY.into(), Value::Object(by));
        return true;
    }
    let mut n = Map::new();
    n.insert("recorded_at".into(), Value::from(now));
    n.insert("category".into(), Value::from(note.category));
    n.insert("content".into(), Value::from(note.content.clone()));
    n.insert(RECORDED_BY.into(), Value::Object(by));
    list.push(Value::Object(n));
    // At most ten, as `save` keeps: the oldest automatic notes go first, and a note a
    // person or an agent wrote (or an automatic one a person changed since) never goes
    // to make room for one the hook wrote.
    while list.len() > KEEP_SESSION_NOTES {
        let newest = list.len() - 1;
        let Some(i) = list[..newest]
            .iter()
            .position(|n| is_automatic_of(n, None) && as_written(n))
        else {
            break;
        };
        list.remove(i);
    }
    true
}

/// Whether an automatic note still holds the content the hook wrote (its
/// `fingerprint`): else a person changed it, and it is theirs.
fn as_written(n: &Value) -> bool {
    let content = n.get("content").and_then(Value::as_str).map(fingerprint);
    n.get(RECORDED_BY)
        .and_then(|b| b.get("fingerprint"))
        .and_then(Value::as_str)
        == content.as_deref()
}

/// Whether two ways of writing a commit (a full or an abbreviated sha) name the same.
pub fn same_commit(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim().to_ascii_lowercase(), b.trim().to_ascii_lowercase());
    a.len() >= 7 && b.len() >= 7 && (a.starts_with(&b) || b.starts_with(&a))
}

/// The commits not yet in `architecture_changes` (whoever wrote them), oldest first,
/// keeping ten as `save` does but never by dropping an entry the hook did not write.
/// How many were added.
fn add_changes(doc: &mut Map<String, Value>, facts: &Facts) -> usize {
    if facts.commits.is_empty() {
        return 0;
    }
    let Some(list) = array(doc, "architecture_changes") else {
        return 0;
    };
    let mut added = 0;
    for c in facts.commits.iter().take(KEEP_ARCHITECTURE_CHANGES).rev() {
        let known = list.iter().any(|x| {
            x.get("commit_sha")
                .and_then(Value::as_str)
                .is_some_and(|s| same_commit(s, &c.sha))
        });
        if known {
            continue;
        }
        let mut entry = Map::new();
        entry.insert("commit_sha".into(), Value::from(c.sha.clone()));
        entry.insert("summary".into(), Value::from(c.subject.clone()));
        entry.insert("files_changed".into(), Value::from(c.files.clone()));
        entry.insert("date".into(), Value::from(c.date.clone()));
        entry.insert(RECORDED_BY.into(), Value::Object(facts.by()));
        list.push(Value::Object(entry));
        added += 1;
    }
    make_room(list);
    added
}

/// Keep `architecture_changes` at ten, as `save` keeps, after a hook added to it (an
/// agent hook's record, git's post-commit hook): the oldest entries a hook wrote, as it
/// wrote them, go first, and one an agent or a person wrote never goes to make room for
/// one a hook wrote (the list then holds one more, the newest; the next `save` keeps
/// the newest ten, as it always does).
pub fn make_room(list: &mut Vec<Value>) {
    while list.len() > KEEP_ARCHITECTURE_CHANGES {
        let newest = list.len() - 1;
        let Some(i) = list[..newest].iter().position(is_automatic_change) else {
            break;
        };
        list.remove(i);
    }
}

/// Whether `entry` is an architecture change a hook recorded, as it wrote it (only
/// the fields a record writes: one a person added a rationale to is theirs).
fn is_automatic_change(entry: &Value) -> bool {
    const WRITTEN: [&str; 5] = [
        "commit_sha",
        "summary",
        "files_changed",
        "date",
        RECORDED_BY,
    ];
    is_automatic_of(entry, None)
        && entry
            .as_object()
            .is_some_and(|e| e.keys().all(|k| WRITTEN.contains(&k.as_str())))
}

/// The one task in progress, if exactly one is.
pub fn only_in_progress(doc: &Map<String, Value>) -> Option<String> {
    let tasks = doc.get("active_tasks")?.as_array()?;
    let mut going = tasks
        .iter()
        .filter(|t| t.get("status").and_then(Value::as_str) == Some("in_progress"));
    let one = going.next()?;
    if going.next().is_some() {
        return None;
    }
    one.get("id").and_then(Value::as_str).map(str::to_owned)
}

/// The failed commands as attempted approaches of the one task in progress (none
/// when there are several or none: the task must be certain), deduplicated by
/// `approach` as `save` merges them. The task and how many were added.
fn add_approaches(
    doc: &mut Map<String, Value>,
    facts: &Facts,
    approach: &dyn Fn(&Failure) -> (String, String),
    now: &str,
) -> Option<(String, usize)> {
    if facts.failed.is_empty() {
        return None;
    }
    let id = only_in_progress(doc)?;
    let tasks = doc.get_mut("active_tasks")?.as_array_mut()?;
    let task = tasks
        .iter_mut()
        .find(|t| t.get("id").and_then(Value::as_str) == Some(id.as_str()))?
        .as_object_mut()?;
    let list = task
        .entry("attempted_approaches")
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()?;
    let mut added = 0;
    for f in facts.failed.iter().take(KEEP_FAILURES) {
        let (words, reason) = approach(f);
        if list
            .iter()
            .any(|a| a.get("approach").and_then(Value::as_str) == Some(words.as_str()))
        {
            continue;
        }
        let mut a = Map::new();
        a.insert("approach".into(), Value::from(words));
        a.insert("result".into(), Value::from("failed"));
        a.insert("reason".into(), Value::from(reason));
        a.insert("recorded_at".into(), Value::from(now));
        a.insert(RECORDED_BY.into(), Value::Object(facts.by()));
        list.push(Value::Object(a));
        added += 1;
    }
    Some((id, added))
}

#[cfg(test)]
mod tests;
