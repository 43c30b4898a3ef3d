//! `man <dir>`: man pages generated from `cli.rs`: `git-handover.1` and one page per
//! subcommand (`git-handover-status.1`, …). `clap_mangen` renders the title, name,
//! description, options and subcommands; this module adds what a git man page has
//! besides: a synopsis with value names, the subcommands of `task` and `hook` in full,
//! details and examples, exit status, configuration, files, environment and see-also,
//! all taken from the help texts in `cli.rs`.

use clap::Args;

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::support::error::{Error, Result};

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The directory to write `git-handover.1` and one page per subcommand into.
    pub dir: PathBuf,
}

/// The long help of `man`, after its options.
pub const MAN_HELP: &str = "\
Examples:
  git handover man ~/.local/share/man/man1
  git handover man \"$(dirname \"$(command -v git-handover)\")/../share/man/man1\"";

pub struct Report {
    pub written: Vec<PathBuf>,
    /// `-q`: list nothing.
    pub quiet: bool,
}

/// `tree` is the whole command line (with `examples`, the top page's), which the shell
/// composes: a command does not reach up to it.
pub fn run(args: &ManArgs, quiet: bool, tree: clap::Command, examples: &str) -> Result<Report> {
    std::fs::create_dir_all(&args.dir).map_err(|e| Error::io(&args.dir, "create", e))?;
    // Named as it is, without `..` (`$CARGO_HOME/bin/../share/man/man1`): the directory
    // exists now, so its real path is where the pages go.
    let climbs = args
        .dir
        .components()
        .any(|c| c == std::path::Component::ParentDir);
    let dir = match climbs.then(|| std::fs::canonicalize(&args.dir)) {
        Some(Ok(real)) => real,
        _ => crate::support::paths::lexical(&args.dir),
    };
    let mut written = Vec::new();
    for (name, page) in pages(tree, examples)? {
        let path = dir.join(name);
        std::fs::write(&path, page).map_err(|e| Error::io(&path, "write", e))?;
        written.push(path);
    }
    Ok(Report { written, quiet })
}

/// Every page of `tree` as `(file name, roff)`.
pub fn pages(tree: clap::Command, examples: &str) -> Result<Vec<(String, Vec<u8>)>> {
    let mut cmd = tree;
    // Building propagates the global options into every subcommand, so that each
    // page lists them.
    cmd.build();
    let mut out = vec![(
        "git-handover.1".to_owned(),
        page(&cmd, "git-handover", "git handover", None, examples)?,
    )];
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("git-handover-{}", sub.get_name());
        let page = page(
            sub,
            &name,
            &format!("git handover {}", sub.get_name()),
            Some(&cmd),
            examples,
        )?;
        out.push((format!("{name}.1"), page));
    }
    Ok(out)
}

const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";

