//! A hermetic test environment: real git in a temporary directory, with no system or
//! user configuration, a temporary HOME, fixed identities and dates, and the tool's
//! clock pinned. Every process the tests start goes through [`TestEnv::command`].

pub mod fixture;
mod paused;
mod remote;
pub mod schema;

pub use paused::Finish;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

/// The instant every test runs at, unless it says otherwise.
pub const NOW: &str = "2026-11-30T12:00:00Z";

pub struct TestEnv {
    /// Held so the directory lives as long as the environment.
    _tmp: tempfile::TempDir,
    root: PathBuf,
    home: PathBuf,
    global_config: PathBuf,
    pub now: String,
}

/// A file the binary appends the names of the test points it reaches and the events it
/// notes to (`GIT_HANDOVER_TEST_LOG`, see `src/support/testing.rs`): a test counts
/// what happened instead of timing it, so a loaded machine cannot fail it.
pub struct EventLog(PathBuf);

impl EventLog {
    /// The log's path, for `GIT_HANDOVER_TEST_LOG`.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// How many times `event` was logged (0 when nothing was).
    pub fn count(&self, event: &str) -> usize {
        std::fs::read_to_string(&self.0)
            .unwrap_or_default()
            .lines()
            .filter(|line| *line == event)
            .count()
    }
}

