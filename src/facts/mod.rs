//! The facts the services find and the reports carry: what checking each handover
//! against git found (`assessed`), what a report says of each side of a diverged
//! session (`side`), what a change to git's post-commit hook did (`git_hook`), and what a write to a session did (`written`). Plain data over the model's and git's value types, with the few
//! questions a renderer asks of it; nothing here reads a file or the repository.
//!
//! A layer of its own between `services` (which builds these) and `model`/`git` (whose
//! values they hold), so that `render` prints them without importing a service.

pub mod assessed;
pub mod git_hook;
pub mod linkage;
pub mod run_notices;
pub mod settled;
pub mod side;
pub mod written;