fn page(
    cmd: &clap::Command,
    name: &str,
    bin: &str,
    parent: Option<&clap::Command>,
    top_examples: &str,
) -> Result<Vec<u8>> {
    let root = parent.unwrap_or(cmd);
    let version = root.get_version().unwrap_or_default().to_owned();
    let renamed = cmd
        .clone()
        .name(name.to_owned())
        .display_name(name.to_owned())
        .bin_name(bin.to_owned());
    let man = clap_mangen::Man::new(renamed)
        .source(format!("git-handover {version}"))
        .manual("git-handover Manual");
    let mut text = String::from(PREAMBLE);
    let part = |render: &dyn Fn(&mut Vec<u8>) -> std::io::Result<()>| -> Result<String> {
        let mut buf = Vec::new();
        render(&mut buf).map_err(|e| Error::io("man page", "render", e))?;
        let s = String::from_utf8_lossy(&buf).into_owned();
        Ok(s.strip_prefix(PREAMBLE).map(str::to_owned).unwrap_or(s))
    };
    text.push_str(&part(&|w| man.render_title(w))?);
    text.push_str(&part(&|w| man.render_name_section(w))?);
    text.push_str(".SH SYNOPSIS\n");
    text.push_str(&synopsis(cmd, bin, parent.is_none()));
    text.push_str(&part(&|w| man.render_description_section(w))?);
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        text.push_str(&part(&|w| man.render_options_section(w))?);
    }
    if parent.is_none() {
        text.push_str(&part(&|w| man.render_subcommands_section(w))?);
    } else if cmd.has_subcommands() {
        text.push_str(".SH COMMANDS\n");
        for sub in cmd.get_subcommands() {
            let sub_bin = format!("{bin} {}", sub.get_name());
            let _ = writeln!(text, ".SS {}", roff_escape(sub.get_name()));
            text.push_str(&synopsis(sub, &sub_bin, false));
            if let Some(about) = sub.get_long_about().or(sub.get_about()) {
                let _ = writeln!(text, ".PP\n{}", roff_text(&about.to_string()));
            }
            options(&mut text, sub);
        }
    }
    let after = cmd
        .get_after_long_help()
        .or(cmd.get_after_help())
        .map(ToString::to_string)
        .unwrap_or_default();
    // A page's own help text: details first, then its examples.
    let (details, examples) = match after.split_once("Examples:\n") {
        Some((d, e)) => (d.trim().to_owned(), e.to_owned()),
        None => (after.trim().to_owned(), String::new()),
    };
    if parent.is_none() {
        section(&mut text, "EXAMPLES", top_examples);
    } else {
        if !details.is_empty() {
            section(&mut text, "DETAILS", &details);
        }
        if !examples.is_empty() {
            section(&mut text, "EXAMPLES", &examples);
        }
    }
    // The shared blocks (exit status, configuration, files, environment) live in the
    // top-level help; every page carries them.
    let shared = root
        .get_after_long_help()
        .map(ToString::to_string)
        .unwrap_or_default();
    for block in shared.split("\n\n") {
        let Some((heading, body)) = block.split_once(":\n") else {
            continue;
        };
        // "Configuration (git config; -c NAME=VALUE …)": the name is the heading, the
        // words in brackets open the section as they are (`-c` stays `-c`).
        match heading.split_once(" (") {
            Some((name, note)) => {
                let body = format!("{}\n{body}", note.trim_end_matches(')'));
                section(&mut text, &name.to_uppercase(), &body);
            }
            None => section(&mut text, &heading.to_uppercase(), body),
        }
    }
    let mut see_also = vec!["git(1)", "git-notes(1)", "git-worktree(1)", "git-config(1)"];
    if parent.is_some() {
        see_also.insert(0, "git-handover(1)");
    }
    let _ = writeln!(
        text,
        ".SH \"SEE ALSO\"\n{}",
        roff_escape(&see_also.join(", "))
    );
    let _ = writeln!(
        text,
        ".SH VERSION\n{}",
        roff_escape(&format!("git-handover {version}"))
    );
    Ok(text.into_bytes())
}

/// `git handover [-C PATH] … status [--here] [--check]`: every option with its value name.
fn synopsis(cmd: &clap::Command, bin: &str, top: bool) -> String {
    let mut parts = Vec::new();
    for arg in cmd.get_arguments() {
        if arg.is_hide_set()
            || (!top && arg.is_global_set())
            || matches!(arg.get_id().as_str(), "help" | "version")
        {
            continue;
        }
        let value = arg
            .get_value_names()
            .and_then(|v| v.first())
            .map_or_else(|| arg.get_id().as_str().to_uppercase(), ToString::to_string);
        let repeat = matches!(arg.get_action(), clap::ArgAction::Append);
        let takes_value = arg.get_action().takes_values();
        let text = if arg.is_positional() {
            format!("\\fI{}\\fR", roff_escape(&value))
        } else {
            let flag = match (arg.get_short(), arg.get_long()) {
                (_, Some(l)) => format!("\\-\\-{}", roff_escape(l)),
                (Some(s), None) => format!("\\-{s}"),
                (None, None) => continue,
            };
            if takes_value {
                format!("\\fB{flag}\\fR \\fI{}\\fR", roff_escape(&value))
            } else {
                format!("\\fB{flag}\\fR")
            }
        };
        let text = if repeat { format!("{text}...") } else { text };
        parts.push(if arg.is_required_set() {
            text
        } else {
            format!("[{text}]")
        });
    }
    if cmd.has_subcommands() {
        parts.push("\\fICOMMAND\\fR".to_owned());
    }
    // `git handover`, then (below the top) the global options and the subcommand words.
    let rest = bin.strip_prefix("git handover").unwrap_or(bin).trim();
    let mut line = String::from("\\fBgit handover\\fR");
    if !top {
        let _ = write!(
            line,
            " [\\fIglobal options\\fR] \\fB{}\\fR",
            roff_escape(rest)
        );
    }
    for p in &parts {
        let _ = write!(line, " {p}");
    }
    format!("{line}\n")
}

