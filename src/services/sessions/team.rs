//! Whose session a write goes to: a branch, or a team and agent (SPEC section 1).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::error::{Error, Result, msg};
use crate::support::fsio;

/// Whose session a write is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Owner {
    /// The branch (or `detached-<sha7>`) of the current worktree.
    Branch(String),
    Team {
        team: String,
        agent: String,
    },
}

/// Team and agent names given on the command line.
#[derive(Debug, Clone, Default)]
pub struct TeamChoice {
    pub team: Option<String>,
    pub agent: Option<String>,
}

/// Decide the owner: a team (flags win over `GIT_HANDOVER_TEAM`/`GIT_HANDOVER_AGENT`;
/// an agent alone is looked up in `~/.claude/teams/*/config.json`), else the branch.
pub fn owner(
    choice: &TeamChoice,
    env: impl Fn(&str) -> Option<String>,
    branch_key: Option<String>,
) -> Result<Owner> {
    let team = choice
        .team
        .clone()
        .or_else(|| env("GIT_HANDOVER_TEAM"))
        .filter(|s| !s.is_empty());
    let agent = choice
        .agent
        .clone()
        .or_else(|| env("GIT_HANDOVER_AGENT"))
        .filter(|s| !s.is_empty());
    let usage = Error::usage;
    let check = |what: &'static str, name: &str| -> Result<()> {
        crate::support::paths::check_relative(what, name).map_err(usage)?;
        if name.contains('/') {
            return Err(usage(
                msg(
                    crate::k!("path.one_component"),
                    &[("value", &format!("{name:?}"))],
                )
                .word("what", what),
            ));
        }
        Ok(())
    };
    match (team, agent) {
        (Some(team), agent) => {
            let agent = agent.unwrap_or_else(|| "default".to_owned());
            check(crate::k!("what.team"), &team)?;
            check(crate::k!("what.agent"), &agent)?;
            Ok(Owner::Team { team, agent })
        }
        (None, Some(agent)) => {
            check(crate::k!("what.agent"), &agent)?;
            let home = env("HOME").map(PathBuf::from);
            match home.and_then(|h| team_of(&h, &agent)) {
                Some(team) => {
                    check(crate::k!("what.team"), &team)?;
                    Ok(Owner::Team { team, agent })
                }
                None => Err(Error::usage_hint(
                    msg(
                        crate::k!("err.agent_no_team"),
                        &[("agent", &format!("{agent:?}"))],
                    ),
                    msg(crate::k!("err.name_team"), &[]),
                )),
            }
        }
        (None, None) => branch_key.map(Owner::Branch).ok_or_else(|| {
            Error::usage_hint(
                msg(crate::k!("err.no_branch"), &[]),
                msg(crate::k!("err.no_branch_hint"), &[]),
            )
        }),
    }
}

/// The team whose `~/.claude/teams/<team>/config.json` lists `agent` in `members`
/// (as a string, or an object with `name`). The first team by name wins.
pub(super) fn team_of(home: &Path, agent: &str) -> Option<String> {
    let mut teams: Vec<_> = std::fs::read_dir(home.join(".claude/teams"))
        .ok()?
        .flatten()
        .collect();
    teams.sort_by_key(std::fs::DirEntry::file_name);
    teams.into_iter().find_map(|entry| {
        let bytes = fsio::read_regular(&entry.path().join("config.json"), 1 << 20).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let config: Value = serde_json::from_str(&text).ok()?;
        let listed = config.get("members")?.as_array()?.iter().any(|m| {
            m.as_str() == Some(agent) || m.get("name").and_then(Value::as_str) == Some(agent)
        });
        listed.then(|| entry.file_name().to_string_lossy().into_owned())
    })
}
