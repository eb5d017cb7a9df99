//! The event stream: one typed enum, one stable JSON envelope. docs/events.md lists every
//! event and its properties; `progress.jsonl` holds one envelope per line.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::outcome::{FailureClass, StageStatus, Usage};

/// One event in its envelope, as written to `progress.jsonl` and sent to subscribers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Envelope {
    /// Unique id (a ULID).
    pub id: String,
    /// When it happened (RFC 3339, UTC, milliseconds).
    pub ts: String,
    /// The run.
    pub run_id: String,
    /// Position in the run's stream, from 1, without gaps.
    pub seq: u64,
    /// The node it concerns, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_id: Option<String>,
    /// The event name (`stage.started`) and its properties.
    #[serde(flatten)]
    pub event: Event,
}

/// Why an edge was chosen (edge selection steps, in order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeReason {
    /// Its condition held.
    Condition,
    /// Its label matched the stage's preferred label.
    Label,
    /// Its target was among the stage's suggested next ids.
    Suggestion,
    /// The heaviest unconditional edge.
    Weight,
    /// Failure routing: the node's or graph's retry target.
    RetryTarget,
    /// An unmet goal gate sent the run to a retry target.
    GoalGate,
    /// A parallel node continues at the fan-in its branches reached.
    FanIn,
}

/// Which stream a chunk of command output came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

