//! heddle-llm owns Heddle's real LLM backends, the implementations of
//! [`heddle_engine::llm::LlmBackend`] that `heddle run` uses without `--dry-run`:
//!
//! - [`chat`]: the provider-neutral conversation model (messages, tool calls, usage);
//! - [`provider`]: the wire clients for the Anthropic Messages API, the OpenAI Responses
//!   API, OpenAI-compatible Chat Completions and Gemini's `streamGenerateContent`,
//!   streaming, with retries and timeouts;
//! - [`catalog`]: known models, their context windows and prices, and model aliases;
//! - [`config`] and [`resolve`]: which providers are configured (environment,
//!   `heddle.toml`) and which one serves a node;
//! - [`agent`]: the coding-agent loop (tools, turn limits, loop detection, compaction);
//! - [`tools`]: the coding agent's tools (read, write and edit files, shell, grep, glob),
//!   every path confined to the run's work dir;
//! - [`external`]: external agents (`backend="cli"`, `backend="acp"`) run as processes; a
//!   `cli` node without a command runs the `claude`, `codex` or `gemini` CLI.
//!
//! Time and the environment come in from the caller; nothing here reads globals.

pub mod agent;
mod backend;
pub mod catalog;
pub mod chat;
pub mod config;
pub mod external;
pub mod provider;
pub mod resolve;
pub mod tools;

pub use backend::ProviderBackend;
