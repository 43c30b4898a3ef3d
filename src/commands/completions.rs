//! `completions <shell>`: the completion script, generated from `cli.rs`.

use crate::cli::CompletionsArgs;

pub struct Report {
    pub script: Vec<u8>,
}

pub fn run(args: &CompletionsArgs) -> Report {
    Report {
        script: generate(args.shell),
    }
}

/// The completion script for `shell`.
pub fn generate(shell: clap_complete::Shell) -> Vec<u8> {
    let mut cmd = crate::cli::command();
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut cmd, "git-handover", &mut out);
    out
}
