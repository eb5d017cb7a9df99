//! Answers one request: records it, takes the next [`Scripted`] item and turns it into an
//! HTTP response in the endpoint's format, streaming SSE frames from a task.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, RETRY_AFTER};
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::Response;
use serde_json::{Value as Json, json};

use crate::script::{FakeReply, Scripted};
use crate::server::{RecordedRequest, Shared};
use crate::sse_frame::ReplyContext;
use crate::{anthropic_wire, chat_wire, gemini_wire, responses_wire};

/// The pause between two frames, so deltas tend to arrive in separate chunks.
const FRAME_GAP: Duration = Duration::from_millis(1);

/// Which API an endpoint speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Dialect {
    Anthropic,
    Responses,
    Chat,
    Gemini,
}

impl Dialect {
    fn frames(self, reply: &FakeReply, ctx: &ReplyContext<'_>) -> Vec<String> {
        match self {
            Dialect::Anthropic => anthropic_wire::frames(reply, ctx),
            Dialect::Responses => responses_wire::frames(reply, ctx),
            Dialect::Chat => chat_wire::frames(reply, ctx),
            Dialect::Gemini => gemini_wire::frames(reply, ctx),
        }
    }

    fn error_body(self, status: u16, message: &str, retry_after: Option<&str>) -> Json {
        match self {
            Dialect::Anthropic => anthropic_wire::error_body(status, message),
            Dialect::Responses | Dialect::Chat => responses_wire::error_body(status, message),
            Dialect::Gemini => gemini_wire::error_body(status, message, retry_after),
        }
    }

    /// Whether a wait is sent as a `Retry-After` header (Google puts it in the body).
    fn retry_after_header(self) -> bool {
        self != Dialect::Gemini
    }

    fn stream_error(self, message: &str) -> String {
        match self {
            Dialect::Anthropic => anthropic_wire::stream_error(message),
            Dialect::Responses => responses_wire::stream_error(message),
            Dialect::Chat => chat_wire::stream_error(message),
            Dialect::Gemini => gemini_wire::stream_error(message),
        }
    }

    /// Why the request cannot be streamed, if it cannot: the OpenAI and Anthropic formats
    /// ask for a stream in the body, Gemini with `alt=sse` in the query.
    fn not_streaming(self, uri: &Uri, body: &Json) -> Option<&'static str> {
        match self {
            Dialect::Gemini => {
                let sse = uri
                    .query()
                    .is_some_and(|query| query.split('&').any(|pair| pair == "alt=sse"));
                let streaming = uri.path().ends_with(":streamGenerateContent");
                (!(sse && streaming)).then_some(
                    "heddle-fake-llm only streams: POST models/MODEL:streamGenerateContent?alt=sse",
                )
            }
            _ => (body["stream"] != json!(true))
                .then_some("heddle-fake-llm only streams: send \"stream\": true"),
        }
    }

    /// The model a request names: in the body, or (Gemini) in the path.
    fn requested_model(self, uri: &Uri, body: &Json) -> Option<String> {
        match self {
            Dialect::Gemini => {
                let segment = uri.path().rsplit("/models/").next()?;
                let model = segment.split(':').next()?;
                (!model.is_empty()).then(|| model.to_owned())
            }
            _ => body["model"].as_str().map(str::to_owned),
        }
    }
}

/// How a streamed body ends after its frames.
enum Ending {
    /// The body ends cleanly.
    Close,
    /// One more frame (an error event), then the end.
    Frame(String),
    /// The connection breaks.
    Break,
    /// Nothing more, until the client leaves.
    Stall,
}

