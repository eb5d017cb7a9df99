//! How LLM stages call out: the [`LlmBackend`] trait the real providers (heddle-llm)
//! implement, the [`SimulatedBackend`] that `--dry-run` plugs in, routing directives found
//! in replies, and `output_schema` validation with repair turns.

mod directives;
mod schema;
mod simulated;

pub use directives::{RoutingDirective, extract_directive, last_json_object};
pub use schema::{OutputSchema, SchemaError, SchemaOutcome, validate_with_repairs};
pub use simulated::SimulatedBackend;

use std::path::PathBuf;
use std::time::Duration;

use async_trait::async_trait;
use heddle_workflow::{HandlerKind, Workflow};
use serde_json::Value as Json;
use tokio_util::sync::CancellationToken;

use crate::outcome::Usage;

/// What an LLM stage asks for.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmRequest {
    /// The id of the run the stage belongs to (the built-in backends do not send it).
    pub run_id: String,
    /// The stage's node.
    pub node_id: String,
    /// Agent (tool loop) or prompt (one call).
    pub kind: HandlerKind,
    /// Model (node attribute, stylesheet, graph default).
    pub model: Option<String>,
    /// The node's `provider` (`anthropic`, `openai`, a name from heddle.toml); `None`: the
    /// model's family or heddle.toml's default decides.
    pub provider: Option<String>,
    /// The node's `reasoning_effort` (`low`, `medium`, `high`), passed to providers that
    /// take one.
    pub reasoning_effort: Option<String>,
    /// `backend` (built-in loop or an external agent).
    pub backend: Option<String>,
    /// The external agent's command line (`acp.command` or `cli.command`, by `backend`).
    pub command: Option<String>,
    /// `max_turns`: the most model calls one turn of an agent stage may make.
    pub max_turns: Option<u32>,
    /// Where tools may read and write.
    pub work_dir: PathBuf,
    /// Time limit for the stage.
    pub timeout: Option<Duration>,
    /// The JSON Schema the output must match, when the node has `output_schema`.
    pub output_schema: Option<Json>,
    /// The conversation thread (`full` fidelity), if any.
    pub thread_id: Option<String>,
}

/// One reply of a conversation.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LlmReply {
    /// The assistant's final text.
    pub text: String,
    /// The model that answered.
    pub model: String,
    /// Tokens used by this turn (all calls within it).
    pub usage: Usage,
    /// What the turn cost in US dollars, when the model's prices are known.
    pub cost_usd: Option<f64>,
    /// Files the agent changed, relative to the work dir, in the order they were last touched.
    pub files_touched: Vec<String>,
    /// Produced by the simulated backend, not a model.
    pub simulated: bool,
}

/// What went wrong talking to a model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct LlmError {
    /// The class of problem.
    pub kind: LlmErrorKind,
    /// What happened and how to fix it.
    pub message: String,
}

/// Classes of [`LlmError`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlmErrorKind {
    /// No provider or key configured, unknown model: fix the setup.
    Config,
    /// Rate limits, 5xx, network: worth retrying.
    Transient,
    /// The provider refused the request.
    Fatal,
    /// The call ran out of time.
    Timeout,
    /// The run was cancelled.
    Cancelled,
}

impl LlmError {
    /// An error of `kind`.
    pub fn new(kind: LlmErrorKind, message: impl Into<String>) -> Self {
        LlmError {
            kind,
            message: message.into(),
        }
    }
}

/// Live events of an LLM stage, forwarded to the run's event stream.
#[derive(Debug, Clone, PartialEq)]
pub enum LlmEvent {
    /// Assistant text as it streams.
    TextDelta(String),
    /// A tool call began.
    ToolCallStarted {
        /// The provider's id of the call; its completion carries the same.
        call_id: String,
        /// Tool name.
        tool: String,
        /// The arguments the model passed, as JSON.
        arguments: Json,
    },
    /// A tool call finished.
    ToolCallCompleted {
        /// The id its start carried.
        call_id: String,
        /// Tool name.
        tool: String,
        /// Result text.
        result: String,
        /// Whether the tool failed.
        is_error: bool,
    },
    /// Tokens used.
    Usage {
        /// The model the provider says answered (may differ from the one asked for).
        model: String,
        /// Counts.
        usage: Usage,
    },
    /// Retries, compaction and the like.
    Note {
        /// What happened (`retry`, `loop_detected`, a compaction step…).
        kind: String,
        /// Its particulars (the attempt and delay, the looping pattern…), as JSON.
        details: Json,
    },
}

/// Receives [`LlmEvent`]s while a turn runs.
pub trait LlmEventSink: Send + Sync {
    /// Records one event.
    fn emit(&self, event: LlmEvent);
}

/// A model provider (or the simulated one).
#[async_trait]
pub trait LlmBackend: Send + Sync {
    /// Whether replies are simulated (dry run).
    fn simulated(&self) -> bool {
        false
    }

    /// Checks, before a run starts, that every LLM node of `workflow` can be served (keys,
    /// providers). The error names what to set.
    fn preflight(&self, workflow: &Workflow) -> Result<(), LlmError> {
        let _ = workflow;
        Ok(())
    }

    /// Starts a conversation for one stage (or one thread of `full` stages).
    async fn open(&self, request: &LlmRequest) -> Result<Box<dyn LlmConversation>, LlmError>;
}

/// A conversation: the first message is the stage's prompt, later ones are repair turns or
/// the prompts of further stages on the same thread.
#[async_trait]
pub trait LlmConversation: Send {
    /// Sends `message` and returns the reply once the turn is over (an agent's turn includes
    /// all its tool calls).
    async fn send(
        &mut self,
        message: &str,
        events: &dyn LlmEventSink,
        cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError>;
}
