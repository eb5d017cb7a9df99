//! The built UI over HTTP: its files from the binary (compiled in by the `heddle` command)
//! or from a folder (`--ui-dir`, for UI development), each with its content type and a
//! caching policy: Vite's content-hashed files under `assets/` never change, so browsers
//! keep them for a year; everything else (`index.html` above all) is revalidated on every
//! load through its `ETag`. A path the UI routes itself (`/runs/01J…`) gets `index.html`.
//! A server built without the UI answers every page with one that says how to build it.

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use heddle_api::{confined_file, percent_decode};
use sha2::{Digest, Sha256};

/// The page the UI starts from.
pub const INDEX: &str = "index.html";

/// The folder Vite writes content-hashed files to (`base: './'`, `assets/name-HASH.js`).
const HASHED_ASSETS: &str = "assets/";

/// How long a browser keeps a hashed file: a year, without asking again.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Everything else: kept, but revalidated before each use.
pub const REVALIDATE: &str = "no-cache";

/// What to do when no UI is available.
pub const BUILD_THE_UI: &str = "build the UI with `npm --prefix ui ci && npm --prefix ui run build` \
     in a Heddle checkout, then build heddle again (`cargo build -p heddle-cli`) to embed it, or \
     serve a built UI folder with `heddle serve --ui-dir ui/dist` (or HEDDLE_UI_DIR)";

/// One file of the UI.
#[derive(Debug, Clone)]
pub struct UiFile {
    /// The file's content: borrowed when it is compiled into the binary, owned when it was
    /// read from disk.
    pub bytes: Cow<'static, [u8]>,
    /// The SHA-256 of its bytes (its `ETag`).
    pub sha256: [u8; 32],
}

/// Looks up a file of a UI compiled into the binary by its path (`index.html`,
/// `assets/index-D3bB03c5.js`).
pub type EmbeddedLookup = fn(&str) -> Option<UiFile>;

/// Where the UI's files come from.
#[derive(Debug, Clone)]
pub enum UiSource {
    /// Files compiled into the binary.
    Embedded(EmbeddedLookup),
    /// A built UI folder on disk (`ui/dist`), read on each request.
    Folder(PathBuf),
    /// No UI: every page says how to build one; the API works as ever.
    NotBuilt,
}

impl UiSource {
    /// The file at `relative` (already checked to be a plain relative path).
    async fn file(&self, relative: &str) -> Option<UiFile> {
        match self {
            UiSource::Embedded(lookup) => lookup(relative),
            UiSource::Folder(root) => {
                let (root, relative) = (root.clone(), relative.to_owned());
                tokio::task::spawn_blocking(move || {
                    // Confined to the folder, symlinks resolved: nothing outside it is served.
                    let found = confined_file(&root, &relative).ok()?;
                    let bytes = std::fs::read(found.path).ok()?;
                    Some(UiFile {
                        sha256: Sha256::digest(&bytes).into(),
                        bytes: Cow::Owned(bytes),
                    })
                })
                .await
                .ok()
                .flatten()
            }
            UiSource::NotBuilt => None,
        }
    }
}

/// Handler for every path no other route takes.
pub async fn serve_ui(
    State(ui): State<Arc<UiSource>>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
        )
            .into_response();
    }
    if matches!(*ui, UiSource::NotBuilt) {
        return not_built_page();
    }
    let Some(relative) = relative_path(uri.path()) else {
        return not_found();
    };
    if let Some(file) = ui.file(&relative).await {
        return respond(&relative, file, &headers);
    }
    if !is_client_route(&relative) {
        return not_found();
    }
    match ui.file(INDEX).await {
        Some(file) => respond(INDEX, file, &headers),
        None => not_found(),
    }
}

/// The file path a URL path names (`/` is `index.html`), decoded; `None` when a segment is
/// empty, `.` or `..`, or holds a backslash or NUL.
fn relative_path(url_path: &str) -> Option<String> {
    let decoded = percent_decode(url_path)?;
    let relative = decoded.trim_start_matches('/');
    if relative.is_empty() {
        return Some(INDEX.to_owned());
    }
    let plain = relative
        .split('/')
        .all(|segment| !matches!(segment, "" | "." | "..") && !segment.contains(['\\', '\0']));
    plain.then(|| relative.to_owned())
}

