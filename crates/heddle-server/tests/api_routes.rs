//! The HTTP door: operations, error codes, the Host check and the static UI, exercised
//! through the router and over a real loopback socket.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use heddle_api::{LaunchInfo, OpenedWorkflow};
use heddle_server::{ServerConfig, router};
use http_body_util::BodyExt;
use tower::ServiceExt;

const FLOW: &str = "digraph Flow {\n  start [shape=Mdiamond];\n  work [shape=parallelogram, script=\"true\"];\n  exit [shape=Msquare];\n  start -> work -> exit;\n}\n";

mod support;
use support::{TOKEN, config};

async fn call(
    config: ServerConfig,
    method: &str,
    uri: &str,
    host: &str,
    body: &str,
) -> (StatusCode, String) {
    let request = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::HOST, host)
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
        .body(Body::from(body.to_owned()))
        .unwrap();
    let response = router(config).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

fn write_flow(dir: &Path) -> String {
    let path = dir.join("flow.dot");
    std::fs::write(&path, FLOW).unwrap();
    path.display().to_string()
}

#[tokio::test]
async fn open_workflow_returns_the_model_and_source() {
    let dir = tempfile::tempdir().unwrap();
    let path = write_flow(dir.path());
    let body = serde_json::json!({ "path": path }).to_string();
    let (status, text) = call(
        config().await,
        "POST",
        "/api/open_workflow",
        "127.0.0.1:7878",
        &body,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let opened: OpenedWorkflow = serde_json::from_str(&text).unwrap();
    assert_eq!(opened.source, FLOW);
    let workflow = opened.workflow.expect("a model");
    let ids: Vec<_> = workflow.nodes.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["start", "work", "exit"]);
    assert_eq!(workflow.edges.len(), 2);
}

