//! One output trait, implemented by every report: its human text, its JSON document,
//! its exit status and what it says on stderr. The application calls it once, whatever
//! the command. The reports of `doctor`, `why` and `schema` are in [`diagnose`].

mod diagnose;

use crate::commands::{
    agent_hook, clean, completions, r#continue, here, log, man, migrate, render, status, sync, task,
};
use crate::facts::written::Saved;
use crate::render::human::{self, Painter};
use crate::render::json;
use crate::support::error::{Error, exit};
use crate::support::text;

/// What a report leaves on stderr: errors are always printed, warnings and hints not
/// with `-q`. Each line is escaped where it is printed.
#[derive(Debug, Default)]
pub struct Notices {
    /// Things done besides the report, said once (not with `-q`).
    pub infos: Vec<String>,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    pub hints: Vec<String>,
}

pub trait Output {
    /// The text for people (the only place colour is used).
    fn human(&self, p: &Painter) -> String;
    /// The versioned JSON document.
    fn json(&self) -> String;
    /// [`Output::json`] written to `out` (a report can write it as it renders it).
    fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        out.write_all(self.json().as_bytes())
    }
    /// The exit status of the command.
    fn code(&self) -> u8 {
        exit::OK
    }
    /// Errors, warnings and hints for stderr.
    fn notices(&self, _p: &Painter) -> Notices {
        Notices::default()
    }
}

impl Output for status::Report {
    fn human(&self, p: &Painter) -> String {
        human::status(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::status(self))
    }
    /// Written as it is rendered: with many sessions the document is large, and held
    /// whole it was pages faulted in and copied once more to be printed.
    fn write_json(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        json::write_status(out, self)
    }
    fn code(&self) -> u8 {
        if self.invalid().next().is_some() {
            exit::INVALID_DATA
        } else if self.check && self.attention_count() > 0 {
            exit::ATTENTION
        } else {
            exit::OK
        }
    }
    fn notices(&self, p: &Painter) -> Notices {
        let errors: Vec<String> = self.invalid().map(|e| e.render(p.lang())).collect();
        let hints = if errors.is_empty() {
            Vec::new()
        } else {
            Error::InvalidHandovers {
                count: errors.len(),
            }
            .hint_in(p.lang())
            .into_iter()
            .collect()
        };
        let mut hints = hints;
        if self.tracked_any() {
            hints.push(p.t(crate::k!("status.tracked_hint")).to_owned());
        }
        hints.extend(self.graph_hint.clone());
        let mut warnings = self.warnings(p.lang());
        warnings.extend(self.lost_claims().map(|(key, task, lost)| {
            human::claims::lost_line(task, lost, &text::shell_word(key), p)
        }));
        Notices {
            errors,
            warnings,
            hints,
            ..Notices::default()
        }
    }
}

impl Output for status::Keys {
    fn human(&self, _p: &Painter) -> String {
        self.0.iter().fold(String::new(), |mut s, k| {
            s.push_str(&text::escape(k));
            s.push('\n');
            s
        })
    }
    fn json(&self) -> String {
        self.human(&Painter::new(false, crate::support::i18n::Lang::En))
    }
}

impl r#continue::Report {
    /// The handover asked for by name could not be read: that is the answer.
    fn named_unreadable(&self) -> bool {
        self.named
            && !self.skipped.is_empty()
            && matches!(self.outcome, r#continue::Outcome::Nothing)
    }
}

