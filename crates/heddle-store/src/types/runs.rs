//! Runs: a run's record, filters and pages of runs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Where a run stands: the engine's own status.
pub use heddle_engine::RunStatus;

/// One indexed run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunRecord {
    /// The run id (a ULID).
    pub id: String,
    /// Absolute path of the run folder (where manifest.json and progress.jsonl are).
    pub folder: String,
    /// The workflow's digraph name (`digraph Name {`), empty when anonymous.
    pub workflow_name: String,
    /// The workflow file the run started from.
    pub workflow_path: String,
    /// The goal it ran with (`--goal`, else the workflow's `goal`); `None` when neither.
    pub goal: Option<String>,
    /// `--label K=V` pairs.
    pub labels: BTreeMap<String, String>,
    /// The `inputs.NAME` values the run was given, from its manifest.json: filled in for one
    /// run (`get_run`), empty in run lists (the index does not hold them).
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
    /// Running, interrupted, or how it concluded (success, fail, cancelled).
    pub status: RunStatus,
    /// When it started, RFC 3339 UTC.
    pub started_at: String,
    /// When it ended, RFC 3339 UTC; `None` until it concludes.
    pub ended_at: Option<String>,
    /// Milliseconds from start to end; `None` until it concludes.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub duration_ms: Option<i64>,
    /// Why it failed or was cancelled.
    pub failure_reason: Option<String>,
    /// `worktree`, `shadow` or `none`.
    pub checkpoint_mode: String,
    /// The run's git branch (git checkpoints only).
    pub run_branch: Option<String>,
    /// The commit the run started from (git checkpoints only).
    pub base_sha: Option<String>,
    /// The last checkpoint commit, once concluded (git checkpoints only).
    pub final_sha: Option<String>,
    /// Captured test artifacts.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub artifact_count: i64,
    /// Stage visits seen.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub stage_count: i64,
    /// Events indexed.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub event_count: i64,
    /// The last event's seq.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub last_seq: i64,
    /// Started as a dry run: LLM stages got simulated answers.
    pub dry_run: bool,
    /// The run supervising this one (manager-loop children).
    pub parent_run_id: Option<String>,
    /// Where stages ran: the workspace, or the run's git worktree.
    pub work_dir: String,
    /// How many nodes the run's workflow has (for a progress `completed / nodes`).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub node_count: i64,
    /// The node of the latest stage that started.
    pub current_node: Option<String>,
    /// The first unreadable line of progress.jsonl, when there was one.
    pub ingest_error: Option<String>,
    /// Input tokens the run's LLM stages used, summed over its stage visits.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    #[serde(default)]
    pub input_tokens: i64,
    /// Output tokens the run's LLM stages used, summed over its stage visits.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    #[serde(default)]
    pub output_tokens: i64,
    /// What the run's LLM calls cost in US dollars; `None` when no stage had a known price.
    #[serde(default)]
    pub cost_usd: Option<f64>,
    /// The cost limit in US dollars its latest start or resume ran under (its `run.started`
    /// event's); `None`: none.
    #[serde(default)]
    pub max_cost_usd: Option<f64>,
    /// The token limit its latest start or resume ran under; `None`: none.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    #[serde(default)]
    pub max_tokens: Option<i64>,
}

/// Which runs to list. Every field narrows the list; the defaults list every top-level run.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunFilter {
    /// Any of these statuses (empty: any status).
    #[serde(default)]
    pub status: Vec<RunStatus>,
    /// Only runs of the workflow with this digraph name (exact match).
    #[serde(default)]
    pub workflow: Option<String>,
    /// Every one of these labels, with this value.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// Started at or after (RFC 3339).
    #[serde(default)]
    pub since: Option<String>,
    /// Started before this time (RFC 3339), exclusive.
    #[serde(default)]
    pub until: Option<String>,
    /// Only the children of this run (manager loops); implies `include_children`.
    #[serde(default)]
    pub parent_run_id: Option<String>,
    /// List manager-loop child runs too (they are left out by default).
    #[serde(default)]
    pub include_children: bool,
}

/// Where a page of runs continues: after the run started at `started_ms` with id `id`
/// (newest first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunCursor {
    /// The last listed run's start, in milliseconds since the Unix epoch.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub started_ms: i64,
    /// The last listed run's id.
    pub id: String,
}

/// Which page of runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PageRequest {
    /// At most this many runs (clamped to 1..=1000).
    pub limit: u32,
    /// Continue after this cursor (`None`: the first page).
    #[serde(default)]
    pub after: Option<RunCursor>,
}

impl Default for PageRequest {
    fn default() -> Self {
        PageRequest {
            limit: 50,
            after: None,
        }
    }
}

/// A page of runs, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunPage {
    /// At most the page's `limit` runs, newest first.
    pub items: Vec<RunRecord>,
    /// Pass this as [`PageRequest::after`] for the next page (`None`: this is the last).
    pub next: Option<RunCursor>,
    /// Runs matching the filter, over all pages.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub total: i64,
}
