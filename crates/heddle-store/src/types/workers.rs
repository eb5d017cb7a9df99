//! What the index keeps about runs executed on other machines: their workers, the gates
//! they wait at, and the requests made to them.

use serde::{Deserialize, Serialize};

/// A worker taking runs from the queue, as it last reported itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct WorkerRecord {
    /// Its name (`host-pid` unless given).
    pub name: String,
    /// The team remote it clones runs from.
    pub remote: String,
    /// When it started (milliseconds since the Unix epoch).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_ms: i64,
    /// When it was last heard from.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seen_ms: i64,
    /// The queue entry it works on now, if any.
    pub entry: Option<String>,
}

/// A request made to the worker executing a run, not yet taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunRequest {
    /// Its place in the order requests were made.
    pub id: i64,
    /// What is asked (JSON text; the store does not read it).
    pub request: String,
}
