//! Receipts (issue 34, item 6): who picked a handover up. When a successor is briefed
//! (the session-start hook, or `continue`), a line is appended to
//! `<common>/git-handover/receipts/<session_id>.jsonl` (`ToolDir::receipts`):
//! `{"state", "by", "agent", "agent_session", "at"}`, `state` naming the state the
//! successor was briefed on (its `session_hash`), so a newer save is "not picked up"
//! again until someone is briefed on it.
//!
//! Why there and not in the state: the session-start hook is read-only on the state
//! (SPEC section 9), it must never wait for a session's lock, and a briefing written
//! into the state would change its hash and make a notes-store record on every agent
//! start. The tool's directory is the repository's own, shared by every worktree,
//! and never committed. Appends are one `write` each with `O_APPEND` (two hooks at
//! once both land, whole), opened with `O_NOFOLLOW` and only onto a regular file (a
//! link, a FIFO, a directory there is left alone); reads are bounded, and a line that
//! is not a receipt is skipped. A file grown past its bound keeps only the receipts of
//! the newest state.

use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::PathBuf;

use jiff::Timestamp;
use serde_json::{Value, json};

use crate::git::ToolDir;
use crate::model::agent_session::AgentSession;
use crate::services::agent_session::{file_word, own_dir};

/// The most a receipts file is read (its tail, the newest); past it, it is cut down to
/// the newest state's receipts, the newest [`KEPT`] bytes of them.
const LIMIT: u64 = 256 * 1024;
/// What a cut keeps: every agent start briefed on one state appends a receipt of that
/// state, so keeping all of the newest state's let the file grow past what is read
/// (2,650 starts: 420 KB, parsed and rewritten at every start; past 512 KiB it read as
/// no receipt at all, and `status` said nobody had picked the state up).
const KEPT: usize = 64 * 1024;

/// One receipt: who was briefed on which state, when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Receipt {
    pub state: String,
    /// The claim name of whoever was briefed (`claude-1a2b3c4d`, `ada@host:wt`).
    pub by: String,
    pub agent: Option<String>,
    pub agent_session: Option<String>,
    pub at: Timestamp,
}

/// The identity a receipt keeps for a state: its `session_hash`, else its time.
pub fn state_mark(session_hash: Option<&str>, generated_at: Option<&str>) -> Option<String> {
    session_hash
        .map(str::to_owned)
        .or_else(|| generated_at.map(|g| format!("at:{g}")))
}

fn file(tool: &ToolDir, session_id: &str) -> Option<PathBuf> {
    let id = file_word(session_id);
    (!id.is_empty()).then(|| tool.receipts().join(format!("{id}.jsonl")))
}

/// Append `receipt` for the handover `session_id`. Never fails (a receipt is a note,
/// never a reason to fail a briefing); whether it was kept.
pub fn record(tool: &ToolDir, session_id: &str, receipt: &Receipt) -> bool {
    let Some(path) = file(tool, session_id) else {
        return false;
    };
    let dir = tool.receipts();
    if std::fs::create_dir_all(&dir).is_err() || !own_dir(&dir) {
        return false;
    }
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() > LIMIT) {
        cut_down(&path, &receipt.state);
    }
    let mut line = json!({
        "state": receipt.state,
        "by": receipt.by,
        "agent": receipt.agent,
        "agent_session": receipt.agent_session,
        "at": crate::support::clock::utc_seconds(receipt.at),
    })
    .to_string();
    line.push('\n');
    crate::support::testing::pause("receipt");
    let Ok(mut f) = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(&path)
    else {
        return false;
    };
    let Ok(meta) = f.metadata() else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    // A line torn by a crash is ended first, so this receipt stays a line of its own.
    let mut last = [0u8];
    if meta.len() > 0
        && std::os::unix::fs::FileExt::read_at(&f, &mut last, meta.len() - 1).is_ok()
        && last[0] != b'\n'
    {
        line.insert(0, '\n');
    }
    f.write_all(line.as_bytes()).is_ok()
}

/// Every readable receipt of the handover `session_id`, in the file's order.
pub fn read(tool: &ToolDir, session_id: &str) -> Vec<Receipt> {
    let Some(path) = file(tool, session_id) else {
        return Vec::new();
    };
    // A file over the bound is read from its tail (the newest).
    let Some(bytes) = tail(&path) else {
        return Vec::new();
    };
    bytes
        .split(|b| *b == b'\n')
        .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
        .filter_map(|v| {
            let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
            Some(Receipt {
                state: s("state")?,
                by: s("by").filter(|b| !b.chars().any(char::is_control))?,
                agent: s("agent"),
                agent_session: s("agent_session"),
                at: s("at")?.parse().ok()?,
            })
        })
        .collect()
}

