//! The application shell: parse the command line, read the configuration, run one
//! command, print its report and map errors to the exit statuses of the specification.

mod dispatch;
mod hook;

use std::io::{IsTerminal as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{self, Cli, Command};
use crate::commands::status::StatusArgs;
use crate::render::{self, Notices};
use crate::services::context::Context;
use crate::support::config::{self, Settings};
use crate::support::error::{Error, Result, exit};
use crate::support::i18n::{self, Lang};
use crate::support::{clock, fsio, text};

/// What a command leaves for the process: its stdout, its stderr lines, its status.
struct ProcessOutput {
    stdout: Stdout,
    notices: Notices,
    code: u8,
}

/// A command's stdout: made ahead, or written as it is rendered (a large report is
/// then never held whole).
enum Stdout {
    Text(Vec<u8>),
    Stream(Writer),
}

/// Writes a report to the stream it is given.
type Writer = Box<dyn FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>>;

impl ProcessOutput {
    fn ok(stdout: impl Into<Vec<u8>>) -> Self {
        ProcessOutput {
            stdout: Stdout::Text(stdout.into()),
            notices: Notices::default(),
            code: exit::OK,
        }
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() {
                exit::USAGE
            } else {
                exit::OK
            });
        }
    };
    let quiet = cli.quiet;
    let json = cli.json;
    // Until the configuration is read, the language comes from --lang and the locale.
    let mut lang = language(cli.lang, None);
    let result = run(cli, &mut lang);
    let code = match result {
        Ok(outcome) => print(outcome, quiet, lang),
        Err(err) => {
            if json {
                // A program reading stdout gets the error as a document too.
                let mut stdout = std::io::stdout().lock();
                let _ = writeln!(stdout, "{}", err.to_json());
            }
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "git-handover: {}", text::escape(&err.message(lang)));
            if let Some(hint) = err.hint_in(lang).filter(|_| !quiet) {
                let line = i18n::fill(
                    lang,
                    crate::k!("main.hint"),
                    &[("text", &text::escape(&hint))],
                );
                let _ = writeln!(stderr, "{line}");
            }
            ExitCode::from(err.exit_code())
        }
    };
    // The memory tests read the process's peak here, when all its work is done.
    crate::support::testing::pause("exit");
    code
}

/// The output language: `--lang`, else `handover.language`, else the locale.
fn language(flag: Option<cli::LangArg>, configured: Option<Lang>) -> Lang {
    match flag {
        Some(cli::LangArg::Ja) => Lang::Ja,
        Some(cli::LangArg::En) => Lang::En,
        None => configured.unwrap_or_else(|| i18n::lang_from_locale(|k| std::env::var(k).ok())),
    }
}

fn print(outcome: ProcessOutput, quiet: bool, lang: Lang) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    let written = match outcome.stdout {
        Stdout::Text(bytes) => stdout.write_all(&bytes).and_then(|()| stdout.flush()),
        Stdout::Stream(write) => {
            let mut buffered = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
            write(&mut buffered).and_then(|()| buffered.flush())
        }
    };
    if let Err(e) = written {
        // A reader that went away (`| head`) is not an error worth a word.
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return ExitCode::from(exit::OK);
        }
        eprintln!("git-handover: cannot write output: {e}");
        return ExitCode::from(exit::ATTENTION);
    }
    // Messages may quote file names and file contents: escaped, like all file text.
    let mut stderr = std::io::stderr().lock();
    let n = &outcome.notices;
    for line in &n.errors {
        let _ = writeln!(stderr, "git-handover: {}", text::escape(line));
    }
    if !quiet {
        for line in &n.infos {
            let _ = writeln!(stderr, "git-handover: {}", text::escape(line));
        }
        for line in &n.warnings {
            let line = i18n::fill(
                lang,
                crate::k!("main.warning"),
                &[("text", &text::escape(line))],
            );
            let _ = writeln!(stderr, "git-handover: {line}");
        }
        for line in &n.hints {
            let line = i18n::fill(
                lang,
                crate::k!("main.hint"),
                &[("text", &text::escape(line))],
            );
            let _ = writeln!(stderr, "{line}");
        }
    }
    ExitCode::from(outcome.code)
}

