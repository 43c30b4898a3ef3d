//! Writing a session's files: read-modify-write under its lock, whole new sessions,
//! markdown. The write transaction (`transaction.rs`) holds the lock these return until
//! the write is recorded.

use std::path::Path;

use jiff::Timestamp;
use serde_json::{Map, Value};

use super::{MARKDOWN_FILE, SessionDir, make_dirs};
use crate::model::session;
use crate::model::state::State;
use crate::support::config::Settings;
use crate::support::error::{Error, Problem, Result};
use crate::support::fsio::{self, Lock};
use crate::support::i18n::Lang;

/// Make the session's directory and take its lock. A directory removed in between (a
/// `clean` of the finished session) is made again, so a write never lands in nothing;
/// once the lock is held, the directory cannot be removed under it.
fn lock_session(session: &SessionDir, settings: &Settings) -> Result<Lock> {
    let mut attempt = 0;
    loop {
        make_dirs(&session.root, Path::new(&session.key))?;
        match Lock::acquire(&session.state_file(), settings.lock_timeout) {
            Err(Error::Io { source, .. })
                if source.kind() == std::io::ErrorKind::NotFound && attempt < 3 =>
            {
                attempt += 1;
            }
            other => return other,
        }
    }
}

/// `bytes`, if the tool can read them back from `file`: within the size limit and the
/// value limit. Never write what would then be refused forever.
fn readable_back(file: &Path, bytes: Vec<u8>) -> Result<Vec<u8>> {
    if bytes.len() as u64 > fsio::MAX_FILE_SIZE {
        return Err(Error::WouldBeTooLarge {
            file: file.to_owned(),
            size: bytes.len() as u64,
            limit: fsio::MAX_FILE_SIZE,
        });
    }
    crate::model::state::check_value_count(&bytes, file)?;
    Ok(bytes)
}

/// What a write did: a plain report (the session's lock is the transaction's, and is
/// released before this is returned).
#[derive(Debug)]
pub struct Written {
    pub session: SessionDir,
    pub created: bool,
    /// False when the state was already as asked (nothing was rewritten).
    pub changed: bool,
    pub state: State,
    /// The commit whose note in the notes store got this write's record.
    pub noted: Option<crate::git::CommitId>,
    /// The notes commit that record made, and the one it was made on.
    pub notes: Option<crate::git::NotesEdited>,
    /// The record's line as appended to that note (a claim pushed as decided keeps it:
    /// `remote_notes::Known`).
    pub line: Option<String>,
    /// Sessions passed over because they could not be read (said as warnings).
    pub skipped: Vec<Problem>,
    /// What was added to `info/exclude` (said once).
    pub exclusion: crate::services::exclude::Exclusion,
    /// Other READY sessions of the branch that this write passed over for the newest.
    pub others: Vec<String>,
    /// The write went into a finished session, reopening it (see [`super::Chosen`]).
    pub reopened: bool,
    /// The branch's finished session not reopened (finished before `freshFor`).
    pub passed_over: Option<String>,
}

impl Written {
    /// The plain report of this write, as `save` and `task` give it.
    pub fn into_saved(self) -> crate::facts::written::Saved {
        crate::facts::written::Saved {
            key: self.session.key.clone(),
            dir: self.session.dir(),
            created: self.created,
            changed: self.changed,
            state: self.state,
            noted: self.noted,
            skipped: self.skipped,
            exclusion: self.exclusion,
            others: self.others,
            unknown: Vec::new(),
            reopened: self.reopened,
            passed_over: self.passed_over,
        }
    }

    /// A `Written` for a session made whole (restored, migrated) or held as it is.
    pub(super) fn whole(session: SessionDir, state: State, created: bool) -> Written {
        Written {
            session,
            created,
            changed: created,
            state,
            noted: None,
            notes: None,
            line: None,
            skipped: Vec::new(),
            exclusion: crate::services::exclude::Exclusion::default(),
            others: Vec::new(),
            reopened: false,
            passed_over: None,
        }
    }
}

/// What the session's file holds when a change runs: read under the session's lock,
/// so a change can look at it and refuse (return an error) before anything is written.
pub struct Current {
    state: Option<State>,
}

impl Current {
    /// The state the file holds (`None` for a session being made).
    #[allow(dead_code)] // no change refuses yet; claims (the next issue) will
    pub fn state(&self) -> Option<&State> {
        self.state.as_ref()
    }

