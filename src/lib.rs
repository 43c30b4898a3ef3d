//! git-handover: the handover state AI coding agents leave between sessions, checked
//! against git. `main` parses the command line, runs one command, renders its report
//! and maps errors to the exit statuses of the specification.
//!
//! Layers, top to bottom (docs/ARCHITECTURE.md): `app` (the shell) → `commands` (one
//! file per verb) → `services` → `model` (pure) and `git` (all gix) → `support`.
//! `render` turns reports into text and JSON; `cli` defines every flag once.

mod app;
mod cli;
mod commands;
mod facts;
mod git;
mod model;
mod render;
mod services;
mod support;

#[doc(hidden)]
pub mod api;
#[doc(hidden)]
pub mod fuzz;

pub use app::main;
