//! `GET /api/runs/{run}/{artifacts|nodes}/{path}`: a file a run left, for the UI to show
//! (images, videos with range requests, logs, reports). heddle-api confines the path to the
//! folder. Every file is served under a sandboxing CSP (`run_file_policy`): a page's scripts
//! run in an opaque origin, without the UI's access token or its API, and any other file
//! (an SVG, XML) runs no script at all. A page is answered with a redirect to its shared
//! link (`/shared/...`, see `shared_files`), so the files it loads itself from its own
//! folder are served without the token cookie its opaque origin cannot send.

use axum::extract::{Path, Request, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Redirect, Response};
use heddle_api::{ApiError, ErrorCode, RunFileArea, RunFileRequest, parent_folder};
use tower::ServiceExt;
use tower_http::services::ServeFile;

use crate::operations::{ApiResponse, blocking};
use crate::router::AppState;
use crate::shared_files::{key_opens, shared_folder, shared_link};

/// The route's handler.
pub async fn run_file(
    State(state): State<AppState>,
    Path((run_id, area, path)): Path<(String, String, String)>,
    request: Request,
) -> Response {
    serve(state, run_id, area, path, request, true).await
}

/// `GET /shared/{key}/{run}/{area}/{path}`: the same files, opened by the run's key.
pub async fn shared_run_file(
    State(state): State<AppState>,
    Path((key, run_id, area, path)): Path<(String, String, String, String)>,
    request: Request,
) -> Response {
    if !key_opens(&state.token, &key, &run_id, &area, &path) {
        let error = ApiError::new(
            ErrorCode::Unauthorized,
            "this link does not open that file (a shared link opens its page's folder only)",
        );
        return ApiResponse::<()>(Err(error)).into_response();
    }
    serve(state, run_id, area, path, request, false).await
}

/// A `Host` value that names one host and port (`127.0.0.1:8080`, `localhost`, `[::1]:80`):
/// nothing a policy would read as a wildcard or a second source.
fn is_plain_host(host: &str) -> bool {
    !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

async fn serve(
    state: AppState,
    run_id: String,
    area: String,
    path: String,
    request: Request,
    redirect_pages: bool,
) -> Response {
    let Some(area) = RunFileArea::parse(&area) else {
        let error = ApiError::new(
            ErrorCode::NotFound,
            format!("no run folder `{area}`; files are served from `artifacts` and `nodes`"),
        );
        return ApiResponse::<()>(Err(error)).into_response();
    };
    // The page's host, for its policy (see `sandboxed_page_policy`).
    let page_host = request
        .headers()
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .filter(|host| is_plain_host(host))
        .map(str::to_owned);
    let host = state.host.clone();
    let req = RunFileRequest { run_id, area, path };
    let asked = req.clone();
    let served = match blocking(move || host.run_file(&req)).await.0 {
        Ok(served) => served,
        Err(error) => return ApiResponse::<()>(Err(error)).into_response(),
    };
    if redirect_pages && served.is_html() {
        let link = shared_link(&state.token, &asked.run_id, asked.area.name(), &asked.path);
        return Redirect::to(&link).into_response();
    }
    let mut response = match ServeFile::new(&served.path).oneshot(request).await {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(served.media_type),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // A page's policy names the shared link of its own folder, where its files load.
    let folder = page_host.filter(|_| served.is_html()).map(|host| {
        let folder = parent_folder(&asked.path);
        format!(
            "http://{host}{}",
            shared_folder(&state.token, &asked.run_id, asked.area.name(), folder)
        )
    });
    // No file is served without a sandbox: the strictest one if the policy were not a valid
    // header (it always is; `sandboxed_page_policy` checks the folder).
    let policy = HeaderValue::from_str(&served.policy(folder.as_deref()))
        .unwrap_or(HeaderValue::from_static("sandbox; default-src 'none'"));
    headers.insert(header::CONTENT_SECURITY_POLICY, policy);
    response
}

#[cfg(test)]
mod tests {
    use super::is_plain_host;

    #[test]
    fn only_a_plain_host_names_a_page_folder() {
        for host in ["127.0.0.1:8080", "localhost", "[::1]:80", "heddle.local"] {
            assert!(is_plain_host(host), "{host}");
        }
        for host in ["", "*", "*.example.com", "a b", "a/b", "a;b", "a'b"] {
            assert!(!is_plain_host(host), "{host}");
        }
    }
}