    /// The document to change: the file's, or an empty one for a new session. Moved,
    /// never copied (a large state costs memory).
    pub fn into_document(self) -> Map<String, Value> {
        self.state.map(State::into_document).unwrap_or_default()
    }
}

/// Read-modify-write a session under its lock: `change` gets what the file holds
/// (nothing for a new session) and returns the new document. The tool's own fields are
/// filled in, the write counted after `floor` at least (a write that settles a
/// divergence comes after every side's count, and is made even when the state is the
/// file's: the settle is a write of its own), the result is validated, and the files
/// are replaced atomically, unless nothing changed. A file that cannot be read is an
/// error and is left untouched. The lock is returned still held, with the replacement
/// of the files under way on a thread of its own (waited for before the write's record
/// takes its place: the caller builds the record meanwhile).
pub(super) fn update(
    session: &SessionDir,
    settings: &Settings,
    lang: Lang,
    now: Timestamp,
    floor: Option<u64>,
    author: &crate::model::agent_session::Author,
    change: impl FnOnce(Current) -> Result<Map<String, Value>>,
) -> Result<(Written, Lock, Option<fsio::PairWrite>)> {
    let settles = floor.is_some();
    let floor = floor.unwrap_or(0);
    let file = session.state_file();
    let lock = lock_session(session, settings)?;
    fsio::remove_stray_temps(&session.dir());
    let existing = if session.exists() {
        Some(State::read(&file)?)
    } else {
        None
    };
    let created = existing.is_none();
    // The stored hash, if it is right: a write that ends at the same hash changes nothing.
    // The document is moved into `change`, never copied (a large state costs memory).
    let old_hash = existing.as_ref().and_then(|s| {
        let hash = session::session_hash(s.document());
        (s.document().get("session_hash").and_then(Value::as_str) == Some(hash.as_str()))
            .then_some(hash)
    });
    // What this write replaces: the write count and the state's own hash as it stands
    // in the file (the identity its record has in the notes store).
    let old_seq = existing
        .as_ref()
        .and_then(|s| s.document().get("seq").cloned());
    let parent = existing.as_ref().map(|s| {
        let doc = s.document();
        doc.get("session_hash")
            .and_then(Value::as_str)
            .map_or_else(|| session::session_hash(doc), str::to_owned)
    });
    let mut doc = change(Current { state: existing })?;
    // The count is the tool's: whatever the change brought, it stays what the file had
    // (or absent) until the write is known to change something.
    match &old_seq {
        Some(seq) => doc.insert("seq".into(), seq.clone()),
        None => doc.remove("seq"),
    };
    let old_seq = old_seq.as_ref().and_then(Value::as_u64).unwrap_or(0);
    // A count at the top of the range (a hand edit, a forged copy) leaves no room for
    // this write: refused by name, never wrapped round to rank below every record.
    if old_seq.max(floor) >= crate::model::record::MAX_SEQ {
        return Err(Error::InvalidField {
            file: file.clone(),
            field: "seq".into(),
            message: format!(
                "has reached {}, the most a write count can be",
                crate::model::record::MAX_SEQ
            ),
        });
    }
    session::seal(&mut doc);
    if let Some(old_hash) = &old_hash
        && !settles
        && doc.get("session_hash").and_then(Value::as_str) == Some(old_hash.as_str())
    {
        let state = State::from_doc(doc, &file)?;
        let rendered = crate::model::markdown::render(&state, session_lang(&state, lang));
        let md = session.dir().join(MARKDOWN_FILE);
        if fsio::read_if_exists(&md, fsio::MAX_FILE_SIZE)?.as_deref() != Some(rendered.as_bytes()) {
            fsio::write_atomic(&md, rendered.as_bytes())?;
        }
        let mut written = Written::whole(session.clone(), state, created);
        written.changed = false;
        return Ok((written, lock, None));
    }
    // Who made this write, now that it is known to change something (issue 34).
    crate::model::agent_session::stamp(&mut doc, author, &session::format_time(now));
    doc.insert(
        "generated_at".into(),
        Value::from(session::format_time(now)),
    );
    // Every session has a stable random id, made when it is created (a session that
    // has none, a legacy one, gets it on its first write).
    if doc
        .get("session_id")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        insert_after(
            &mut doc,
            "generated_at",
            "session_id",
            Value::from(crate::support::id::random_uuid()),
        );
    }
    // One more write of this session (SPEC section 8: the previous record's plus one),
    // and the state it replaces, placed after the id when the file had none yet; other
    // keys keep their order. The file says what it came from, so a record made of it
    // later (`sync --record`) names the right parent.
    insert_after(
        &mut doc,
        "session_id",
        "seq",
        Value::from(old_seq.max(floor) + 1),
    );
    match &parent {
        Some(p) => insert_after(&mut doc, "seq", "parent_hash", Value::from(p.clone())),
        None => {
            doc.remove("parent_hash");
        }
    }
    if created {
        // The session's language is fixed when it is made: handover.md keeps it,
        // whoever regenerates it later and in whatever language they run.
        if !doc.contains_key("language") {
            let code = match lang {
                Lang::En => "en",
                Lang::Ja => "ja",
            };
            doc.insert("language".into(), Value::from(code));
        }
        session::order_new(&mut doc);
    }
    session::seal(&mut doc);
    let state = State::from_doc(doc, &file)?;
    let bytes = readable_back(&file, state.to_json_bytes())?;
    let md = session.dir().join(MARKDOWN_FILE);
    let rendered = crate::model::markdown::render(&state, session_lang(&state, lang));
    let pending = fsio::PairWrite::start((file, bytes), (md, rendered.into_bytes()));
    let mut written = Written::whole(session.clone(), state, created);
    written.changed = true;
    Ok((written, lock, Some(pending)))
}

