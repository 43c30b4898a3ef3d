//! `schema [NAME]`: the JSON Schema of the input state (`state`) and of every `--json`
//! document (and of the hooks' output the agents read), as shipped under
//! `docs/schema/`. The schemas are hand-written data, one file each, kept in that one
//! place and compiled in: what the command prints is the file, byte for byte, and the
//! tests validate real outputs against them, so documents and schemas cannot drift.

use clap::Args;

use crate::support::error::{Error, Result, msg};

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The schema to print (`state`, `status`, `continue`, …); the list when left out.
    pub name: Option<String>,
}

/// The long help of `schema`, after its options.
pub const SCHEMA_HELP: &str = "\
`state` is project-state.json, and what `save` reads; each other name is the document a
command prints with --json (its `schema` field is `git-handover/<name>/1`), `error` the
document of an error, `session-start`, `reminder` and `stop` what the agent hooks print. The
same files are under docs/schema/ in the source.

Examples:
  git handover schema
  git handover schema state > project-state.schema.json
  git handover schema status";

/// Every schema: its name and its text (JSON Schema, draft 2020-12).
pub const SCHEMAS: [(&str, &str); 25] = [
    ("state", include_str!("../../docs/schema/state.json")),
    ("status", include_str!("../../docs/schema/status.json")),
    ("continue", include_str!("../../docs/schema/continue.json")),
    ("save", include_str!("../../docs/schema/save.json")),
    ("task", include_str!("../../docs/schema/task.json")),
    ("tasks", include_str!("../../docs/schema/tasks.json")),
    (
        "task-show",
        include_str!("../../docs/schema/task-show.json"),
    ),
    (
        "task-claim",
        include_str!("../../docs/schema/task-claim.json"),
    ),
    (
        "task-next",
        include_str!("../../docs/schema/task-next.json"),
    ),
    (
        "task-release",
        include_str!("../../docs/schema/task-release.json"),
    ),
    ("render", include_str!("../../docs/schema/render.json")),
    ("here", include_str!("../../docs/schema/here.json")),
    ("migrate", include_str!("../../docs/schema/migrate.json")),
    ("clean", include_str!("../../docs/schema/clean.json")),
    ("log", include_str!("../../docs/schema/log.json")),
    ("sync", include_str!("../../docs/schema/sync.json")),
    ("hook", include_str!("../../docs/schema/hook.json")),
    ("git-hook", include_str!("../../docs/schema/git-hook.json")),
    (
        "session-start",
        include_str!("../../docs/schema/session-start.json"),
    ),
    ("reminder", include_str!("../../docs/schema/reminder.json")),
    ("stop", include_str!("../../docs/schema/stop.json")),
    ("doctor", include_str!("../../docs/schema/doctor.json")),
    ("why", include_str!("../../docs/schema/why.json")),
    ("error", include_str!("../../docs/schema/error.json")),
    ("schema", include_str!("../../docs/schema/schema.json")),
];

pub struct Report {
    /// The one schema asked for, as its file holds it.
    pub one: Option<&'static str>,
    /// Without a name: each schema's name, `$id` and title.
    pub all: Vec<Entry>,
}

pub struct Entry {
    pub name: &'static str,
    pub id: String,
    pub title: String,
}

pub fn run(args: &SchemaArgs) -> Result<Report> {
    let Some(name) = &args.name else {
        let all = SCHEMAS
            .iter()
            .map(|(name, text)| {
                let v: serde_json::Value =
                    serde_json::from_str(text).expect("the schemas are tested to be JSON");
                let field = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
                Entry {
                    name,
                    id: field("$id"),
                    title: field("title"),
                }
            })
            .collect();
        return Ok(Report { one: None, all });
    };
    match SCHEMAS.iter().find(|(n, _)| n == name) {
        Some((_, text)) => Ok(Report {
            one: Some(text),
            all: Vec::new(),
        }),
        None => {
            let names: Vec<&str> = SCHEMAS.iter().map(|(n, _)| *n).collect();
            let nearest = crate::model::state::known::nearest(name, &names);
            Err(Error::usage_hint(
                msg(
                    crate::k!("err.no_such_schema"),
                    &[("name", &format!("{name:?}")), ("names", &names.join(", "))],
                ),
                msg(
                    crate::k!("err.no_such_schema_hint"),
                    &[("nearest", &nearest)],
                ),
            ))
        }
    }
}
