//! The command line resolved once, as ripgrep's low-level flags become its high-level
//! arguments: the directory, the `-c` overrides, the language, the colour and the
//! painter are worked out here, and every part of the run reads them from here.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use crate::cli::shared::HookScope;
use crate::cli::{Cli, ColorWhen, Command, HookCommand, LangArg};
use crate::commands::status::StatusArgs;
use crate::commands::{self, Context};
use crate::render::human::Painter;
use crate::support::config::{self, ColorChoice};
use crate::support::error::{Error, Result};
use crate::support::i18n::Lang;

pub(super) struct Invocation {
    /// Where the run works: the current directory, then each `-C` in turn.
    pub cwd: PathBuf,
    /// `git -c` (handed down in `GIT_CONFIG_PARAMETERS`, which gix does not read), then
    /// our own `-c`; empty for the commands that read no configuration.
    overrides: Vec<(String, String)>,
    lang_flag: Option<Lang>,
    color_flag: Option<ColorWhen>,
    pub json: bool,
    pub quiet: bool,
    /// `--lang`, else the locale; once a repository is opened, `--lang`, else
    /// `handover.language`, else the locale.
    pub lang: Lang,
}

/// The language before any configuration is read: `--lang`, else the locale.
pub(super) fn early_language(cli: &Cli) -> Lang {
    config::language(lang_flag(cli.lang), None)
}

fn lang_flag(flag: Option<LangArg>) -> Option<Lang> {
    flag.map(|l| match l {
        LangArg::Ja => Lang::Ja,
        LangArg::En => Lang::En,
    })
}

impl Invocation {
    /// Resolve `cli` for its command (`status` when left out). The overrides are read
    /// only for commands that read configuration, and a missing directory is refused
    /// first for commands that need one.
    pub fn resolve(cli: Cli, lang: Lang) -> Result<(Invocation, Command)> {
        let command = cli
            .command
            .unwrap_or(Command::Status(StatusArgs::default()));
        // A current directory removed under the run is no directory at all (empty):
        // an absolute `-C`, or a hook's event, may still name one that exists.
        let cwd = match std::env::current_dir() {
            Ok(cwd) => cwd,
            Err(_) if !needs_dir(&command) || cli.dir.iter().any(|d| d.is_absolute()) => {
                PathBuf::new()
            }
            Err(e) => return Err(Error::io(".", "read the current directory", e)),
        };
        let cwd = cli.dir.iter().fold(cwd, |at, dir| at.join(dir));
        if needs_dir(&command) && !cwd.is_dir() {
            return Err(Error::usage(crate::support::error::msg(
                crate::k!("err.no_dir"),
                &[("dir", &cwd.display())],
            )));
        }
        let overrides = if matches!(command, Command::Completions(_) | Command::Man(_)) {
            Vec::new()
        } else {
            let ours = config::parse_overrides(&cli.config)?;
            let from_git = std::env::var("GIT_CONFIG_PARAMETERS")
                .map(|p| config::parse_config_parameters(&p))
                .unwrap_or_default();
            from_git.into_iter().chain(ours).collect()
        };
        let invocation = Invocation {
            cwd,
            overrides,
            lang_flag: lang_flag(cli.lang),
            color_flag: cli.color,
            json: cli.json,
            quiet: cli.quiet,
            lang,
        };
        Ok((invocation, command))
    }

    /// The context of a run in `dir`; the run's language is then the repository's.
    pub fn open(&mut self, dir: PathBuf) -> Result<Context> {
        // No directory (the current one was removed): in no repository.
        if dir.as_os_str().is_empty() {
            return Err(Error::NotARepository { dir });
        }
        // The current directory was removed (git's library asks for it): the run
        // works from the directory it was told, so it moves there.
        if std::env::current_dir().is_err() && dir.is_absolute() {
            std::env::set_current_dir(&dir).map_err(|e| Error::io(&dir, "change to", e))?;
        }
        let ctx = commands::open(dir, &self.overrides, self.lang_flag)?;
        self.lang = ctx.lang;
        Ok(ctx)
    }

    /// Whether to colour stdout: `--color`, else the repository's configuration, as
    /// git decides for a terminal.
    pub fn color(&self, configured: ColorChoice) -> bool {
        crate::render::use_color(
            self.color_flag,
            configured,
            |k| std::env::var(k).ok(),
            std::io::stdout().is_terminal(),
        )
    }

    /// How human output looks, in the run's language.
    pub fn painter(&self, color: bool) -> Painter {
        Painter::new(color, self.lang)
    }
}

/// Whether the command works in the directory given, which must then exist: not the
/// generators, the hooks that never fail, or the user's own agent settings.
fn needs_dir(command: &Command) -> bool {
    match command {
        Command::Completions(_)
        | Command::Man(_)
        | Command::Hook(
            HookCommand::SessionStart(_)
            | HookCommand::PreCompact(_)
            | HookCommand::SessionEnd(_)
            | HookCommand::Stop(_)
            | HookCommand::PostCommit,
        ) => false,
        Command::Hook(HookCommand::Install(args) | HookCommand::Uninstall(args)) => {
            args.scope != HookScope::User
        }
        _ => true,
    }
}