/// Write a new session whole, as given (the time it was written kept): its state and
/// `handover.md`, under its lock, which is returned still held. Returns `None`, writing
/// nothing, when the session already has a state file. Used where a session comes from
/// elsewhere (a legacy state, the notes store) rather than from a merge.
pub(super) fn create(
    session: &SessionDir,
    state: &State,
    settings: &Settings,
    lang: Lang,
) -> Result<Option<Lock>> {
    let file = session.state_file();
    let lock = lock_session(session, settings)?;
    if std::fs::symlink_metadata(&file).is_ok() {
        return Ok(None);
    }
    let bytes = readable_back(&file, state.to_json_bytes())?;
    let md = session.dir().join(MARKDOWN_FILE);
    let rendered = crate::model::markdown::render(state, session_lang(state, lang));
    fsio::write_atomic_pair((&file, &bytes), (&md, rendered.as_bytes()))?;
    Ok(Some(lock))
}

/// Take an existing session's lock and read its state: what it holds while the lock
/// is held (for recording it as it is).
pub(super) fn hold(session: &SessionDir, settings: &Settings) -> Result<(State, Lock)> {
    let file = session.state_file();
    let lock = Lock::acquire(&file, settings.lock_timeout)?;
    let state = State::read(&file)?;
    Ok((state, lock))
}

/// Re-render `handover.md` of an existing session under its lock.
pub fn regenerate_markdown(session: &SessionDir, settings: &Settings, lang: Lang) -> Result<bool> {
    make_dirs(&session.root, Path::new(&session.key))?;
    let file = session.state_file();
    let _lock = Lock::acquire(&file, settings.lock_timeout)?;
    let state = State::read(&file)?;
    let rendered = crate::model::markdown::render(&state, session_lang(&state, lang));
    let md = session.dir().join(MARKDOWN_FILE);
    if fsio::read_if_exists(&md, fsio::MAX_FILE_SIZE)?.as_deref() == Some(rendered.as_bytes()) {
        return Ok(false);
    }
    fsio::write_atomic(&md, rendered.as_bytes())?;
    Ok(true)
}

/// Set `key` to `value`: in place when it is there, else right after `after` (at the
/// end when `after` is missing too), so that a file's own key order is kept.
fn insert_after(doc: &mut Map<String, Value>, after: &str, key: &str, value: Value) {
    if doc.contains_key(key) || !doc.contains_key(after) {
        doc.insert(key.to_owned(), value);
        return;
    }
    let mut out = Map::new();
    for (k, v) in std::mem::take(doc) {
        let here = k == after;
        out.insert(k, v);
        if here {
            out.insert(key.to_owned(), value.clone());
        }
    }
    *doc = out;
}

/// The language of a session's `handover.md`: the one it was made in (`language`),
/// else the run's.
pub(super) fn session_lang(state: &State, run: Lang) -> Lang {
    state
        .document()
        .get("language")
        .and_then(Value::as_str)
        .and_then(crate::support::i18n::parse_lang)
        .unwrap_or(run)
}
