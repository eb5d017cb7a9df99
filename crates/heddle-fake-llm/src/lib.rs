//! heddle-fake-llm owns a loopback fake LLM server for tests (never a dependency of the
//! shipped binaries). [`FakeLlm`] speaks the Anthropic Messages, OpenAI Responses, Chat
//! Completions and Gemini `streamGenerateContent` streaming formats with real SSE, answers with a per-test script of
//! [`Scripted`] items (replies, HTTP errors, truncated, broken and stalled streams, slow
//! replies) and records every request so tests can check what a client sent.
//!
//! ```
//! use heddle_fake_llm::{FakeLlm, FakeReply, Scripted};
//!
//! let fake = FakeLlm::start();
//! fake.push(FakeReply::text("Hello").usage(10, 2, 0, 0));
//! fake.push(Scripted::status_retry_after(429, 0, "slow down"));
//! assert!(fake.base_url().starts_with("http://127.0.0.1:"));
//! assert_eq!(fake.remaining(), 2);
//! ```

mod anthropic_wire;
mod chat_wire;
mod gemini_wire;
mod respond;
mod responses_wire;
mod script;
mod server;
mod sse_frame;

pub use script::{FakeReply, FakeToolCall, FakeUsage, Scripted};
pub use server::{FakeLlm, RecordedRequest};
