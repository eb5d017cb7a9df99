//! The built-in agent: a conversation with one provider that runs tools until the model
//! answers without asking for any, with turn limits, loop detection and context compaction.
//! Prompt nodes use the same session with no tools: one call per message.

mod compaction;
mod loop_detect;
mod observer;
mod session;
mod system_prompt;

pub use compaction::{COMPACT_AT_PERCENT, KEEP_RECENT_TURNS, estimate_tokens};
pub use loop_detect::{LoopDetector, LoopVerdict};
pub use session::{AgentSession, AgentSettings, DEFAULT_MAX_TURNS};
pub use system_prompt::{AGENT_SYSTEM_PROMPT, PROMPT_SYSTEM_PROMPT};

use async_trait::async_trait;
use serde_json::Value as Json;
use tokio_util::sync::CancellationToken;

use crate::chat::ToolSpec;
pub use crate::tools::ToolOutcome;
use crate::tools::Toolbox;

/// Runs the tools an agent may call.
#[async_trait]
pub trait ToolRunner: Send + Sync {
    /// The tools offered to the model.
    fn specs(&self) -> Vec<ToolSpec>;

    /// Runs tool `name`; every problem (unknown tool, bad arguments) is an error result the
    /// model can read, never a panic.
    async fn run(&self, name: &str, arguments: &Json, cancel: &CancellationToken) -> ToolOutcome;
}

/// The built-in tools, confined to the run's work dir.
#[async_trait]
impl ToolRunner for Toolbox {
    fn specs(&self) -> Vec<ToolSpec> {
        Toolbox::specs(self)
    }

    async fn run(&self, name: &str, arguments: &Json, cancel: &CancellationToken) -> ToolOutcome {
        self.call(name, arguments, cancel).await
    }
}
