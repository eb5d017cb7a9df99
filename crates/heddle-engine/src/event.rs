//! The event stream: one typed enum, one stable JSON envelope. docs/events.md lists every
//! event and its properties; `progress.jsonl` holds one envelope per line.

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::outcome::{FailureClass, StageStatus, Usage};

/// One event in its envelope, as written to `progress.jsonl` and sent to subscribers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "RunEvent"))]
pub struct Envelope {
    /// Unique id (a ULID).
    pub id: String,
    /// When it happened (RFC 3339, UTC, milliseconds).
    pub ts: String,
    /// Id of the run the event belongs to (a ULID; the run folder's name).
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[cfg_attr(feature = "ts", ts(rename = "OutputStream"))]
#[serde(rename_all = "snake_case")]
pub enum Stream {
    /// Standard output.
    Stdout,
    /// Standard error.
    Stderr,
}

run_events! {
    /// Everything that happens in a run. Each variant's name (`"run.started"`) is written
    /// once, here: the serde tag, [`Event::name`], [`EVENT_NAMES`] and the TypeScript union
    /// all come from it.
    pub enum Event {
        /// The run began (or resumed).
        "run.started" => RunStarted {
            /// Workflow name.
            workflow: String,
            /// The run's goal text (the run config's, else the graph's `goal`); `None` when
            /// neither sets one.
            goal: Option<String>,
            /// Where stages run.
            work_dir: String,
            /// The run directory.
            run_dir: String,
            /// LLM stages are simulated.
            dry_run: bool,
            /// Resumed from a checkpoint.
            resumed: bool,
            /// The cost limit this start or resume runs under, in US dollars (the caller's,
            /// else the run config's, else the graph's `max_cost_usd`); absent: none.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            max_cost_usd: Option<f64>,
            /// The token limit this start or resume runs under (same precedence as
            /// `max_cost_usd`); absent: none.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            max_tokens: Option<u64>,
        },
        /// The run reached an exit.
        "run.completed" => RunCompleted {
            /// Wall time of the run.
            duration_ms: u64,
            /// Stages executed.
            stages: usize,
        },
        /// The run failed.
        "run.failed" => RunFailed {
            /// Why.
            reason: String,
            /// Wall time of the run.
            duration_ms: u64,
        },
        /// The run was cancelled (Ctrl-C, the API, a stall).
        "run.cancelled" => RunCancelled {
            /// Why.
            reason: String,
            /// Wall time of the run.
            duration_ms: u64,
        },
        /// The run spent more than its budget (`max_cost_usd` / `max_tokens`, a Heddle
        /// extension): it stops before `next_node`, which a resume with a higher budget runs.
        "run.budget_exceeded" => RunBudgetExceeded {
            /// What its priced LLM calls cost so far, in US dollars.
            cost_usd: f64,
            /// Input plus output tokens its LLM calls used so far.
            tokens: u64,
            /// The cost limit, when there is one.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            max_cost_usd: Option<f64>,
            /// The token limit, when there is one.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            max_tokens: Option<u64>,
            /// The node the run would have run next.
            next_node: String,
        },
        /// Someone rolled the stopped run back to a checkpoint; resumed, it continues from there
        /// on a new timeline. Nodes the checkpoint had not completed are pending again.
        "run.rolled_back" => RunRolledBack {
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
        "run.recovered" => RunRecovered {
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
        "stage.started" => StageStarted {
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
        "stage.completed" => StageCompleted {
            /// How the stage ended: `success`, `partial_success` or `skipped` (a failure is
            /// `stage.failed` instead).
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
            /// Tokens the stage's LLM calls used (LLM stages).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            usage: Option<Usage>,
            /// What the stage's LLM calls cost in US dollars, when the prices are known.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cost_usd: Option<f64>,
        },
        /// A stage finished failing.
        "stage.failed" => StageFailed {
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
            /// Tokens the stage's LLM calls used (LLM stages).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            usage: Option<Usage>,
            /// What the stage's LLM calls cost in US dollars, when the prices are known.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            cost_usd: Option<f64>,
        },
        /// A stage attempt will be retried after a delay.
        "stage.retrying" => StageRetrying {
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
        "edge.selected" => EdgeSelected {
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
        "run.ended_without_edge" => RunEndedWithoutEdge {
            /// The stage's status.
            status: StageStatus,
            /// What the person reading the run is told.
            message: String,
        },
        /// A goal gate was checked at an exit.
        "goal_gate.checked" => GoalGateChecked {
            /// Whether the gate's stage succeeded.
            satisfied: bool,
            /// The gate stage's last status.
            status: StageStatus,
            /// Where the run goes when it is unmet.
            target: Option<String>,
        },
        /// checkpoint.json was saved.
        "checkpoint.saved" => CheckpointSaved {
            /// Node to run next (none at the end).
            next_node_id: Option<String>,
            /// Git commit of the checkpoint (git checkpoints only).
            git_commit_sha: Option<String>,
        },
        /// A parallel branch began.
        "parallel.branch.started" => ParallelBranchStarted {
            /// The branch (its first node).
            branch: String,
        },
        /// A parallel branch ended.
        "parallel.branch.completed" => ParallelBranchCompleted {
            /// The branch (its first node).
            branch: String,
            /// Its final status.
            status: StageStatus,
            /// The last node it ran.
            last_node: Option<String>,
        },
        /// A human gate asks its question.
        "interview.started" => InterviewStarted {
            /// The text shown to the person: the gate node's `label` (or its id without one).
            question: String,
            /// The choices' labels.
            choices: Vec<String>,
            /// The question's id (to answer it through a queue).
            question_id: String,
        },
        /// A person answered.
        "interview.answered" => InterviewAnswered {
            /// The accelerator key, or `freeform`.
            selected: String,
            /// The chosen edge's label.
            label: Option<String>,
            /// Freeform text.
            text: Option<String>,
        },
        /// Nobody answered in time.
        "interview.timed_out" => InterviewTimedOut {
            /// The default choice taken, if any.
            default_choice: Option<String>,
        },
        /// A chunk of a command's output.
        "command.output" => CommandOutput {
            /// Which stream.
            stream: Stream,
            /// The text (lossily decoded UTF-8).
            text: String,
        },
        /// Text an LLM stage produced (a streamed delta, or the whole reply).
        "agent.text" => AgentText {
            /// Reply text, as the model produced it (Markdown, not yet rendered).
            text: String,
            /// From the simulated (dry-run) backend.
            simulated: bool,
        },
        /// An agent started a tool call.
        "agent.tool_call.started" => AgentToolCallStarted {
            /// The provider's id for the call (e.g. `call_…` or `toolu_…`); the matching
            /// `agent.tool_call.completed` carries the same id.
            call_id: String,
            /// Tool name.
            tool: String,
            /// Arguments (truncated).
            #[cfg_attr(feature = "ts", ts(type = "unknown"))]
            arguments: Json,
        },
        /// A tool call finished.
        "agent.tool_call.completed" => AgentToolCallCompleted {
            /// The id of the `agent.tool_call.started` this call result answers.
            call_id: String,
            /// Tool name.
            tool: String,
            /// Result text (truncated).
            result: String,
            /// The tool reported an error.
            is_error: bool,
        },
        /// Tokens used by an LLM call.
        "agent.usage" => AgentUsage {
            /// Model name as the provider's response gives it (the requested name when the
            /// response names none).
            model: String,
            /// Counts.
            usage: Usage,
        },
        /// Anything else an LLM backend reports (retries, compaction), by name.
        "agent.note" => AgentNote {
            /// What kind of note (`retry`, `compaction.started`, ...).
            kind: String,
            /// Its details.
            #[cfg_attr(feature = "ts", ts(type = "unknown"))]
            details: Json,
        },
        /// A stage left a test artifact that was captured.
        "artifact.captured" => ArtifactCaptured {
            /// Where it is stored, relative to the run directory.
            path: String,
            /// `screenshot`, `video`, `junit`, `playwright_report`, `trace` or `other`.
            kind: String,
            /// MIME type sniffed from the file's name and first bytes (e.g. `image/png`).
            media_type: String,
            /// Its size in bytes.
            size: u64,
        },
        /// A `loop_restart` edge started the run over with a fresh context.
        "loop.restarted" => LoopRestarted {
            /// Where the run starts over.
            target: String,
            /// How many restarts so far.
            restarts: u32,
        },
        /// One observation cycle of a manager loop.
        "manager.cycle" => ManagerCycle {
            /// Cycle number, from 1.
            cycle: u32,
            /// Id (a ULID) of the child run the manager is watching.
            child_run_id: String,
            /// The child's status (`running`, `success`, `fail`, ...).
            child_status: String,
        },
        /// Something the person should know that does not stop the run.
        "warning" => Warning {
            /// What.
            message: String,
        },
    }
}

impl Event {
    /// Whether the event ends the run's stream (`run.completed`, `run.failed`,
    /// `run.cancelled`); a resumed run starts a new one.
    pub fn ends_run(&self) -> bool {
        matches!(
            self,
            Event::RunCompleted { .. } | Event::RunFailed { .. } | Event::RunCancelled { .. }
        )
    }
}
