//! The one dispatch: every verb, the hooks included, goes to its command here, and its
//! report becomes a [`ProcessOutput`], one generic call whatever the command.

use std::io::{IsTerminal as _, Write as _};

use super::invocation::Invocation;
use super::{ProcessOutput, Stdout, never_fail};
use crate::cli::shared::{HookInstallArgs, HookScope};
use crate::cli::{self, Command, HookCommand};
use crate::commands::agent_hook::Moment;
use crate::commands::{
    Context, agent_hook, clean, completions, r#continue, doctor, git_hook, here, log, man, migrate,
    render, save, schema, status, sync, task, why,
};
use crate::render::Output;
use crate::render::human::Painter;
use crate::support::error::{Error, Result};
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

pub(super) fn dispatch(inv: &mut Invocation, command: Command) -> Result<ProcessOutput> {
    match command {
        // The generators need no repository.
        Command::Completions(args) => {
            let report = completions::run(&args, cli::command());
            Ok(emit(&report, false, &inv.painter(false)))
        }
        Command::Man(args) => {
            let report = man::run(&args, inv.quiet, cli::command(), cli::EXAMPLES)?;
            Ok(emit(&report, false, &inv.painter(false)))
        }
        Command::Schema(args) => Ok(emit(&schema::run(&args)?, inv.json, &inv.painter(false))),
        Command::Hook(HookCommand::SessionStart(args)) => Ok(never_fail::session_start(inv, &args)),
        Command::Hook(HookCommand::PreCompact(args)) => {
            Ok(never_fail::reminder(inv, &args, Moment::Compact))
        }
        Command::Hook(HookCommand::SessionEnd(args)) => {
            Ok(never_fail::reminder(inv, &args, Moment::End))
        }
        Command::Hook(HookCommand::Stop(args)) => Ok(never_fail::stop(inv, &args)),
        Command::Hook(HookCommand::PostCommit) => Ok(never_fail::post_commit(inv)),
        // The user's settings need no repository: outside one, the defaults apply.
        Command::Hook(HookCommand::Install(args)) if args.scope == HookScope::User => {
            user_settings(inv, &args, true)
        }
        Command::Hook(HookCommand::Uninstall(args)) if args.scope == HookScope::User => {
            user_settings(inv, &args, false)
        }
        Command::Log(args) if args.key.is_none() && args.max_count.is_none() => {
            let ctx = inv.open(inv.cwd.clone())?;
            let painter = inv.painter(inv.color(ctx.settings.color));
            super::log_stream::plain_log(ctx, inv.json, painter)
        }
        command => {
            let ctx = inv.open(inv.cwd.clone())?;
            let painter = inv.painter(inv.color(ctx.settings.color));
            let result = in_repository(&ctx, command, inv.json, &painter);
            let mut outcome = result?;
            (outcome.notices.warnings).extend(super::run_warnings(&painter));
            Ok(outcome)
        }
    }
}

/// `hook install|uninstall --scope user`: in a repository, its settings apply;
/// outside one, the defaults.
fn user_settings(
    inv: &mut Invocation,
    args: &HookInstallArgs,
    install: bool,
) -> Result<ProcessOutput> {
    let ctx = match inv.open(inv.cwd.clone()) {
        Ok(ctx) => Some(ctx),
        Err(Error::NotARepository { .. }) => None,
        Err(e) => return Err(e),
    };
    let report = if install {
        agent_hook::install(ctx.as_ref(), args)?
    } else {
        agent_hook::uninstall(ctx.as_ref(), args)?
    };
    Ok(emit(&report, inv.json, &inv.painter(false)))
}

/// A command that works on the repository of `ctx`.
fn in_repository(
    ctx: &Context,
    command: Command,
    json: bool,
    painter: &Painter,
) -> Result<ProcessOutput> {
    match command {
        Command::Completions(_)
        | Command::Man(_)
        | Command::Schema(_)
        | Command::Hook(
            HookCommand::SessionStart(_)
            | HookCommand::PreCompact(_)
            | HookCommand::SessionEnd(_)
            | HookCommand::Stop(_)
            | HookCommand::PostCommit,
        ) => {
            unreachable!("dispatched before the repository is opened")
        }
        Command::Hook(HookCommand::Install(args)) if args.git.is_some() => {
            Ok(emit(&git_hook::install(ctx)?, json, painter))
        }
        Command::Hook(HookCommand::Uninstall(args)) if args.git.is_some() => {
            Ok(emit(&git_hook::uninstall(ctx)?, json, painter))
        }
        Command::Hook(HookCommand::Install(args)) => {
            Ok(emit(&agent_hook::install(Some(ctx), &args)?, json, painter))
        }
        Command::Hook(HookCommand::Uninstall(args)) => Ok(emit(
            &agent_hook::uninstall(Some(ctx), &args)?,
            json,
            painter,
        )),
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
                    written.map(|()| super::Tail::default())
                })),
            })
        }
        Command::Status(args) => {
            let report = status::run(ctx, &args)?;
            let out = emit(&report, json, painter);
            // Hundreds of sessions' verdicts are tens of thousands of small allocations,
            // and the process ends once this is printed: they are not freed one by one.
            // A report holds no lock or file.
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
        Command::Task(args)
            if matches!(
                args.op,
                task::TaskOp::Claim { .. }
                    | task::TaskOp::Next { .. }
                    | task::TaskOp::Release { .. }
            ) =>
        {
            Ok(emit(&task::claims(ctx, &args)?, json, painter))
        }
        Command::Task(args) => Ok(emit(&task::run(ctx, &args)?, json, painter)),
        Command::Render(args) => Ok(emit(&render::run(ctx, &args)?, json, painter)),
        Command::Here(args) => Ok(emit(&here::run(ctx, &args)?, json, painter)),
        Command::Migrate => Ok(emit(&migrate::run(ctx)?, json, painter)),
        Command::Log(args) => Ok(emit(&log::run(ctx, &args)?, json, painter)),
        Command::Sync(args) => Ok(emit(&sync::run(ctx, &args)?, json, painter)),
        Command::Why(args) => Ok(emit(&why::run(ctx, &args)?, json, painter)),
        Command::Doctor(args) => Ok(emit(&doctor::run(ctx, &args)?, json, painter)),
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

    fn side(&mut self, key: &str, sides: &[r#continue::SideFacts]) -> Option<usize> {
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
