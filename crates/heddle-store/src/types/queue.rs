//! The run queue's entries: what someone asked to run, and which worker holds it.

use serde::{Deserialize, Serialize};

/// Where a queue entry stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum QueueState {
    /// Waiting for a worker.
    Queued,
    /// A worker holds it (while its lease lasts).
    Claimed,
    /// Its worker reported the run's end.
    Finished,
}

impl QueueState {
    pub(crate) fn parse(state: &str) -> QueueState {
        match state {
            "claimed" => QueueState::Claimed,
            "finished" => QueueState::Finished,
            _ => QueueState::Queued,
        }
    }
}

/// One entry of the run queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct QueueEntry {
    /// The entry's id (given by whoever enqueued it; a ULID).
    pub id: String,
    /// What to run, as the caller described it (JSON text; the store does not read it).
    pub request: String,
    /// Where it stands.
    pub state: QueueState,
    /// When it was enqueued (milliseconds since the Unix epoch).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub enqueued_ms: i64,
    /// The worker holding it, or that held it last.
    pub worker: Option<String>,
    /// Until when the worker's lease lasts (milliseconds since the Unix epoch).
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub lease_until_ms: Option<i64>,
    /// When the worker was last heard from.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub heartbeat_ms: Option<i64>,
    /// How many times a worker claimed it (more than once: a worker died holding it).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub claims: i64,
    /// The run it started, once its worker started one.
    pub run_id: Option<String>,
    /// When its worker reported the run's end.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub finished_ms: Option<i64>,
    /// How the run ended, as its worker reported it.
    pub outcome: Option<String>,
}

/// What [`crate::Store::cancel_queued`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueueCancel {
    /// The entry waited for a worker and is now finished as `cancelled`.
    Cancelled(QueueEntry),
    /// The entry did not wait any more (a worker holds it, or it finished); as it is now.
    Unchanged(QueueEntry),
    /// There is no such entry.
    Missing,
}
