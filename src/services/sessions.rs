//! Sessions on disk: which session a write goes to, and writing and removing session
//! directories safely (SPEC sections 1, 2 and 5).
//!
//! Every write holds the lock of `project-state.json` across read-modify-write,
//! replaces files atomically, and never goes through a symbolic link: directories are
//! created one component at a time below the handover root and a link is refused.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::{Map, Value};

use crate::model::session;
use crate::model::state::State;
use crate::services::scan::STATE_FILE;
use crate::support::config::Settings;
use crate::support::error::{Error, Problem, Result, msg};
use crate::support::fsio::{self, Lock};
use crate::support::i18n::Lang;

pub const MARKDOWN_FILE: &str = "handover.md";

/// Whose session a write is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// The branch (or `detached-<sha7>`) of the current worktree.
    Branch(String),
    Team {
        team: String,
        agent: String,
    },
}

/// Team and agent names given on the command line.
#[derive(Debug, Clone, Default)]
pub struct TeamChoice {
    pub team: Option<String>,
    pub agent: Option<String>,
}

/// Decide the owner: a team (flags win over `GIT_HANDOVER_TEAM`/`GIT_HANDOVER_AGENT`;
/// an agent alone is looked up in `~/.claude/teams/*/config.json`), else the branch.
pub fn owner(
    choice: &TeamChoice,
    env: impl Fn(&str) -> Option<String>,
    branch_key: Option<String>,
) -> Result<Owner> {
    let team = choice
        .team
        .clone()
        .or_else(|| env("GIT_HANDOVER_TEAM"))
        .filter(|s| !s.is_empty());
    let agent = choice
        .agent
        .clone()
        .or_else(|| env("GIT_HANDOVER_AGENT"))
        .filter(|s| !s.is_empty());
    let usage = Error::usage;
    let check = |what: &'static str, name: &str| -> Result<()> {
        crate::support::paths::check_relative(what, name).map_err(usage)?;
        if name.contains('/') {
            return Err(usage(
                msg("path.one_component", &[("value", &format!("{name:?}"))]).word("what", what),
            ));
        }
        Ok(())
    };
    match (team, agent) {
        (Some(team), agent) => {
            let agent = agent.unwrap_or_else(|| "default".to_owned());
            check("what.team", &team)?;
            check("what.agent", &agent)?;
            Ok(Owner::Team { team, agent })
        }
        (None, Some(agent)) => {
            check("what.agent", &agent)?;
            let home = env("HOME").map(PathBuf::from);
            match home.and_then(|h| team_of(&h, &agent)) {
                Some(team) => {
                    check("what.team", &team)?;
                    Ok(Owner::Team { team, agent })
                }
                None => Err(Error::usage_hint(
                    msg("err.agent_no_team", &[("agent", &format!("{agent:?}"))]),
                    msg("err.name_team", &[]),
                )),
            }
        }
        (None, None) => branch_key.map(Owner::Branch).ok_or_else(|| {
            Error::usage_hint(msg("err.no_branch", &[]), msg("err.no_branch_hint", &[]))
        }),
    }
}

/// The team whose `~/.claude/teams/<team>/config.json` lists `agent` in `members`
/// (as a string, or an object with `name`). The first team by name wins.
fn team_of(home: &Path, agent: &str) -> Option<String> {
    let mut teams: Vec<_> = std::fs::read_dir(home.join(".claude/teams"))
        .ok()?
        .flatten()
        .collect();
    teams.sort_by_key(std::fs::DirEntry::file_name);
    teams.into_iter().find_map(|entry| {
        let bytes = fsio::read_regular(&entry.path().join("config.json"), 1 << 20).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let config: Value = serde_json::from_str(&text).ok()?;
        let listed = config.get("members")?.as_array()?.iter().any(|m| {
            m.as_str() == Some(agent) || m.get("name").and_then(Value::as_str) == Some(agent)
        });
        listed.then(|| entry.file_name().to_string_lossy().into_owned())
    })
}

/// A session directory below a handover root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionDir {
    /// The handover root (absolute).
    pub root: PathBuf,
    pub key: String,
}

impl SessionDir {
    pub fn new(root: &Path, key: &str) -> Result<Self> {
        crate::support::paths::check_relative("what.session_key", key).map_err(Error::usage)?;
        Ok(SessionDir {
            root: root.to_owned(),
            key: key.to_owned(),
        })
    }

    pub fn dir(&self) -> PathBuf {
        self.root.join(&self.key)
    }

    pub fn state_file(&self) -> PathBuf {
        self.dir().join(STATE_FILE)
    }

    pub fn exists(&self) -> bool {
        std::fs::symlink_metadata(self.state_file()).is_ok_and(|m| m.is_file())
    }
}

