//! Headers every response of the server carries: `X-Content-Type-Options: nosniff` (a
//! browser takes the declared type, never guesses a page from a file's bytes), and, on
//! everything but a run's files (which have their own sandboxing policy, see `run_files`),
//! `Content-Security-Policy: frame-ancestors 'self'` with `X-Frame-Options: SAMEORIGIN`, so
//! another page (another local server's, say) cannot frame the UI and trick clicks on it.

use axum::extract::Request;
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

/// The framing policy of the UI's pages and the API's answers.
pub const FRAME_POLICY: &str = "frame-ancestors 'self'";

/// Middleware: adds the headers a response does not set itself.
pub async fn protective_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers
        .entry(header::X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(FRAME_POLICY),
        );
        headers.insert(
            header::X_FRAME_OPTIONS,
            HeaderValue::from_static("SAMEORIGIN"),
        );
    }
    response
}