/// Answers a request to one of the endpoints.
pub(crate) async fn respond(
    shared: Arc<Shared>,
    dialect: Dialect,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let body: Json = serde_json::from_slice(&body)
        .unwrap_or_else(|_| Json::String(String::from_utf8_lossy(&body).into_owned()));
    let number = shared.record(RecordedRequest::new(&uri, &headers, body.clone()));
    if let Some(message) = dialect.not_streaming(&uri, &body) {
        return error_response(dialect, 400, message, None);
    }
    let Some(scripted) = shared.next_scripted() else {
        let message = format!(
            "heddle-fake-llm: no scripted reply was left for request #{number} (POST {}); \
             push more with FakeLlm::push",
            uri.path()
        );
        return error_response(dialect, 500, &message, None);
    };
    let requested = dialect.requested_model(&uri, &body);
    let model = |reply: &FakeReply| match (&reply.model, &requested) {
        (Some(model), _) | (None, Some(model)) => model.clone(),
        (None, None) => "fake-model".to_owned(),
    };
    let (reply, keep, ending) = match scripted {
        Scripted::Status {
            status,
            message,
            retry_after,
        } => return error_response(dialect, status, &message, retry_after.as_deref()),
        Scripted::Reply(reply) => (reply, None, Ending::Close),
        Scripted::Delayed { delay, reply } => {
            tokio::time::sleep(delay).await;
            (reply, None, Ending::Close)
        }
        Scripted::Truncated { reply, events } => (reply, Some(events), Ending::Close),
        Scripted::Disconnect { reply, events } => (reply, Some(events), Ending::Break),
        Scripted::Stall { reply, events } => (reply, Some(events), Ending::Stall),
        Scripted::StreamError {
            reply,
            events,
            message,
        } => {
            let frame = dialect.stream_error(&message);
            (reply, Some(events), Ending::Frame(frame))
        }
    };
    let ctx = ReplyContext {
        model: model(&reply),
        ids: &shared.ids,
        request: &body,
    };
    let mut frames = dialect.frames(&reply, &ctx);
    if let Some(events) = keep {
        let keep = events.unwrap_or(frames.len() / 2).min(frames.len());
        frames.truncate(keep);
    }
    let gap = if shared
        .no_frame_gap
        .load(std::sync::atomic::Ordering::Relaxed)
    {
        Duration::ZERO
    } else {
        FRAME_GAP
    };
    stream_response(frames, ending, gap)
}

/// Answers a request to any other path.
pub(crate) async fn not_found(
    shared: Arc<Shared>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let body: Json = serde_json::from_slice(&body).unwrap_or(Json::Null);
    shared.record(RecordedRequest::new(&uri, &headers, body));
    let message = format!(
        "heddle-fake-llm serves only POST /v1/messages, /v1/responses, /v1/chat/completions \
         and /v1/models/MODEL:streamGenerateContent, not {}",
        uri.path()
    );
    error_response(Dialect::Chat, 404, &message, None)
}

fn error_response(
    dialect: Dialect,
    status: u16,
    message: &str,
    retry_after: Option<&str>,
) -> Response {
    let body = dialect.error_body(status, message, retry_after).to_string();
    let mut response = Response::new(Body::from(body));
    *response.status_mut() =
        StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    let header = retry_after.filter(|_| dialect.retry_after_header());
    if let Some(value) = header.and_then(|v| HeaderValue::from_str(v).ok()) {
        headers.insert(RETRY_AFTER, value);
    }
    response
}

fn stream_response(frames: Vec<String>, ending: Ending, gap: Duration) -> Response {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<String, io::Error>>(8);
    tokio::spawn(async move {
        for frame in frames {
            if tx.send(Ok(frame)).await.is_err() {
                return; // the client left
            }
            if !gap.is_zero() {
                tokio::time::sleep(gap).await;
            }
        }
        match ending {
            Ending::Close => {}
            Ending::Frame(frame) => {
                let _ = tx.send(Ok(frame)).await;
            }
            Ending::Break => {
                let error = io::Error::new(io::ErrorKind::ConnectionReset, "scripted disconnect");
                let _ = tx.send(Err(error)).await;
            }
            Ending::Stall => tx.closed().await,
        }
    });
    let body = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|item| (item, rx))
    });
    let mut response = Response::new(Body::from_stream(body));
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}
