//! External agents: programs that do a stage's work themselves, with their own model keys,
//! tools and sandbox, run in the stage's work dir.
//!
//! - `backend="cli"` ([`CliConversation`]): the command (`cli.command`, else the `claude`,
//!   `codex` or `gemini` CLI for the model's family, [`CliAgent`]) gets each message on
//!   stdin; its stdout is the reply.
//! - `backend="acp"` ([`AcpConversation`]): the command (`acp.command`) is an Agent Client
//!   Protocol agent, driven over its stdio for the whole conversation.
//!
//! Commands run with `sh -c` in a process group of their own, which is killed on
//! cancellation or when the conversation is dropped. Each reply lists the files the agent
//! changed, from snapshots of the work dir taken around the turn (see
//! [`heddle_engine::work_tree`]).

mod acp;
mod cli;
mod cli_agents;
mod files_touched;
mod launch;
mod stderr_tail;
mod text_decoder;

pub use acp::{AcpConversation, CANCEL_GRACE, PROTOCOL_VERSION};
pub use cli::CliConversation;
pub use cli_agents::{CliAgent, CliAgentReply};

use std::sync::Arc;

use heddle_engine::llm::{LlmConversation, LlmError, LlmErrorKind, LlmRequest};
use heddle_engine::work_tree::WorkTreeWatch;

/// The `backend` values served here.
pub const EXTERNAL_BACKENDS: [&str; 2] = ["cli", "acp"];

/// Whether `backend` names an external agent (see [`EXTERNAL_BACKENDS`]).
pub fn is_external(backend: &str) -> bool {
    EXTERNAL_BACKENDS.contains(&backend)
}

/// Opens a conversation with the external agent `request.backend` names ("cli" or "acp"),
/// running `request.command` (via `sh -c`) in `request.work_dir` with environment `env`
/// (external agents get the full environment: they need their own keys); `work_tree`
/// tells which files each turn touched.
pub async fn open_external(
    request: &LlmRequest,
    env: &[(String, String)],
    work_tree: &Arc<dyn WorkTreeWatch>,
) -> Result<Box<dyn LlmConversation>, LlmError> {
    match request.backend.as_deref() {
        Some("cli") => Ok(Box::new(CliConversation::new(request, env, work_tree)?)),
        Some("acp") => Ok(Box::new(
            AcpConversation::open(request, env, work_tree).await?,
        )),
        other => Err(LlmError::new(
            LlmErrorKind::Config,
            format!(
                "node `{}`: backend={} is not an external agent (expected \"cli\" or \"acp\")",
                request.node_id,
                other.map_or_else(|| "(none)".to_string(), |b| format!("\"{b}\""))
            ),
        )),
    }
}
