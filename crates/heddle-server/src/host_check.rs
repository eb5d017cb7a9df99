//! Rejects requests whose `Host` header is not a loopback name, so a web page on another
//! origin cannot reach the server through DNS rebinding.

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Host names accepted without `--bind`.
const LOOPBACK_HOSTS: &[&str] = &["127.0.0.1", "localhost", "[::1]"];

/// True when `host` (a `Host` header value, with or without port) names this machine.
pub fn is_loopback_host(host: &str) -> bool {
    let name = if host.starts_with('[') {
        host.split_inclusive(']').next().unwrap_or(host)
    } else {
        host.split(':').next().unwrap_or(host)
    };
    LOOPBACK_HOSTS.iter().any(|h| name.eq_ignore_ascii_case(h))
}

/// Middleware: 421 for a foreign Host.
pub async fn require_loopback_host(request: Request, next: Next) -> Response {
    let host = request
        .headers()
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .or_else(|| request.uri().authority().map(|a| a.as_str()))
        .unwrap_or("");
    if is_loopback_host(host) {
        next.run(request).await
    } else {
        (
            StatusCode::MISDIRECTED_REQUEST,
            format!("Host `{host}` is not allowed; open Heddle through 127.0.0.1 or localhost"),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::is_loopback_host;

    #[test]
    fn loopback_names_pass_and_others_fail() {
        for ok in [
            "127.0.0.1:8080",
            "localhost",
            "LOCALHOST:1",
            "[::1]:9000",
            "[::1]",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1.evil.example",
            "",
            "[::2]:80",
            "localhost.evil",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }
}
