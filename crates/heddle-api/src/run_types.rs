//! Request and response types of the run operations (start, cancel, resume, fork, roll
//! back, answer a gate, read checkpoints and events). TypeScript bindings are generated
//! from these like the workflow types.

use std::collections::BTreeMap;

use heddle_store::{PageRequest, RunFilter};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Start a run of a workflow file.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct StartRunRequest {
    /// Path of the `.dot` file.
    pub workflow_path: String,
    /// Overrides the graph's `goal`.
    #[serde(default)]
    pub goal: Option<String>,
    /// Labels to find the run by.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// `inputs.NAME` values for the workflow's templates; they override the `[run.inputs]`
    /// of a run config beside the workflow, key by key.
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
    /// Simulate LLM stages: no model is called; replies are marked simulated.
    #[serde(default)]
    pub dry_run: bool,
    /// Where stages run (default: the workflow's folder).
    #[serde(default)]
    pub work_dir: Option<String>,
    /// `auto` (default), `worktree`, `shadow` or `none`.
    #[serde(default)]
    pub checkpoints: Option<String>,
    /// The person has seen what the workflow will do (`workflow_trust`) and trusts it:
    /// an untrusted workflow is remembered as trusted and runs, instead of being refused.
    #[serde(default)]
    pub trust: bool,
    /// The `digest` of the `WorkflowTrust` the person reviewed. With `trust`, a workflow whose
    /// digest is another one now (it changed after the review) is refused, so consent covers
    /// exactly what was shown.
    #[serde(default)]
    pub trust_digest: Option<String>,
    /// Stop the run at the next stage boundary once its LLM calls have cost more than this,
    /// in US dollars (a positive number). Over the run config's and the graph's `max_cost_usd`.
    #[serde(default)]
    pub max_cost_usd: Option<f64>,
    /// Stop the run at the next stage boundary once its LLM calls have used more input plus
    /// output tokens than this (positive). Over the run config's and the graph's `max_tokens`.
    #[serde(default)]
    pub max_tokens: Option<u64>,
}

/// Continue a stopped run, with a budget of its own if one is given (a run stopped by its
/// budget goes on under a higher one).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct ResumeRunRequest {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// The most the whole run may cost, in US dollars (positive); spending counts from the
    /// run's start, not from the resume. Over the run config's and the graph's `max_cost_usd`.
    #[serde(default)]
    pub max_cost_usd: Option<f64>,
    /// The most input plus output tokens the whole run may use (positive). Over the run
    /// config's and the graph's `max_tokens`.
    #[serde(default)]
    pub max_tokens: Option<u64>,
}

/// A run that started (or continued) executing in this process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RunStarted {
    /// The run's full id (a ULID).
    pub run_id: String,
    /// The run folder: a new one under `$HEDDLE_HOME/runs`, or the folder asked for.
    pub run_dir: String,
    /// The node it starts or resumes at.
    pub start_node: String,
}

/// Names a run: its id, a unique prefix of one, or its folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RunRef {
    /// Id, prefix or folder.
    pub run_id: String,
}

/// Answer a human gate of a run, whichever process executes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AnswerGateRequest {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// Which waiting question ([`PendingGate::question_id`]).
    pub question_id: String,
    /// A choice's key, label or target; or freeform text when `freeform`.
    pub answer: String,
    /// Whether `answer` is freeform text rather than a choice.
    #[serde(default)]
    pub freeform: bool,
}

/// One choice of a gate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GateChoice {
    /// The key that picks it: the accelerator in the label (`[A] Approve`), else derived.
    pub key: String,
    /// The edge's `label` as written, or the target node's id when it has none.
    pub label: String,
    /// The node it leads to.
    pub target: String,
}

/// A human gate waiting for an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PendingGate {
    /// The run's full id (a ULID).
    pub run_id: String,
    /// Names this question in [`AnswerGateRequest::question_id`].
    pub question_id: String,
    /// Id of the human gate node asking.
    pub node_id: String,
    /// The question text shown to the person.
    pub text: String,
    /// Its choices, in edge order.
    pub choices: Vec<GateChoice>,
    /// Whether freeform text is accepted.
    pub allow_freeform: bool,
}

