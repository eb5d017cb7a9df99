//! What ingests and rebuilds did, and the changes the index announces.

use serde::{Deserialize, Serialize};

use super::RunStatus;

/// What one ingest of a run folder did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct IngestReport {
    /// The run (`None` when the folder has no manifest yet, or is gone).
    pub run_id: Option<String>,
    /// Events read from progress.jsonl by this ingest (0 when none were new).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub new_events: i64,
    /// Where the run stands now.
    pub status: Option<RunStatus>,
    /// Anything in the index changed.
    pub changed: bool,
}

/// A run folder that could not be indexed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct IngestFailure {
    /// Absolute path of the run folder.
    pub folder: String,
    /// The error's message, e.g. a corrupt event's file and line.
    pub error: String,
}

/// What a rebuild of the index did.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReindexReport {
    /// Runs indexed (children included).
    pub runs: usize,
    /// Events indexed over all runs.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub events: i64,
    /// Runs dropped from the index because their folder is gone.
    pub removed: usize,
    /// Folders that could not be (fully) indexed.
    pub failures: Vec<IngestFailure>,
}

/// A run the index has news about (broadcast by [`crate::Store::subscribe`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunChange {
    /// The run's id (a ULID).
    pub run_id: String,
    /// Where it stands now (`None`: it left the index, its folder is gone).
    pub status: Option<RunStatus>,
}
