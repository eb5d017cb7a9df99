//! What one run holds: its timeline, checkpoints, artifacts and events, and recently
//! opened workflows.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use super::RunStatus;

/// How a stage visit stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum StageState {
    /// Started and not ended, in a run that is still running.
    Running,
    /// Started and never ended, in a run that stopped.
    Interrupted,
    /// Ended with outcome `success`.
    Success,
    /// Ended with outcome `fail`, or with a status the index does not know.
    Fail,
    /// Ended with outcome `partial_success`.
    PartialSuccess,
    /// Ended still asking to retry.
    Retry,
    /// Ended with outcome `skipped`.
    Skipped,
}

impl StageState {
    /// The snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            StageState::Running => "running",
            StageState::Interrupted => "interrupted",
            StageState::Success => "success",
            StageState::Fail => "fail",
            StageState::PartialSuccess => "partial_success",
            StageState::Retry => "retry",
            StageState::Skipped => "skipped",
        }
    }

    /// The state a stored status stands for.
    pub(crate) fn parse(name: &str) -> StageState {
        match name {
            "running" => StageState::Running,
            "success" => StageState::Success,
            "partial_success" => StageState::PartialSuccess,
            "retry" => StageState::Retry,
            "skipped" => StageState::Skipped,
            _ => StageState::Fail,
        }
    }
}

/// How a human wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum WaitOutcome {
    /// Still waiting (or the run stopped while waiting).
    Waiting,
    /// A person answered.
    Answered,
    /// Nobody answered in time.
    TimedOut,
}

/// A human gate waiting for a person: interview.started until interview.answered or
/// interview.timed_out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HumanWait {
    /// The id a gate answer names (from `interview.started`).
    pub question_id: String,
    /// Id of the human gate node.
    pub node_id: String,
    /// The gate node's visit, from 1.
    pub visit: u32,
    /// The question text shown to the person.
    pub question: String,
    /// The choices' labels in the order offered.
    pub choices: Vec<String>,
    /// When it was asked (RFC 3339).
    pub started_at: String,
    /// When it was answered or timed out (RFC 3339); `None` while waiting.
    pub ended_at: Option<String>,
    /// Milliseconds from question to answer or time-out; `None` while waiting.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub duration_ms: Option<i64>,
    /// Still waiting, answered, or timed out.
    pub outcome: WaitOutcome,
    /// The chosen label, freeform text or the default choice taken.
    pub answer: Option<String>,
}

/// One stage visit in a run's timeline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TimelineStage {
    /// Id of the node the stage ran.
    pub node_id: String,
    /// The node's visit, from 1.
    pub visit: u32,
    /// The handler kind (`command`, `agent`, `human`, ...).
    pub kind: String,
    /// The parallel branch (lane) it ran in, named by the branch's first node.
    pub branch: Option<String>,
    /// Running, ended (with its outcome) or interrupted.
    pub status: StageState,
    /// Attempts started, from 1 (retries included).
    pub attempts: u32,
    /// Attempts that asked to retry (`stage.retrying` events).
    pub retries: u32,
    /// When its first attempt started (RFC 3339).
    pub started_at: String,
    /// When its last attempt ended (RFC 3339); `None` while running or interrupted.
    pub ended_at: Option<String>,
    /// Time it took, all attempts.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub duration_ms: Option<i64>,
    /// The stage's short note.
    pub notes: Option<String>,
    /// The stage's failure reason as the engine reported it; `None` when it did not fail.
    pub failure_reason: Option<String>,
    /// The failure's class (`deterministic`, `transient`, ...).
    pub failure_class: Option<String>,
    /// Why the last retry happened.
    pub last_retry_reason: Option<String>,
    /// Its folder, relative to the run folder (`nodes/{node}[-visit_N]`).
    pub stage_dir: String,
    /// Human waits during this visit.
    pub waits: Vec<HumanWait>,
}

/// A run's stages in the order they started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Timeline {
    /// The run's id (a ULID).
    pub run_id: String,
    /// The run's status now.
    pub status: RunStatus,
    /// The stage visits, in start order.
    pub stages: Vec<TimelineStage>,
    /// The parallel lanes stages ran in, in order of first appearance.
    pub lanes: Vec<String>,
}

/// One git checkpoint of a run (any timeline).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CheckpointRecord {
    /// Full sha of the checkpoint commit.
    pub sha: String,
    /// Id of the node whose stage the checkpoint follows.
    pub node_id: String,
    /// That stage's status (`success`, `fail`, ...).
    pub status: String,
    /// Nodes the run had completed when it was taken.
    pub completed: u32,
    /// The timeline it was first made on (1 is the first).
    pub timeline: u32,
    /// Every timeline branch that contains it (short names).
    pub branches: Vec<String>,
    /// The commit's time, RFC 3339 UTC, whole seconds.
    pub time: String,
    /// Full sha of its first parent; `None` for a commit without parents.
    pub parent: Option<String>,
    /// The metadata commit holding its checkpoint.json.
    pub metadata_sha: String,
    /// It is the tip of the timeline the run continues on.
    pub current: bool,
}

/// One captured test artifact of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ArtifactRecord {
    /// Path relative to the run's `artifacts/` folder (`test/retry_1/junit.xml`).
    pub path: String,
    /// The stage folder (`test`, `test-visit_2`).
    pub stage: String,
    /// Id of the node whose stage captured it.
    pub node_id: String,
    /// The attempt (`retry_{n}`).
    pub retry: u32,
    /// Where in the work folder it was captured from.
    pub source: String,
    /// Size in bytes.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub size: i64,
    /// SHA-256 of the content (hex).
    pub sha256: String,
    /// MIME type from the file extension (`image/png`; `application/octet-stream` if unknown).
    pub media_type: String,
    /// `screenshot`, `video`, `junit`, `playwright_report`, `trace` or `other`.
    pub kind: String,
}

/// One event of a run, as in progress.jsonl.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EventRecord {
    /// Position in the run's stream, from 1.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub seq: i64,
    /// The event's ULID.
    pub id: String,
    /// When the event was written, RFC 3339 UTC.
    pub ts: String,
    /// The node it concerns; `None` for run-level events.
    pub node_id: Option<String>,
    /// The event's name (`stage.started`).
    pub event: String,
    /// The event's own fields, as the progress.jsonl line has them.
    #[cfg_attr(feature = "ts", ts(type = "Record<string, unknown>"))]
    pub properties: Json,
}

/// A workflow file a person opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, sqlx::FromRow)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RecentWorkflow {
    /// Path of the workflow file as it was opened.
    pub path: String,
    /// The workflow's digraph name, empty when anonymous.
    pub name: String,
    /// When it was last opened (RFC 3339).
    pub last_opened: String,
}
