//! The names the format knows (SPEC section 2), in one place: the top-level keys, a
//! task's keys and the task statuses a writer uses. `save` warns about anything else
//! in its input, with the nearest known name, and keeps it as written; `save --help`
//! and the schema of the input list the same names.

use serde_json::{Map, Value};

/// The top-level keys of `project-state.json`.
pub const TOP_KEYS: [&str; 13] = [
    "version",
    "generated_at",
    "session_id",
    "status",
    "workspace",
    "active_tasks",
    "recent_decisions",
    "architecture_changes",
    "known_issues",
    "phase_observations",
    "session_notes",
    "phase_summaries",
    "session_hash",
];

/// The keys of a task (`claim` is the lease of SPEC section 10, `lost_claim` a claim
/// lost to another clone's).
pub const TASK_KEYS: [&str; 11] = [
    "id",
    "description",
    "status",
    "commit_sha",
    "file_paths",
    "next_action",
    "blockers",
    "last_touched",
    "attempted_approaches",
    "claim",
    "lost_claim",
];

/// The statuses of a task: the three the tool reads, and `pending` (what `task add`
/// writes, and the original tools too).
pub const TASK_STATUSES: [&str; 4] = ["pending", "in_progress", "blocked", "done"];

/// What is not a known name, found in an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    /// Where: `descripton`, `active_tasks[0].descripton`, `active_tasks[0].status`.
    pub field: String,
    /// The key, or the status, as written.
    pub found: String,
    /// A status rather than a key.
    pub status: bool,
    /// The known name nearest to it.
    pub nearest: &'static str,
}

/// The unknown keys (top level and task level) and unknown task statuses of `input`,
/// in the order they appear.
pub fn unknown_in(input: &Map<String, Value>) -> Vec<Unknown> {
    let mut out = Vec::new();
    for key in input.keys() {
        if !TOP_KEYS.contains(&key.as_str()) {
            out.push(Unknown {
                field: key.clone(),
                found: key.clone(),
                status: false,
                nearest: nearest(key, &TOP_KEYS),
            });
        }
    }
    let Some(Value::Array(tasks)) = input.get("active_tasks") else {
        return out;
    };
    for (i, task) in tasks.iter().enumerate() {
        let Value::Object(task) = task else { continue };
        for (key, value) in task {
            if !TASK_KEYS.contains(&key.as_str()) {
                out.push(Unknown {
                    field: format!("active_tasks[{i}].{key}"),
                    found: key.clone(),
                    status: false,
                    nearest: nearest(key, &TASK_KEYS),
                });
            } else if key == "status"
                && let Value::String(s) = value
                && !TASK_STATUSES.contains(&s.as_str())
            {
                out.push(Unknown {
                    field: format!("active_tasks[{i}].status"),
                    found: s.clone(),
                    status: true,
                    nearest: nearest(s, &TASK_STATUSES),
                });
            }
        }
    }
    out
}

/// The known name nearest to `word`: one it begins or is a part of (`next` is
/// `next_action`, `files` of `file_paths` by the singular), else the one at the least
/// edit distance, ignoring case and `-`/`_`/space; the first on a tie.
pub fn nearest<'a>(word: &str, known: &[&'a str]) -> &'a str {
    let fold = |s: &str| -> String {
        s.chars()
            .map(|c| match c {
                '-' | ' ' => '_',
                c => c.to_ascii_lowercase(),
            })
            .collect()
    };
    let w = fold(word);
    let stem = w.strip_suffix('s').unwrap_or(&w);
    if stem.len() >= 3
        && let Some(k) = known
            .iter()
            .find(|k| k.starts_with(stem) || (stem.len() >= 4 && k.contains(stem)))
        && distance(&w, k) > 0
    {
        return k;
    }
    known
        .iter()
        .min_by_key(|k| distance(&w, k))
        .copied()
        .unwrap_or_default()
}

/// The edit distance of `a` and `b` in characters: insertions, deletions,
/// substitutions, and two neighbours swapped (`stauts` is one from `status`), each one.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_nearest_name_of_common_typos() {
        assert_eq!(nearest("descripton", &TASK_KEYS), "description");
        assert_eq!(nearest("files", &TASK_KEYS), "file_paths");
        assert_eq!(nearest("next", &TASK_KEYS), "next_action");
        assert_eq!(nearest("commit", &TASK_KEYS), "commit_sha");
        assert_eq!(nearest("blocker", &TASK_KEYS), "blockers");
        assert_eq!(nearest("in-progress", &TASK_STATUSES), "in_progress");
        assert_eq!(nearest("Done", &TASK_STATUSES), "done");
        assert_eq!(nearest("tasks", &TOP_KEYS), "active_tasks");
        assert_eq!(nearest("decisions", &TOP_KEYS), "recent_decisions");
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("stauts", "status"), 1);
        assert_eq!(nearest("stauts", &["state", "status"]), "status");
    }

    #[test]
    fn unknown_keys_and_statuses_in_order() {
        let input = json!({"active_tasks": [
            {"id": "T1", "descripton": "d", "status": "in-progress", "files": ["a"]},
            {"id": "T2", "status": "pending", "claim": {}},
            "not an object"], "notes": "x", "version": 4});
        let found = unknown_in(input.as_object().unwrap());
        let got: Vec<(&str, &str, bool, &str)> = found
            .iter()
            .map(|u| (&*u.field, &*u.found, u.status, u.nearest))
            .collect();
        assert_eq!(
            got,
            [
                ("notes", "notes", false, "session_notes"),
                (
                    "active_tasks[0].descripton",
                    "descripton",
                    false,
                    "description"
                ),
                ("active_tasks[0].status", "in-progress", true, "in_progress"),
                ("active_tasks[0].files", "files", false, "file_paths"),
            ]
        );
    }
}
