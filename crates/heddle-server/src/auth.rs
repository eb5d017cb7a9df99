//! Every request must carry the server's random access token: the URL `heddle serve`
//! prints has it as `?token=`, and the first response sets it as an HttpOnly cookie so the
//! page's own requests (and its event streams) carry it from then on. Scripts may send it
//! as `Authorization: Bearer {token}`. A page from another site cannot learn it.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use heddle_api::{ApiError, ErrorCode};

/// The cookie that carries the token.
pub const TOKEN_COOKIE: &str = "heddle_token";

/// Where a request's token came from.
enum Presented {
    /// A header or the cookie.
    Kept,
    /// The URL: the response sets the cookie.
    InUrl,
}

fn presented(request: &Request, token: &str) -> Option<Presented> {
    let headers = request.headers();
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if bearer.is_some_and(|b| same(b, token)) {
        return Some(Presented::Kept);
    }
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| name == TOKEN_COOKIE && same(value, token));
    if cookie {
        return Some(Presented::Kept);
    }
    let in_url = request
        .uri()
        .query()
        .unwrap_or("")
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .any(|(name, value)| name == "token" && same(value, token));
    in_url.then_some(Presented::InUrl)
}

/// Compares without stopping at the first difference.
pub(crate) fn same(given: &str, token: &str) -> bool {
    given.len() == token.len()
        && given
            .bytes()
            .zip(token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Middleware: 401 without the token.
pub async fn require_token(
    State(token): State<Arc<String>>,
    request: Request,
    next: Next,
) -> Response {
    // A shared link of one run's files carries its own key instead (see shared_files).
    if crate::shared_files::opens(request.uri().path(), &token) {
        return next.run(request).await;
    }
    match presented(&request, &token) {
        Some(Presented::Kept) => next.run(request).await,
        Some(Presented::InUrl) => {
            let mut response = next.run(request).await;
            let cookie = format!("{TOKEN_COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/");
            if let Ok(value) = HeaderValue::from_str(&cookie) {
                response.headers_mut().append(header::SET_COOKIE, value);
            }
            response
        }
        None => (
            StatusCode::UNAUTHORIZED,
            Json(ApiError::new(
                ErrorCode::Unauthorized,
                "this Heddle server needs its access token: open the URL `heddle serve` printed \
                 (it ends in ?token=...)",
            )),
        )
            .into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::same;

    #[test]
    fn tokens_compare_whole() {
        assert!(same("abc123", "abc123"));
        assert!(!same("abc124", "abc123"));
        assert!(!same("abc12", "abc123"));
        assert!(!same("", "abc123"));
    }
}
