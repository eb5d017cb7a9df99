//! The editor's operations over HTTP: the layout sidecar, `@file` previews, expression
//! checks, templates, and the watch stream that reports changes made outside the editor.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use heddle_server::router;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

mod support;
use support::{TOKEN, config};

async fn app() -> axum::Router {
    router(config().await)
}

fn request(method: &str, uri: &str, body: String) -> Request<Body> {
    Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, "127.0.0.1:7878")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .body(Body::from(body))
        .unwrap()
}

async fn post(op: &str, body: Value) -> (StatusCode, Value) {
    let response = app()
        .await
        .oneshot(request("POST", &format!("/api/{op}"), body.to_string()))
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

#[tokio::test]
async fn the_layout_sidecar_round_trips_and_broken_json_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let flow = dir.path().join("f.dot").display().to_string();
    let (status, body) = post("read_layout", json!({ "path": flow })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["text"], Value::Null);

    let text = r#"{"version":1,"positions":{"a":{"x":1,"y":2}}}"#;
    let (status, body) = post("save_layout", json!({ "path": flow, "text": text })).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, body) = post("read_layout", json!({ "path": flow })).await;
    assert_eq!(body["text"], text);

    let (status, body) = post("save_layout", json!({ "path": flow, "text": "{" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["code"], "invalid_request");
}

#[tokio::test]
async fn a_reference_preview_and_expression_checks() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("p.md"), "# Prompt").unwrap();
    let flow = dir.path().join("f.dot").display().to_string();
    let (status, body) = post(
        "read_reference",
        json!({ "path": flow, "reference": "p.md" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["text"], "# Prompt");
    let (status, body) = post(
        "read_reference",
        json!({ "path": flow, "reference": "q.md" }),
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");

    let (status, body) = post(
        "check_expression",
        json!({ "kind": "condition", "text": "outcome=success &&" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body.as_array().unwrap().len(), 1, "{body}");
    let (_, body) = post(
        "check_expression",
        json!({ "kind": "stylesheet", "text": "* { model: gpt-5; }" }),
    )
    .await;
    assert_eq!(body, json!([]));
}

#[tokio::test]
async fn templates_are_listed_and_create_refuses_to_overwrite() {
    let (status, list) = post("list_templates", Value::Null).await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert!(
        list.as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "hello")
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("new.dot").display().to_string();
    let (status, opened) = post(
        "create_workflow",
        json!({ "template": "hello", "path": path }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{opened}");
    assert_eq!(opened["source"], std::fs::read_to_string(&path).unwrap());
    let (status, body) = post(
        "create_workflow",
        json!({ "template": "blank", "path": path }),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["code"], "already_exists");
}

/// Reads SSE blocks from `body` until one named `name` arrives; its data.
async fn next_event(body: &mut Body, buffer: &mut String, name: &str) -> String {
    loop {
        while let Some(end) = buffer.find("\n\n") {
            let block: String = buffer.drain(..end + 2).collect();
            let kind = block
                .lines()
                .find_map(|l| l.strip_prefix("event:"))
                .map(str::trim);
            let data: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            if kind == Some(name) {
                return data;
            }
        }
        let frame = tokio::time::timeout(Duration::from_secs(10), body.frame())
            .await
            .expect("no event within 10 s")
            .expect("the stream ended")
            .unwrap();
        if let Ok(bytes) = frame.into_data() {
            buffer.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
}

#[tokio::test]
async fn the_watch_stream_reports_a_change_made_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let flow = dir.path().join("w.dot");
    std::fs::write(&flow, "digraph W { start -> exit }").unwrap();
    let uri = format!("/api/watch_workflow?path={}", flow.display());
    let response = app()
        .await
        .oneshot(request("GET", &uri, String::new()))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut buffer = String::new();
    next_event(&mut body, &mut buffer, "ready").await;

    std::fs::write(&flow, "digraph W { start -> a -> exit }").unwrap();
    let change: Value =
        serde_json::from_str(&next_event(&mut body, &mut buffer, "changed").await).unwrap();
    assert_eq!(change["exists"], true);
    assert!(change["path"].as_str().unwrap().ends_with("w.dot"));

    // A folder that does not exist cannot be watched: a clear error, not a silent stream.
    let missing = format!(
        "/api/watch_workflow?path={}/nope/w.dot",
        dir.path().display()
    );
    let response = app()
        .await
        .oneshot(request("GET", &missing, String::new()))
        .await
        .unwrap();
    assert_ne!(response.status(), StatusCode::OK);
}
