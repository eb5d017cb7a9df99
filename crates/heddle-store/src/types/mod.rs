//! The store's request and response types. Field names are a contract with the API and the
//! UI (TypeScript is generated from them with the `ts` feature): add fields freely, rename or
//! remove only together with the UI.

mod detail;
mod queue;
mod reports;
mod runs;
mod workers;

pub use detail::{
    ArtifactRecord, CheckpointRecord, EventRecord, HumanWait, RecentWorkflow, StageState, Timeline,
    TimelineStage, WaitOutcome,
};
pub use queue::{QueueCancel, QueueEntry, QueueState};
pub use reports::{IngestFailure, IngestReport, ReindexReport, RunChange};
pub use runs::{PageRequest, RunCursor, RunFilter, RunPage, RunRecord, RunStatus};
pub use workers::{RunRequest, WorkerRecord};