#[tokio::test]
async fn a_missing_file_is_404_with_a_stable_code() {
    let body = r#"{"path":"/definitely/not/here.dot"}"#;
    let (status, text) = call(
        config().await,
        "POST",
        "/api/open_workflow",
        "localhost",
        body,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let err: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(err["code"], "not_found");
    assert!(
        err["message"]
            .as_str()
            .unwrap()
            .contains("/definitely/not/here.dot")
    );
}

#[tokio::test]
async fn a_malformed_request_is_rejected_with_invalid_request() {
    let (status, text) = call(
        config().await,
        "POST",
        "/api/open_workflow",
        "localhost",
        r#"{"pth":1}"#,
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let err: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(err["code"], "invalid_request");
}

#[tokio::test]
async fn check_workflow_validates_unsaved_text() {
    let dir = tempfile::tempdir().unwrap();
    let body = serde_json::json!({
        "path": dir.path().join("draft.dot").display().to_string(),
        "source": "digraph D { a -> b }",
    })
    .to_string();
    let (status, text) = call(
        config().await,
        "POST",
        "/api/check_workflow",
        "localhost",
        &body,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let opened: OpenedWorkflow = serde_json::from_str(&text).unwrap();
    let rules: Vec<_> = opened.diagnostics.iter().map(|d| d.rule.as_str()).collect();
    assert!(rules.contains(&"start_node"), "{rules:?}");
    assert!(rules.contains(&"terminal_node"), "{rules:?}");
}

#[tokio::test]
async fn list_workflows_finds_dot_files_and_skips_node_modules() {
    let dir = tempfile::tempdir().unwrap();
    write_flow(dir.path());
    std::fs::create_dir_all(dir.path().join("nested")).unwrap();
    std::fs::write(dir.path().join("nested/other.dot"), FLOW).unwrap();
    std::fs::create_dir_all(dir.path().join("node_modules/pkg")).unwrap();
    std::fs::write(dir.path().join("node_modules/pkg/x.dot"), FLOW).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
    let body = serde_json::json!({ "dir": dir.path().display().to_string() }).to_string();
    let (status, text) = call(
        config().await,
        "POST",
        "/api/list_workflows",
        "localhost",
        &body,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let entries: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    let mut rel: Vec<_> = entries
        .iter()
        .map(|e| e["relative_path"].as_str().unwrap().to_owned())
        .collect();
    rel.sort();
    assert_eq!(rel, ["flow.dot", "nested/other.dot"]);
}

#[tokio::test]
async fn launch_info_reports_what_the_server_was_started_with() {
    let config = ServerConfig {
        launch: LaunchInfo {
            initial_file: Some("/w/a.dot".into()),
            workspace_dir: Some("/w".into()),
        },
        ..config().await
    };
    let (status, text) = call(config, "POST", "/api/launch_info", "localhost", "{}").await;
    assert_eq!(status, StatusCode::OK);
    let info: LaunchInfo = serde_json::from_str(&text).unwrap();
    assert_eq!(info.initial_file.as_deref(), Some("/w/a.dot"));
}

#[tokio::test]
async fn a_foreign_host_header_is_refused() {
    let (status, text) = call(
        config().await,
        "POST",
        "/api/launch_info",
        "attacker.example:7878",
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::MISDIRECTED_REQUEST);
    assert!(text.contains("attacker.example"));
}

#[tokio::test]
async fn the_ui_is_served_with_an_index_fallback_for_client_routes() {
    let ui = tempfile::tempdir().unwrap();
    std::fs::write(ui.path().join("index.html"), "<html>heddle ui</html>").unwrap();
    std::fs::create_dir_all(ui.path().join("assets")).unwrap();
    std::fs::write(ui.path().join("assets/app.js"), "console.log(1)").unwrap();
    let config = ServerConfig {
        ui: heddle_server::UiSource::Folder(ui.path().to_path_buf()),
        ..config().await
    };
    let (status, text) = call(config.clone(), "GET", "/", "localhost", "").await;
    assert_eq!(
        (status, text.as_str()),
        (StatusCode::OK, "<html>heddle ui</html>")
    );
    let (status, text) = call(config.clone(), "GET", "/assets/app.js", "localhost", "").await;
    assert_eq!((status, text.as_str()), (StatusCode::OK, "console.log(1)"));
    let (status, text) = call(config, "GET", "/runs/123", "localhost", "").await;
    assert_eq!(
        (status, text.as_str()),
        (StatusCode::OK, "<html>heddle ui</html>")
    );
}

#[tokio::test]
async fn serves_over_a_real_loopback_socket_and_refuses_other_addresses() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    let refused = heddle_server::bind("0.0.0.0:0".parse().unwrap(), false).await;
    assert!(matches!(
        refused,
        Err(heddle_server::ServeError::NotLoopback(_))
    ));

    let listener = heddle_server::bind("127.0.0.1:0".parse().unwrap(), false)
        .await
        .unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(heddle_server::serve(listener, config().await));
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "POST /api/launch_info HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nAuthorization: Bearer {TOKEN}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).await.unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"initial_file\":null"), "{response}");
    server.abort();
}

#[tokio::test]
async fn paths_outside_the_ui_folder_are_not_served() {
    let root = tempfile::tempdir().unwrap();
    let ui = root.path().join("ui");
    std::fs::create_dir_all(&ui).unwrap();
    std::fs::write(ui.join("index.html"), "<html>heddle ui</html>").unwrap();
    std::fs::write(root.path().join("secret.txt"), "top secret").unwrap();
    let config = ServerConfig {
        ui: heddle_server::UiSource::Folder(ui),
        ..config().await
    };
    for uri in [
        "/../secret.txt",
        "/..%2fsecret.txt",
        "/%2e%2e/secret.txt",
        "/assets/..%2f..%2fsecret.txt",
    ] {
        let (status, text) = call(config.clone(), "GET", uri, "localhost", "").await;
        assert!(
            !text.contains("top secret"),
            "{uri} served the file ({status})"
        );
    }
}

/// Every operation heddle-api's table says the server serves answers at its route: a 404
/// there is an `ApiError` (the operation said "not found"), never axum's empty "no route".
#[tokio::test]
async fn every_operation_of_the_table_has_its_route() {
    let served: Vec<_> = heddle_api::operations::OPERATIONS
        .iter()
        .filter_map(|op| op.http.map(|route| (op.name, route)))
        .collect();
    assert!(served.len() > 30, "{served:?}");
    for (name, (method, path)) in served {
        let uri = format!(
            "/api{}",
            path.replace("{run}", "nope")
                .replace("{area}", "artifacts")
                .replace("{*path}", "a.txt")
        );
        let request = Request::builder()
            .method(method)
            .uri(&uri)
            .header(header::HOST, "localhost")
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::AUTHORIZATION, format!("Bearer {TOKEN}"))
            .body(Body::from(if method == "POST" { "{}" } else { "" }))
            .unwrap();
        let response = router(config().await).oneshot(request).await.unwrap();
        let status = response.status();
        assert_ne!(
            status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{name}: {method} {uri}"
        );
        if status == StatusCode::NOT_FOUND {
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            let body: serde_json::Value = serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| panic!("{name}: no route at {method} {uri}"));
            assert!(body["code"].is_string(), "{name}: {body}");
        }
    }
}
