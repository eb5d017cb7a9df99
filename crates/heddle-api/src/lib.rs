//! heddle-api owns the one application API: every operation Heddle offers, with serde
//! request/response types and stable error codes. The CLI calls it in-process, src-tauri
//! wraps each operation in a one-line command, and heddle-server exposes it over HTTP.
//! TypeScript bindings for the UI are generated from these types, and every door's list of
//! operations from one table ([`for_each_operation!`]). [`RunLibrary`] answers the reads and
//! git operations and controls runs that any process executes; [`RunHost`] adds executing
//! runs in this process.

mod app_logs;
mod checkpoint_ops;
pub mod doctor;
mod editor_types;
mod error;
mod event_feed;
mod expressions;
mod file_watch;
mod folder_watcher;
mod garbage_ops;
mod index_feed;
mod index_ops;
mod maintenance_ops;
#[macro_use]
mod operation_table;
pub mod operations;
mod progress_feed;
mod queue_ops;
mod run_budget;
mod run_control;
mod run_elsewhere;
mod run_file_policy;
mod run_file_save;
mod run_files;
mod run_graph_cache;
mod run_host;
pub mod run_inputs;
mod run_launch;
mod run_library;
mod run_parsed;
pub mod run_queue;
mod run_relay;
mod run_trust;
mod run_types;
mod run_workflow;
pub mod runs;
mod shared_runs;
mod team_history;
mod templates;
pub mod trust;
pub mod trust_items;
mod types;
mod workflow_files;
mod workflow_save;
mod workflows;

pub use app_logs::start_app_logs;
pub use error::{ApiError, ErrorCode};
pub use event_feed::EventFeed;
pub use heddle_artifacts::{CaseStatus, JUnitCase, JUnitReport, JUnitSuite, ListedArtifact};
pub use heddle_store as index;
/// Logs and traces: the subscriber every door installs (see heddle-telemetry).
pub use heddle_telemetry as telemetry;

/// The checkpoint types the run operations return (from heddle-checkpoint).
pub mod checkpoint {
    pub use heddle_checkpoint::diff::{
        CheckpointDiff, DiffHunk, DiffLine, FileChange, FileStatus, LineKind, ModeChange,
    };
    pub use heddle_checkpoint::gc::{RepositoryGc, RepositoryOwner};
    pub use heddle_checkpoint::gc_repack::ObjectCounts;
    pub use heddle_checkpoint::history::{CheckpointEntry, TreeFile};
    pub use heddle_checkpoint::patch_text::PatchFiles;
    pub use heddle_checkpoint::rollback::RollbackReport;
}
pub use editor_types::*;
pub use expressions::check_expression;
pub use file_watch::{WorkflowWatch, WorkflowWatches};
pub use garbage_ops::{GarbageReport, GarbageRequest};
pub use maintenance_ops::{DumpReport, GcReport, VerifyReport};
pub use queue_ops::{QueueEntryRef, QueuedEntry, QueuedRun, RunQueue, RunQueueRequest};
pub use run_file_policy::{INERT_FILE_POLICY, run_file_policy, sandboxed_page_policy};
pub use run_file_save::SavedRunFile;
pub use run_files::{
    RunFileArea, RunFileRequest, ServedFile, confined_file, enclosing_folders, parent_folder,
    percent_decode,
};
pub use run_host::{RunHost, blocking};
pub use run_launch::{Executor, PreparedStart, TeamRemote};
pub use run_library::{RunLibrary, run_readers};
pub use run_parsed::MAX_PATCH_BYTES;
pub use run_types::*;
pub use run_workflow::{CARD_ATTRIBUTES, RunWorkflow};
pub use templates::{create_workflow, list_templates};
pub use trust::{WorkflowTrust, WorkflowTrustRequest};
pub use trust_items::{TrustItem, TrustItemKind};
pub use types::*;
pub use workflow_files::{
    LAYOUT_SIDECAR_SUFFIX, REFERENCE_PREVIEW_BYTES, layout_sidecar_path, read_layout,
    read_reference, save_layout,
};
pub use workflow_save::{edit_workflow, save_workflow};
pub use workflows::{MAX_WORKFLOW_BYTES, check_workflow, list_workflows, open_workflow};

/// A fresh access token for a server door: 128 random bits as hex.
pub fn new_token(entropy: &dyn heddle_engine::Entropy) -> String {
    format!("{:016x}{:016x}", entropy.next_u64(), entropy.next_u64())
}
