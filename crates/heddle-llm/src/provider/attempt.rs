//! One attempt of a call: send the request, wait for the headers (at most
//! `request_timeout`), classify an error status, then read the stream (at most
//! `stream_idle_timeout` between chunks) until the completion marker.

use std::time::Duration;

use futures_util::StreamExt;
use heddle_engine::llm::LlmErrorKind;
use reqwest::header::HeaderMap;
use tokio::time::timeout;

use super::ChatObserver;
use super::assembly::ReplyAssembler;
use super::endpoint::{Endpoint, HttpSettings};
use super::failure::{self, AttemptFailure};
use super::sse::SseDecoder;
use crate::chat::ChatResponse;

/// The most of an error body kept for the message.
const ERROR_BODY_LIMIT: usize = 64 * 1024;

/// What one attempt sends.
pub(crate) struct AttemptInput<'a> {
    pub client: &'a reqwest::Client,
    pub endpoint: &'a Endpoint,
    pub settings: &'a HttpSettings,
    pub url: &'a str,
    pub headers: &'a HeaderMap,
    pub body: &'a bytes::Bytes,
    pub model: &'a str,
}

/// Runs one attempt. Dropping the future (on cancellation) closes the connection.
pub(crate) async fn run_attempt(
    input: &AttemptInput<'_>,
    mut assembler: Box<dyn ReplyAssembler>,
    observer: &dyn ChatObserver,
) -> Result<ChatResponse, AttemptFailure> {
    let name = &input.endpoint.name;
    let settings = input.settings;
    let send = input
        .client
        .post(input.url)
        .headers(input.headers.clone())
        .body(input.body.clone())
        .send();
    let response = match timeout(settings.request_timeout, send).await {
        Err(_) => {
            return Err(AttemptFailure::retry(format!(
                "no response from {} within {}",
                input.url,
                seconds(settings.request_timeout)
            )));
        }
        Ok(Err(error)) => return Err(send_failure(input, &error)),
        Ok(Ok(response)) => response,
    };
    let status = response.status();
    if !status.is_success() {
        let headers = response.headers().clone();
        let body = read_error_body(response, settings.request_timeout).await;
        return Err(failure::from_status(
            input.endpoint,
            input.model,
            status,
            &headers,
            &body,
        ));
    }

    let mut decoder = SseDecoder::new();
    let mut stream = response.bytes_stream();
    let mut received = 0usize;
    loop {
        let chunk = match timeout(settings.stream_idle_timeout, stream.next()).await {
            Err(_) => {
                return Err(AttemptFailure::retry(format!(
                    "the {name} stream went silent for {} (after {received} bytes)",
                    seconds(settings.stream_idle_timeout)
                )));
            }
            Ok(None) => break,
            Ok(Some(Err(error))) => {
                return Err(AttemptFailure::retry(format!(
                    "the connection to {name} broke mid-stream after {received} bytes: {}",
                    error_chain(&error)
                )));
            }
            Ok(Some(Ok(chunk))) => chunk,
        };
        received += chunk.len();
        for event in decoder.push(&chunk) {
            if assembler.on_event(&event, observer)? {
                return finish(assembler, input, received);
            }
        }
    }
    for event in decoder.finish() {
        if assembler.on_event(&event, observer)? {
            break;
        }
    }
    finish(assembler, input, received)
}

fn finish(
    assembler: Box<dyn ReplyAssembler>,
    input: &AttemptInput<'_>,
    received: usize,
) -> Result<ChatResponse, AttemptFailure> {
    assembler.finish().map_err(|missing| {
        AttemptFailure::retry(format!(
            "the {} stream ended early, before {missing} (the connection closed after {received} \
             bytes)",
            input.endpoint.name
        ))
    })
}

/// Sending failed before any response: network errors are retried, a request reqwest
/// could not even build is not.
fn send_failure(input: &AttemptInput<'_>, error: &reqwest::Error) -> AttemptFailure {
    let detail = error_chain(error);
    if error.is_builder() {
        return AttemptFailure::fatal(
            LlmErrorKind::Config,
            format!(
                "cannot send a request to {} ({detail}): check the base URL of provider `{}`",
                input.url, input.endpoint.name
            ),
        );
    }
    let what = if error.is_connect() {
        "cannot connect to"
    } else if error.is_timeout() {
        "timed out talking to"
    } else {
        "the request failed for"
    };
    AttemptFailure::retry(format!("{what} {}: {detail}", input.url))
}

/// The error and its sources, `: `-joined (reqwest's own message hides the cause).
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

async fn read_error_body(mut response: reqwest::Response, limit: Duration) -> String {
    let mut body = Vec::new();
    let read = async {
        while let Ok(Some(chunk)) = response.chunk().await {
            body.extend_from_slice(&chunk);
            if body.len() >= ERROR_BODY_LIMIT {
                break;
            }
        }
    };
    let _ = timeout(limit, read).await;
    String::from_utf8_lossy(&body).into_owned()
}

/// `1.5 s`, `200 ms`.
pub(crate) fn seconds(duration: Duration) -> String {
    if duration < Duration::from_secs(1) {
        format!("{} ms", duration.as_millis())
    } else if duration.subsec_millis() == 0 {
        format!("{} s", duration.as_secs())
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}
