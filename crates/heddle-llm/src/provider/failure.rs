//! How one failed attempt is classified: retried (429, 5xx, network, broken streams) or final
//! (bad key, bad request), with messages that say what went wrong and what to fix.

use std::time::Duration;

use heddle_engine::llm::{LlmError, LlmErrorKind};
use reqwest::StatusCode;
use reqwest::header::HeaderMap;
use serde_json::Value as Json;

use super::endpoint::Endpoint;
use super::gemini::errors as google;

/// Why one attempt failed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum AttemptFailure {
    /// Worth another attempt.
    Retryable {
        /// What failed, for `ChatObserver::retrying` and the final message.
        reason: String,
        /// How long the provider asked us to wait.
        retry_after: Option<Duration>,
    },
    /// Retrying will not help.
    Final(LlmError),
}

impl AttemptFailure {
    /// A retryable failure without a requested wait.
    pub(crate) fn retry(reason: impl Into<String>) -> Self {
        AttemptFailure::Retryable {
            reason: reason.into(),
            retry_after: None,
        }
    }

    /// A final failure.
    pub(crate) fn fatal(kind: LlmErrorKind, message: impl Into<String>) -> Self {
        AttemptFailure::Final(LlmError::new(kind, message))
    }
}

/// Classifies a response whose status is not a success.
pub(crate) fn from_status(
    endpoint: &Endpoint,
    model: &str,
    status: StatusCode,
    headers: &HeaderMap,
    body: &str,
) -> AttemptFailure {
    let name = &endpoint.name;
    let detail = provider_message(body);
    let status_text = describe_status(status);
    let code = status.as_u16();
    if code == 429 || code == 408 || code == 409 || status.is_server_error() {
        return AttemptFailure::Retryable {
            reason: format!("{status_text}: {detail}"),
            retry_after: retry_after(headers).or_else(|| google::retry_delay(body)),
        };
    }
    if code == 401 || code == 403 || (code == 400 && google::is_bad_key(body)) {
        let hint = endpoint.key_hint();
        let fix = if endpoint.api_key.is_none() {
            format!("no API key was sent; set {hint}")
        } else if code == 403 {
            format!("check that {hint} belongs to an account allowed to use model `{model}`")
        } else {
            format!("check {hint}")
        };
        return AttemptFailure::fatal(
            LlmErrorKind::Config,
            format!("{name} rejected the request ({status_text}: {detail}): {fix}"),
        );
    }
    if code == 404 {
        return AttemptFailure::fatal(
            LlmErrorKind::Config,
            format!(
                "{name} answered {status_text} ({detail}): check the model id `{model}` and \
                 the base URL `{}`",
                endpoint.base_url
            ),
        );
    }
    AttemptFailure::fatal(
        LlmErrorKind::Fatal,
        format!("{name} refused the request ({status_text}): {detail}"),
    )
}

/// Classifies an error the provider reported inside a stream (Anthropic `event: error`,
/// Responses `response.failed`, a Chat Completions or Gemini chunk with `error`; Gemini's
/// `error_type` is the Google status such as `UNAVAILABLE`).
pub(crate) fn from_stream_error(
    endpoint_name: &str,
    error_type: &str,
    message: &str,
) -> AttemptFailure {
    let label = if error_type.is_empty() {
        "an error".to_owned()
    } else {
        format!("`{error_type}`")
    };
    let message = if message.is_empty() {
        "(no message)"
    } else {
        message
    };
    let text = format!("{endpoint_name} reported {label} mid-stream: {message}");
    match error_type {
        "authentication_error"
        | "permission_error"
        | "invalid_api_key"
        | "UNAUTHENTICATED"
        | "PERMISSION_DENIED" => AttemptFailure::fatal(LlmErrorKind::Config, text),
        "invalid_request_error"
        | "invalid_prompt"
        | "not_found_error"
        | "request_too_large"
        | "context_length_exceeded"
        | "INVALID_ARGUMENT"
        | "FAILED_PRECONDITION"
        | "NOT_FOUND" => AttemptFailure::fatal(LlmErrorKind::Fatal, text),
        _ => AttemptFailure::retry(text),
    }
}

/// `HTTP 503 Service Unavailable`.
pub(crate) fn describe_status(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(reason) => format!("HTTP {} {reason}", status.as_u16()),
        None => format!("HTTP {}", status.as_u16()),
    }
}

/// The provider's own error message from an error body: `{"error":{"message":...}}`
/// (Anthropic, OpenAI), `{"error":"..."}` (Ollama), `{"message":...}`, or the body itself.
pub(crate) fn provider_message(body: &str) -> String {
    if let Ok(json) = serde_json::from_str::<Json>(body) {
        let error = json.get("error");
        let found = error
            .and_then(|e| e.get("message"))
            .or(error.filter(|e| e.is_string()))
            .or(json.get("message"))
            .or(json.get("detail"))
            .and_then(Json::as_str);
        if let Some(message) = found {
            return message.to_owned();
        }
    }
    let trimmed = body.trim();
    if trimmed.is_empty() {
        return "(the response body was empty)".to_owned();
    }
    let mut short: String = trimmed.chars().take(300).collect();
    if short.len() < trimmed.len() {
        short.push_str("...");
    }
    short
}

