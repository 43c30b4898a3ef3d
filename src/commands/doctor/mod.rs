//! `doctor [--fix]`: what this tool depends on, checked, with the command that fixes
//! each problem. `--fix` applies the fixes that change only this tool's own files and
//! config (its lines in `info/exclude`, its stale locks, `notes.rewriteRef` for its
//! notes ref) and lists the rest for the user to run.

mod agents;
mod git_hook;
mod opencode;
mod packages;
mod repository;
mod toml;

use std::path::PathBuf;

use clap::Args;

use crate::services::context::Context;
use crate::support::error::Result;

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Apply the fixes that change only git-handover's own files and config; list the rest.
    #[arg(long)]
    pub fix: bool,
}

/// The long help of `doctor`, after its options.
pub const DOCTOR_HELP: &str = "\
Checks the repository: a commit-graph (without one, history questions on a large
repository take seconds), the handover roots in info/exclude, sessions that cannot be
read, stale locks, the notes store (notes.rewriteRef, the remote's copy) and the git
post-commit hook (in core.hooksPath when set). Then each agent (Claude Code, Codex,
Gemini CLI, Copilot CLI, OpenCode): where a git-handover hook is registered, the
packages installed (the Claude Code plugin, the Gemini CLI extension, the Codex plugin)
and whether they are on here, whether a user-scope one briefs this repository (it must
opt in), whether Codex has trusted the hook, and whether `git-handover` is on the PATH
the hooks call it by. Each problem comes with the command that fixes it; the exit
status is 1 when there is one.

--fix applies what changes only this tool's own files and config (its info/exclude
lines, its stale locks, notes.rewriteRef, handover.hook=true, the executable bit of the
post-commit hook file it made) and says what it did;
a fix that touches git's own files (the commit-graph) or your files is listed, never run.

Examples:
  git handover doctor
  git handover doctor --fix
  git handover --json doctor";

/// How a check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// Worth knowing, not wrong.
    Note,
    Problem,
    /// A problem `--fix` fixed.
    Fixed,
}

/// One check: what was looked at, how it came out, in the catalog's words, and the
/// command that fixes it.
#[derive(Debug, Clone)]
pub struct Check {
    /// A stable name (`commit_graph`, `exclude`, `sessions`, `lock`, `rewrite_ref`,
    /// `notes_remote`), the same in every language.
    pub id: &'static str,
    pub outcome: Outcome,
    /// The catalog key of the sentence, and its values.
    pub key: &'static str,
    pub values: Vec<(&'static str, String)>,
    /// The file or directory the check is about.
    pub path: Option<PathBuf>,
    /// The command that fixes it, as the user would type it.
    pub fix: Option<String>,
    /// Whether `--fix` applies it (it changes only this tool's own files and config).
    pub safe: bool,
}

impl Check {
    fn ok(id: &'static str, key: &'static str) -> Check {
        Check {
            id,
            outcome: Outcome::Ok,
            key,
            values: Vec::new(),
            path: None,
            fix: None,
            safe: false,
        }
    }

    fn problem(id: &'static str, key: &'static str, fix: Option<String>, safe: bool) -> Check {
        Check {
            outcome: Outcome::Problem,
            fix,
            safe,
            ..Check::ok(id, key)
        }
    }

    fn with(mut self, name: &'static str, value: impl std::fmt::Display) -> Check {
        self.values.push((name, value.to_string()));
        self
    }

    fn at(mut self, path: PathBuf) -> Check {
        self.path = Some(path);
        self
    }
}

pub struct Report {
    pub checks: Vec<Check>,
    pub fix: bool,
}

impl Report {
    /// Problems left (not fixed).
    pub fn problems(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.outcome == Outcome::Problem)
            .count()
    }
}

pub fn run(ctx: &Context, args: &DoctorArgs) -> Result<Report> {
    let wt = ctx.current_worktree()?;
    let mut checks = repository::checks(ctx, &wt)?;
    checks.push(git_hook::check(ctx));
    checks.extend(agents::checks(ctx, &wt));
    if args.fix {
        for check in &mut checks {
            if check.outcome == Outcome::Problem && check.safe {
                // Looked at again after the fix: it is said to be fixed only when the
                // check now passes.
                let mut after = if check.id == "git_hook" {
                    git_hook::apply(ctx, check)
                } else {
                    repository::apply(ctx, &wt, check)?
                };
                if after.outcome == Outcome::Ok {
                    after.outcome = Outcome::Fixed;
                }
                *check = after;
            }
        }
    }
    Ok(Report {
        checks,
        fix: args.fix,
    })
}
