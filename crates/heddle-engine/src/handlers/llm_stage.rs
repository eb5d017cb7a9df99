//! Agent and prompt nodes. (stub; being written)

use std::path::PathBuf;

use tokio_util::sync::CancellationToken;

use crate::emitter::NodeEvents;
use crate::llm::{LlmBackend, LlmConversation, LlmRequest, OutputSchema};
use crate::outcome::Outcome;

/// One LLM stage to run.
pub struct LlmStage {
    /// What to ask the backend for.
    pub request: LlmRequest,
    /// The full prompt: preamble, then the node's prompt.
    pub prompt: String,
    /// The stage folder (prompt.md, response.md, status.json).
    pub stage_dir: PathBuf,
    /// `output_schema`, loaded.
    pub output_schema: Option<OutputSchema>,
    /// `output_retries` (default 2).
    pub output_retries: u32,
    /// A conversation to continue (`full` fidelity on a shared thread).
    pub conversation: Option<Box<dyn LlmConversation>>,
}

/// Runs the stage; returns its outcome and the conversation (to keep for its thread).
pub async fn run_llm_stage(
    backend: &dyn LlmBackend,
    stage: LlmStage,
    events: &NodeEvents,
    cancel: &CancellationToken,
) -> (Outcome, Option<Box<dyn LlmConversation>>) {
    let _ = (backend, events, cancel);
    (Outcome::success(), stage.conversation)
}
