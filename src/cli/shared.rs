//! Flag groups and values that several verbs share, and the services that take them.
//! It imports nothing of the crate: the verbs' own arguments live with each command,
//! and the tree in `cli.rs` composes them.

use clap::{Args, ValueEnum};

/// Which team session to use instead of the branch's.
#[derive(Debug, Args, Default, Clone)]
pub struct TeamArgs {
    /// Use the team session <root>/<TEAM>/<AGENT>/ (also `GIT_HANDOVER_TEAM`).
    #[arg(long, value_name = "TEAM")]
    pub team: Option<String>,

    /// The agent within the team, `default` when left out (also `GIT_HANDOVER_AGENT`).
    #[arg(long, value_name = "AGENT")]
    pub agent: Option<String>,
}

#[derive(Debug, Args)]
pub struct HookInstallArgs {
    /// The agent whose settings to change.
    #[arg(long, value_enum, default_value_t = HookAgent::Claude)]
    pub agent: HookAgent,

    /// Which settings file: the project's (committed), local (not committed), or the user's.
    #[arg(long, value_enum, default_value_t = HookScope::Project)]
    pub scope: HookScope,

    /// Also add (or remove) a short "Session continuity" section in CLAUDE.md (Codex:
    /// AGENTS.md, Gemini: GEMINI.md, Copilot: copilot-instructions.md).
    #[arg(long)]
    pub instructions: bool,

    /// Install (or remove) a git hook instead of an agent's: `post-commit` runs
    /// `git-handover hook post-commit` after each commit, in the hooks directory git
    /// uses (`core.hooksPath`, else the repository's `hooks/`), before whatever the
    /// hook already does (an existing hook is kept, never overwritten).
    #[arg(long, value_enum, value_name = "HOOK", conflicts_with = "instructions")]
    pub git: Option<GitHook>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GitHook {
    PostCommit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookAgent {
    Claude,
    Codex,
    Gemini,
    Copilot,
}

impl HookAgent {
    pub fn name(self) -> &'static str {
        match self {
            HookAgent::Claude => "Claude Code",
            HookAgent::Codex => "Codex CLI",
            HookAgent::Gemini => "Gemini CLI",
            HookAgent::Copilot => "GitHub Copilot CLI",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HookScope {
    Project,
    Local,
    User,
}