impl Output for r#continue::Report {
    fn human(&self, p: &Painter) -> String {
        if self.named_unreadable() {
            return String::new();
        }
        human::continue_(self, p)
    }
    fn json(&self) -> String {
        if self.named_unreadable() {
            return String::new();
        }
        json::to_string(&json::continue_(self))
    }
    fn code(&self) -> u8 {
        match &self.outcome {
            _ if self.named_unreadable() => exit::INVALID_DATA,
            r#continue::Outcome::Nothing => exit::ATTENTION,
            r#continue::Outcome::Choose(_) | r#continue::Outcome::Diverged { .. } => exit::USAGE,
            _ => exit::OK,
        }
    }
    fn notices(&self, p: &Painter) -> Notices {
        if self.named_unreadable() {
            return Notices {
                errors: self.skipped.iter().map(|e| e.render(p.lang())).collect(),
                warnings: Vec::new(),
                hints: Error::InvalidHandovers {
                    count: self.skipped.len(),
                }
                .hint_in(p.lang())
                .into_iter()
                .chain(self.graph_hint.clone())
                .collect(),
                ..Notices::default()
            };
        }
        let mut n = Notices {
            warnings: self.skipped.iter().map(|e| e.render(p.lang())).collect(),
            ..Notices::default()
        };
        if matches!(self.outcome, r#continue::Outcome::Choose(_)) {
            n.errors.push(p.t(crate::k!("main.choose")).into());
            n.hints.push(p.t(crate::k!("main.choose_hint")).into());
        }
        n.hints.extend(self.graph_hint.clone());
        n
    }
}

impl Output for Saved {
    fn human(&self, _p: &Painter) -> String {
        human::save(self)
    }
    fn json(&self) -> String {
        json::to_string(&json::save(self))
    }
    fn notices(&self, p: &Painter) -> Notices {
        let x = &self.exclusion;
        let file = text::escape(&x.file.display().to_string());
        let mut infos = Vec::new();
        if !x.added.is_empty() {
            infos.push(p.f(
                crate::k!("exclude.added"),
                &[("patterns", &x.added.join(" ")), ("file", &file)],
            ));
        }
        let mut warnings: Vec<String> = self.skipped.iter().map(|e| e.render(p.lang())).collect();
        warnings.extend(human::claims::lost_warnings(&self.state, &self.key, p));
        warnings.extend(
            self.unknown
                .iter()
                .map(|u| json::unknown_message(u, p.lang())),
        );
        if !self.others.is_empty() {
            let others: Vec<String> = self.others.iter().map(|k| text::escape(k)).collect();
            infos.push(p.f(
                crate::k!("save.others"),
                &[
                    ("key", &text::escape(&self.key)),
                    ("others", &others.join(p.separator())),
                ],
            ));
        }
        if self.reopened {
            infos.push(p.f(
                crate::k!("save.reopened"),
                &[("key", &text::escape(&self.key))],
            ));
        }
        if let Some(old) = &self.passed_over {
            infos.push(p.f(
                crate::k!("save.passed_over"),
                &[
                    ("key", &text::escape(&self.key)),
                    ("old", &text::escape(old)),
                ],
            ));
        }
        for pat in &x.tracked {
            warnings.push(p.f(
                crate::k!("exclude.tracked"),
                &[("root", pat), ("path", &pat.trim_matches('/'))],
            ));
        }
        Notices {
            infos,
            warnings,
            ..Notices::default()
        }
    }
}

impl Output for task::Report {
    fn human(&self, p: &Painter) -> String {
        human::task(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::task(self))
    }
    fn notices(&self, p: &Painter) -> Notices {
        self.written.notices(p)
    }
}

impl Output for crate::facts::git_hook::GitHookReport {
    fn human(&self, p: &Painter) -> String {
        let key = match (self.install, self.changed, self.chained) {
            (true, true, false) => crate::k!("githook.added"),
            (true, true, true) => crate::k!("githook.chained"),
            (true, false, _) => crate::k!("githook.present"),
            (false, true, _) => crate::k!("githook.removed"),
            (false, false, _) => crate::k!("githook.absent"),
        };
        let path = text::escape(&self.path.display().to_string());
        format!("{}\n", p.f(key, &[("path", &path)]))
    }
    fn json(&self) -> String {
        json::to_string(&serde_json::json!({
            "schema": "git-handover/git-hook/1",
            "hook": "post-commit",
            "install": self.install,
            "path": self.path.display().to_string(),
            "changed": self.changed,
            "chained": self.chained,
        }))
    }
    fn notices(&self, p: &Painter) -> Notices {
        let mut n = Notices::default();
        if self.disabled {
            let path = text::escape(&self.path.display().to_string());
            n.warnings
                .push(p.f(crate::k!("githook.disabled"), &[("path", &path)]));
        }
        n
    }
}

