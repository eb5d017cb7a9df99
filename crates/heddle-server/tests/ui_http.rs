//! The UI's files through the router, from a folder and from files compiled in: content
//! types, caching (hashed assets immutable, the rest revalidated by ETag), the index page for
//! the UI's own routes, a 404 for a missing file, the page of a server without a UI, and the
//! protective headers on all of them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::borrow::Cow;

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode, header};
use heddle_server::{IMMUTABLE, REVALIDATE, ServerConfig, UiFile, UiSource, router};
use http_body_util::BodyExt;
use sha2::{Digest, Sha256};
use tower::ServiceExt;

mod support;
use support::{TOKEN, config};

const INDEX: &str =
    "<!doctype html><script type=\"module\" src=\"./assets/index-AbC123.js\"></script>";
const SCRIPT: &str = "console.log('heddle')";

struct Answer {
    status: StatusCode,
    headers: HeaderMap,
    body: String,
}

impl Answer {
    fn header(&self, name: header::HeaderName) -> &str {
        self.headers
            .get(&name)
            .map_or("", |v| v.to_str().unwrap_or(""))
    }
}

async fn get(config: &ServerConfig, uri: &str, extra: &[(header::HeaderName, &str)]) -> Answer {
    let mut request = Request::builder()
        .method("GET")
        .uri(uri)
        .header(header::HOST, "localhost")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"));
    for (name, value) in extra {
        request = request.header(name, *value);
    }
    let response = router(config.clone())
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

fn compiled_in(path: &str) -> Option<UiFile> {
    let bytes: &'static [u8] = match path {
        "index.html" => INDEX.as_bytes(),
        "assets/index-AbC123.js" => SCRIPT.as_bytes(),
        "assets/graph.wasm" => b"\0asm",
        _ => return None,
    };
    Some(UiFile {
        bytes: Cow::Borrowed(bytes),
        sha256: Sha256::digest(bytes).into(),
    })
}

async fn both_sources() -> Vec<(&'static str, ServerConfig, tempfile::TempDir)> {
    let folder = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(folder.path().join("assets")).unwrap();
    std::fs::write(folder.path().join("index.html"), INDEX).unwrap();
    std::fs::write(folder.path().join("assets/index-AbC123.js"), SCRIPT).unwrap();
    std::fs::write(folder.path().join("assets/graph.wasm"), b"\0asm").unwrap();
    let from_folder = ServerConfig {
        ui: UiSource::Folder(folder.path().to_path_buf()),
        ..config().await
    };
    let embedded = ServerConfig {
        ui: UiSource::Embedded(compiled_in),
        ..config().await
    };
    let unused = tempfile::tempdir().unwrap();
    vec![
        ("folder", from_folder, folder),
        ("embedded", embedded, unused),
    ]
}

fn assert_protected(answer: &Answer, what: &str) {
    assert_eq!(
        answer.header(header::X_CONTENT_TYPE_OPTIONS),
        "nosniff",
        "{what}"
    );
    assert_eq!(
        answer.header(header::CONTENT_SECURITY_POLICY),
        heddle_server::FRAME_POLICY,
        "{what}"
    );
    assert_eq!(
        answer.header(header::X_FRAME_OPTIONS),
        "SAMEORIGIN",
        "{what}"
    );
}

#[tokio::test]
async fn pages_and_hashed_assets_have_their_types_and_caching() {
    for (source, config, _dir) in both_sources().await {
        let index = get(&config, "/", &[]).await;
        assert_eq!(
            (index.status, index.body.as_str()),
            (StatusCode::OK, INDEX),
            "{source}"
        );
        assert_eq!(
            index.header(header::CONTENT_TYPE),
            "text/html; charset=utf-8"
        );
        assert_eq!(index.header(header::CACHE_CONTROL), REVALIDATE, "{source}");
        assert_protected(&index, source);

        let script = get(&config, "/assets/index-AbC123.js", &[]).await;
        assert_eq!(
            (script.status, script.body.as_str()),
            (StatusCode::OK, SCRIPT)
        );
        assert!(
            script.header(header::CONTENT_TYPE).contains("javascript"),
            "{source}: {:?}",
            script.headers
        );
        assert_eq!(script.header(header::CACHE_CONTROL), IMMUTABLE, "{source}");
        assert_protected(&script, source);

        let wasm = get(&config, "/assets/graph.wasm", &[]).await;
        assert_eq!(
            wasm.header(header::CONTENT_TYPE),
            "application/wasm",
            "{source}"
        );
    }
}

#[tokio::test]
async fn a_page_whose_etag_matches_is_not_sent_again() {
    for (source, config, _dir) in both_sources().await {
        let first = get(&config, "/index.html", &[]).await;
        let etag = first.header(header::ETAG).to_owned();
        assert!(etag.starts_with('"') && etag.len() > 10, "{source}: {etag}");
        let again = get(&config, "/", &[(header::IF_NONE_MATCH, &etag)]).await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{source}");
        assert!(again.body.is_empty(), "{source}");
        assert_eq!(again.header(header::CACHE_CONTROL), REVALIDATE);
        let changed = get(&config, "/", &[(header::IF_NONE_MATCH, "\"other\"")]).await;
        assert_eq!(
            (changed.status, changed.body.as_str()),
            (StatusCode::OK, INDEX)
        );
    }
}

#[tokio::test]
async fn client_routes_get_the_index_and_missing_files_a_404() {
    for (source, config, _dir) in both_sources().await {
        let route = get(&config, "/runs/01JABC", &[]).await;
        assert_eq!(
            (route.status, route.body.as_str()),
            (StatusCode::OK, INDEX),
            "{source}"
        );
        assert_eq!(route.header(header::CACHE_CONTROL), REVALIDATE, "{source}");
        for missing in ["/assets/index-Old999.js", "/favicon.ico", "/assets/gone"] {
            let answer = get(&config, missing, &[]).await;
            assert_eq!(answer.status, StatusCode::NOT_FOUND, "{source} {missing}");
            assert_protected(&answer, missing);
        }
        let refused = get(&config, "/assets/..%2findex.html", &[]).await;
        assert_eq!(refused.status, StatusCode::NOT_FOUND, "{source}");
    }
}

#[tokio::test]
async fn the_ui_needs_the_token_like_everything_else() {
    for (source, config, _dir) in both_sources().await {
        let request = Request::get("/assets/index-AbC123.js")
            .header(header::HOST, "localhost")
            .body(Body::empty())
            .unwrap();
        let response = router(config).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{source}");
    }
}

#[tokio::test]
async fn a_server_without_a_ui_says_how_to_build_it() {
    let config = ServerConfig {
        ui: UiSource::NotBuilt,
        ..config().await
    };
    for path in ["/", "/runs/01JABC", "/assets/index-AbC123.js"] {
        let answer = get(&config, path, &[]).await;
        assert_eq!(answer.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert!(
            answer.body.contains("npm --prefix ui run build"),
            "{}",
            answer.body
        );
        assert!(answer.body.contains("--ui-dir"), "{}", answer.body);
        assert_eq!(
            answer.header(header::CONTENT_TYPE),
            "text/html; charset=utf-8"
        );
        assert_protected(&answer, path);
    }
    let api = get(&config, "/api/launch_info", &[]).await;
    assert_ne!(api.status, StatusCode::SERVICE_UNAVAILABLE, "{}", api.body);
}
