//! git-handover: the handover state AI coding agents leave between sessions, checked
//! against git. `main` parses the command line, runs one command, renders its report
//! and maps errors to the exit statuses of the specification.

pub mod assess;
pub mod cli;
pub mod clock;
pub mod commands;
pub mod config;
pub mod continue_here;
pub mod error;
pub mod fsio;
#[doc(hidden)]
pub mod fuzz;
pub mod git;
pub mod git_cli;
pub mod i18n;
pub mod markdown;
pub mod notes;
pub mod paths;
pub mod render;
pub mod scan;
pub mod session;
pub mod state;
pub mod store;
pub mod text;
pub mod verdict;

use std::io::{IsTerminal as _, Write as _};
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::{Cli, Command, StatusArgs};
use crate::commands::Context;
use crate::config::{Lang, Settings};
use crate::error::{Error, Result, exit};

/// What a command leaves for the process: its stdout, its stderr lines, its status.
struct Outcome {
    stdout: Vec<u8>,
    /// Errors about individual files: always printed.
    errors: Vec<String>,
    /// Warnings and hints: left out with `-q`.
    warnings: Vec<String>,
    hints: Vec<String>,
    code: u8,
}

impl Outcome {
    fn ok(stdout: impl Into<Vec<u8>>) -> Self {
        Outcome {
            stdout: stdout.into(),
            errors: Vec::new(),
            warnings: Vec::new(),
            hints: Vec::new(),
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
    // Until the configuration is read, the language comes from --lang and the locale.
    let early = match cli.lang {
        Some(cli::LangArg::Ja) => Lang::Ja,
        Some(cli::LangArg::En) => Lang::En,
        None => config::lang_from_locale(|k| std::env::var(k).ok()),
    };
    let result = run(cli);
    let lang = RUN_LANG.get().copied().unwrap_or(early);
    match result {
        Ok(outcome) => finish(&outcome, quiet, lang),
        Err(err) => {
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr, "git-handover: {}", text::escape(&err.message(lang)));
            if let Some(hint) = err.hint_in(lang).filter(|_| !quiet) {
                let line = i18n::fill(lang, "main.hint", &[("text", &text::escape(&hint))]);
                let _ = writeln!(stderr, "{line}");
            }
            ExitCode::from(err.exit_code())
        }
    }
}

/// The language of this run, once the configuration has been read.
static RUN_LANG: std::sync::OnceLock<Lang> = std::sync::OnceLock::new();

fn finish(outcome: &Outcome, quiet: bool, lang: Lang) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_all(&outcome.stdout)
        .and_then(|()| stdout.flush())
    {
        // A reader that went away (`| head`) is not an error worth a word.
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return ExitCode::from(exit::OK);
        }
        eprintln!("git-handover: cannot write output: {e}");
        return ExitCode::from(exit::ATTENTION);
    }
    // Messages may quote file names and file contents: escaped, like all file text.
    let mut stderr = std::io::stderr().lock();
    for line in &outcome.errors {
        let _ = writeln!(stderr, "git-handover: {}", text::escape(line));
    }
    if !quiet {
        for line in &outcome.warnings {
            let line = i18n::fill(lang, "main.warning", &[("text", &text::escape(line))]);
            let _ = writeln!(stderr, "git-handover: {line}");
        }
        for line in &outcome.hints {
            let line = i18n::fill(lang, "main.hint", &[("text", &text::escape(line))]);
            let _ = writeln!(stderr, "{line}");
        }
    }
    ExitCode::from(outcome.code)
}