#[must_use = "a run is checked: assert on its code and output"]
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl TestEnv {
    pub fn new() -> Self {
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().canonicalize().expect("canonical temp dir");
        let home = root.join("home");
        std::fs::create_dir_all(&home).unwrap();
        let global_config = home.join("gitconfig");
        std::fs::write(&global_config, "").unwrap();
        TestEnv {
            _tmp: tmp,
            root,
            home,
            global_config,
            now: NOW.to_owned(),
        }
    }

    /// The temporary directory everything lives in (shown as `[ROOT]` in snapshots).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A command with a clean environment: only what is set here reaches it.
    pub fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", &self.global_config)
            .env("GIT_AUTHOR_NAME", "Ada Agent")
            .env("GIT_AUTHOR_EMAIL", "ada@example.com")
            .env("GIT_COMMITTER_NAME", "Ada Agent")
            .env("GIT_COMMITTER_EMAIL", "ada@example.com")
            .env("GIT_AUTHOR_DATE", "2026-11-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-11-01T00:00:00Z")
            .env("LANG", "C")
            .env("TZ", "UTC")
            .env("GIT_HANDOVER_NOW", &self.now)
            // The claim holder's name, which would otherwise be user@host:worktree.
            .env("GIT_HANDOVER_AS", "ada");
        cmd
    }

    /// A fresh event log named `name`, outside every repository of the test.
    pub fn event_log(&self, name: &str) -> EventLog {
        let dir = self.home.join("events");
        std::fs::create_dir_all(&dir).unwrap();
        EventLog(dir.join(name))
    }

    /// Run git in `dir`; panics with git's stderr when it fails. Returns stdout, trimmed.
    #[track_caller]
    pub fn git(&self, dir: &Path, args: &[&str]) -> String {
        self.run_git(dir, args, None)
    }

    /// `sh -c command` in `dir`, as a user runs what the tool printed: `git-handover` on
    /// the `PATH` (so `git handover` finds it), standard input empty.
    pub fn shell(&self, dir: &Path, command: &str) -> Command {
        let bin = Path::new(env!("CARGO_BIN_EXE_git-handover"))
            .parent()
            .unwrap();
        let path = std::env::join_paths(std::iter::once(bin.to_owned()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .unwrap();
        let mut cmd = self.command("sh");
        cmd.args(["-c", command])
            .env("PATH", path)
            .current_dir(dir)
            .stdin(std::process::Stdio::null());
        cmd
    }

    /// A new repository at `<root>/<name>` on branch `main`.
    #[track_caller]
    pub fn init(&self, name: &str) -> PathBuf {
        let dir = self.root.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        self.git(&dir, &["init", "-q", "-b", "main"]);
        dir
    }

    /// The usual test repository: `<root>/repo` on `main`, one commit of `a.txt`
    /// dated 2026-11-30T10:00:00Z.
    #[track_caller]
    pub fn repo(&self) -> PathBuf {
        let repo = self.init("repo");
        self.commit(&repo, "a.txt", "a\n", "first", "2026-11-30T10:00:00Z");
        repo
    }

    /// `git worktree add -q -b <branch>` at `<root>/<name>`, from `repo`: its path.
    #[track_caller]
    pub fn worktree(&self, repo: &Path, name: &str, branch: &str) -> PathBuf {
        let path = self.root.join(name);
        self.git(
            repo,
            &[
                "worktree",
                "add",
                "-q",
                "-b",
                branch,
                path.to_str().unwrap(),
            ],
        );
        path
    }

    /// Write `content` to `file` (relative to `dir`) and commit it at `date`. Returns the sha.
    #[track_caller]
    pub fn commit(
        &self,
        dir: &Path,
        file: &str,
        content: &str,
        message: &str,
        date: &str,
    ) -> String {
        self.write(&dir.join(file), content);
        self.git(dir, &["add", file]);
        self.git_at(dir, date, &["commit", "-q", "-m", message]);
        self.git(dir, &["rev-parse", "HEAD"])
    }

    /// The text of every note of `refs/notes/handover` in `dir`'s repository, each
    /// ending in a line break, as `git notes show` gives them.
    #[track_caller]
    pub fn handover_notes(&self, dir: &Path) -> Vec<String> {
        self.git(dir, &["notes", "--ref=handover", "list"])
            .lines()
            .map(|line| {
                let (_, object) = line.split_once(' ').expect("note and object");
                self.git(dir, &["notes", "--ref=handover", "show", object]) + "\n"
            })
            .collect()
    }

    /// Feed `stream` to `git fast-import --quiet` in `dir` (panics when it fails).
    #[track_caller]
    pub fn fast_import(&self, dir: &Path, stream: &str) {
        use std::io::Write as _;
        let mut child = self
            .command("git")
            .current_dir(dir)
            .args(["fast-import", "--quiet"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("git runs");
        child
            .stdin
            .take()
            .expect("piped")
            .write_all(stream.as_bytes())
            .expect("fast-import reads its stream");
        assert!(
            child.wait().expect("git ends").success(),
            "git fast-import failed"
        );
    }

    /// Run git with author and committer date `date`.
    #[track_caller]
    pub fn git_at(&self, dir: &Path, date: &str, args: &[&str]) -> String {
        self.run_git(dir, args, Some(date))
    }

    #[track_caller]
    fn run_git(&self, dir: &Path, args: &[&str], date: Option<&str>) -> String {
        let mut cmd = self.command("git");
        cmd.current_dir(dir).args(args);
        if let Some(date) = date {
            cmd.env("GIT_AUTHOR_DATE", date)
                .env("GIT_COMMITTER_DATE", date);
        }
        let out = cmd.output().expect("git runs");
        assert!(
            out.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap().trim().to_owned()
    }

    #[allow(clippy::unused_self)] // A method, so tests read `env.write(..)` like the rest.
    pub fn write(&self, path: &Path, content: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// Run `git-handover` in `dir`.
    pub fn handover(&self, dir: &Path, args: &[&str]) -> Run {
        self.handover_with(dir, args, |_| {})
    }

    fn paused_command(&self, dir: &Path, args: &[&str], pause: &str) -> Command {
        let mut cmd = self.command(env!("CARGO_BIN_EXE_git-handover"));
        cmd.current_dir(dir)
            .args(args)
            .env("GIT_HANDOVER_TEST_PAUSE", pause)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        cmd
    }

    /// Run `git-handover` in `dir`, adjusting the command first (extra environment).
    pub fn handover_with(
        &self,
        dir: &Path,
        args: &[&str],
        adjust: impl FnOnce(&mut Command),
    ) -> Run {
        let mut cmd = self.command(env!("CARGO_BIN_EXE_git-handover"));
        cmd.current_dir(dir).args(args);
        adjust(&mut cmd);
        let out: Output = cmd.output().expect("git-handover runs");
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: self.redact(&String::from_utf8_lossy(&out.stdout)),
            stderr: self.redact(&String::from_utf8_lossy(&out.stderr)),
        }
    }

    /// [`TestEnv::handover_with`], with `input` on its standard input.
    pub fn handover_fed(
        &self,
        dir: &Path,
        args: &[&str],
        input: &[u8],
        adjust: impl FnOnce(&mut Command),
    ) -> Run {
        let mut cmd = self.command(env!("CARGO_BIN_EXE_git-handover"));
        cmd.current_dir(dir).args(args);
        adjust(&mut cmd);
        let out = fed(&mut cmd, input);
        Run {
            code: out.status.code().unwrap_or(-1),
            stdout: self.redact(&String::from_utf8_lossy(&out.stdout)),
            stderr: self.redact(&String::from_utf8_lossy(&out.stderr)),
        }
    }

    /// `git-handover save --from <file> <args>` in `dir`, the file holding `state`
    /// (a file of its own each call, so saves at once never share one).
    pub fn save(&self, dir: &Path, state: &Value, args: &[&str]) -> Run {
        self.save_with(dir, state, args, |_| {})
    }

    /// [`TestEnv::save`], adjusting the command first (extra environment).
    pub fn save_with(
        &self,
        dir: &Path,
        state: &Value,
        args: &[&str],
        adjust: impl FnOnce(&mut Command),
    ) -> Run {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let file = self
            .root
            .join(format!("input-{}.json", N.fetch_add(1, Ordering::Relaxed)));
        self.write(&file, &state.to_string());
        let mut all = vec!["save", "--from", file.to_str().unwrap()];
        all.extend_from_slice(args);
        self.handover_with(dir, &all, adjust)
    }

    /// [`TestEnv::save`] of `state` alone, which must succeed: the key it wrote.
    #[track_caller]
    pub fn saved(&self, dir: &Path, state: &Value) -> String {
        let run = self.save(dir, state, &[]);
        run.assert_ok();
        run.stdout.trim().to_owned()
    }

    /// Run `git-handover` in `dir`, which must succeed: its output as JSON.
    #[track_caller]
    pub fn json(&self, dir: &Path, args: &[&str]) -> Value {
        let run = self.handover(dir, args);
        run.assert_ok();
        run.json()
    }

    /// Write `state` as the session `key` of the worktree `dir` (its path returned).
    pub fn write_session(&self, dir: &Path, key: &str, state: &Value) -> PathBuf {
        let file = state_path(dir, key);
        self.write(&file, &state.to_string());
        file
    }

    /// Replace the temporary directory with a stable placeholder.
    pub fn redact(&self, text: &str) -> String {
        text.replace(&self.root.display().to_string(), "[ROOT]")
    }
}

impl Run {
    /// Assert the run exited 0 (its output in the message when it did not).
    #[track_caller]
    pub fn assert_ok(&self) {
        assert_eq!(self.code, 0, "{}", self.snapshot());
    }

    /// The context a `hook session-start` run gives its agent (it exited 0 with the
    /// Claude Code hook JSON).
    #[track_caller]
    pub fn hook_context(&self) -> String {
        assert_eq!(self.code, 0, "{}", self.snapshot());
        let v: serde_json::Value = serde_json::from_str(&self.stdout).expect("hook JSON");
        v["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .expect("an additionalContext")
            .to_owned()
    }

    /// Stdout as JSON (the whole run in the message when it is not).
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}", self.snapshot()))
    }

    /// Exit status, stdout and stderr, for a snapshot.
    pub fn snapshot(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Run `cmd` with `input` on its standard input (closed after it), and wait for
/// its output.
pub fn fed(cmd: &mut Command, input: &[u8]) -> Output {
    use std::io::Write as _;
    let mut child = cmd
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the command runs");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

/// Wait for `child` (its output piped): exit code, stdout and stderr.
pub fn finish(child: impl Finish) -> (i32, String, String) {
    let out = child.output();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A test that needs something this machine lacks: under `CI=true` that is a failure
/// (CI installs what the tests need), elsewhere the test says so and returns.
#[track_caller]
pub fn unavailable(why: &str) {
    assert!(
        !matches!(std::env::var("CI").as_deref(), Ok("true")),
        "cannot run under CI: {why}"
    );
    eprintln!("skipped (not under CI): {why}");
}

/// The state file of the session `key` in the worktree `dir`.
pub fn state_path(dir: &Path, key: &str) -> PathBuf {
    dir.join(".claude/handover")
        .join(key)
        .join("project-state.json")
}

/// The JSON document in `path`.
#[track_caller]
pub fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The sessions under the handover root `dir` (every directory holding a state),
/// as paths relative to it, sorted.
pub fn sessions_under(dir: &Path) -> Vec<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.join("project-state.json").is_file() {
                out.push(p.strip_prefix(base).unwrap().display().to_string());
            }
            if e.file_type().unwrap().is_dir() {
                walk(base, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// Whether the tests run as root (permissions then stop nothing).
pub fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// A tiny seeded generator: the same random-looking sequence every run.
pub struct Lcg(pub u64);

impl Lcg {
    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next()).expect("31 bits") % n
    }
}
