//! `doctor --json`: every check by its stable id, with its values and its fix.

use serde::Serialize;

use crate::commands::doctor::{Outcome, Report};

#[derive(Serialize)]
pub struct DoctorV1 {
    pub schema: &'static str,
    pub ok: bool,
    pub problems: usize,
    pub checks: Vec<CheckV1>,
}

#[derive(Serialize)]
pub struct CheckV1 {
    pub id: &'static str,
    /// `ok`, `note`, `problem` or `fixed`.
    pub outcome: &'static str,
    /// The sentence, in English.
    pub message: String,
    pub path: Option<String>,
    pub values: serde_json::Map<String, serde_json::Value>,
    pub fix: Option<String>,
    /// Whether `doctor --fix` applies the fix.
    pub fixable: bool,
}

pub fn doctor(r: &Report) -> DoctorV1 {
    use crate::support::i18n::{Lang, fill};
    let checks = r
        .checks
        .iter()
        .map(|c| {
            let path = c.path.as_ref().map(|p| p.display().to_string());
            let mut args: Vec<(&str, &dyn std::fmt::Display)> = c
                .values
                .iter()
                .map(|(k, v)| (*k, v as &dyn std::fmt::Display))
                .collect();
            if let Some(p) = &path {
                args.push(("path", p));
            }
            CheckV1 {
                id: c.id,
                outcome: match c.outcome {
                    Outcome::Ok => "ok",
                    Outcome::Note => "note",
                    Outcome::Problem => "problem",
                    Outcome::Fixed => "fixed",
                },
                message: fill(Lang::En, c.key, &args),
                path: path.clone(),
                values: c
                    .values
                    .iter()
                    .map(|(k, v)| ((*k).to_owned(), serde_json::Value::String(v.clone())))
                    .collect(),
                fix: c.fix.clone(),
                fixable: c.safe,
            }
        })
        .collect();
    DoctorV1 {
        schema: "git-handover/doctor/1",
        ok: r.problems() == 0,
        problems: r.problems(),
        checks,
    }
}
