//! checkpoint.json: everything needed to resume a run, written atomically after every node,
//! with the growing history kept apart in timeline.jsonl ([`crate::timeline_file`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use heddle_workflow::HandlerKind;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::checkpoint_state::KeyedState;
use crate::error::EngineError;
use crate::outcome::{FailureClass, StageStatus, Usage};
use crate::rundir::atomic_write;
use crate::timeline_file::{History, JournaledHead, TIMELINE_FILE};

/// Version of the checkpoint format this build writes: 4 closes each stage's lines in
/// timeline.jsonl with a `head` line and rewrites checkpoint.json only now and then
/// ([`crate::timeline_file`]); 3 also keeps the keyed
/// state (visits, retries, outcomes, context) in timeline.jsonl, as changes
/// ([`crate::checkpoint_state`]); 2 kept the growing history there
/// ([`Checkpoint::history_bytes`]) and the keyed state in checkpoint.json; 1 held it all.
pub const CHECKPOINT_VERSION: u32 = 4;

/// The first format whose keyed state is in timeline.jsonl rather than checkpoint.json.
pub const KEYED_STATE_IN_HISTORY: u32 = 3;

/// The state of a run after a node. checkpoint.json holds what resuming needs now (its size
/// does not grow with the run); the history (timeline, completed nodes, logs) is appended
/// to timeline.jsonl ([`crate::timeline_file`]) and joined back in by [`Checkpoint::load`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Format version ([`CHECKPOINT_VERSION`] when written by this build; a file without
    /// one is read as the current version).
    #[serde(default = "default_version")]
    pub version: u32,
    /// The run's id (a ULID), as in manifest.json.
    pub run_id: String,
    /// When the engine wrote it (RFC 3339, the engine's clock).
    pub timestamp: String,
    /// Id of the node that just finished; `None` before the first node of a run that was
    /// rolled back to its start.
    pub current_node: Option<String>,
    /// Id of the node to run next; `None` once the run is over.
    pub next_node_id: Option<String>,
    /// Node ids completed, in order (a node visited twice appears twice). Not stored in
    /// checkpoint.json from format 2 on: [`Checkpoint::load`] rebuilds it from the stages
    /// of timeline.jsonl. In the checkpoint the engine hands its hook after a stage it is
    /// empty (see [`Checkpoint::stages`]).
    #[serde(default, skip_serializing)]
    pub completed_nodes: Vec<String>,
    /// Retries used per node id (attempts beyond the first, summed over visits).
    ///
    /// This and the other keyed fields (`node_visits`, `node_outcomes`, `context_values`)
    /// are stored in timeline.jsonl from format 3 on, as `state` lines
    /// ([`crate::checkpoint_state`]); [`Checkpoint::load`] adds them up. In the checkpoint
    /// the engine hands its hook after a stage they hold only the entries that changed since
    /// the previous checkpoint (and the current node's outcome).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_retries: BTreeMap<String, u32>,
    /// How many times each node id has started, counting the running visit.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_visits: BTreeMap<String, u32>,
    /// Each node id's outcome at its latest visit (since the last loop restart).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_outcomes: BTreeMap<String, NodeOutcome>,
    /// The run context (key to JSON value) after the node.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub context_values: BTreeMap<String, Json>,
    /// Human-readable log lines (warnings, restarts), in order. Like `timeline`, stored in
    /// timeline.jsonl from format 2 on.
    #[serde(default, skip_serializing)]
    pub logs: Vec<String>,
    /// The run-branch commit (40 hex digits) recording this checkpoint; `None` without git
    /// checkpoints, or before the hook returned.
    #[serde(default)]
    pub git_commit_sha: Option<String>,
    /// Failure signatures (`node|class|normalised reason`) seen since the last restart, with
    /// how many times each occurred.
    #[serde(default)]
    pub loop_failure_signatures: BTreeMap<String, u32>,
    /// Failure signatures that caused a `loop_restart`, with how many restarts each caused.
    #[serde(default)]
    pub restart_failure_signatures: BTreeMap<String, u32>,
    /// Every stage executed, in order, once loaded. Stored in timeline.jsonl from format 2
    /// on; in the checkpoint the engine hands its hook after a stage, only the stages
    /// recorded since the previous checkpoint.
    #[serde(default, skip_serializing)]
    pub timeline: Vec<StageRecord>,
    /// Restarts through `loop_restart` edges so far.
    #[serde(default)]
    pub restarts: u32,
    /// Progress of the branches of a parallel node that is still running (so a resume
    /// continues them instead of starting them over).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<BranchProgress>,
    /// Stages executed so far (the length of the whole timeline). 0 in format 1 files,
    /// where [`Checkpoint::load`] counts the inline timeline instead.
    #[serde(default)]
    pub stages: usize,
    /// How many bytes at the start of timeline.jsonl this checkpoint covers (always whole
    /// lines; bytes after them are ignored). `None`: a format 1 checkpoint, whose history
    /// is inline in checkpoint.json.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub history_bytes: Option<u64>,
}