/// The session `save` and `task` use: the team's, or the newest READY session of the
/// branch (`None` when the branch has none yet). A session that cannot be read is
/// passed over and named in `skipped`: one bad file must not stop every write.
pub fn current_session(
    root: &Path,
    owner: &Owner,
    skipped: &mut Vec<Problem>,
) -> Result<Option<SessionDir>> {
    match owner {
        Owner::Team { team, agent } => Ok(Some(SessionDir::new(root, &format!("{team}/{agent}"))?)),
        Owner::Branch(branch) => {
            let base = root.join(branch);
            let entries = match std::fs::read_dir(&base) {
                Ok(entries) => entries,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => {
                    skipped.push(Error::io(&base, "read", e).into());
                    return Ok(None);
                }
            };
            let mut names: Vec<String> = entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .filter_map(|e| e.file_name().to_str().map(str::to_owned))
                .filter(|n| n.as_bytes().first().is_some_and(u8::is_ascii_digit))
                .collect();
            names.sort();
            for name in names.into_iter().rev() {
                let candidate = SessionDir::new(root, &format!("{branch}/{name}"))?;
                match std::fs::symlink_metadata(candidate.state_file()) {
                    Ok(m) if m.is_file() => {}
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Ok(_) => {
                        skipped.push(
                            Error::NotRegular {
                                path: candidate.state_file(),
                                kind: "file.other",
                            }
                            .into(),
                        );
                        continue;
                    }
                    Err(e) => {
                        skipped.push(Error::io(candidate.dir(), "read", e).into());
                        continue;
                    }
                }
                match State::read(&candidate.state_file()) {
                    Ok(state)
                        if state.is_ready()
                            && state.workspace.branch.as_deref() == Some(branch) =>
                    {
                        return Ok(Some(candidate));
                    }
                    Ok(_) => {}
                    Err(e) => skipped.push(e.into()),
                }
            }
            Ok(None)
        }
    }
}

/// The session a write goes to, chosen (or made) while holding the branch's lock
/// (`<root>/<branch>.lock`, git forbids branch names ending in `.lock`), so that
/// writers racing to make a branch's first session make exactly one. Keep the value
/// until the write is done: dropping it releases the lock.
pub struct Chosen {
    pub session: Option<SessionDir>,
    /// Sessions passed over because they could not be read.
    pub skipped: Vec<Problem>,
    _branch_lock: Option<Lock>,
}

/// Choose the write target for `owner` under `root`: the team's directory, or the
/// branch's READY session, made anew when `create` and there is none.
pub fn choose(
    root: &Path,
    owner: &Owner,
    now: Timestamp,
    create: bool,
    settings: &Settings,
) -> Result<Chosen> {
    let mut skipped = Vec::new();
    let branch_lock = match owner {
        Owner::Branch(branch) => {
            let parent = Path::new(branch).parent().unwrap_or(Path::new(""));
            make_dirs(root, parent)?;
            Some(Lock::acquire(&root.join(branch), settings.lock_timeout)?)
        }
        Owner::Team { .. } => None,
    };
    let mut session = current_session(root, owner, &mut skipped)?;
    if session.is_none()
        && create
        && let Owner::Branch(branch) = owner
    {
        session = Some(new_branch_session(root, branch, now)?);
    }
    Ok(Chosen {
        session,
        skipped,
        _branch_lock: branch_lock,
    })
}

/// Make a new `<root>/<branch>/<fingerprint>/` directory, the fingerprint being the local
/// time `YYYYMMDD-HHMMSS`, with `-2`, `-3` … on collision.
pub fn new_branch_session(root: &Path, branch: &str, now: Timestamp) -> Result<SessionDir> {
    let stamp = now
        .to_zoned_datetime(jiff::tz::TimeZone::system())
        .strftime("%Y%m%d-%H%M%S")
        .to_string();
    make_dirs(root, Path::new(branch))?;
    for n in 1..1000 {
        let name = if n == 1 {
            stamp.clone()
        } else {
            format!("{stamp}-{n}")
        };
        let session = SessionDir::new(root, &format!("{branch}/{name}"))?;
        match std::fs::create_dir(session.dir()) {
            Ok(()) => return Ok(session),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(session.dir(), "create", e)),
        }
    }
    Err(Error::usage(msg(
        "err.too_many_sessions",
        &[("stamp", &stamp), ("dir", &root.join(branch).display())],
    )))
}

