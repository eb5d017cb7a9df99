//! Where a provider lives and how to talk to it: its wire format, base URL and key, and the
//! timeouts and retry policy for calls to it.

use std::time::Duration;

/// The API shapes Heddle speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WireFormat {
    /// Anthropic's Messages API (`POST {base}/messages`).
    AnthropicMessages,
    /// OpenAI's Responses API (`POST {base}/responses`).
    OpenAiResponses,
    /// OpenAI-compatible Chat Completions (`POST {base}/chat/completions`): OpenAI, Ollama,
    /// vLLM, LM Studio, OpenRouter and the like.
    ChatCompletions,
    /// Google's Gemini API (`POST {base}/models/{model}:streamGenerateContent?alt=sse`).
    GeminiGenerateContent,
}

impl WireFormat {
    /// The path appended to the base URL for a call to `model` (only Gemini puts the model
    /// in the path; the others send it in the body).
    pub fn path(self, model: &str) -> String {
        match self {
            WireFormat::AnthropicMessages => "messages".to_owned(),
            WireFormat::OpenAiResponses => "responses".to_owned(),
            WireFormat::ChatCompletions => "chat/completions".to_owned(),
            WireFormat::GeminiGenerateContent => {
                format!("models/{}:streamGenerateContent?alt=sse", model.trim())
            }
        }
    }
}

/// One provider's API. Its `Debug` output hides the key.
#[derive(Clone, PartialEq, Eq)]
pub struct Endpoint {
    /// The provider's name as workflows write it (`anthropic`, `openai`, `ollama`, ...).
    /// [`crate::chat::Block::Opaque`] blocks go back only to a provider of the same name.
    pub name: String,
    /// The API shape it speaks.
    pub format: WireFormat,
    /// The base URL including the version path: `https://api.anthropic.com/v1`,
    /// `https://api.openai.com/v1`, `https://generativelanguage.googleapis.com/v1beta`,
    /// `http://localhost:11434/v1`.
    pub base_url: String,
    /// The API key; `None` for local servers that need none.
    pub api_key: Option<String>,
    /// More headers sent with every request (`(name, value)`).
    pub extra_headers: Vec<(String, String)>,
}

impl Endpoint {
    /// The full URL a call to `model` is posted to.
    pub fn url(&self, model: &str) -> String {
        format!(
            "{}/{}",
            self.base_url.trim_end_matches('/'),
            self.format.path(model)
        )
    }

    /// What the user should set when the provider rejects the key: the environment
    /// variable for the well-known providers, a description otherwise.
    pub fn key_hint(&self) -> String {
        match self.name.as_str() {
            "anthropic" => "ANTHROPIC_API_KEY".to_owned(),
            "openai" => "OPENAI_API_KEY".to_owned(),
            "gemini" => "GEMINI_API_KEY (or GOOGLE_API_KEY)".to_owned(),
            other => format!("the API key for provider `{other}`"),
        }
    }
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let header_names: Vec<&str> = self.extra_headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("Endpoint")
            .field("name", &self.name)
            .field("format", &self.format)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "<hidden>"))
            .field("extra_headers", &header_names)
            .finish()
    }
}

/// Timeouts and retry policy for one provider.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpSettings {
    /// Longest wait for the TCP (and TLS) connection.
    pub connect_timeout: Duration,
    /// Longest wait from sending the request until the response headers arrive.
    pub request_timeout: Duration,
    /// Longest gap between two chunks of a streamed response.
    pub stream_idle_timeout: Duration,
    /// How many times a failed attempt is retried (so at most `max_retries + 1` attempts).
    pub max_retries: u32,
    /// The wait before the first retry; it doubles for each later one.
    pub initial_backoff: Duration,
    /// The longest wait between attempts that backoff computes.
    pub max_backoff: Duration,
    /// The longest wait a provider's `Retry-After` may ask for (longer requests are cut to
    /// this).
    pub max_retry_after: Duration,
}

impl Default for HttpSettings {
    fn default() -> Self {
        HttpSettings {
            connect_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(120),
            stream_idle_timeout: Duration::from_secs(90),
            max_retries: 4,
            initial_backoff: Duration::from_secs(1),
            max_backoff: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(60),
        }
    }
}

impl HttpSettings {
    /// The wait after failed attempt number `attempt` (1 for the first): `initial_backoff`
    /// doubled `attempt - 1` times, at most `max_backoff`. No jitter, so runs are
    /// reproducible.
    pub fn backoff(&self, attempt: u32) -> Duration {
        let doublings = attempt.saturating_sub(1).min(31);
        self.initial_backoff
            .saturating_mul(1u32 << doublings)
            .min(self.max_backoff)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let settings = HttpSettings::default();
        let waits: Vec<u64> = (1..=7).map(|n| settings.backoff(n).as_secs()).collect();
        assert_eq!(waits, vec![1, 2, 4, 8, 16, 30, 30]);
        assert_eq!(settings.backoff(500), Duration::from_secs(30));
    }

    #[test]
    fn url_joins_base_and_path() {
        let endpoint = Endpoint {
            name: "ollama".to_owned(),
            format: WireFormat::ChatCompletions,
            base_url: "http://localhost:11434/v1/".to_owned(),
            api_key: None,
            extra_headers: Vec::new(),
        };
        assert_eq!(
            endpoint.url("qwen"),
            "http://localhost:11434/v1/chat/completions"
        );
        assert_eq!(endpoint.key_hint(), "the API key for provider `ollama`");
        let shown = format!(
            "{:?}",
            Endpoint {
                api_key: Some("sk-secret".to_owned()),
                ..endpoint
            }
        );
        assert!(!shown.contains("sk-secret"), "{shown}");
    }

    #[test]
    fn gemini_puts_the_model_in_the_path() {
        let endpoint = Endpoint {
            name: "gemini".to_owned(),
            format: WireFormat::GeminiGenerateContent,
            base_url: "https://generativelanguage.googleapis.com/v1beta/".to_owned(),
            api_key: Some("k".to_owned()),
            extra_headers: Vec::new(),
        };
        assert_eq!(
            endpoint.url("gemini-3-flash-preview"),
            "https://generativelanguage.googleapis.com/v1beta/models/\
             gemini-3-flash-preview:streamGenerateContent?alt=sse"
        );
        assert!(endpoint.key_hint().contains("GEMINI_API_KEY"));
    }
}
