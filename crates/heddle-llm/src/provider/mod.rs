//! The wire clients: one per provider format (Anthropic Messages, OpenAI Responses, Chat
//! Completions, Gemini `streamGenerateContent`), all behind [`ChatProvider`], streaming, with
//! retries (429, 5xx, network errors; `Retry-After` honoured) and connect, request and
//! stream-idle timeouts.

mod anthropic;
mod assembly;
mod attempt;
mod chat_completions;
mod endpoint;
mod failure;
mod gemini;
mod http_provider;
mod openai_responses;
mod sse;
#[cfg(test)]
mod stream_replay;

pub use endpoint::{Endpoint, HttpSettings, WireFormat};
pub use http_provider::{ANTHROPIC_VERSION, HttpProvider};

use std::time::Duration;

use async_trait::async_trait;
use heddle_engine::llm::LlmError;
use tokio_util::sync::CancellationToken;

use crate::chat::{ChatRequest, ChatResponse};

/// Sees a call while it streams.
pub trait ChatObserver: Send + Sync {
    /// Assistant text as it arrives.
    fn text_delta(&self, text: &str);

    /// A failed attempt will be retried after `delay`; `reason` says what failed
    /// ("HTTP 429 Too Many Requests", "connection reset", ...).
    fn retrying(&self, attempt: u32, delay: Duration, reason: &str);
}

/// A model provider's API.
#[async_trait]
pub trait ChatProvider: Send + Sync {
    /// The provider's name as workflows write it (`anthropic`, `openai`, ...).
    fn name(&self) -> &str;

    /// Sends `request`, streaming text to `observer`, and returns the whole reply. Retries
    /// transient failures itself; returns `Cancelled` as soon as `cancel` fires.
    async fn complete(
        &self,
        request: &ChatRequest,
        observer: &dyn ChatObserver,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError>;
}

/// A user message as the OpenAI formats send it: the tool results first (they answer the
/// previous turn's calls) as `(call id, output)`, failed ones starting with `Error: ` since
/// those formats have no error flag; then the message's text, joined.
pub(crate) fn split_user_message(message: &crate::chat::Message) -> (Vec<(&str, String)>, String) {
    let mut results = Vec::new();
    let mut text = String::new();
    for block in &message.content {
        match block {
            crate::chat::Block::ToolResult {
                call_id,
                content,
                is_error,
            } => {
                let output = if *is_error {
                    format!("Error: {content}")
                } else {
                    content.clone()
                };
                results.push((call_id.as_str(), output));
            }
            crate::chat::Block::Text { text: piece } => text.push_str(piece),
            _ => {}
        }
    }
    (results, text)
}