/// Refuse a handover root that is, or lies below, a symbolic link (or a non-directory)
/// inside its worktree: `.claude` or `.claude/handover` linked anywhere (another
/// repository included) must not let a write or a removal land outside. The walk goes
/// up from `root` to the worktree's top (the first directory holding `.git`), looking
/// at each directory itself before looking inside it; what does not exist yet is fine,
/// it will be made. The part that exists must, resolved, still lie inside the top.
pub fn check_root(root: &Path) -> Result<()> {
    let refuse = |p: &Path| {
        Err(Error::usage_hint(
            msg("err.not_plain_dir", &[("path", &p.display())]),
            msg("err.no_links", &[]),
        ))
    };
    let mut at = Some(root);
    let mut deepest: Option<&Path> = None;
    let mut top = None;
    while let Some(p) = at {
        if let Ok(m) = std::fs::symlink_metadata(p) {
            if m.file_type().is_symlink() || !m.is_dir() {
                return refuse(p);
            }
            deepest.get_or_insert(p);
        }
        if std::fs::symlink_metadata(p.join(".git")).is_ok() {
            top = Some(p);
            break;
        }
        at = p.parent();
    }
    if let (Some(top), Some(deepest)) = (top, deepest) {
        match (std::fs::canonicalize(top), std::fs::canonicalize(deepest)) {
            (Ok(t), Ok(d)) if d.starts_with(&t) => {}
            _ => return refuse(deepest),
        }
    }
    Ok(())
}

/// Create `root` and then `rel` below it one component at a time, refusing to go through
/// a symbolic link or anything that is not a directory.
pub fn make_dirs(root: &Path, rel: &Path) -> Result<()> {
    check_root(root)?;
    std::fs::create_dir_all(root).map_err(|e| Error::io(root, "create", e))?;
    let mut at = root.to_owned();
    for component in rel.components() {
        at.push(component);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.is_dir() => {}
            Ok(_) => {
                return Err(Error::usage_hint(
                    msg("err.not_plain_dir", &[("path", &at.display())]),
                    msg("err.no_links", &[]),
                ));
            }
            Err(_) => match std::fs::create_dir(&at) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => return Err(Error::io(&at, "create", e)),
            },
        }
    }
    Ok(())
}

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

/// What a write did.
#[derive(Debug)]
pub struct Written {
    pub session: SessionDir,
    pub created: bool,
    /// False when the state was already as asked (nothing was rewritten).
    pub changed: bool,
    pub state: State,
    /// The commit whose note in the notes store got this write's record.
    pub noted: Option<crate::git::CommitId>,
    /// Sessions passed over because they could not be read (said as warnings).
    pub skipped: Vec<Problem>,
}

/// Read-modify-write a session under its lock: `change` gets the current document
/// (`None` for a new session) and returns the new one. The tool's own fields are
/// filled in, the result is validated, and the files are replaced atomically, unless
/// nothing changed. A file that cannot be read is an error and is left untouched.
pub fn update(
    session: &SessionDir,
    settings: &Settings,
    lang: Lang,
    now: Timestamp,
    change: impl FnOnce(Option<Map<String, Value>>) -> Result<Map<String, Value>>,
) -> Result<Written> {
    let file = session.state_file();
    let _lock = lock_session(session, settings)?;
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
    let mut doc = change(existing.map(State::into_document))?;
    session::seal(&mut doc);
    if let Some(old_hash) = &old_hash
        && doc.get("session_hash").and_then(Value::as_str) == Some(old_hash.as_str())
    {
        let state = State::from_doc(doc, &file)?;
        let rendered = crate::model::markdown::render(&state, lang);
        let md = session.dir().join(MARKDOWN_FILE);
        if fsio::read_if_exists(&md, fsio::MAX_FILE_SIZE)?.as_deref() != Some(rendered.as_bytes()) {
            fsio::write_atomic(&md, rendered.as_bytes())?;
        }
        return Ok(Written {
            session: session.clone(),
            created,
            changed: false,
            state,
            noted: None,
            skipped: Vec::new(),
        });
    }
    doc.insert(
        "generated_at".into(),
        Value::from(session::format_time(now)),
    );
    if created {
        session::order_new(&mut doc);
    }
    session::seal(&mut doc);
    let state = State::from_doc(doc, &file)?;
    let bytes = readable_back(&file, state.to_json_bytes())?;
    fsio::write_atomic(&file, &bytes)?;
    fsio::write_atomic(
        &session.dir().join(MARKDOWN_FILE),
        crate::model::markdown::render(&state, lang).as_bytes(),
    )?;
    Ok(Written {
        session: session.clone(),
        created,
        changed: true,
        state,
        noted: None,
        skipped: Vec::new(),
    })
}