/// Where one branch of a running parallel node stands.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchProgress {
    /// Id of the parallel node the branch belongs to.
    pub parallel: String,
    /// The branch, named by the id of its first node.
    pub branch: String,
    /// Id of the node the branch runs next; `None` once it ended.
    pub next_node: Option<String>,
    /// Position in the workflow's edges of the edge into `next_node`, if known.
    #[serde(default)]
    pub edge: Option<usize>,
    /// The branch's own context (key to JSON value).
    pub context_values: BTreeMap<String, Json>,
    /// How it ended; `None` while it still runs.
    #[serde(default)]
    pub result: Option<BranchOutcome>,
}

/// How a branch ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BranchOutcome {
    /// The status of its last stage.
    pub status: StageStatus,
    /// Id of the last node it ran; `None` when it ran none.
    pub last_node: Option<String>,
    /// Why it failed, in words; `None` when it did not.
    pub failure_reason: Option<String>,
}

fn default_version() -> u32 {
    CHECKPOINT_VERSION
}

/// A node's last outcome, as the checkpoint keeps it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeOutcome {
    /// How the visit ended.
    pub status: StageStatus,
    /// The edge label the stage asked for (human choice, agent directive); `None` when it
    /// asked for none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_label: Option<String>,
    /// Why it failed, in words; `None` when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
}

/// One stage visit in the run's timeline (what the preamble and the UI's timeline show).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StageRecord {
    /// Id of the node that ran.
    pub node_id: String,
    /// The handler that ran it.
    pub kind: HandlerKind,
    /// Which visit of the node this was, from 1.
    pub visit: u32,
    /// Attempts used, from 1 (retries plus one).
    pub attempts: u32,
    /// Status of its last attempt.
    pub status: StageStatus,
    /// The stage's folder, relative to the run directory (`nodes/test-visit_2`).
    pub stage_dir: String,
    /// When its first attempt started (RFC 3339).
    pub started_at: String,
    /// When its last attempt ended (RFC 3339).
    pub ended_at: String,
    /// Wall time of all attempts, in milliseconds.
    pub duration_ms: u64,
    /// The parallel branch it ran in (the id of the branch's first node); `None` outside
    /// parallel branches.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// Why it failed, in words; `None` when it did not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// What kind of failure it was (decides retries); `None` when it did not fail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_class: Option<FailureClass>,
    /// A short note from the handler (empty when none).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub notes: String,
    /// The label it preferred (human choice, agent directive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_label: Option<String>,
    /// The model an LLM stage called; `None` for other stages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Tokens an LLM stage used; `None` for other stages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// What its LLM calls cost in US dollars, when the prices are known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_usd: Option<f64>,
    /// Paths (relative to the work tree) the stage changed, from the agent's tool events
    /// or else from its git checkpoint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files_touched: Vec<String>,
    /// The command line a command stage ran; `None` for other stages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Whether the dry-run backend simulated it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub simulated: bool,
    /// How many test artifacts were captured after it.
    #[serde(default, skip_serializing_if = "crate::outcome::is_zero")]
    pub artifacts: usize,
    /// Summary of its JUnit reports ("41 passed, 1 failed"); `None` when it left none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub junit: Option<String>,
    /// Its complete outputs as blob refs, by file name (`stdout.log`, `stderr.log`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub blobs: BTreeMap<String, String>,
}

impl Checkpoint {
    /// Writes the whole checkpoint next to `path` (timeline.jsonl replaced from its
    /// timeline and logs, then checkpoint.json), each atomically with fsync.
    pub fn save(&self, path: &Path) -> Result<(), EngineError> {
        self.save_with(path, true)
    }

    /// [`Checkpoint::save`], with fsync only when `sync`.
    pub fn save_with(&self, path: &Path, sync: bool) -> Result<(), EngineError> {
        let (head, history) = self.to_files(path)?;
        atomic_write(&history_path(path), &history, sync)?;
        atomic_write(path, &head, sync)
    }

    /// The whole checkpoint as the two files [`Checkpoint::save`] writes: checkpoint.json
    /// (compact JSON) and timeline.jsonl (its timeline and logs).
    pub fn to_files(&self, path: &Path) -> Result<(Vec<u8>, Vec<u8>), EngineError> {
        let state = KeyedState::of(self).whole();
        let history = History::to_text(&self.timeline, &self.logs, Some(state))?;
        let head = Checkpoint {
            stages: self.timeline.len(),
            history_bytes: Some(history.len() as u64),
            version: CHECKPOINT_VERSION,
            ..self.head_only()
        };
        Ok((head.head_bytes(path)?, history))
    }

