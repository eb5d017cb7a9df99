//! [`HttpProvider`]: the [`ChatProvider`] for every wire format. It builds the request
//! for the endpoint's format, runs attempts, and retries transient failures with
//! deterministic exponential backoff (or the provider's `Retry-After`), stopping at once
//! when the call is cancelled.

use async_trait::async_trait;
use bytes::Bytes;
use heddle_engine::llm::{LlmError, LlmErrorKind};
use reqwest::header::{ACCEPT, CONTENT_TYPE, HeaderMap, HeaderName, HeaderValue};
use serde_json::Value as Json;
use tokio_util::sync::CancellationToken;
use tracing::field::Empty;

use super::anthropic::stream::AnthropicAssembler;
use super::assembly::ReplyAssembler;
use super::attempt::{AttemptInput, run_attempt};
use super::chat_completions::stream::ChatAssembler;
use super::endpoint::{Endpoint, HttpSettings, WireFormat};
use super::failure::AttemptFailure;
use super::gemini::stream::GeminiAssembler;
use super::openai_responses::stream::ResponsesAssembler;
use super::{ChatObserver, ChatProvider, anthropic, chat_completions, gemini, openai_responses};
use crate::chat::{ChatRequest, ChatResponse};

/// The `anthropic-version` header value sent to the Messages API.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// A streaming HTTP client for one provider endpoint.
#[derive(Debug, Clone)]
pub struct HttpProvider {
    endpoint: Endpoint,
    settings: HttpSettings,
    client: reqwest::Client,
    headers: HeaderMap,
}

impl HttpProvider {
    /// A client for `endpoint`. Fails (`Config`) when the base URL is not `http(s)://...`
    /// or the key or an extra header cannot be sent as an HTTP header.
    pub fn new(endpoint: Endpoint, settings: HttpSettings) -> Result<HttpProvider, LlmError> {
        let name = &endpoint.name;
        let base = endpoint.base_url.trim();
        if !(base.starts_with("http://") || base.starts_with("https://")) {
            return Err(LlmError::new(
                LlmErrorKind::Config,
                format!(
                    "the base URL of provider `{name}` must start with http:// or https:// \
                     (got `{base}`)"
                ),
            ));
        }
        let headers = request_headers(&endpoint)?;
        let client = reqwest::Client::builder()
            .connect_timeout(settings.connect_timeout)
            .user_agent(concat!("heddle/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|error| {
                LlmError::new(
                    LlmErrorKind::Config,
                    format!("cannot set up the HTTP client for provider `{name}`: {error}"),
                )
            })?;
        Ok(HttpProvider {
            endpoint,
            settings,
            client,
            headers,
        })
    }

    /// The endpoint it talks to.
    pub fn endpoint(&self) -> &Endpoint {
        &self.endpoint
    }

    /// Its timeouts and retry policy.
    pub fn settings(&self) -> &HttpSettings {
        &self.settings
    }

    /// The JSON body sent for `request` (without sending it).
    pub fn request_body(&self, request: &ChatRequest) -> Json {
        let name = &self.endpoint.name;
        match self.endpoint.format {
            WireFormat::AnthropicMessages => anthropic::request::request_body(request, name),
            WireFormat::OpenAiResponses => openai_responses::request::request_body(request, name),
            WireFormat::ChatCompletions => chat_completions::request::request_body(request),
            WireFormat::GeminiGenerateContent => gemini::request::request_body(request, name),
        }
    }

    fn assembler(&self) -> Box<dyn ReplyAssembler> {
        let name = &self.endpoint.name;
        match self.endpoint.format {
            WireFormat::AnthropicMessages => Box::new(AnthropicAssembler::new(name)),
            WireFormat::OpenAiResponses => Box::new(ResponsesAssembler::new(name)),
            WireFormat::ChatCompletions => Box::new(ChatAssembler::new(name)),
            WireFormat::GeminiGenerateContent => Box::new(GeminiAssembler::new(name)),
        }
    }

    fn cancelled(&self) -> LlmError {
        LlmError::new(
            LlmErrorKind::Cancelled,
            format!("the call to {} was cancelled", self.endpoint.name),
        )
    }
}

#[async_trait]
impl ChatProvider for HttpProvider {
    fn name(&self) -> &str {
        &self.endpoint.name
    }

    // Provider and model only: the request's messages and the key never go into a span.
    #[tracing::instrument(name = "llm_call", skip_all, fields(provider = %self.endpoint.name, model = %request.model, attempts = Empty, input_tokens = Empty, output_tokens = Empty))]
    async fn complete(
        &self,
        request: &ChatRequest,
        observer: &dyn ChatObserver,
        cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        if cancel.is_cancelled() {
            return Err(self.cancelled());
        }
        let name = &self.endpoint.name;
        let body = serde_json::to_vec(&self.request_body(request)).map_err(|error| {
            LlmError::new(
                LlmErrorKind::Fatal,
                format!("cannot encode the request for {name}: {error}"),
            )
        })?;
        let body = Bytes::from(body);
        let url = self.endpoint.url(&request.model);
        let input = AttemptInput {
            client: &self.client,
            endpoint: &self.endpoint,
            settings: &self.settings,
            url: &url,
            headers: &self.headers,
            body: &body,
            model: &request.model,
        };
        let mut attempt: u32 = 0;
        loop {
            attempt += 1;
            tracing::Span::current().record("attempts", attempt);
            let outcome = tokio::select! {
                biased;
                _ = cancel.cancelled() => return Err(self.cancelled()),
                outcome = run_attempt(&input, self.assembler(), observer) => outcome,
            };
            let (reason, retry_after) = match outcome {
                Ok(response) => {
                    record_usage(&response);
                    return Ok(response);
                }
                Err(AttemptFailure::Final(error)) => return Err(error),
                Err(AttemptFailure::Retryable {
                    reason,
                    retry_after,
                }) => (reason, retry_after),
            };
            if attempt > self.settings.max_retries {
                let attempts = if attempt == 1 {
                    "1 attempt".to_owned()
                } else {
                    format!("{attempt} attempts")
                };
                return Err(LlmError::new(
                    LlmErrorKind::Transient,
                    format!(
                        "{name} (model `{}`) failed after {attempts}: {reason}",
                        request.model
                    ),
                ));
            }
            let delay = match retry_after {
                Some(wait) => wait.min(self.settings.max_retry_after),
                None => self.settings.backoff(attempt),
            };
            observer.retrying(attempt, delay, &reason);
            tokio::select! {
                biased;
                _ = cancel.cancelled() => return Err(self.cancelled()),
                _ = tokio::time::sleep(delay) => {}
            }
        }
    }
}