/// The options of a nested subcommand, as `.TP` entries.
fn options(text: &mut String, cmd: &clap::Command) {
    for arg in cmd.get_arguments() {
        if arg.is_hide_set()
            || arg.is_global_set()
            || matches!(arg.get_id().as_str(), "help" | "version")
        {
            continue;
        }
        let value = arg
            .get_value_names()
            .and_then(|v| v.first())
            .map_or_else(|| arg.get_id().as_str().to_uppercase(), ToString::to_string);
        let head = if arg.is_positional() {
            format!("\\fI{}\\fR", roff_escape(&value))
        } else {
            let mut names = Vec::new();
            if let Some(s) = arg.get_short() {
                names.push(format!("\\fB\\-{s}\\fR"));
            }
            if let Some(l) = arg.get_long() {
                names.push(format!("\\fB\\-\\-{}\\fR", roff_escape(l)));
            }
            let mut head = names.join(", ");
            if arg.get_action().takes_values() {
                let _ = write!(head, " \\fI{}\\fR", roff_escape(&value));
            }
            head
        };
        let mut help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(ToString::to_string)
            .unwrap_or_default();
        // What --help shows besides the text: the values it takes and its default.
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_owned())
            .collect();
        if !values.is_empty() && arg.get_action().takes_values() {
            let _ = write!(help, " [possible values: {}]", values.join(", "));
        }
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        if !defaults.is_empty() {
            let _ = write!(help, " [default: {}]", defaults.join(", "));
        }
        let _ = writeln!(text, ".TP\n{head}\n{}", roff_text(&help));
    }
}

/// A section of preformatted text, as the help shows it.
fn section(text: &mut String, heading: &str, body: &str) {
    let _ = writeln!(text, ".SH {}", roff_escape(heading));
    let mut in_nf = false;
    for line in body.trim_end().lines() {
        let indented = line.starts_with("  ");
        if indented && !in_nf {
            text.push_str(".nf\n.RS 4\n");
            in_nf = true;
        } else if !indented && in_nf {
            text.push_str(".RE\n.fi\n");
            in_nf = false;
        }
        if line.trim().is_empty() {
            text.push_str(if in_nf { "\n" } else { ".PP\n" });
            continue;
        }
        let line = if indented { &line[2..] } else { line };
        text.push_str(&roff_text(line));
        text.push('\n');
    }
    if in_nf {
        text.push_str(".RE\n.fi\n");
    }
}

/// Escape text for roff, and keep a line from being read as a request: each line as
/// the `roff` crate renders a text line.
fn roff_text(s: &str) -> String {
    s.lines()
        .map(|l| {
            let line = roff::Roff::from(roff::roman(l)).to_roff();
            line.trim_end_matches('\n').replace('\'', "\\*(Aq")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Escape a fragment of a line for roff (backslashes, dashes, apostrophes), through the
/// `roff` crate.
fn roff_escape(s: &str) -> String {
    if s.is_empty() {
        return String::new();
    }
    // A fragment never starts a line, so no `\&` is wanted before a leading dot.
    let line = roff::Roff::from(roff::roman(format!("x{s}"))).to_roff();
    line.trim_end_matches('\n')[1..].replace('\'', "\\*(Aq")
}
