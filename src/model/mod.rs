//! The handover data itself, pure: no repository, no file system beyond what a caller
//! hands in. Everything here is unit-tested without a repository.

pub mod agent_session;
pub mod auto_record;
pub mod canonical;
pub mod changes;
pub mod claim;
pub mod extras;
pub mod markdown;
pub mod note;
pub mod record;
pub mod session;
pub mod state;
pub mod task_edit;
pub mod transcript;
pub mod verdict;
pub mod why;