/// The newest receipt of the state `state` of handover `session_id` by someone other
/// than the agent session that wrote it (`writer`: an agent resuming its own work is
/// no successor).
pub fn picked_up(
    tool: &ToolDir,
    session_id: &str,
    state: &str,
    writer: Option<&AgentSession>,
) -> Option<Receipt> {
    read(tool, session_id)
        .into_iter()
        .filter(|r| r.state == state)
        .filter(|r| {
            writer.is_none_or(|w| r.agent_session.as_deref() != Some(w.session_id.as_str()))
        })
        .max_by_key(|r| r.at)
}

/// The last [`LIMIT`] bytes of the regular file at `path` (not through a link, never
/// waiting on a FIFO), from the first whole line; `None` when it cannot be read.
fn tail(path: &std::path::Path) -> Option<Vec<u8>> {
    use std::io::{Read as _, Seek as _, SeekFrom};
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
        .ok()?;
    let meta = f.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let start = meta.len().saturating_sub(LIMIT);
    f.seek(SeekFrom::Start(start)).ok()?;
    let mut bytes = Vec::new();
    f.take(LIMIT).read_to_end(&mut bytes).ok()?;
    if start > 0 {
        // Begun inside a line: from the next one.
        let first = bytes
            .iter()
            .position(|b| *b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..first);
    }
    Some(bytes)
}

/// Keep only the receipts of `state` (the others are of states a newer save replaced),
/// the newest [`KEPT`] bytes of them.
fn cut_down(path: &std::path::Path, state: &str) {
    let Some(bytes) = tail(path) else {
        return;
    };
    let needle = format!("\"state\":{}", Value::from(state));
    let kept: Vec<&[u8]> = bytes
        .split(|b| *b == b'\n')
        .filter(|l| String::from_utf8_lossy(l).contains(&needle))
        .collect();
    let mut size = 0;
    let from = kept
        .iter()
        .rposition(|l| {
            size += l.len() + 1;
            size > KEPT
        })
        .map_or(0, |i| i + 1);
    let mut out = kept[from..].join(&b'\n');
    if !out.is_empty() {
        out.push(b'\n');
    }
    let _ = crate::support::fsio::write_cache(path, &out);
}

/// Record that `by` (the agent session `agent`, else the one of this process's
/// environment) was briefed at `now` on the state `view`. Nothing for a state without
/// a `session_id` (a legacy one: the hook never gives it one) and nothing when the
/// agent session briefed is the one that wrote the state (its own work resumed).
pub fn briefed(
    tool: &ToolDir,
    view: &crate::model::state::View,
    by: &str,
    agent: Option<AgentSession>,
    here: Option<&std::path::Path>,
    now: Timestamp,
) -> bool {
    let Some(session_id) = view.session_id.as_deref() else {
        return false;
    };
    let generated = view.generated_at.as_ref().map(|g| g.raw.clone());
    let Some(state) = state_mark(view.extras.session_hash.as_deref(), generated.as_deref()) else {
        return false;
    };
    let agent = agent.or_else(|| {
        crate::services::agent_session::from_env(&|k| std::env::var(k).ok(), tool, here)
    });
    let writer = view.extras.agent_session.as_ref();
    if let (Some(a), Some(w)) = (&agent, writer)
        && a.session_id == w.session_id
    {
        return false;
    }
    record(
        tool,
        session_id,
        &Receipt {
            state,
            by: by.to_owned(),
            agent: agent.as_ref().map(|a| a.agent.clone()),
            agent_session: agent.map(|a| a.session_id),
            at: now,
        },
    )
}

/// Who picked up the open session `h` (a state is picked up when someone other than
/// its writer was briefed on it), or for how long nobody has: `status`'s facts, read
/// while the handover still holds its state as read.
pub fn fill(tool: &ToolDir, h: &mut crate::facts::assessed::Handover, now: Timestamp) {
    use crate::facts::linkage::Pickup;
    let Some(view) = h.view.clone() else {
        return;
    };
    let crate::facts::assessed::Reading::Read(a) = &mut h.reading else {
        return;
    };
    let age = a.age;
    if a.finished() {
        return;
    }
    let crate::facts::assessed::Of::Session(s) = &mut a.of else {
        return;
    };
    let Some(session_id) = view.session_id.as_deref() else {
        return;
    };
    let generated = view.generated_at.as_ref().map(|g| g.raw.clone());
    let Some(state) = state_mark(view.extras.session_hash.as_deref(), generated.as_deref()) else {
        return;
    };
    s.linkage.pickup = match picked_up(tool, session_id, &state, view.extras.agent_session.as_ref())
    {
        Some(r) => Some(Pickup::By {
            ago: std::time::Duration::try_from(now.duration_since(r.at)).unwrap_or_default(),
            by: r.by,
            agent: r.agent,
            agent_session: r.agent_session,
            at: r.at,
        }),
        // "Not picked up" is said of a handover an agent session wrote for a
        // successor; of any other only who picked it up, once someone did.
        None => age
            .filter(|_| view.extras.agent_session.is_some())
            .map(|for_| Pickup::Not { for_ }),
    };
}
