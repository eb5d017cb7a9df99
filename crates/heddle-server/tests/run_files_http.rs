//! A run's files over HTTP: served from its `artifacts/` and `nodes/` folders with their
//! type, byte ranges and a sandbox for pages, and nothing outside them whatever the path tries.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::PathBuf;

use serde_json::json;
use support::live::{FLOW, TOKEN, raw_request, start_server};

/// A raw `GET` over its own connection, so the path reaches the server exactly as written
/// (HTTP clients normalise `..` and `%2e%2e` away); the status and the response head.
async fn raw_get(base: &str, path: &str) -> (u16, String) {
    raw_get_as(base, path, Some(TOKEN)).await
}

/// [`raw_get`] with the given token (none: as a page that cannot send it).
async fn raw_get_as(base: &str, path: &str, token: Option<&str>) -> (u16, String) {
    let auth: Vec<String> = token
        .map(|t| format!("Authorization: Bearer {t}"))
        .into_iter()
        .collect();
    raw_request(base, &format!("GET {path}"), &auth, b"").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runs_files_are_served_and_never_anything_outside_them() {
    let server = start_server().await;
    let started = server
        .ok(
            "start_run",
            json!({ "trust": true,
                    "workflow_path": server.flow("steps.dot", FLOW),
                    "work_dir": server.work.display().to_string() }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let (_, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended);
    let record = server.ok("get_run", json!({ "run_id": run })).await;
    let folder = PathBuf::from(record["folder"].as_str().unwrap());
    let shots = folder.join("artifacts/one/retry_0/shots");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("home.png"), b"\x89PNG fake").unwrap();
    std::fs::write(
        folder.join("artifacts/one/retry_0/report.html"),
        "<html>report</html>",
    )
    .unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        folder.join("manifest.json"),
        folder.join("artifacts/leak.json"),
    )
    .unwrap();

    // Served, with the right type, ranges for media, and pages in a sandbox.
    let (status, head) = raw_get(
        &server.base,
        &format!("/api/runs/{run}/artifacts/one/retry_0/shots/home.png"),
    )
    .await;
    assert_eq!(status, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: image/png"),
        "{head}"
    );
    assert!(
        head.to_ascii_lowercase()
            .contains("x-content-type-options: nosniff"),
        "{head}"
    );
    let ranged = server
        .client
        .get(format!(
            "{}/api/runs/{run}/artifacts/one/retry_0/shots/home.png",
            server.base
        ))
        .bearer_auth(TOKEN)
        .header("Range", "bytes=0-3")
        .send()
        .await
        .unwrap();
    assert_eq!(ranged.status().as_u16(), 206);
    assert_eq!(ranged.bytes().await.unwrap().as_ref(), b"\x89PNG");
    // A page is sent on to its shared link, where it and the files beside it load without
    // the token (a sandboxed frame cannot send the cookie), in a sandbox.
    let (status, head) = raw_get(
        &server.base,
        &format!("/api/runs/{run}/artifacts/one/retry_0/report.html"),
    )
    .await;
    assert_eq!(status, 303, "{head}");
    let key = heddle_server::run_files_key(TOKEN, &run, "artifacts", "one/retry_0");
    let shared = format!("/shared/{key}/{run}/artifacts/one/retry_0/report.html");
    assert!(head.contains(&format!("location: {shared}")), "{head}");
    let (status, head) = raw_get_as(&server.base, &shared, None).await;
    assert_eq!(status, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-security-policy: sandbox"),
        "{head}"
    );
    // Its policy names its own folder beside 'self' (WebKit matches nothing to 'self' in a
    // sandboxed page, so the report's own images would not load there).
    let folder = format!("{}/shared/{key}/{run}/artifacts/one/retry_0/", server.base);
    assert!(
        head.contains(&format!("default-src 'self' {folder} ")),
        "{head}"
    );
    assert!(head.ends_with("<html>report</html>"), "{head}");
    let sibling = format!("/shared/{key}/{run}/artifacts/one/retry_0/shots/home.png");
    let (status, head) = raw_get_as(&server.base, &sibling, None).await;
    assert_eq!(
        status, 200,
        "the page's own files load under its link: {head}"
    );
    // The key opens that run's files only: not with another key, not another run, not the API.
    let wrong = format!(
        "/shared/{}/{run}/artifacts/one/retry_0/shots/home.png",
        "0".repeat(32)
    );
    assert_eq!(raw_get_as(&server.base, &wrong, None).await.0, 401);
    let other = format!("/shared/{key}/01OTHERRUN/artifacts/one/retry_0/shots/home.png");
    assert_eq!(raw_get_as(&server.base, &other, None).await.0, 401);
    for path in [
        format!("/shared/{key}/{run}/../../api/list_runs"),
        format!("/shared/{key}/{run}/artifacts/%2e%2e/manifest.json"),
        format!("/shared/{key}/{run}/worktree/README.md"),
    ] {
        let (status, head) = raw_get_as(&server.base, &path, None).await;
        assert!(
            matches!(status, 400 | 401 | 404 | 422),
            "{path}: {status}\n{head}"
        );
        assert!(!head.contains("\"run_id\""), "{path} leaked the manifest");
    }
    let (status, head) = raw_get(
        &server.base,
        &format!("/api/runs/{run}/nodes/one/status.json"),
    )
    .await;
    assert_eq!(status, 200, "a stage's files are served too: {head}");

    // Never anything outside the folder asked for.
    for path in [
        "artifacts/../manifest.json",
        "artifacts/%2e%2e/manifest.json",
        "artifacts/%2E%2E/%2E%2E/heddle.db",
        "artifacts/one/..%2f..%2fmanifest.json",
        "artifacts/%2fetc%2fpasswd",
        "artifacts/..%5cmanifest.json",
        "nodes/../progress.jsonl",
        "artifacts/leak.json",
        "worktree/README.md",
    ] {
        let (status, head) = raw_get(&server.base, &format!("/api/runs/{run}/{path}")).await;
        assert!(
            matches!(status, 400 | 404 | 422),
            "{path}: {status}\n{head}"
        );
        assert!(!head.contains("\"run_id\""), "{path} leaked the manifest");
    }
    // And never without the token.
    let anonymous = reqwest::get(format!(
        "{}/api/runs/{run}/artifacts/one/retry_0/shots/home.png",
        server.base
    ))
    .await
    .unwrap();
    assert_eq!(anonymous.status().as_u16(), 401);
}
