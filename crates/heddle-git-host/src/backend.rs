//! One request handed to `git http-backend` as a CGI program, and its CGI reply turned back
//! into an HTTP response.

use std::path::Path;
use std::process::Stdio;

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::Response;
use tokio::io::AsyncWriteExt;
use tokio::process::Command;

/// What `git http-backend` needs from a request.
pub(crate) struct CgiRequest<'a> {
    pub method: &'a Method,
    pub path: &'a str,
    pub query: &'a str,
    pub headers: &'a HeaderMap,
    pub body: Bytes,
    pub user: &'a str,
}

/// Runs `git http-backend` for `request` over the repositories under `root`.
pub(crate) async fn run_backend(root: &Path, request: CgiRequest<'_>) -> Response {
    let header = |name: &str| {
        request
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string()
    };
    let mut command = Command::new("git");
    command
        .arg("http-backend")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("GATEWAY_INTERFACE", "CGI/1.1")
        .env("REQUEST_METHOD", request.method.as_str())
        .env("PATH_INFO", request.path)
        .env("QUERY_STRING", request.query)
        .env("CONTENT_TYPE", header("content-type"))
        .env("CONTENT_LENGTH", request.body.len().to_string())
        .env("HTTP_CONTENT_ENCODING", header("content-encoding"))
        .env("GIT_PROTOCOL", header("git-protocol"))
        .env("REMOTE_USER", request.user)
        .env("REMOTE_ADDR", "127.0.0.1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => return plain(StatusCode::INTERNAL_SERVER_ERROR, format!("git: {e}")),
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A backend that stops reading early answers with its own error below.
        let _ = stdin.write_all(&request.body).await;
    }
    let output = match child.wait_with_output().await {
        Ok(output) => output,
        Err(e) => return plain(StatusCode::INTERNAL_SERVER_ERROR, format!("git: {e}")),
    };
    if !output.status.success() && output.stdout.is_empty() {
        let said = String::from_utf8_lossy(&output.stderr).into_owned();
        return plain(StatusCode::INTERNAL_SERVER_ERROR, said);
    }
    cgi_response(&output.stdout)
}

/// A CGI program's output (headers, a blank line, the body) as an HTTP response.
fn cgi_response(output: &[u8]) -> Response {
    let (head, body) = match find(output, b"\r\n\r\n") {
        Some(at) => (&output[..at], &output[at + 4..]),
        None => match find(output, b"\n\n") {
            Some(at) => (&output[..at], &output[at + 2..]),
            None => (output, &[][..]),
        },
    };
    let mut response = Response::new(Body::from(body.to_vec()));
    for line in String::from_utf8_lossy(head).lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("status") {
            let code = value.split_whitespace().next().unwrap_or("200");
            if let Ok(status) = code.parse::<u16>().map(StatusCode::from_u16) {
                *response.status_mut() = status.unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            }
        } else if let (Ok(name), Ok(value)) = (
            HeaderName::from_bytes(name.trim().as_bytes()),
            HeaderValue::from_str(value),
        ) {
            response.headers_mut().append(name, value);
        }
    }
    response
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// A plain-text response with `status`.
pub(crate) fn plain(status: StatusCode, text: String) -> Response {
    let mut response = Response::new(Body::from(text));
    *response.status_mut() = status;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cgi_reply_keeps_its_status_headers_and_body() {
        let reply = cgi_response(
            b"Status: 404 Not Found\r\nContent-Type: text/plain\r\nExpires: never\r\n\r\nno repo",
        );
        assert_eq!(reply.status(), StatusCode::NOT_FOUND);
        assert_eq!(reply.headers()["content-type"], "text/plain");
        assert_eq!(reply.headers()["expires"], "never");
    }

    #[test]
    fn a_cgi_reply_without_status_is_ok() {
        let reply =
            cgi_response(b"Content-Type: application/x-git-upload-pack-advertisement\n\n0000");
        assert_eq!(reply.status(), StatusCode::OK);
    }
}