fn run(cli: Cli) -> Result<Outcome> {
    let cwd =
        std::env::current_dir().map_err(|e| Error::io(".", "read the current directory", e))?;
    let cwd = match &cli.dir {
        Some(dir) => cwd.join(dir),
        None => cwd,
    };
    let command = cli
        .command
        .unwrap_or(Command::Status(StatusArgs::default()));
    // Commands that need no repository, or must never fail.
    match &command {
        Command::Hook(cli::HookCommand::SessionStart) => {
            return Ok(hook_session_start(
                cwd,
                cli.lang,
                &config::parse_overrides(&cli.config)?,
            ));
        }
        Command::Completions(args) => {
            return Ok(Outcome::ok(commands::completions::run(args).script));
        }
        Command::Man(args) => {
            let report = commands::man::run(args)?;
            let listing = report.written.iter().fold(String::new(), |mut s, p| {
                s.push_str(&p.display().to_string());
                s.push('\n');
                s
            });
            return Ok(Outcome::ok(if cli.quiet { String::new() } else { listing }));
        }
        _ => {}
    }
    if !cwd.is_dir() {
        return Err(Error::usage(error::msg(
            "err.no_dir",
            &[("dir", &cwd.display())],
        )));
    }
    let repo = git::discover(&cwd)?;
    let overrides = config::parse_overrides(&cli.config)?;
    let settings = Settings::from_lookup(|k| lookup(&repo, &overrides, k))?;
    let lang = match cli.lang {
        Some(cli::LangArg::Ja) => Lang::Ja,
        Some(cli::LangArg::En) => Lang::En,
        None => settings
            .language
            .unwrap_or_else(|| config::lang_from_locale(|k| std::env::var(k).ok())),
    };
    let _ = RUN_LANG.set(lang);
    let color = render::use_color(
        cli.color,
        settings.color,
        |k| std::env::var(k).ok(),
        std::io::stdout().is_terminal(),
    );
    let ctx = Context {
        repo,
        settings,
        now: clock::now(),
        lang,
        cwd,
    };
    let json = cli.json;
    let painter = render::human::Painter::new(color, ctx.lang);
    let result = dispatch(&ctx, command, json, &painter);
    let taken_over = fsio::take_over_notices();
    let mut outcome = result?;
    outcome
        .warnings
        .extend(taken_over.into_iter().map(|(lock, owner)| {
            painter.f(
                "main.stale_lock",
                &[("lock", &lock.display()), ("owner", &owner)],
            )
        }));
    outcome.hints.extend(ctx.repo.commit_graph_hint());
    Ok(outcome)
}

/// The value of configuration key `key` for this run: `-c` on our command line first,
/// then `git -c` (which git hands down in `GIT_CONFIG_PARAMETERS`, and gix does not
/// read), then the repository's configuration. The last of several `-c` wins, as in git.
fn lookup(repo: &git::Repo, overrides: &[(String, String)], key: &str) -> Option<String> {
    let wanted = key.to_ascii_lowercase();
    let last = |pairs: &[(String, String)]| {
        pairs
            .iter()
            .rev()
            .find(|(k, _)| *k == wanted)
            .map(|(_, v)| v.clone())
    };
    last(overrides)
        .or_else(|| {
            std::env::var("GIT_CONFIG_PARAMETERS")
                .ok()
                .and_then(|p| last(&config::parse_config_parameters(&p)))
        })
        .or_else(|| repo.config_string(key))
}