/// The wait a response asks for: `retry-after-ms` (OpenAI) or `Retry-After` in seconds.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let number = |name: &str| {
        headers
            .get(name)?
            .to_str()
            .ok()?
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
    };
    if let Some(ms) = number("retry-after-ms") {
        return Some(Duration::from_secs_f64(ms / 1000.0));
    }
    number("retry-after").map(Duration::from_secs_f64)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use reqwest::header::HeaderValue;

    use super::*;
    use crate::provider::endpoint::WireFormat;

    fn endpoint(name: &str, key: Option<&str>) -> Endpoint {
        Endpoint {
            name: name.to_owned(),
            format: WireFormat::AnthropicMessages,
            base_url: "http://127.0.0.1:1/v1".to_owned(),
            api_key: key.map(str::to_owned),
            extra_headers: Vec::new(),
        }
    }

    fn final_error(failure: AttemptFailure) -> LlmError {
        match failure {
            AttemptFailure::Final(error) => error,
            other => panic!("expected a final error, got {other:?}"),
        }
    }

    #[test]
    fn parses_provider_messages() {
        let anthropic =
            r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#;
        assert_eq!(provider_message(anthropic), "Overloaded");
        assert_eq!(
            provider_message(r#"{"error":"model not found"}"#),
            "model not found"
        );
        assert_eq!(provider_message("  bad gateway \n"), "bad gateway");
        assert_eq!(provider_message(""), "(the response body was empty)");
    }

    #[test]
    fn rate_limits_retry_after_the_requested_wait() {
        let mut headers = HeaderMap::new();
        headers.insert("retry-after", HeaderValue::from_static("3"));
        let failure = from_status(
            &endpoint("openai", Some("k")),
            "m",
            StatusCode::TOO_MANY_REQUESTS,
            &headers,
            r#"{"error":{"message":"slow down"}}"#,
        );
        assert_eq!(
            failure,
            AttemptFailure::Retryable {
                reason: "HTTP 429 Too Many Requests: slow down".to_owned(),
                retry_after: Some(Duration::from_secs(3)),
            }
        );
        headers.insert("retry-after-ms", HeaderValue::from_static("250"));
        assert_eq!(retry_after(&headers), Some(Duration::from_millis(250)));
    }

    #[test]
    fn bad_keys_name_the_variable() {
        let error = final_error(from_status(
            &endpoint("anthropic", Some("k")),
            "m",
            StatusCode::UNAUTHORIZED,
            &HeaderMap::new(),
            r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
        ));
        assert_eq!(error.kind, LlmErrorKind::Config);
        assert!(
            error.message.contains("ANTHROPIC_API_KEY"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("invalid x-api-key"),
            "{}",
            error.message
        );

        let error = final_error(from_status(
            &endpoint("groq", None),
            "m",
            StatusCode::FORBIDDEN,
            &HeaderMap::new(),
            "",
        ));
        assert!(
            error.message.contains("no API key was sent"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("provider `groq`"),
            "{}",
            error.message
        );
    }

    #[test]
    fn bad_requests_are_fatal_with_the_providers_message() {
        let error = final_error(from_status(
            &endpoint("openai", Some("k")),
            "m",
            StatusCode::BAD_REQUEST,
            &HeaderMap::new(),
            r#"{"error":{"message":"max_tokens is too large"}}"#,
        ));
        assert_eq!(error.kind, LlmErrorKind::Fatal);
        assert_eq!(
            error.message,
            "openai refused the request (HTTP 400 Bad Request): max_tokens is too large"
        );
    }

    #[test]
    fn google_bodies_give_the_wait_and_mark_bad_keys() {
        let rate_limited = r#"{"error": {"code": 429, "message": "Quota exceeded",
            "status": "RESOURCE_EXHAUSTED", "details": [
              {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "12s"}]}}"#;
        let failure = from_status(
            &endpoint("gemini", Some("k")),
            "gemini-3-flash-preview",
            StatusCode::TOO_MANY_REQUESTS,
            &HeaderMap::new(),
            rate_limited,
        );
        assert_eq!(
            failure,
            AttemptFailure::Retryable {
                reason: "HTTP 429 Too Many Requests: Quota exceeded".to_owned(),
                retry_after: Some(Duration::from_secs(12)),
            }
        );
        let bad_key = r#"{"error": {"code": 400, "message": "API key not valid.",
            "status": "INVALID_ARGUMENT", "details": [
              {"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": "API_KEY_INVALID"}]}}"#;
        let error = final_error(from_status(
            &endpoint("gemini", Some("k")),
            "m",
            StatusCode::BAD_REQUEST,
            &HeaderMap::new(),
            bad_key,
        ));
        assert_eq!(error.kind, LlmErrorKind::Config);
        assert!(
            error.message.contains("GEMINI_API_KEY"),
            "{}",
            error.message
        );
        assert!(
            error.message.contains("API key not valid"),
            "{}",
            error.message
        );
        let too_long = r#"{"error": {"code": 400, "status": "INVALID_ARGUMENT",
            "message": "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)."}}"#;
        let error = final_error(from_status(
            &endpoint("gemini", Some("k")),
            "m",
            StatusCode::BAD_REQUEST,
            &HeaderMap::new(),
            too_long,
        ));
        assert_eq!(error.kind, LlmErrorKind::Fatal);
        assert!(
            error
                .message
                .contains("exceeds the maximum number of tokens")
        );
    }

    #[test]
    fn stream_errors_by_type() {
        assert!(matches!(
            from_stream_error("anthropic", "overloaded_error", "Overloaded"),
            AttemptFailure::Retryable { .. }
        ));
        let error = final_error(from_stream_error("openai", "invalid_request_error", "no"));
        assert_eq!(error.kind, LlmErrorKind::Fatal);
    }
}