/// Everything that happens in a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", content = "properties")]
pub enum Event {
    /// The run began (or resumed).
    #[serde(rename = "run.started")]
    RunStarted {
        /// Workflow name.
        workflow: String,
        /// The goal.
        goal: Option<String>,
        /// Where stages run.
        work_dir: String,
        /// The run directory.
        run_dir: String,
        /// LLM stages are simulated.
        dry_run: bool,
        /// Resumed from a checkpoint.
        resumed: bool,
    },
    /// The run reached an exit.
    #[serde(rename = "run.completed")]
    RunCompleted {
        /// Wall time of the run.
        duration_ms: u64,
        /// Stages executed.
        stages: usize,
    },
    /// The run failed.
    #[serde(rename = "run.failed")]
    RunFailed {
        /// Why.
        reason: String,
        /// Wall time of the run.
        duration_ms: u64,
    },
    /// The run was cancelled (Ctrl-C, the API, a stall).
    #[serde(rename = "run.cancelled")]
    RunCancelled {
        /// Why.
        reason: String,
        /// Wall time of the run.
        duration_ms: u64,
    },
    /// Someone rolled the stopped run back to a checkpoint; resumed, it continues from there
    /// on a new timeline. Nodes the checkpoint had not completed are pending again.
    #[serde(rename = "run.rolled_back")]
    RunRolledBack {
        /// The checkpoint commit restored.
        to: String,
        /// The new timeline branch (short name).
        timeline: String,
        /// The node the run resumes at (none: from the start).
        next_node_id: Option<String>,
        /// Nodes the checkpoint had completed, in order.
        completed_nodes: Vec<String>,
    },
    /// Resuming a run whose process died mid-stage: the work tree as it was was committed
    /// as a recovery snapshot, then the files the run owns were put back to the last
    /// checkpoint, so the stage runs again from the state it first started from.
    #[serde(rename = "run.recovered")]
    RunRecovered {
        /// The checkpoint commit the files were restored to.
        checkpoint: String,
        /// The recovery snapshot's ref (`refs/heddle/recovery/{run}/{n}`).
        recovery_ref: String,
        /// Its commit: the work tree as the interrupted stage left it.
        recovery_sha: String,
        /// Files written back (changed or deleted by the interrupted stage).
        written: Vec<String>,
        /// Files deleted (created by the interrupted stage).
        deleted: Vec<String>,
        /// Entries in the way that the run does not own (ignored files, links, nested
        /// repositories), moved whole into `moved_aside_to` instead of being deleted.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        moved_aside: Vec<String>,
        /// The folder they were moved into (`{run_dir}/recovery/{n}`), when any were.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        moved_aside_to: Option<String>,
    },
    /// A stage attempt began.
    #[serde(rename = "stage.started")]
    StageStarted {
        /// Handler kind (`command`, `agent`, ...).
        kind: String,
        /// Visit of the node, from 1.
        visit: u32,
        /// Attempt within the visit, from 1.
        attempt: u32,
        /// Parallel branch (its first node), when inside one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        branch: Option<String>,
        /// The stage's folder, relative to the run directory (absent in older logs).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stage_dir: Option<String>,
    },
    /// A stage finished with a non-failing status.
    #[serde(rename = "stage.completed")]
    StageCompleted {
        /// The status.
        status: StageStatus,
        /// Time the stage took (all attempts).
        duration_ms: u64,
        /// Visit of the node.
        visit: u32,
        /// Attempts used.
        attempts: u32,
        /// Short note.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        notes: String,
        /// Parallel branch, when inside one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        branch: Option<String>,
        /// The stage's folder, relative to the run directory (absent in older logs).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stage_dir: Option<String>,
    },
    /// A stage finished failing.
    #[serde(rename = "stage.failed")]
    StageFailed {
        /// Why.
        reason: String,
        /// The failure's class.
        failure_class: Option<FailureClass>,
        /// Time the stage took (all attempts).
        duration_ms: u64,
        /// Visit of the node.
        visit: u32,
        /// Attempts used.
        attempts: u32,
        /// Parallel branch, when inside one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        branch: Option<String>,
        /// The stage's folder, relative to the run directory (absent in older logs).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stage_dir: Option<String>,
    },
    /// A stage attempt will be retried after a delay.
    #[serde(rename = "stage.retrying")]
    StageRetrying {
        /// The attempt that is over.
        attempt: u32,
        /// Attempts allowed.
        max_attempts: u32,
        /// Backoff before the next attempt.
        delay_ms: u64,
        /// Why.
        reason: String,
    },
    /// The run moves along an edge.
    #[serde(rename = "edge.selected")]
    EdgeSelected {
        /// Tail node.
        from: String,
        /// Head node.
        to: String,
        /// Edge label.
        label: Option<String>,
        /// Edge condition.
        condition: Option<String>,
        /// Why this edge.
        reason: EdgeReason,
    },
    /// A stage that did not fail had no edge to take, so the run ended at it (successfully,
    /// without reaching an exit; goal gates are not checked).
    #[serde(rename = "run.ended_without_edge")]
    RunEndedWithoutEdge {
        /// The stage's status.
        status: StageStatus,
        /// What the person reading the run is told.
        message: String,
    },
    /// A goal gate was checked at an exit.
    #[serde(rename = "goal_gate.checked")]
    GoalGateChecked {
        /// Whether the gate's stage succeeded.
        satisfied: bool,
        /// The gate stage's last status.
        status: StageStatus,
        /// Where the run goes when it is unmet.
        target: Option<String>,
    },
    /// A parallel branch began.
    #[serde(rename = "parallel.branch.started")]
    ParallelBranchStarted {
        /// The branch (its first node).
        branch: String,
    },
    /// A parallel branch ended.
    #[serde(rename = "parallel.branch.completed")]
    ParallelBranchCompleted {
        /// The branch (its first node).
        branch: String,
        /// Its final status.
        status: StageStatus,
        /// The last node it ran.
        last_node: Option<String>,
    },
    /// A human gate asks its question.
    #[serde(rename = "interview.started")]
    InterviewStarted {
        /// The question.
        question: String,
        /// The choices' labels.
        choices: Vec<String>,
        /// The question's id (to answer it through a queue).
        question_id: String,
    },
    /// A person answered.
    #[serde(rename = "interview.answered")]
    InterviewAnswered {
        /// The accelerator key, or `freeform`.
        selected: String,
        /// The chosen edge's label.
        label: Option<String>,
        /// Freeform text.
        text: Option<String>,
    },
    /// Nobody answered in time.
    #[serde(rename = "interview.timed_out")]
    InterviewTimedOut {
        /// The default choice taken, if any.
        default_choice: Option<String>,
    },
    /// checkpoint.json was saved.
    #[serde(rename = "checkpoint.saved")]
    CheckpointSaved {
        /// Node to run next (none at the end).
        next_node_id: Option<String>,
        /// Git commit of the checkpoint (git checkpoints only).
        git_commit_sha: Option<String>,
    },
    /// A chunk of a command's output.
    #[serde(rename = "command.output")]
    CommandOutput {
        /// Which stream.
        stream: Stream,
        /// The text (lossily decoded UTF-8).
        text: String,
    },
    /// Text an LLM stage produced (a streamed delta, or the whole reply).
    #[serde(rename = "agent.text")]
    AgentText {
        /// The text.
        text: String,
        /// From the simulated (dry-run) backend.
        simulated: bool,
    },
    /// An agent started a tool call.
    #[serde(rename = "agent.tool_call.started")]
    AgentToolCallStarted {
        /// Call id.
        call_id: String,
        /// Tool name.
        tool: String,
        /// Arguments (truncated).
        arguments: Json,
    },
    /// A tool call finished.
    #[serde(rename = "agent.tool_call.completed")]
    AgentToolCallCompleted {
        /// Call id.
        call_id: String,
        /// Tool name.
        tool: String,
        /// Result text (truncated).
        result: String,
        /// The tool reported an error.
        is_error: bool,
    },
    /// Tokens used by an LLM call.
    #[serde(rename = "agent.usage")]
    AgentUsage {
        /// Model.
        model: String,
        /// Counts.
        usage: Usage,
    },
    /// Anything else an LLM backend reports (retries, compaction), by name.
    #[serde(rename = "agent.note")]
    AgentNote {
        /// What kind of note (`retry`, `compaction.started`, ...).
        kind: String,
        /// Its details.
        details: Json,
    },
    /// A stage left a test artifact that was captured.
    #[serde(rename = "artifact.captured")]
    ArtifactCaptured {
        /// Where it is stored, relative to the run directory.
        path: String,
        /// `screenshot`, `video`, `junit`, `playwright_report`, `trace` or `other`.
        kind: String,
        /// Its media type.
        media_type: String,
        /// Its size in bytes.
        size: u64,
    },
    /// A `loop_restart` edge started the run over with a fresh context.
    #[serde(rename = "loop.restarted")]
    LoopRestarted {
        /// Where the run starts over.
        target: String,
        /// How many restarts so far.
        restarts: u32,
    },
    /// One observation cycle of a manager loop.
    #[serde(rename = "manager.cycle")]
    ManagerCycle {
        /// Cycle number, from 1.
        cycle: u32,
        /// The child run.
        child_run_id: String,
        /// The child's status (`running`, `success`, `fail`, ...).
        child_status: String,
    },
    /// Something the person should know that does not stop the run.
    #[serde(rename = "warning")]
    Warning {
        /// What.
        message: String,
    },
}