/// Write a new session whole, as given (the time it was written kept): its state and
/// `handover.md`, under its lock. Returns false, writing nothing, when the session
/// already has a state file. Used where a session comes from elsewhere (a legacy
/// state, the notes store) rather than from a merge.
pub fn create(
    session: &SessionDir,
    state: &State,
    settings: &Settings,
    lang: Lang,
) -> Result<bool> {
    let file = session.state_file();
    let _lock = lock_session(session, settings)?;
    if std::fs::symlink_metadata(&file).is_ok() {
        return Ok(false);
    }
    let bytes = readable_back(&file, state.to_json_bytes())?;
    fsio::write_atomic(&file, &bytes)?;
    fsio::write_atomic(
        &session.dir().join(MARKDOWN_FILE),
        crate::model::markdown::render(state, lang).as_bytes(),
    )?;
    Ok(true)
}

/// Re-render `handover.md` of an existing session under its lock.
pub fn render(session: &SessionDir, settings: &Settings, lang: Lang) -> Result<bool> {
    make_dirs(&session.root, Path::new(&session.key))?;
    let file = session.state_file();
    let _lock = Lock::acquire(&file, settings.lock_timeout)?;
    let state = State::read(&file)?;
    let rendered = crate::model::markdown::render(&state, lang);
    let md = session.dir().join(MARKDOWN_FILE);
    if fsio::read_if_exists(&md, fsio::MAX_FILE_SIZE)?.as_deref() == Some(rendered.as_bytes()) {
        return Ok(false);
    }
    fsio::write_atomic(&md, rendered.as_bytes())?;
    Ok(true)
}

/// What removing a session directory did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Removal {
    Removed,
    /// The files the tool wrote were removed; the directory holds others and stays.
    KeptOtherFiles,
    /// Looked at again under the lock, the session no longer qualified (it was
    /// reopened, or changed, since it was chosen): nothing was removed.
    Changed,
}

/// Remove a session directory the tool made: its state, `handover.md` and leftovers,
/// then the directory if nothing else is in it, then empty parents up to the root.
/// Refuses a directory that is a link or that resolves outside the root. The decision
/// is made again under the session's lock on what the file holds then: `still` must
/// accept the state read under the lock, or nothing is removed ([`Removal::Changed`]);
/// a state that cannot be read is never removed.
pub fn remove_session(
    session: &SessionDir,
    settings: &Settings,
    still: impl Fn(&State) -> bool,
    before_removing: impl FnOnce(),
) -> Result<Removal> {
    let dir = session.dir();
    let refuse = |why: &'static str| {
        Error::usage(msg("err.refuse_remove", &[("path", &dir.display())]).word("why", why))
    };
    check_root(&session.root)?;
    if !std::fs::symlink_metadata(&dir).is_ok_and(|m| m.is_dir()) {
        return Err(refuse("err.why_not_dir"));
    }
    let (Ok(real_root), Ok(real_dir)) = (
        std::fs::canonicalize(&session.root),
        std::fs::canonicalize(&dir),
    ) else {
        return Err(refuse("err.why_unresolved"));
    };
    if !real_dir.starts_with(&real_root) || real_dir == real_root {
        return Err(refuse("err.why_outside"));
    }
    {
        let file = session.state_file();
        let _lock = Lock::acquire(&file, settings.lock_timeout)?;
        let state = State::read(&file)?;
        if !still(&state) {
            return Ok(Removal::Changed);
        }
        before_removing();
        fsio::remove_stray_temps(&dir);
        // Regular files only: a link (or anything else) in their place is left where
        // it is, and so is the directory that holds it.
        for name in [STATE_FILE, MARKDOWN_FILE] {
            let path = dir.join(name);
            if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, "remove", e))?;
            }
        }
    }
    if std::fs::remove_dir(&dir).is_err() {
        return Ok(Removal::KeptOtherFiles);
    }
    let mut parent = dir.parent().map(Path::to_owned);
    while let Some(p) = parent {
        if p == session.root || !p.starts_with(&session.root) || std::fs::remove_dir(&p).is_err() {
            break;
        }
        parent = p.parent().map(Path::to_owned);
    }
    Ok(Removal::Removed)
}

/// The `workspace` the tool records: the worktree and, for a branch session, the branch.
pub fn workspace(wt: &crate::git::Worktree, owner: &Owner) -> Map<String, Value> {
    let mut ws = Map::new();
    ws.insert("root".into(), Value::from(wt.path.display().to_string()));
    if let Owner::Branch(branch) = owner {
        ws.insert("branch".into(), Value::from(branch.clone()));
    }
    ws.insert("is_worktree".into(), Value::from(!wt.is_main));
    let mut outer = Map::new();
    outer.insert("workspace".into(), Value::Object(ws));
    outer
}
