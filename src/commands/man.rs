//! `man <dir>`: man pages generated from `cli.rs`: `git-handover.1` and one page per
//! subcommand (`git-handover-status.1`, …).

use std::path::PathBuf;

use crate::cli::ManArgs;
use crate::error::{Error, Result};

pub struct Report {
    pub written: Vec<PathBuf>,
}

pub fn run(args: &ManArgs) -> Result<Report> {
    std::fs::create_dir_all(&args.dir).map_err(|e| Error::io(&args.dir, "create", e))?;
    let mut written = Vec::new();
    for (name, page) in pages()? {
        let path = args.dir.join(name);
        std::fs::write(&path, page).map_err(|e| Error::io(&path, "write", e))?;
        written.push(path);
    }
    Ok(Report { written })
}

/// Every page as `(file name, roff)`.
pub fn pages() -> Result<Vec<(String, Vec<u8>)>> {
    let cmd = crate::cli::command();
    let mut out = Vec::new();
    out.push(("git-handover.1".to_owned(), render(cmd.clone())?));
    for sub in cmd.get_subcommands() {
        let name = format!("git-handover-{}", sub.get_name());
        let page = sub
            .clone()
            .name(name.clone())
            .display_name(name.clone())
            .bin_name(format!("git handover {}", sub.get_name()));
        out.push((format!("{name}.1"), render(page)?));
    }
    Ok(out)
}

fn render(cmd: clap::Command) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd)
        .render(&mut out)
        .map_err(|e| Error::io("man page", "render", e))?;
    Ok(out)
}
