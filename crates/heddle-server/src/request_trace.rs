//! One `http_request` span per request (method, route, status, latency) and an info line
//! when it is answered, through tower-http's `TraceLayer`. The route is the matched route
//! template, never the URI itself: paths under `/shared/` and the query carry keys and
//! tokens, and headers (the token's cookie) are never recorded.

use std::time::Duration;

use axum::extract::{MatchedPath, Request};
use axum::response::Response;
use tower_http::classify::{ServerErrorsAsFailures, SharedClassifier};
use tower_http::trace::TraceLayer;
use tracing::Span;
use tracing::field::Empty;

/// tower-http's layer with [`request_span`] and [`answered`].
pub type RequestTrace = TraceLayer<
    SharedClassifier<ServerErrorsAsFailures>,
    fn(&Request) -> Span,
    (),
    fn(&Response, Duration, &Span),
>;

/// The layer, with the span and the line described above.
pub fn request_trace() -> RequestTrace {
    TraceLayer::new_for_http()
        .make_span_with(request_span as fn(&Request) -> Span)
        .on_request(())
        .on_response(answered as fn(&Response, Duration, &Span))
}

fn request_span(request: &Request) -> Span {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("(ui files)", MatchedPath::as_str);
    tracing::info_span!(
        "http_request",
        method = %request.method(),
        route,
        status = Empty,
        latency_ms = Empty,
    )
}

fn answered(response: &Response, latency: Duration, span: &Span) {
    let status = response.status().as_u16();
    let latency_ms = u64::try_from(latency.as_millis()).unwrap_or(u64::MAX);
    span.record("status", status);
    span.record("latency_ms", latency_ms);
    tracing::info!(status, latency_ms, "request answered");
}