    /// Writes checkpoint.json alone (compact JSON) atomically, with fsync when `sync`: the
    /// engine's write after each node, once the new history lines were appended to
    /// timeline.jsonl. Its size does not grow with the run.
    pub fn save_head(&self, path: &Path, sync: bool) -> Result<(), EngineError> {
        atomic_write(path, &self.head_bytes(path)?, sync)
    }

    /// checkpoint.json's content for this checkpoint (compact JSON, without the history,
    /// which from format 3 on includes the keyed state; `path` names the file in errors).
    pub fn head_bytes(&self, path: &Path) -> Result<Vec<u8>, EngineError> {
        let keyed = !(self.node_retries.is_empty()
            && self.node_visits.is_empty()
            && self.node_outcomes.is_empty()
            && self.context_values.is_empty());
        let bytes = if self.version >= KEYED_STATE_IN_HISTORY && keyed {
            serde_json::to_vec(&Checkpoint {
                node_retries: BTreeMap::new(),
                node_visits: BTreeMap::new(),
                node_outcomes: BTreeMap::new(),
                context_values: BTreeMap::new(),
                ..self.head_only_without_keyed_state()
            })
        } else {
            serde_json::to_vec(self)
        };
        bytes.map_err(|e| EngineError::Io {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }

    /// What a `head` line of timeline.jsonl holds for this checkpoint: its head, without
    /// the history, the keyed state or the covered length.
    pub fn head_line(&self) -> Checkpoint {
        Checkpoint {
            version: CHECKPOINT_VERSION,
            history_bytes: None,
            ..self.head_only_without_keyed_state()
        }
    }

    /// A copy without the history (timeline, completed nodes, logs).
    pub fn head_only(&self) -> Checkpoint {
        Checkpoint {
            node_retries: self.node_retries.clone(),
            node_visits: self.node_visits.clone(),
            node_outcomes: self.node_outcomes.clone(),
            context_values: self.context_values.clone(),
            ..self.head_only_without_keyed_state()
        }
    }

    /// A copy without the history and without the keyed state.
    fn head_only_without_keyed_state(&self) -> Checkpoint {
        Checkpoint {
            version: self.version,
            run_id: self.run_id.clone(),
            timestamp: self.timestamp.clone(),
            current_node: self.current_node.clone(),
            next_node_id: self.next_node_id.clone(),
            completed_nodes: Vec::new(),
            node_retries: BTreeMap::new(),
            node_visits: BTreeMap::new(),
            node_outcomes: BTreeMap::new(),
            context_values: BTreeMap::new(),
            logs: Vec::new(),
            git_commit_sha: self.git_commit_sha.clone(),
            loop_failure_signatures: self.loop_failure_signatures.clone(),
            restart_failure_signatures: self.restart_failure_signatures.clone(),
            timeline: Vec::new(),
            restarts: self.restarts,
            branches: self.branches.clone(),
            stages: self.stages,
            history_bytes: self.history_bytes,
        }
    }

    /// Reads a checkpoint with its history: checkpoint.json (a corrupt file is reported
    /// with its line and column), the part of timeline.jsonl beside it that it covers, and
    /// the stages past it that a `head` line closes (the last such head then stands for
    /// checkpoint.json). A format 1 file, with its history inline, reads the same.
    pub fn load(path: &Path) -> Result<Checkpoint, EngineError> {
        let text = std::fs::read(path).map_err(|e| EngineError::io(path, &e))?;
        let checkpoint = Checkpoint::parse_head(path, &text)?;
        match checkpoint.history_bytes {
            Some(bytes) => {
                let (history, head) = History::read_journaled(&history_path(path), bytes)?;
                let checkpoint = head.map_or(checkpoint, JournaledHead::into_checkpoint);
                Ok(checkpoint.with_history(history))
            }
            None => Ok(checkpoint.with_inline_history()),
        }
    }

    /// Parses checkpoint.json's text (`path` names it in errors); the history is not read.
    pub fn parse_head(path: &Path, text: &[u8]) -> Result<Checkpoint, EngineError> {
        serde_json::from_slice(text).map_err(|e| EngineError::CorruptCheckpoint {
            path: path.to_path_buf(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })
    }

    /// This head with `history` joined in (its stages also give the completed nodes; its
    /// `state` lines, from format 3 on, the keyed state).
    pub fn with_history(mut self, history: History) -> Checkpoint {
        if let Some(state) = history.state {
            state.fill(&mut self);
        }
        self.completed_nodes = history.timeline.iter().map(|r| r.node_id.clone()).collect();
        self.stages = history.timeline.len();
        self.timeline = history.timeline;
        self.logs = history.logs;
        self
    }

    /// A format 1 checkpoint as read, its counts filled in from the inline history.
    fn with_inline_history(mut self) -> Checkpoint {
        self.stages = self.timeline.len();
        self
    }
}

/// timeline.jsonl beside the checkpoint.json at `path`.
pub fn history_path(path: &Path) -> PathBuf {
    path.with_file_name(TIMELINE_FILE)
}