/// Every event name, in docs/events.md order.
pub const EVENT_NAMES: &[&str] = &[
    "run.started",
    "run.completed",
    "run.failed",
    "run.cancelled",
    "run.rolled_back",
    "run.recovered",
    "stage.started",
    "stage.completed",
    "stage.failed",
    "stage.retrying",
    "edge.selected",
    "run.ended_without_edge",
    "goal_gate.checked",
    "checkpoint.saved",
    "parallel.branch.started",
    "parallel.branch.completed",
    "interview.started",
    "interview.answered",
    "interview.timed_out",
    "command.output",
    "agent.text",
    "agent.tool_call.started",
    "agent.tool_call.completed",
    "agent.usage",
    "agent.note",
    "artifact.captured",
    "loop.restarted",
    "manager.cycle",
    "warning",
];

impl Event {
    /// The event's name (`stage.started`, ...).
    pub fn name(&self) -> &'static str {
        match self {
            Event::RunStarted { .. } => "run.started",
            Event::RunCompleted { .. } => "run.completed",
            Event::RunFailed { .. } => "run.failed",
            Event::RunRolledBack { .. } => "run.rolled_back",
            Event::RunRecovered { .. } => "run.recovered",
            Event::RunCancelled { .. } => "run.cancelled",
            Event::StageStarted { .. } => "stage.started",
            Event::StageCompleted { .. } => "stage.completed",
            Event::StageFailed { .. } => "stage.failed",
            Event::StageRetrying { .. } => "stage.retrying",
            Event::EdgeSelected { .. } => "edge.selected",
            Event::RunEndedWithoutEdge { .. } => "run.ended_without_edge",
            Event::GoalGateChecked { .. } => "goal_gate.checked",
            Event::ParallelBranchStarted { .. } => "parallel.branch.started",
            Event::ParallelBranchCompleted { .. } => "parallel.branch.completed",
            Event::InterviewStarted { .. } => "interview.started",
            Event::InterviewAnswered { .. } => "interview.answered",
            Event::InterviewTimedOut { .. } => "interview.timed_out",
            Event::CheckpointSaved { .. } => "checkpoint.saved",
            Event::CommandOutput { .. } => "command.output",
            Event::AgentText { .. } => "agent.text",
            Event::AgentToolCallStarted { .. } => "agent.tool_call.started",
            Event::AgentToolCallCompleted { .. } => "agent.tool_call.completed",
            Event::AgentUsage { .. } => "agent.usage",
            Event::AgentNote { .. } => "agent.note",
            Event::ArtifactCaptured { .. } => "artifact.captured",
            Event::LoopRestarted { .. } => "loop.restarted",
            Event::ManagerCycle { .. } => "manager.cycle",
            Event::Warning { .. } => "warning",
        }
    }
}