/// Roll a stopped run back to a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RollbackRequest {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// `last-success`, `NODE[:start|end]`, `NODE@VISIT` or a (partial) sha.
    pub to: String,
    /// Go ahead over files changed outside the run (a recovery snapshot is still taken).
    #[serde(default)]
    pub force: bool,
}

/// Start a new run from a checkpoint of another.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ForkRequest {
    /// The run to fork: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// The checkpoint (same forms as [`RollbackRequest::to`]).
    pub from: String,
}

/// One checkpoint of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CheckpointRef {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// The checkpoint (same forms as [`RollbackRequest::to`]).
    pub at: String,
}

/// One file at a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CheckpointFileRequest {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// The checkpoint (same forms as [`RollbackRequest::to`]).
    pub at: String,
    /// The file's path in the work tree, with `/` separators.
    pub path: String,
}

/// A file's content at a checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CheckpointFile {
    /// The path asked for, as given in the request.
    pub path: String,
    /// UTF-8 text, or `None` when the file is binary.
    pub text: Option<String>,
    /// Its size in bytes.
    pub size: u64,
}

/// The diff between two checkpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DiffRequest {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// The older checkpoint (same forms as [`RollbackRequest::to`]).
    pub from: String,
    /// The newer one (default: the run's latest).
    #[serde(default)]
    pub to: Option<String>,
}

/// A run's events after a sequence number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EventsRequest {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// Events with a larger `seq` than this (0: from the first).
    #[serde(default)]
    pub after_seq: u64,
}

/// A page of a run's events from the run index: those after a seq and, when `since` is
/// given, written at or after that moment. A screen reads a long run's history so, a page
/// at a time, rather than streaming every event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RunEventsRequest {
    /// The run: its id, a unique prefix of it, or its folder.
    pub run_id: String,
    /// Events with a larger `seq` than this (0: from the first).
    #[serde(default)]
    pub after_seq: u64,
    /// Only events written at or after this moment (RFC 3339 UTC with milliseconds, as a
    /// stage's `started_at`); `None`: from `after_seq` on.
    #[serde(default)]
    pub since: Option<String>,
    /// Most events to answer (1 to 10,000).
    pub limit: u32,
}

/// One page of a run's events, in `seq` order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RunEventPage {
    /// The events, each in the envelope `follow_events` streams (a `RunEvent`).
    #[ts(type = "Array<unknown>")]
    pub events: Vec<serde_json::Value>,
    /// Whether more events follow the last (ask again after its `seq`).
    pub more: bool,
}

/// List runs from the index.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct ListRunsRequest {
    /// Which runs (all top-level runs by default).
    #[serde(default)]
    pub filter: RunFilter,
    /// Which page (the first 50 by default).
    #[serde(default)]
    pub page: PageRequest,
}

/// Recently opened workflows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RecentWorkflowsRequest {
    /// At most this many, most recently opened first (20 by default).
    #[serde(default = "default_recent")]
    pub limit: u32,
}

fn default_recent() -> u32 {
    20
}

/// The run's saved state at a checkpoint (its `checkpoint.json`): where it stood, what it
/// had done, and its context.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct CheckpointState {
    /// Full sha of the checkpoint commit `at` named.
    pub sha: String,
    /// The node that had just finished.
    pub current_node: Option<String>,
    /// The node the run goes on to from here (none at the end).
    pub next_node_id: Option<String>,
    /// Nodes completed by then, in order.
    pub completed_nodes: Vec<String>,
    /// How many times each node had started by then, keyed by node id.
    pub node_visits: BTreeMap<String, u32>,
    /// Retries each node had used by then, keyed by node id.
    pub node_retries: BTreeMap<String, u32>,
    /// The context: every key and its JSON value.
    #[ts(type = "Record<string, unknown>")]
    pub context_values: BTreeMap<String, serde_json::Value>,
    /// Log lines the run wrote by then (warnings, restarts).
    pub logs: Vec<String>,
}
