//! Shared setup for the provider tests: a client for each wire format pointed at a
//! [`FakeLlm`], fast test timeouts, a recording observer, and `wire_tests!`, which runs each
//! scenario once per format.

#![allow(
    dead_code,
    unused_macros,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::sync::Mutex;
use std::time::Duration;

use heddle_engine::llm::LlmError;
use heddle_fake_llm::FakeLlm;
use heddle_llm::chat::{ChatRequest, ChatResponse, Message, ToolSpec};
use heddle_llm::provider::{
    ChatObserver, ChatProvider, Endpoint, HttpProvider, HttpSettings, WireFormat,
};
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// One wire format as the tests use it.
#[derive(Debug, Clone, Copy)]
pub struct Wire {
    pub format: WireFormat,
    /// The provider name given to the endpoint.
    pub name: &'static str,
    /// The path the client must post to.
    pub path: &'static str,
    /// What a 401 must tell the user to check.
    pub key_hint: &'static str,
}

pub const ANTHROPIC: Wire = Wire {
    format: WireFormat::AnthropicMessages,
    name: "anthropic",
    path: "/v1/messages",
    key_hint: "ANTHROPIC_API_KEY",
};

pub const RESPONSES: Wire = Wire {
    format: WireFormat::OpenAiResponses,
    name: "openai",
    path: "/v1/responses",
    key_hint: "OPENAI_API_KEY",
};

pub const CHAT: Wire = Wire {
    format: WireFormat::ChatCompletions,
    name: "local",
    path: "/v1/chat/completions",
    key_hint: "the API key for provider `local`",
};

pub const GEMINI: Wire = Wire {
    format: WireFormat::GeminiGenerateContent,
    name: "gemini",
    path: "/v1/models/test-model:streamGenerateContent",
    key_hint: "GEMINI_API_KEY",
};

/// Tiny timeouts and backoffs so failure tests take milliseconds.
pub fn fast_settings() -> HttpSettings {
    HttpSettings {
        connect_timeout: Duration::from_secs(2),
        request_timeout: Duration::from_secs(2),
        stream_idle_timeout: Duration::from_millis(200),
        max_retries: 2,
        initial_backoff: Duration::from_millis(5),
        max_backoff: Duration::from_millis(20),
        max_retry_after: Duration::from_millis(50),
    }
}

pub fn provider(fake: &FakeLlm, wire: Wire) -> HttpProvider {
    provider_with(fake, wire, fast_settings())
}

pub fn provider_with(fake: &FakeLlm, wire: Wire, settings: HttpSettings) -> HttpProvider {
    let endpoint = Endpoint {
        name: wire.name.to_owned(),
        format: wire.format,
        base_url: fake.base_url(),
        api_key: Some("test-key".to_owned()),
        extra_headers: vec![("x-heddle-test".to_owned(), "1".to_owned())],
    };
    HttpProvider::new(endpoint, settings).unwrap()
}

/// A request with a system prompt, one user message and one tool.
pub fn request(text: &str) -> ChatRequest {
    ChatRequest {
        model: "test-model".to_owned(),
        system: "You are a test.".to_owned(),
        messages: vec![Message::user_text(text)],
        tools: vec![ToolSpec {
            name: "read_file".to_owned(),
            description: "Reads a file.".to_owned(),
            parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
        }],
        max_output_tokens: 512,
        reasoning_effort: None,
    }
}

/// Records what the client reported.
#[derive(Default)]
pub struct Recorder {
    pub deltas: Mutex<Vec<String>>,
    pub retries: Mutex<Vec<(u32, Duration, String)>>,
}

impl Recorder {
    pub fn deltas(&self) -> Vec<String> {
        self.deltas.lock().unwrap().clone()
    }

    pub fn retries(&self) -> Vec<(u32, Duration, String)> {
        self.retries.lock().unwrap().clone()
    }
}

impl ChatObserver for Recorder {
    fn text_delta(&self, text: &str) {
        self.deltas.lock().unwrap().push(text.to_owned());
    }

    fn retrying(&self, attempt: u32, delay: Duration, reason: &str) {
        self.retries
            .lock()
            .unwrap()
            .push((attempt, delay, reason.to_owned()));
    }
}

/// Runs one call, never cancelled.
pub async fn call(
    provider: &HttpProvider,
    request: &ChatRequest,
) -> (Result<ChatResponse, LlmError>, Recorder) {
    let recorder = Recorder::default();
    let result = provider
        .complete(request, &recorder, &CancellationToken::new())
        .await;
    (result, recorder)
}

/// Declares `mod anthropic`, `mod responses`, `mod chat` and `mod gemini`, each with one
/// `#[tokio::test]` per scenario: an `async fn(Wire)` in the including file. With
/// `text_arguments:` first, `mod gemini` is left out: the scenarios need tool arguments that
/// arrive as text (and may be invalid JSON), which Gemini sends as JSON objects.
macro_rules! wire_tests {
    (text_arguments: $($scenario:ident),* $(,)?) => {
        mod anthropic {
            $( #[tokio::test] async fn $scenario() { super::$scenario(super::provider_harness::ANTHROPIC).await } )*
        }
        mod responses {
            $( #[tokio::test] async fn $scenario() { super::$scenario(super::provider_harness::RESPONSES).await } )*
        }
        mod chat {
            $( #[tokio::test] async fn $scenario() { super::$scenario(super::provider_harness::CHAT).await } )*
        }
    };
    ($($scenario:ident),* $(,)?) => {
        wire_tests!(text_arguments: $($scenario),*);
        mod gemini {
            $( #[tokio::test] async fn $scenario() { super::$scenario(super::provider_harness::GEMINI).await } )*
        }
    };
}
