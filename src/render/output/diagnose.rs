//! The output of `doctor`, `why` and `schema`.

use super::{Notices, Output};
use crate::commands::{doctor, schema, why};
use crate::render::human::{self, Painter};
use crate::render::json;
use crate::support::error::exit;
use crate::support::text;

impl Output for doctor::Report {
    fn human(&self, p: &Painter) -> String {
        human::doctor(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::doctor(self))
    }
    fn code(&self) -> u8 {
        if self.problems() > 0 {
            exit::ATTENTION
        } else {
            exit::OK
        }
    }
}

impl Output for why::Report {
    fn human(&self, p: &Painter) -> String {
        human::why(self, p)
    }
    fn json(&self) -> String {
        json::to_string(&json::why(self))
    }
    fn code(&self) -> u8 {
        if self.found.is_empty() {
            exit::ATTENTION
        } else {
            exit::OK
        }
    }
    fn notices(&self, p: &Painter) -> Notices {
        let mut warnings: Vec<String> = self
            .unreadable
            .iter()
            .map(|path| {
                p.f(
                    crate::k!("why.unreadable"),
                    &[("path", &text::escape(&path.display().to_string()))],
                )
            })
            .collect();
        warnings.extend(self.skipped.iter().cloned());
        Notices {
            warnings,
            ..Notices::default()
        }
    }
}

impl Output for schema::Report {
    /// The schema as its file holds it; without a name, a line per schema.
    fn human(&self, _p: &Painter) -> String {
        use std::fmt::Write as _;
        if let Some(text) = self.one {
            return text.to_owned();
        }
        let width = self.all.iter().map(|e| e.name.len()).max().unwrap_or(0);
        let mut out = String::new();
        for e in &self.all {
            let _ = writeln!(out, "{:width$}  {}", e.name, e.title);
        }
        out
    }
    /// A schema is itself the document (its `$id` names it); the list is
    /// `git-handover/schema/1`.
    fn json(&self) -> String {
        if let Some(text) = self.one {
            return text.to_owned();
        }
        let schemas: Vec<serde_json::Value> = self
            .all
            .iter()
            .map(|e| serde_json::json!({"name": e.name, "id": e.id, "title": e.title}))
            .collect();
        json::to_string(&serde_json::json!({
            "schema": "git-handover/schema/1",
            "schemas": schemas,
        }))
    }
}