/// Notes the reply's token counts on the call's span.
fn record_usage(response: &ChatResponse) {
    let span = tracing::Span::current();
    span.record("input_tokens", response.usage.input_tokens);
    span.record("output_tokens", response.usage.output_tokens);
    tracing::info!("llm call answered");
}

/// The headers of every request: content type, auth for the format, extra headers last (so
/// they can override).
fn request_headers(endpoint: &Endpoint) -> Result<HeaderMap, LlmError> {
    let name = &endpoint.name;
    let mut headers = HeaderMap::new();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(ACCEPT, HeaderValue::from_static("text/event-stream"));
    if endpoint.format == WireFormat::AnthropicMessages {
        headers.insert(
            HeaderName::from_static("anthropic-version"),
            HeaderValue::from_static(ANTHROPIC_VERSION),
        );
    }
    if let Some(key) = endpoint.api_key.as_deref().map(str::trim) {
        let (header, text) = match endpoint.format {
            WireFormat::AnthropicMessages => (HeaderName::from_static("x-api-key"), key.to_owned()),
            WireFormat::GeminiGenerateContent => {
                (HeaderName::from_static("x-goog-api-key"), key.to_owned())
            }
            _ => (reqwest::header::AUTHORIZATION, format!("Bearer {key}")),
        };
        let mut value = HeaderValue::from_str(&text).map_err(|_| {
            LlmError::new(
                LlmErrorKind::Config,
                format!(
                    "the API key for provider `{name}` has characters an HTTP header cannot \
                     carry (a line break or non-ASCII text?): check {}",
                    endpoint.key_hint()
                ),
            )
        })?;
        value.set_sensitive(true);
        headers.insert(header, value);
    }
    for (header, value) in &endpoint.extra_headers {
        let bad = |what: &str| {
            LlmError::new(
                LlmErrorKind::Config,
                format!("the extra header `{header}` of provider `{name}` has an invalid {what}"),
            )
        };
        let header_name =
            HeaderName::from_bytes(header.trim().as_bytes()).map_err(|_| bad("name"))?;
        let header_value = HeaderValue::from_str(value).map_err(|_| bad("value"))?;
        headers.insert(header_name, header_value);
    }
    Ok(headers)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn endpoint(format: WireFormat, key: Option<&str>) -> Endpoint {
        Endpoint {
            name: "p".to_owned(),
            format,
            base_url: "http://127.0.0.1:9/v1".to_owned(),
            api_key: key.map(str::to_owned),
            extra_headers: vec![("X-Team".to_owned(), "heddle".to_owned())],
        }
    }

    #[test]
    fn auth_headers_by_format() {
        let headers =
            request_headers(&endpoint(WireFormat::AnthropicMessages, Some("sk-a"))).unwrap();
        assert_eq!(headers["x-api-key"], "sk-a");
        assert_eq!(headers["anthropic-version"], ANTHROPIC_VERSION);
        assert!(headers.get("authorization").is_none());
        assert_eq!(headers["x-team"], "heddle");

        let headers =
            request_headers(&endpoint(WireFormat::OpenAiResponses, Some("sk-o"))).unwrap();
        assert_eq!(headers["authorization"], "Bearer sk-o");
        assert!(headers.get("anthropic-version").is_none());

        let headers = request_headers(&endpoint(WireFormat::ChatCompletions, None)).unwrap();
        assert!(headers.get("authorization").is_none());

        let headers =
            request_headers(&endpoint(WireFormat::GeminiGenerateContent, Some("g-k"))).unwrap();
        assert_eq!(headers["x-goog-api-key"], "g-k");
        assert!(headers.get("authorization").is_none());
    }

    #[test]
    fn bad_setup_is_a_config_error() {
        let error = HttpProvider::new(
            endpoint(WireFormat::ChatCompletions, Some("bad\nkey")),
            HttpSettings::default(),
        )
        .unwrap_err();
        assert_eq!(error.kind, LlmErrorKind::Config);
        assert!(error.message.contains("provider `p`"), "{}", error.message);

        let mut bad_url = endpoint(WireFormat::ChatCompletions, None);
        bad_url.base_url = "localhost:11434/v1".to_owned();
        let error = HttpProvider::new(bad_url, HttpSettings::default()).unwrap_err();
        assert_eq!(error.kind, LlmErrorKind::Config);
    }
}
