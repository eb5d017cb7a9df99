//! checkpoint.json: everything needed to resume a run, written atomically after every node.

use std::collections::BTreeMap;
use std::path::Path;

use heddle_workflow::HandlerKind;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::error::EngineError;
use crate::outcome::{FailureClass, StageStatus, Usage};
use crate::rundir::atomic_write;

/// Version of the checkpoint format this build writes.
pub const CHECKPOINT_VERSION: u32 = 1;

/// The state of a run after a node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Format version.
    #[serde(default = "default_version")]
    pub version: u32,
    /// The run.
    pub run_id: String,
    /// When it was written (RFC 3339).
    pub timestamp: String,
    /// The node that just finished.
    pub current_node: Option<String>,
    /// The node to run next; `None` once the run is over.
    pub next_node_id: Option<String>,
    /// Node ids completed, in order (a node visited twice appears twice).
    pub completed_nodes: Vec<String>,
    /// Retries used per node (attempts beyond the first, summed over visits).
    pub node_retries: BTreeMap<String, u32>,
    /// Visits per node.
    pub node_visits: BTreeMap<String, u32>,
    /// Each node's last outcome.
    pub node_outcomes: BTreeMap<String, NodeOutcome>,
    /// The run context.
    pub context_values: BTreeMap<String, Json>,
    /// Human-readable log lines (warnings, restarts).
    #[serde(default)]
    pub logs: Vec<String>,
    /// Git commit of this checkpoint (git checkpoints only).
    #[serde(default)]
    pub git_commit_sha: Option<String>,
    /// Failure signatures seen since the last restart, with counts.
    #[serde(default)]
    pub loop_failure_signatures: BTreeMap<String, u32>,
    /// Failure signatures that caused a `loop_restart`, with counts.
    #[serde(default)]
    pub restart_failure_signatures: BTreeMap<String, u32>,
    /// Every stage executed, in order.
    #[serde(default)]
    pub timeline: Vec<StageRecord>,
    /// Restarts through `loop_restart` edges so far.
    #[serde(default)]
    pub restarts: u32,
    /// Progress of the branches of a parallel node that is still running (so a resume
    /// continues them instead of starting them over).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<BranchProgress>,
}

/// Where one branch of a running parallel node stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchProgress {
    /// The parallel node.
    pub parallel: String,
    /// The branch (its first node).
    pub branch: String,
    /// The node the branch runs next; `None` once it ended.
    pub next_node: Option<String>,
    /// Position in the workflow's edges of the edge into `next_node`, if known.
    #[serde(default)]
    pub edge: Option<usize>,
    /// The branch's own context.
    pub context_values: BTreeMap<String, Json>,
    /// How it ended, once it did.
    #[serde(default)]
    pub result: Option<BranchOutcome>,
}

/// How a branch ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchOutcome {
    /// Its final status.
    pub status: StageStatus,
    /// The last node it ran.
    pub last_node: Option<String>,
    /// Why it failed.
    pub failure_reason: Option<String>,
}

fn default_version() -> u32 {
    CHECKPOINT_VERSION
}

/// A node's last outcome, as the checkpoint keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeOutcome {
    /// The status.
    pub status: StageStatus,
    /// The preferred label, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_label: Option<String>,
    /// Why it failed, if it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
}

/// One stage visit in the run's timeline (what the preamble and the UI's timeline show).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageRecord {
    /// The node.
    pub node_id: String,
    /// Its handler kind.
    pub kind: HandlerKind,
    /// Visit number, from 1.
    pub visit: u32,
    /// Attempts used.
    pub attempts: u32,
    /// Final status.
    pub status: StageStatus,
    /// The stage's folder, relative to the run directory (`nodes/test-visit_2`).
    pub stage_dir: String,
    /// Start (RFC 3339).
    pub started_at: String,
    /// End (RFC 3339).
    pub ended_at: String,
    /// Wall time of all attempts.
    pub duration_ms: u64,
    /// Parallel branch (its first node), when inside one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Why it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// Failure class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_class: Option<FailureClass>,
    /// Short note.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The label it preferred (human choice, agent directive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_label: Option<String>,
    /// Model (LLM stages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Tokens (LLM stages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// What its LLM calls cost in US dollars, when the prices are known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Files changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_touched: Vec<String>,
    /// The script (command stages).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Simulated by the dry-run backend.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub simulated: bool,
    /// Test artifacts captured.
    #[serde(default, skip_serializing_if = "crate::outcome::is_zero")]
    pub artifacts: usize,
    /// Summary of its JUnit reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junit: Option<String>,
    /// Its complete outputs as blob refs, by file name (`stdout.log`, `stderr.log`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub blobs: BTreeMap<String, String>,
}

impl Checkpoint {
    /// Writes the checkpoint to `path` atomically (temp file, fsync, rename).
    pub fn save(&self, path: &Path) -> Result<(), EngineError> {
        self.save_with(path, true)
    }

    /// Writes the checkpoint atomically, with fsync when `sync`. Compact JSON: the file is
    /// rewritten after every node and grows with the timeline, so its size is the engine's
    /// main cost per node on a real disk (`heddle inspect --json` prints it readably).
    pub fn save_with(&self, path: &Path, sync: bool) -> Result<(), EngineError> {
        let json = serde_json::to_vec(self).map_err(|e| EngineError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        atomic_write(path, &json, sync)
    }

    /// Reads a checkpoint, reporting a corrupt file with its line and column.
    pub fn load(path: &Path) -> Result<Checkpoint, EngineError> {
        let text = std::fs::read_to_string(path).map_err(|e| EngineError::io(path, &e))?;
        serde_json::from_str(&text).map_err(|e| EngineError::CorruptCheckpoint {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
    }
}