/// Run the command of `cli`; `lang` becomes the run's language once the configuration
/// is read.
fn run(cli: Cli, lang: &mut Lang) -> Result<ProcessOutput> {
    let cwd =
        std::env::current_dir().map_err(|e| Error::io(".", "read the current directory", e))?;
    let cwd = cli.dir.iter().fold(cwd, |at, dir| at.join(dir));
    let command = cli
        .command
        .unwrap_or(Command::Status(StatusArgs::default()));
    // Commands that need no repository, or must never fail.
    let painter = render::human::Painter::new(false, *lang);
    match &command {
        Command::Hook(cli::HookCommand::SessionStart(args)) => {
            let overrides = config::parse_overrides(&cli.config)?;
            return Ok(hook::session_start(cwd, cli.lang, &overrides, args));
        }
        Command::Hook(cli::HookCommand::PostCommit) => {
            let overrides = config::parse_overrides(&cli.config)?;
            return Ok(hook::post_commit(cwd, cli.lang, &overrides));
        }
        Command::Hook(cli::HookCommand::PreCompact(_) | cli::HookCommand::SessionEnd(_)) => {
            let overrides = config::parse_overrides(&cli.config)?;
            return Ok(hook::reminder(cwd, cli.lang, &overrides));
        }
        Command::Completions(args) => {
            let report = crate::commands::completions::run(args, cli::command());
            return Ok(dispatch::emit(&report, false, &painter));
        }
        Command::Man(args) => {
            let report = crate::commands::man::run(args, cli.quiet, cli::command(), cli::EXAMPLES)?;
            return Ok(dispatch::emit(&report, false, &painter));
        }
        // The user's settings need no repository: outside one, the defaults apply.
        Command::Hook(cli::HookCommand::Install(args) | cli::HookCommand::Uninstall(args))
            if args.scope == cli::shared::HookScope::User =>
        {
            let overrides = config::parse_overrides(&cli.config)?;
            let (timeout, run_lang) = match context(cwd.clone(), cli.lang, &overrides) {
                Ok(ctx) => (ctx.settings.lock_timeout, ctx.lang),
                Err(Error::NotARepository { .. }) => (std::time::Duration::from_secs(5), *lang),
                Err(e) => return Err(e),
            };
            *lang = run_lang;
            let painter = render::human::Painter::new(false, run_lang);
            let report = if matches!(command, Command::Hook(cli::HookCommand::Install(_))) {
                crate::commands::agent_hook::install(None, args, timeout)?
            } else {
                crate::commands::agent_hook::uninstall(None, args, timeout)?
            };
            return Ok(dispatch::emit(&report, cli.json, &painter));
        }
        _ => {}
    }
    if !cwd.is_dir() {
        return Err(Error::usage(crate::support::error::msg(
            crate::k!("err.no_dir"),
            &[("dir", &cwd.display())],
        )));
    }
    let overrides = config::parse_overrides(&cli.config)?;
    let ctx = context(cwd, cli.lang, &overrides)?;
    *lang = ctx.lang;
    let color = render::use_color(
        cli.color,
        ctx.settings.color,
        |k| std::env::var(k).ok(),
        std::io::stdout().is_terminal(),
    );
    let painter = render::human::Painter::new(color, ctx.lang);
    let result = dispatch::dispatch(&ctx, command, cli.json, &painter);
    let taken_over = fsio::take_over_notices();
    let mut outcome = result?;
    outcome
        .notices
        .warnings
        .extend(taken_over.into_iter().map(|(lock, owner)| {
            let owner = crate::support::error::LockOwner::describe(owner.as_ref(), ctx.lang);
            painter.f(
                crate::k!("main.stale_lock"),
                &[("lock", &lock.display()), ("owner", &owner)],
            )
        }));
    outcome.notices.hints.extend(ctx.repo.commit_graph_hint());
    Ok(outcome)
}

/// The context of a run in `dir`: the repository, its settings, the clock, the language.
/// `git -c` (handed down in `GIT_CONFIG_PARAMETERS`, which gix does not read) and then
/// our own `-c` are applied to the repository as git applies `-c`.
fn context(
    dir: PathBuf,
    lang: Option<cli::LangArg>,
    overrides: &[(String, String)],
) -> Result<Context> {
    let from_git = std::env::var("GIT_CONFIG_PARAMETERS")
        .map(|p| config::parse_config_parameters(&p))
        .unwrap_or_default();
    let all: Vec<String> = from_git
        .iter()
        .chain(overrides)
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let repo = crate::git::discover_with(&dir, &all)?;
    let settings = Settings::from_lookup(|k| repo.config_string(k))?;
    let lang = language(lang, settings.language);
    Ok(Context {
        repo,
        settings,
        now: clock::now(),
        lang,
        cwd: dir,
    })
}
