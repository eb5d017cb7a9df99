//! heddle-checkpoint owns Heddle's git checkpoints: for every node of every run, a commit a
//! person can inspect with plain git, restore and branch from.
//!
//! - In a clean repository (worktree mode) a run gets the branch `heddle/run/{id}` and a
//!   worktree in its run directory; its commits are built from a private index, and the
//!   orphan metadata history `refs/heddle/{id}` holds manifest, graph and checkpoint.
//! - Anywhere else (shadow mode) a shadow repository under `$HEDDLE_HOME/shadow/` has the
//!   workspace as its work tree; the user's own `.git` is never written.
//! - Garbage collection ([`gc`]): refs of deleted runs go, shadow repositories end as one
//!   pack of what is still reachable.
//! - Timelines: rollback (with a recovery snapshot first), fork, resume from git alone,
//!   and reading history (files, diffs, context at any checkpoint).
//!
//! [`GitCheckpoints`] plugs all of it into the engine as its checkpoint hook.

pub mod actor;
pub mod changing_file;
pub mod diff;
pub mod error;
pub mod filters;
pub mod folder_listing;
pub mod fork;
pub mod from_ref;
pub mod full_scan;
pub mod gc;
pub mod gc_refs;
pub mod gc_repack;
pub mod gc_runs;
pub mod grouping;
pub mod history;
pub mod history_after;
pub mod history_chunks;
pub mod history_reader;
pub mod hook;
pub mod hunks;
pub mod index_file;
pub mod index_tree;
pub mod integrity;
pub mod message;
pub mod metadata;
pub mod metadata_layout;
pub mod pack;
pub mod pack_format;
pub mod patch_text;
pub mod pending_objects;
pub mod pushing_hook;
pub mod recovery;
pub mod remote_access;
pub mod reopen;
pub mod repo;
pub mod restore;
pub mod restore_index;
pub mod resume_restore;
pub mod rollback;
pub mod rollback_journal;
pub mod run_files;
pub mod run_history;
pub mod run_nodes;
pub mod session;
pub mod session_packs;
pub mod set_aside;
pub mod setup;
pub mod shadow;
pub mod snapshot;
pub mod state;
pub mod team_mirror;
pub mod team_remote;
pub mod tracker;
pub mod tree_diff;
pub mod work_tree_status;

pub use error::CheckpointError;
pub use history_reader::GitHistory;
pub use hook::GitCheckpoints;
pub use run_history::RunHistory;
pub use setup::ModeChoice;
pub use state::{GitState, Mode};
pub use work_tree_status::GitStatusWatch;
