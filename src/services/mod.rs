//! What commands are made of: the context of a run, session directories, scanning,
//! assessment against git, cleanup, legacy migration, the notes store as records.
//! Services use the model, git and support layers; they never use commands or render.

pub mod agent_paths;
pub mod agent_session;
pub mod assess;
pub mod claim_settle;
pub mod claims;
pub mod cleanup;
pub mod context;
pub mod exclude;
pub mod git_hooks;
pub mod input;
pub mod legacy;
pub mod notes_store;
pub mod receipts;
pub mod record_rules;
pub mod remote_claim;
pub mod remote_notes;
pub mod run_notices;
pub mod scan;
pub mod sessions;
pub mod transcript;