/// Run a command that works on a repository and render its report.
fn dispatch(
    ctx: &Context,
    command: Command,
    json: bool,
    painter: &render::human::Painter,
) -> Result<Outcome> {
    match command {
        Command::Completions(_)
        | Command::Man(_)
        | Command::Hook(cli::HookCommand::SessionStart) => {
            unreachable!("handled above")
        }
        Command::Hook(cli::HookCommand::Install(args)) => {
            let report = commands::hook::install(ctx, &args)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::hook(&report))
            } else {
                render::human::hook(&report, true, painter)
            }))
        }
        Command::Hook(cli::HookCommand::Uninstall(args)) => {
            let report = commands::hook::uninstall(ctx, &args)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::hook(&report))
            } else {
                render::human::hook(&report, false, painter)
            }))
        }
        Command::Status(args) if args.keys => {
            let keys = commands::status::keys(ctx, &args)?;
            Ok(Outcome::ok(keys.iter().fold(String::new(), |mut s, k| {
                s.push_str(&text::escape(k));
                s.push('\n');
                s
            })))
        }
        Command::Status(args) => {
            let report = commands::status::run(ctx, &args)?;
            let stdout = if json {
                render::json::to_string(&render::json::status(&report))
            } else {
                render::human::status(&report, painter)
            };
            let warnings = report.warnings(ctx.lang);
            let errors: Vec<String> = report.invalid().map(str::to_owned).collect();
            let mut hints = Vec::new();
            if let Some(hint) = (!errors.is_empty())
                .then(|| {
                    Error::InvalidHandovers {
                        count: errors.len(),
                    }
                    .hint_in(ctx.lang)
                })
                .flatten()
            {
                hints.push(hint);
            }
            let code = if !errors.is_empty() {
                exit::INVALID_DATA
            } else if args.check && report.attention_count() > 0 {
                exit::ATTENTION
            } else {
                exit::OK
            };
            Ok(Outcome {
                stdout: stdout.into_bytes(),
                errors,
                warnings,
                hints,
                code,
            })
        }
        Command::Continue(args) => {
            let mut choose = |candidates: &[commands::r#continue::Candidate]| -> Option<usize> {
                if json || !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
                    return None;
                }
                prompt(
                    &render::human::candidates(candidates, painter),
                    candidates.len(),
                    painter,
                )
            };
            let report = commands::r#continue::run(
                ctx,
                &args,
                commands::r#continue::Mode::Resume,
                &mut choose,
            )?;
            let stdout = if json {
                render::json::to_string(&render::json::continue_(&report, ctx))
            } else {
                render::human::continue_(&report, painter)
            };
            let mut outcome = Outcome::ok(stdout);
            outcome.warnings.clone_from(&report.skipped);
            let named = args.target.is_some();
            match &report.outcome {
                // The handover asked for by name could not be read: that is the answer.
                commands::r#continue::Outcome::Nothing if named && !report.skipped.is_empty() => {
                    outcome.stdout.clear();
                    outcome.errors = std::mem::take(&mut outcome.warnings);
                    outcome.hints.extend(
                        Error::InvalidHandovers {
                            count: outcome.errors.len(),
                        }
                        .hint_in(ctx.lang),
                    );
                    outcome.code = exit::INVALID_DATA;
                }
                commands::r#continue::Outcome::Nothing => outcome.code = exit::ATTENTION,
                commands::r#continue::Outcome::Choose(_) => {
                    outcome.code = exit::USAGE;
                    outcome.errors.push(painter.t("main.choose").into());
                    outcome.hints.push(painter.t("main.choose_hint").into());
                }
                _ => {}
            }
            Ok(outcome)
        }
        Command::Save(args) => {
            let written = commands::save::run(ctx, &args)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::save(&written))
            } else {
                render::human::save(&written)
            }))
        }
        Command::Task(args) => {
            let report = commands::task::run(ctx, &args)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::task(&report))
            } else {
                render::human::task(&report, painter)
            }))
        }
        Command::Render(args) => {
            let report = commands::render::run(ctx, &args)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::render(&report))
            } else {
                render::human::render(&report, painter)
            }))
        }
        Command::Here(args) => {
            let report = commands::here::run(ctx, &args)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::here(&report))
            } else {
                render::human::here(&report, painter)
            }))
        }
        Command::Migrate => {
            let report = commands::migrate::run(ctx)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::migrate(&report))
            } else {
                render::human::migrate(&report, painter)
            }))
        }
        Command::Log(args) => {
            let report = commands::log::run(ctx, &args)?;
            let stdout = if json {
                render::json::to_string(&render::json::log(&report))
            } else {
                render::human::log(&report, painter)
            };
            Ok(Outcome {
                warnings: report.skipped.clone(),
                ..Outcome::ok(stdout)
            })
        }
        Command::Sync(args) => {
            let report = commands::sync::run(ctx, &args)?;
            Ok(Outcome::ok(if json {
                render::json::to_string(&render::json::sync(&report))
            } else {
                render::human::sync(&report, painter)
            }))
        }
        Command::Clean(args) => {
            let mut announce = |path: &std::path::Path, dry_run: bool| {
                if !json {
                    let key = if dry_run {
                        "clean.would_remove"
                    } else {
                        "clean.removing"
                    };
                    let path = text::escape(&path.display().to_string());
                    let mut out = std::io::stdout().lock();
                    let _ = writeln!(out, "{}", painter.f(key, &[("path", &path)]));
                    let _ = out.flush();
                }
            };
            let report = commands::clean::run(ctx, &args, &mut announce)?;
            let stdout = if json {
                render::json::to_string(&render::json::clean(&report))
            } else {
                render::human::clean(&report, painter)
            };
            let warnings = report
                .skipped
                .iter()
                .map(|(p, why)| {
                    let path = text::escape(&p.display().to_string());
                    painter.f("clean.skipped", &[("path", &path), ("why", why)])
                })
                .collect();
            Ok(Outcome {
                warnings,
                ..Outcome::ok(stdout)
            })
        }
    }
}

