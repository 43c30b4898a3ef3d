//! The transcript's part of a record: the agent's own transcript (`transcript_path`)
//! read bounded by `services::transcript`, as the facts the record keeps.

use std::path::Path;

use crate::cli::shared::HookAgent;
use crate::model::auto_record::Failure;
use crate::services::transcript::{self, Problem};
use crate::support::i18n::Lang;

/// What the record takes from a transcript.
#[derive(Debug, Default)]
pub(super) struct Taken {
    pub last_request: Option<String>,
    pub edited_files: Vec<String>,
    pub failed: Vec<Failure>,
}

/// The transcript at `path` in `agent`'s format (none for an agent whose format is not
/// read, Copilot's, or when the event names no transcript). A transcript that could not
/// be read (not a regular file, a link to none, an I/O error, another agent's format)
/// is one line in `notes`, and nothing is taken from it; one read in part (its
/// tail only, or with lines that are not UTF-8 skipped) gives what was read, silently,
/// since what it gives is still true.
pub(super) fn read(
    path: Option<&Path>,
    agent: Option<HookAgent>,
    lang: Lang,
    notes: &mut Vec<String>,
) -> Taken {
    let (Some(path), Some(format)) = (path, agent.and_then(transcript::format_of)) else {
        return Taken::default();
    };
    let read = transcript::read(path, format);
    match &read.problem {
        // No transcript there (the agent wrote none, or not yet): nothing to say.
        Some(Problem::Missing) => return Taken::default(),
        None | Some(Problem::Truncated { .. } | Problem::NotUtf8) => {}
        Some(problem) => {
            notes.push(transcript::note(problem).render(lang));
            return Taken::default();
        }
    }
    let digest = read.digest;
    Taken {
        last_request: digest.last_request,
        edited_files: digest.edited_files,
        failed: digest
            .failed_commands
            .into_iter()
            .map(|f| Failure {
                command: f.command,
                exit_status: f.exit_status,
                first_error_line: f.first_error_line,
            })
            .collect(),
    }
}

/// The edited files as the worktree's own paths, the way git names the files changed:
/// the agents' tools give an absolute path (Claude Code's `Write`/`Edit`, Gemini CLI's
/// `write_file`/`replace`, Codex 0.171.0's applied `FileChange`), or one relative to the
/// agent's directory `cwd` (Codex's patch text), so one file would otherwise be named
/// twice, and a file the agent deleted would not be known by git's name. A file outside
/// the worktree keeps its absolute path; each is named once, in first-seen order.
pub(super) fn in_worktree(files: Vec<String>, root: Option<&Path>, cwd: &Path) -> Vec<String> {
    let canonical = root.and_then(|r| r.canonicalize().ok());
    let mut out: Vec<String> = Vec::new();
    for file in files {
        let path = Path::new(&file);
        // `.` and `..` resolved by the words alone (a link in the path is not followed:
        // the file may be gone).
        let absolute = crate::support::paths::lexical(&cwd.join(path));
        let inside = root
            .and_then(|r| absolute.strip_prefix(r).ok())
            .or_else(|| {
                canonical
                    .as_deref()
                    .and_then(|r| absolute.strip_prefix(r).ok())
            })
            .filter(|rel| !rel.as_os_str().is_empty());
        let name = match inside {
            Some(rel) => rel.to_string_lossy().into_owned(),
            None => absolute.to_string_lossy().into_owned(),
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::in_worktree;
    use std::path::Path;

    #[test]
    fn edited_files_are_named_as_the_worktree_names_them() {
        let root = Path::new("/w/repo");
        let files = [
            "/w/repo/src/a.rs",
            "src/a.rs",
            "./b.txt",
            "/w/repo/./b.txt",
            "/elsewhere/c.txt",
            "../outside.txt",
        ]
        .map(str::to_owned)
        .to_vec();
        assert_eq!(
            in_worktree(files, Some(root), Path::new("/w/repo")),
            ["src/a.rs", "b.txt", "/elsewhere/c.txt", "/w/outside.txt"]
        );
        // From a subdirectory, a relative path is the agent's directory's.
        let got = in_worktree(vec!["x.rs".into()], Some(root), Path::new("/w/repo/src"));
        assert_eq!(got, ["src/x.rs"]);
        // No worktree: as given.
        let got = in_worktree(vec!["/w/a".into()], None, Path::new("/w"));
        assert_eq!(got, ["/w/a"]);
    }
}
