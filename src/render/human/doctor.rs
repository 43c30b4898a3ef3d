//! `doctor`: one line per check, marked, with the fix under each problem.

use std::fmt::Write as _;

use super::Painter;
use crate::commands::doctor::{Check, Outcome, Report};
use crate::support::text;

pub fn doctor(r: &Report, p: &Painter) -> String {
    let mut out = String::new();
    for check in &r.checks {
        let _ = writeln!(out, "{} {}", mark(check.outcome, p), sentence(check, p));
        if matches!(check.outcome, Outcome::Problem | Outcome::Note) {
            match &check.fix {
                Some(command) => {
                    let _ = writeln!(
                        out,
                        "    {}",
                        p.f(
                            crate::k!("doctor.fix"),
                            &[("command", &text::escape(command))]
                        )
                    );
                    if r.fix && !check.safe && check.outcome == Outcome::Problem {
                        let _ =
                            writeln!(out, "    {}", p.dim(p.t(crate::k!("doctor.fix_yourself"))));
                    }
                }
                None if check.outcome == Outcome::Problem => {
                    let _ = writeln!(out, "    {}", p.t(crate::k!("doctor.by_hand")));
                }
                None => {}
            }
        }
    }
    let fixed = r
        .checks
        .iter()
        .filter(|c| c.outcome == Outcome::Fixed)
        .count();
    let summary = match r.problems() {
        0 => p.good(p.t(crate::k!("doctor.all_ok"))),
        1 => p.bad(p.t(crate::k!("doctor.problems_one"))),
        n => p.bad(&p.f(crate::k!("doctor.problems"), &[("n", &n)])),
    };
    if fixed > 0 {
        let _ = writeln!(
            out,
            "{summary}{}{}",
            p.separator(),
            p.f(crate::k!("doctor.fixed_some"), &[("n", &fixed)])
        );
    } else {
        let _ = writeln!(out, "{summary}");
    }
    out
}

fn mark(outcome: Outcome, p: &Painter) -> String {
    match outcome {
        Outcome::Ok | Outcome::Fixed => p.good("✓"),
        Outcome::Note => p.dim("·"),
        Outcome::Problem => p.bad("✗"),
    }
}

/// The check's sentence, its values (and its path) filled in and escaped.
fn sentence(check: &Check, p: &Painter) -> String {
    let path = check
        .path
        .as_ref()
        .map(|x| text::escape(&x.display().to_string()));
    let mut values: Vec<(&str, String)> = check
        .values
        .iter()
        .map(|(k, v)| (*k, text::escape(v)))
        .collect();
    if let Some(path) = path {
        values.push(("path", path));
    }
    let args: Vec<(&str, &dyn std::fmt::Display)> = values
        .iter()
        .map(|(k, v)| (*k, v as &dyn std::fmt::Display))
        .collect();
    let text = p.f(check.key, &args);
    if check.outcome == Outcome::Fixed {
        format!("{} ({})", text, p.t(crate::k!("doctor.fixed")))
    } else {
        text
    }
}