impl Output for task::ClaimReport {
    fn human(&self, p: &Painter) -> String {
        human::claims::report(self, p)
    }
    fn json(&self) -> String {
        json::claims::report(self)
    }
    fn notices(&self, p: &Painter) -> Notices {
        self.written.as_ref().map_or_else(
            || Notices {
                warnings: human::claims::lost_warnings(&self.state, &self.key, p),
                ..Notices::default()
            },
            |w| w.notices(p),
        )
    }
}

impl Output for task::Listing {
    fn human(&self, p: &Painter) -> String {
        if self.ids {
            let mut out = String::new();
            for t in &self.state.tasks {
                out.push_str(&text::escape(&t.id));
                out.push('\n');
            }
            return out;
        }
        if self.show.is_some() {
            human::task_show(self, p)
        } else {
            human::task_list(self, p)
        }
    }
    fn json(&self) -> String {
        json::task_list(self)
    }
}

impl Output for render::Report {
    fn human(&self, p: &Painter) -> String {
        human::render(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::render(self))
    }
}

impl Output for here::Report {
    fn human(&self, p: &Painter) -> String {
        human::here(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::here(self))
    }
    fn notices(&self, p: &Painter) -> Notices {
        let mut n = Notices::default();
        if !self.missing.is_empty() {
            n.warnings.push(p.f(
                crate::k!("here.missing"),
                &[("sections", &self.missing.join(p.separator()))],
            ));
        }
        n
    }
}

impl Output for migrate::Report {
    fn human(&self, p: &Painter) -> String {
        human::migrate(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::migrate(self))
    }
}

impl Output for log::Report {
    fn human(&self, p: &Painter) -> String {
        human::log(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::log(self))
    }
    fn notices(&self, _p: &Painter) -> Notices {
        Notices {
            warnings: self.skipped.clone(),
            ..Notices::default()
        }
    }
}

impl Output for sync::Report {
    fn human(&self, p: &Painter) -> String {
        human::sync(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::sync(self))
    }
}

impl Output for clean::Report {
    fn human(&self, p: &Painter) -> String {
        human::clean(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::clean(self))
    }
    fn notices(&self, p: &Painter) -> Notices {
        let warnings = self
            .skipped
            .iter()
            .map(|(path, why)| {
                let path = text::escape(&path.display().to_string());
                p.f(
                    crate::k!("clean.skipped"),
                    &[("path", &path), ("why", &why.render(p.lang()))],
                )
            })
            .collect();
        Notices {
            warnings,
            ..Notices::default()
        }
    }
}

impl Output for agent_hook::InstallReport {
    fn human(&self, p: &Painter) -> String {
        human::hook(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::hook(self))
    }
    fn notices(&self, p: &Painter) -> Notices {
        let mut n = Notices::default();
        if let Some(other) = &self.also_at {
            n.warnings.push(p.f(
                crate::k!("hook.both_scopes"),
                &[("path", &text::escape(&other.display().to_string()))],
            ));
        }
        n
    }
}

impl Output for man::Report {
    fn human(&self, _p: &Painter) -> String {
        if self.quiet {
            return String::new();
        }
        self.written.iter().fold(String::new(), |mut s, p| {
            s.push_str(&p.display().to_string());
            s.push('\n');
            s
        })
    }
    fn json(&self) -> String {
        self.human(&Painter::new(false, crate::support::i18n::Lang::En))
    }
}

impl Output for completions::Report {
    fn human(&self, _p: &Painter) -> String {
        String::from_utf8_lossy(&self.script).into_owned()
    }
    fn json(&self) -> String {
        self.human(&Painter::new(false, crate::support::i18n::Lang::En))
    }
}
