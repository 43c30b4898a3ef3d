//! Run a command that works on a repository and turn its report into an [`ProcessOutput`]:
//! one generic call, whatever the command.

use std::io::{IsTerminal as _, Write as _};

use super::{ProcessOutput, Stdout};
use crate::cli::{self, Command};
use crate::commands::{
    agent_hook, clean, r#continue, here, log, migrate, render, save, status, sync, task,
};
use crate::render::Output;
use crate::render::human::Painter;
use crate::services::context::Context;
use crate::support::error::Result;
use crate::support::text;

/// The report rendered for stdout, its notices and its exit status.
pub(super) fn emit<R: Output>(report: &R, json: bool, painter: &Painter) -> ProcessOutput {
    let stdout = if json {
        report.json()
    } else {
        report.human(painter)
    };
    ProcessOutput {
        stdout: Stdout::Text(stdout.into_bytes()),
        notices: report.notices(painter),
        code: report.code(),
    }
}

pub(super) fn dispatch(
    ctx: &Context,
    command: Command,
    json: bool,
    painter: &Painter,
) -> Result<ProcessOutput> {
    match command {
        Command::Completions(_)
        | Command::Man(_)
        | Command::Hook(
            cli::HookCommand::SessionStart(_)
            | cli::HookCommand::PreCompact(_)
            | cli::HookCommand::SessionEnd(_)
            | cli::HookCommand::PostCommit,
        ) => {
            unreachable!("handled before the repository is opened")
        }
        Command::Hook(cli::HookCommand::Install(args)) if args.git.is_some() => Ok(emit(
            &crate::services::git_hooks::install(ctx)?,
            json,
            painter,
        )),
        Command::Hook(cli::HookCommand::Uninstall(args)) if args.git.is_some() => Ok(emit(
            &crate::services::git_hooks::uninstall(ctx)?,
            json,
            painter,
        )),
        Command::Hook(cli::HookCommand::Install(args)) => {
            let project = ctx.current_worktree()?.path;
            let mut report = agent_hook::install(Some(&project), &args, ctx.settings.lock_timeout)?;
            // A local settings file stays out of commits, as Claude Code keeps its own.
            if args.scope == cli::shared::HookScope::Local {
                report.excluded =
                    crate::services::exclude::ensure_pattern(ctx, "/.claude/settings.local.json")?;
            }
            Ok(emit(&report, json, painter))
        }
        Command::Hook(cli::HookCommand::Uninstall(args)) => {
            let project = ctx.current_worktree()?.path;
            let report = agent_hook::uninstall(Some(&project), &args, ctx.settings.lock_timeout)?;
            Ok(emit(&report, json, painter))
        }
        Command::Status(args) if args.keys => Ok(emit(&status::keys(ctx, &args)?, false, painter)),
        Command::Status(args) if json => {
            let report = status::run(ctx, &args)?;
            // The document is written as it is rendered, straight to stdout. As below,
            // the report is not freed one allocation at a time.
            Ok(ProcessOutput {
                notices: report.notices(painter),
                code: report.code(),
                stdout: Stdout::Stream(Box::new(move |out| {
                    let written = report.write_json(out);
                    std::mem::forget(report);
                    written
                })),
            })
        }
        Command::Status(args) => {
            let report = status::run(ctx, &args)?;
            let out = emit(&report, json, painter);
            // Hundreds of sessions' verdicts are tens of thousands of small allocations,
            // and the process ends once this is printed: they are not freed one by one
            // (3.5% of a status of 500 sessions). A report holds no lock or file.
            std::mem::forget(report);
            Ok(out)
        }
        Command::Continue(args) => {
            let mut ask = OnTerminal { json, painter };
            let mode = if args.full {
                r#continue::Mode::ReadOnly
            } else {
                r#continue::Mode::Resume
            };
            let report = r#continue::run(ctx, &args, mode, &mut ask)?;
            Ok(emit(&report, json, painter))
        }
        Command::Save(args) => Ok(emit(&save::run(ctx, &args)?, json, painter)),
        Command::Task(args)
            if matches!(
                args.op,
                task::TaskOp::List { .. } | task::TaskOp::Show { .. }
            ) =>
        {
            Ok(emit(&task::read(ctx, &args)?, json, painter))
        }
        Command::Task(args) => Ok(emit(&task::run(ctx, &args)?, json, painter)),
        Command::Render(args) => Ok(emit(&render::run(ctx, &args)?, json, painter)),
        Command::Here(args) => Ok(emit(&here::run(ctx, &args)?, json, painter)),
        Command::Migrate => Ok(emit(&migrate::run(ctx)?, json, painter)),
        Command::Log(args) => Ok(emit(&log::run(ctx, &args)?, json, painter)),
        Command::Sync(args) => Ok(emit(&sync::run(ctx, &args)?, json, painter)),
        Command::Clean(args) => {
            // Each path is announced before it is removed, as it happens.
            let mut announce = |path: &std::path::Path, dry_run: bool| {
                if !json {
                    let key = if dry_run {
                        crate::k!("clean.would_remove")
                    } else {
                        crate::k!("clean.removing")
                    };
                    let path = text::escape(&path.display().to_string());
                    let mut out = std::io::stdout().lock();
                    let _ = writeln!(out, "{}", painter.f(key, &[("path", &path)]));
                    let _ = out.flush();
                }
            };
            let report = clean::run(ctx, &args, &mut announce)?;
            Ok(emit(&report, json, painter))
        }
    }
}

/// `continue`'s questions, asked on the terminal when there is one (never with JSON).
struct OnTerminal<'a> {
    json: bool,
    painter: &'a Painter,
}

impl OnTerminal<'_> {
    fn can_ask(&self) -> bool {
        !self.json && std::io::stdin().is_terminal() && std::io::stderr().is_terminal()
    }
}

impl r#continue::Ask for OnTerminal<'_> {
    fn candidate(&mut self, candidates: &[r#continue::Candidate]) -> Option<usize> {
        if !self.can_ask() {
            return None;
        }
        prompt(
            &crate::render::human::candidates(candidates, self.painter),
            candidates.len(),
            self.painter,
        )
    }

    fn side(&mut self, key: &str, sides: &[crate::services::notes_store::Side]) -> Option<usize> {
        if !self.can_ask() {
            return None;
        }
        let p = self.painter;
        let listing = format!(
            "{}\n{}",
            p.f(crate::k!("cont.diverged"), &[("key", &text::escape(key))]),
            crate::render::human::sides(sides, p, true)
        );
        prompt(&listing, sides.len(), p)
    }
}

/// Ask on the terminal which of `count` candidates to resume; `None` when the answer
/// never comes (end of input) or is not a number in range after three tries.
fn prompt(listing: &str, count: usize, painter: &Painter) -> Option<usize> {
    let mut stderr = std::io::stderr().lock();
    let _ = write!(stderr, "{listing}");
    for _ in 0..3 {
        let _ = write!(
            stderr,
            "{}",
            painter.f(crate::k!("cand.prompt"), &[("n", &count)])
        );
        let _ = stderr.flush();
        let mut line = String::new();
        if std::io::stdin().read_line(&mut line).ok()? == 0 {
            return None;
        }
        // `q` (or `quit`) leaves, like the end of input: nothing was chosen.
        if matches!(line.trim(), "q" | "Q" | "quit") {
            return None;
        }
        match line.trim().parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => return Some(n - 1),
            _ => {}
        }
    }
    None
}
