//! heddle-llm owns Heddle's real LLM backends, the implementations of
//! [`heddle_engine::llm::LlmBackend`] that `heddle run` uses without `--dry-run`:
//!
//! - [`chat`]: the provider-neutral conversation model (messages, tool calls, usage);
//! - [`provider`]: the wire clients for the Anthropic Messages API, the OpenAI Responses
//!   API and OpenAI-compatible Chat Completions, streaming, with retries and timeouts.
//!
//! Time and the environment come in from the caller; nothing here reads globals.

pub mod chat;
pub mod provider;
