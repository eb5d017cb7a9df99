//! Every request must carry the server's random access token, as the `heddle_token_{port}`
//! cookie (HttpOnly, SameSite=Strict) or, from scripts, as `Authorization: Bearer {token}`.
//! The token itself never goes into a URL: the URL `heddle serve` prints and opens carries a
//! one-time launch token (`?launch=`) instead, which the first request that shows it
//! exchanges for the cookie, answered with a redirect to the same URL without it (so it is
//! in no address bar or history entry). A second use is refused. The cookie's name carries
//! the port, so two servers on 127.0.0.1 do not overwrite each other's.

use std::sync::{Arc, Mutex};

use axum::Json;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use heddle_api::{ApiError, ErrorCode};

/// The URL parameter that carries the one-time launch token.
pub const LAUNCH_PARAM: &str = "launch";

/// What the token check knows.
#[derive(Debug)]
pub struct Access {
    token: Arc<String>,
    cookie: String,
    /// The launch token until it is used.
    launch: Mutex<Option<String>>,
}

impl Access {
    /// The check for `token`, on the server listening on `port`, whose launch URL carries
    /// `launch` (if any).
    pub fn new(token: Arc<String>, port: u16, launch: Option<String>) -> Self {
        Access {
            token,
            cookie: token_cookie(port),
            launch: Mutex::new(launch),
        }
    }

    /// Takes the launch token if `given` is it and it is unused.
    fn spend_launch(&self, given: &str) -> bool {
        let Ok(mut launch) = self.launch.lock() else {
            return false;
        };
        if launch.as_deref().is_some_and(|l| same(given, l)) {
            *launch = None;
            return true;
        }
        false
    }
}

/// The name of the cookie that carries the token of the server on `port`.
pub fn token_cookie(port: u16) -> String {
    format!("heddle_token_{port}")
}

/// Whether the request carries the token in a header or the cookie.
fn carries_token(request: &Request, access: &Access) -> bool {
    let headers = request.headers();
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if bearer.is_some_and(|b| same(b, &access.token)) {
        return true;
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .any(|(name, value)| name == access.cookie && same(value, &access.token))
}

/// The request's launch token, and its path and query without it.
fn launch_param(request: &Request) -> Option<(String, String)> {
    let uri = request.uri();
    let query = uri.query()?;
    let mut launch = None;
    let mut kept = Vec::new();
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some((LAUNCH_PARAM, value)) => launch = Some(value.to_owned()),
            _ if pair == LAUNCH_PARAM => launch = Some(String::new()),
            _ => kept.push(pair),
        }
    }
    let launch = launch?;
    // One leading slash: `//host/` would send the browser to another site.
    let path = format!("/{}", uri.path().trim_start_matches(['/', '\\']));
    let rest = if kept.is_empty() {
        path
    } else {
        format!("{path}?{}", kept.join("&"))
    };
    Some((launch, rest))
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

fn unauthorized(message: &str) -> Response {
    (
        StatusCode::UNAUTHORIZED,
        Json(ApiError::new(ErrorCode::Unauthorized, message)),
    )
        .into_response()
}

/// Middleware: 401 without the token; a launch URL is exchanged for the cookie once.
pub async fn require_token(
    State(access): State<Arc<Access>>,
    request: Request,
    next: Next,
) -> Response {
    // A shared link of a run's folder carries its own key instead (see shared_files).
    if crate::shared_files::opens(request.uri().path(), &access.token) {
        return next.run(request).await;
    }
    let launch = launch_param(&request);
    if carries_token(&request, &access) {
        return match launch {
            // Already signed in: the launch token is of no use, and is dropped from the URL.
            Some((_, rest)) => Redirect::to(&rest).into_response(),
            None => next.run(request).await,
        };
    }
    let Some((given, rest)) = launch else {
        return unauthorized(
            "this Heddle server needs its access token: open the URL `heddle serve` printed \
             (it ends in ?launch=...), or send `Authorization: Bearer {token}`",
        );
    };
    if !access.spend_launch(&given) {
        return unauthorized(
            "this launch link has been used already (it works once, in the browser that \
             opened it first); open Heddle in that browser, or restart `heddle serve` for a \
             new link",
        );
    }
    let mut response = Redirect::to(&rest).into_response();
    let cookie = format!(
        "{}={}; HttpOnly; SameSite=Strict; Path=/",
        access.cookie, access.token
    );
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(header::SET_COOKIE, value);
    }
    response
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn tokens_compare_whole() {
        assert!(same("abc123", "abc123"));
        assert!(!same("abc124", "abc123"));
        assert!(!same("abc12", "abc123"));
        assert!(!same("", "abc123"));
    }

    #[test]
    fn the_launch_token_is_taken_from_the_url_and_the_rest_kept() {
        let request = |uri: &str| Request::builder().uri(uri).body(axum::body::Body::empty());
        let (launch, rest) =
            launch_param(&request("/?launch=abc&file=%2Fw%2Fa.dot").unwrap()).unwrap();
        assert_eq!(
            (launch.as_str(), rest.as_str()),
            ("abc", "/?file=%2Fw%2Fa.dot")
        );
        let (launch, rest) = launch_param(&request("/x?launch=abc").unwrap()).unwrap();
        assert_eq!((launch.as_str(), rest.as_str()), ("abc", "/x"));
        assert!(launch_param(&request("/?file=a&launched=1").unwrap()).is_none());
        let (_, rest) = launch_param(&request("//evil.example/?launch=abc").unwrap()).unwrap();
        assert_eq!(rest, "/evil.example/");
    }

    #[test]
    fn a_launch_token_works_once() {
        let access = Access::new(Arc::new("t".into()), 8123, Some("l".into()));
        assert_eq!(access.cookie, "heddle_token_8123");
        assert!(!access.spend_launch("x"));
        assert!(access.spend_launch("l"));
        assert!(!access.spend_launch("l"));
    }
}