/// Ask on the terminal which of `count` candidates to resume; `None` when the answer
/// never comes (end of input) or is not a number in range after three tries.
fn prompt(listing: &str, count: usize, painter: &render::human::Painter) -> Option<usize> {
    let mut stderr = std::io::stderr().lock();
    let _ = write!(stderr, "{listing}");
    for _ in 0..3 {
        let _ = write!(stderr, "{}", painter.f("cand.prompt", &[("n", &count)]));
        let _ = stderr.flush();
        let mut line = String::new();
        if std::io::stdin().read_line(&mut line).ok()? == 0 {
            return None;
        }
        match line.trim().parse::<usize>() {
            Ok(n) if (1..=count).contains(&n) => return Some(n - 1),
            _ => {}
        }
    }
    None
}

/// `hook session-start`: the briefing of the agent's worktree as `SessionStart` context.
/// It never fails the agent's start: nothing to resume prints nothing, and any error
/// (a panic too) becomes a one-line note in the context, with exit status 0.
fn hook_session_start(
    cwd: std::path::PathBuf,
    lang: Option<cli::LangArg>,
    overrides: &[(String, String)],
) -> Outcome {
    use std::io::Read as _;
    let mut event = Vec::new();
    if !std::io::stdin().is_terminal() {
        let _ = std::io::stdin().take(1 << 20).read_to_end(&mut event);
    }
    let dir = commands::hook::event_cwd(&event).unwrap_or(cwd);
    let context = std::panic::catch_unwind(|| -> Result<Option<String>> {
        let repo = match git::discover(&dir) {
            Ok(repo) => repo,
            Err(Error::NotARepository { .. }) => return Ok(None),
            Err(e) => return Err(e),
        };
        let settings = Settings::from_lookup(|k| lookup(&repo, overrides, k))?;
        let lang = match lang {
            Some(cli::LangArg::Ja) => Lang::Ja,
            Some(cli::LangArg::En) => Lang::En,
            None => settings
                .language
                .unwrap_or_else(|| config::lang_from_locale(|k| std::env::var(k).ok())),
        };
        let ctx = Context {
            repo,
            settings,
            now: clock::now(),
            lang,
            cwd: dir.clone(),
        };
        commands::hook::session_start_context(&ctx)
    });
    let text = match context {
        Ok(Ok(Some(text))) => text,
        Ok(Ok(None)) => return Outcome::ok(Vec::new()),
        Ok(Err(e)) => format!("git-handover: {}\n", text::escape(&e.to_string())),
        Err(_) => {
            "git-handover: internal error while reading the handover; run `git handover continue`\n"
                .to_owned()
        }
    };
    Outcome::ok(commands::hook::hook_output(&text))
}
