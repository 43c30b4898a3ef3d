//! The application shell: parse the command line, read the configuration, run one
//! command, print its report and map errors to the exit statuses of the specification.

mod dispatch;
mod invocation;
mod log_stream;
mod never_fail;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;

use crate::cli::Cli;
use crate::render::Notices;
use crate::support::error::{Result, exit};
use crate::support::i18n::{self, Lang};
use crate::support::text;
use invocation::Invocation;

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

/// Writes a report to the stream it is given; what it found on the way is added to
/// what the report says on stderr.
type Writer = Box<dyn FnOnce(&mut dyn std::io::Write) -> std::io::Result<Tail>>;

/// What a report written as it is rendered found on the way: more for stderr, and the
/// exit status when the run failed midway.
#[derive(Default)]
struct Tail {
    notices: Notices,
    code: Option<u8>,
}

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
            if e.use_stderr() && json_asked() {
                // A program reading stdout gets the usage error as a document too.
                let _ = writeln!(std::io::stdout().lock(), "{}", usage_document(&e));
            }
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
    let mut lang = invocation::early_language(&cli);
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
    // The notes index brought along by the run's writes, now that its output is given
    // and it holds no lock.
    crate::services::notes_store::bring_writes_along();
    // The memory tests read the process's peak here, when all its work is done.
    crate::support::testing::pause("exit");
    code
}

/// Whether `--json` is on the command line (before or after the command, up to `--`):
/// read from the raw arguments, since clap could not parse them.
fn json_asked() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// A usage error of clap as the documented error document (`git-handover/error/1`):
/// its first line the message, its tips the hint.
fn usage_document(e: &clap::Error) -> serde_json::Value {
    use crate::support::error::{Error, msg};
    let rendered = e.render().to_string();
    // Paragraphs of one line each: the first is the error (what is missing included),
    // then tips, the usage line and the pointer to --help.
    let paragraphs: Vec<String> = rendered
        .split("\n\n")
        .map(|p| p.lines().map(str::trim).collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect();
    let first = paragraphs.first().map_or("", String::as_str);
    let message = first.strip_prefix("error: ").unwrap_or(first).to_owned();
    let tips: Vec<&str> = paragraphs
        .iter()
        .skip(1)
        .filter_map(|p| p.strip_prefix("tip: "))
        .collect();
    let message = msg(crate::k!("err.command_line"), &[("text", &message)]);
    let err = if tips.is_empty() {
        Error::usage(message)
    } else {
        Error::usage_hint(
            message,
            msg(crate::k!("err.command_line"), &[("text", &tips.join("; "))]),
        )
    };
    err.to_json()
}

fn print(mut outcome: ProcessOutput, quiet: bool, lang: Lang) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    let written = match outcome.stdout {
        Stdout::Text(bytes) => stdout.write_all(&bytes).and_then(|()| stdout.flush()),
        Stdout::Stream(write) => {
            let mut buffered = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
            write(&mut buffered).and_then(|tail| {
                buffered.flush()?;
                let (n, more) = (&mut outcome.notices, tail.notices);
                n.infos.extend(more.infos);
                n.errors.extend(more.errors);
                n.warnings.extend(more.warnings);
                n.hints.extend(more.hints);
                outcome.code = tail.code.unwrap_or(outcome.code);
                Ok(())
            })
        }
    };
    if let Err(e) = written {
        // A reader that went away (`| head`) is not an error worth a word.
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return ExitCode::from(exit::OK);
        }
        let line = i18n::fill(lang, crate::k!("main.cannot_write"), &[("why", &e)]);
        eprintln!("git-handover: {}", text::escape(&line));
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

/// The run's notices so far (stale locks taken over, a notes index not kept) as
/// warning lines: every command in a repository adds them to its warnings, plain `log`
/// too, whose stream may run after its opening.
fn run_warnings(painter: &crate::render::human::Painter) -> Vec<String> {
    crate::render::human::run_notices::warnings(painter, crate::commands::run_notices())
}

/// Run the command of `cli`; `lang` becomes the run's language once the configuration
/// is read.
fn run(cli: Cli, lang: &mut Lang) -> Result<ProcessOutput> {
    let (mut invocation, command) = Invocation::resolve(cli, *lang)?;
    let result = dispatch::dispatch(&mut invocation, command);
    *lang = invocation.lang;
    result
}
