//! The context of one run: the repository, the settings, the clock and the language,
//! and the questions every command asks of them (which worktree, whose session).

use std::path::PathBuf;

use jiff::Timestamp;

use crate::cli::shared::TeamArgs;
use crate::git::{Repo, Worktree};
use crate::services::notes_store::Store;
use crate::services::sessions::{self, Owner, SessionDir, TeamChoice};
use crate::support::config::Settings;
use crate::support::error::{Error, Result, msg};
use crate::support::i18n::Lang;

/// What every command that works on a repository gets.
pub struct Context {
    pub repo: Repo,
    pub settings: Settings,
    pub now: Timestamp,
    pub lang: Lang,
    /// The directory the command runs in (after `-C`).
    pub cwd: PathBuf,
}

impl Context {
    /// The context of a run in `dir`: the repository, its settings, the clock, the
    /// language (`lang`, the `--lang` flag, else `handover.language`, else the locale).
    /// `overrides` (`git -c`, then our own `-c`) are applied to the repository as git
    /// applies `-c`.
    pub fn open(
        dir: PathBuf,
        overrides: &[(String, String)],
        lang: Option<Lang>,
    ) -> Result<Context> {
        let all: Vec<String> = overrides.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let repo = crate::git::discover_with(&dir, &all)?;
        let settings = Settings::from_lookup(|k| repo.config_string(k))?;
        let lang = crate::support::config::language(lang, settings.language);
        Ok(Context {
            repo,
            settings,
            now: crate::support::clock::now(),
            lang,
            cwd: dir,
        })
    }

    /// The notes store of this run: where writes are recorded, and what it holds.
    pub fn store(&self) -> Store<'_> {
        Store::new(&self.repo, &self.settings, self.lang)
    }

    /// The worktree the command runs in; writing commands need one.
    pub fn current_worktree(&self) -> Result<Worktree> {
        let current = self.repo.current_worktree().ok_or_else(|| {
            Error::usage_hint(
                msg(crate::k!("err.bare"), &[]),
                msg(crate::k!("err.bare_hint"), &[]),
            )
        })?;
        if let Some(here) = self.repo.this_worktree() {
            return Ok(here);
        }
        let mut all = self.repo.worktrees()?;
        match all.iter().position(|w| w.path == current) {
            Some(i) => Ok(all.swap_remove(i)),
            // Not registered (GIT_WORK_TREE pointing elsewhere): the main worktree's
            // branch and HEAD, at the path git was pointed at.
            None => {
                let mut w = all.swap_remove(0);
                w.path = current;
                Ok(w)
            }
        }
    }

    /// The other handover roots of `wt` (`.agents/handover` and the like) that exist
    /// as plain directories inside it: sessions there are written where they are.
    pub fn other_roots(&self, wt: &Worktree) -> Vec<PathBuf> {
        let write_root = self.write_root(wt);
        crate::services::scan::roots(&self.settings.dir)
            .into_iter()
            .map(|r| wt.path.join(r))
            .filter(|r| *r != write_root)
            .filter(|r| std::fs::symlink_metadata(r).is_ok_and(|m| m.is_dir()))
            .filter(|r| crate::support::paths::plain_below(&wt.path, r))
            .collect()
    }

    /// The handover root writes go to in `wt`.
    pub fn write_root(&self, wt: &Worktree) -> PathBuf {
        wt.path.join(&self.settings.dir)
    }

    /// Whose session this is: the team's when asked, else the worktree's branch.
    #[allow(clippy::unused_self)] // asked of the context like every other choice
    pub fn owner(&self, team: &TeamArgs, wt: &Worktree) -> Result<Owner> {
        let branch_key = wt.branch_key();
        if let Some(b) = &branch_key {
            crate::support::paths::check_relative(crate::k!("what.branch"), b)
                .map_err(Error::usage)?;
        }
        sessions::owner(
            &TeamChoice {
                team: team.team.clone(),
                agent: team.agent.clone(),
            },
            |k| std::env::var(k).ok(),
            branch_key,
        )
    }

    /// The session `task` would edit in `wt`, for reading (none is made): the branch's
    /// (or the team's) newest READY session, and the owner it was looked up for.
    /// `Ok((None, owner))` when there is none on disk.
    pub fn ready_session(
        &self,
        wt: &Worktree,
        team: &TeamArgs,
    ) -> Result<(Option<SessionDir>, Owner)> {
        let owner = self.owner(team, wt)?;
        let chosen = crate::services::sessions::choose(
            &self.write_root(wt),
            &self.other_roots(wt),
            &owner,
            &wt.path,
            self.now,
            false,
            &self.settings,
        )?;
        Ok((chosen.session.filter(SessionDir::exists), owner))
    }

    /// The session `key` under a handover root of `wt`, if it is there.
    fn session_in(&self, wt: &Worktree, key: &str) -> Result<Option<SessionDir>> {
        for root in crate::services::scan::roots(&self.settings.dir) {
            let session = SessionDir::new(&wt.path.join(root), key)?;
            if session.exists() {
                return Ok(Some(session));
            }
        }
        Ok(None)
    }

    /// An explicit session key, looked for in `here` first, then in every other
    /// worktree of the repository (in `git worktree list` order), so that a key a
    /// briefing printed works from whichever worktree the agent stands in. Returns the
    /// worktree the session lives in with it: writes are recorded for that worktree.
    pub fn session_anywhere(&self, here: &Worktree, key: &str) -> Result<(Worktree, SessionDir)> {
        if let Some(s) = self.session_in(here, key)? {
            return Ok((here.clone(), s));
        }
        for wt in self.repo.worktrees()? {
            if wt.path == here.path || !wt.exists || wt.is_bare {
                continue;
            }
            if let Some(s) = self.session_in(&wt, key)? {
                return Ok((wt, s));
            }
        }
        // Kept only in the notes store: restoring is `continue`'s, which briefs on
        // what it restores; the error names the exact command.
        if self.repo.ref_target(&self.settings.notes_ref)?.is_some()
            && let Ok((records, _)) = self.store().newest()
            && records.iter().any(|r| r.record.key == key)
        {
            return Err(Error::usage_hint(
                msg(
                    crate::k!("err.session_only_in_store"),
                    &[("key", &format!("{key:?}"))],
                ),
                msg(
                    crate::k!("err.session_only_in_store_hint"),
                    &[("key", &crate::support::text::shell_word(key))],
                ),
            ));
        }
        Err(Error::usage_hint(
            msg(
                crate::k!("err.no_session_in_worktrees"),
                &[("key", &format!("{key:?}"))],
            ),
            msg(crate::k!("err.no_session_anywhere_hint"), &[]),
        ))
    }
}