/// Whether a missing path is one of the UI's own routes (no file extension, not under
/// `assets/`), which `index.html` handles, rather than a missing file.
fn is_client_route(relative: &str) -> bool {
    let last = relative.rsplit('/').next().unwrap_or(relative);
    !relative.starts_with(HASHED_ASSETS) && !last.contains('.')
}

/// The caching policy of the file at `relative`.
pub fn cache_control(relative: &str) -> &'static str {
    if relative.starts_with(HASHED_ASSETS) {
        IMMUTABLE
    } else {
        REVALIDATE
    }
}

/// The `Content-Type` of the file at `relative`, with the charset of text.
pub fn content_type(relative: &str) -> String {
    let mime = mime_guess::from_path(relative).first_or_octet_stream();
    let textual = mime.type_() == mime_guess::mime::TEXT
        || mime.subtype() == mime_guess::mime::JAVASCRIPT
        || mime.subtype() == mime_guess::mime::JSON;
    if textual {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    }
}

fn respond(relative: &str, file: UiFile, request: &HeaderMap) -> Response {
    let etag = format!("\"{}\"", hex::encode(&file.sha256[..16]));
    let cached = request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| {
            let tag = tag.trim();
            tag == "*" || tag.trim_start_matches("W/") == etag
        });
    let mut response = if cached {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        let mut response = Body::from(file.bytes).into_response();
        if let Ok(value) = HeaderValue::from_str(&content_type(relative)) {
            response.headers_mut().insert(header::CONTENT_TYPE, value);
        }
        response
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control(relative)),
    );
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CACHE_CONTROL, REVALIDATE)],
        "not found",
    )
        .into_response()
}

/// The page of a server without a UI: what to do, for the person who opened it.
fn not_built_page() -> Response {
    let page = format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Heddle: the UI is not built</title></head>\n<body>\
         <h1>This heddle was built without its UI</h1>\n\
         <p>The API works; the pages do not. To fix it, {}.</p>\n\
         <p><code>heddle doctor</code> checks this and the rest of the set-up.</p>\
         </body></html>\n",
        code_spans(BUILD_THE_UI)
    );
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, REVALIDATE),
        ],
        page,
    )
        .into_response()
}

/// `text` as HTML: `&` escaped (it holds no `<`), its `backticked` spans as `<code>`.
fn code_spans(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            let part = part.replace('&', "&amp;");
            if i % 2 == 1 {
                format!("<code>{part}</code>")
            } else {
                part
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn url_paths_map_to_plain_relative_paths_or_nothing() {
        assert_eq!(relative_path("/").as_deref(), Some("index.html"));
        assert_eq!(
            relative_path("/assets/a%20b.js").as_deref(),
            Some("assets/a b.js")
        );
        for refused in [
            "/../x",
            "/a/%2e%2e/x",
            "/a//b",
            "/a/./b",
            "/a%5cb",
            "/a%00",
            "/%zz",
        ] {
            assert_eq!(relative_path(refused), None, "{refused}");
        }
    }

    #[test]
    fn backticked_commands_become_code() {
        assert_eq!(
            code_spans("run `a && b` or `c`."),
            "run <code>a &amp;&amp; b</code> or <code>c</code>."
        );
    }

    #[test]
    fn hashed_assets_are_immutable_and_the_rest_revalidated() {
        assert_eq!(cache_control("assets/index-D3bB03c5.js"), IMMUTABLE);
        assert_eq!(cache_control("index.html"), REVALIDATE);
        assert_eq!(cache_control("favicon.svg"), REVALIDATE);
    }

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(content_type("index.html"), "text/html; charset=utf-8");
        assert_eq!(content_type("assets/a.css"), "text/css; charset=utf-8");
        assert!(content_type("assets/a.js").ends_with("javascript; charset=utf-8"));
        assert_eq!(content_type("assets/a.wasm"), "application/wasm");
        assert_eq!(content_type("assets/a.bin"), "application/octet-stream");
    }

    #[test]
    fn only_extensionless_paths_outside_assets_are_client_routes() {
        assert!(is_client_route("runs/01J"));
        assert!(!is_client_route("assets/gone"));
        assert!(!is_client_route("missing.js"));
    }
}
