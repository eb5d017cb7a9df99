//! The HTTP door tried as an attacker would, over a real loopback socket: hostile files a run
//! captured (SVG, XML, HTML with script), traversal and encoding tricks against every file
//! route, the one-time launch link, the cookie's name, framing, the body limit and the cap
//! on watch streams.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::{Path, PathBuf};

use heddle_api::INERT_FILE_POLICY;
use serde_json::json;
use support::live::{LAUNCH, Server, TOKEN, raw_request, start_server};

const ONE_STEP: &str = r#"digraph One {
    start [shape=Mdiamond]; exit [shape=Msquare];
    one [shape=parallelogram, script="echo one > one.txt"];
    start -> one -> exit;
}"#;

/// An SVG, an XHTML document and a page that each try to read the cookie and call the API.
const SCRIPT: &str = "<script>fetch('/api/list_runs',{method:'POST',body:'{}'}).then(r=>r.text()).then(t=>parent.postMessage(t+document.cookie,'*'))</script>";

/// A raw request over its own connection, so the path reaches the server exactly as written
/// (HTTP clients normalise `..` and `%2e%2e` away); the status and the whole response.
async fn raw(base: &str, request_line: &str, headers: &[String]) -> (u16, String) {
    raw_request(base, request_line, headers, b"").await
}

/// `POST /api/{op}` with `{}` as the body.
async fn post(base: &str, op: &str, headers: &[String]) -> (u16, String) {
    let mut headers = headers.to_vec();
    headers.push("Content-Type: application/json".into());
    headers.push("Content-Length: 2".into());
    raw_request(base, &format!("POST /api/{op}"), &headers, b"{}").await
}

fn bearer() -> Vec<String> {
    vec![format!("Authorization: Bearer {TOKEN}")]
}

/// The value of header `name` in a raw response head (lowercase names).
fn header_of(response: &str, name: &str) -> Option<String> {
    let head = response.split("\r\n\r\n").next().unwrap_or_default();
    head.lines().skip(1).find_map(|line| {
        let (n, v) = line.split_once(':')?;
        n.trim()
            .eq_ignore_ascii_case(name)
            .then(|| v.trim().to_string())
    })
}

/// A finished one-step run; its id and folder.
async fn finished_run(server: &Server) -> (String, PathBuf) {
    let started = server
        .ok(
            "start_run",
            json!({ "trust": true, "workflow_path": server.flow("one.dot", ONE_STEP),
                    "work_dir": server.work.display().to_string() }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let (_, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended);
    let record = server.ok("get_run", json!({ "run_id": run })).await;
    (run, PathBuf::from(record["folder"].as_str().unwrap()))
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_run_files_are_inert_on_every_route() {
    let server = start_server().await;
    let (run, folder) = finished_run(&server).await;
    let artifacts = folder.join("artifacts");
    let svg = format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{SCRIPT}</svg>"#);
    let xhtml = format!(
        r#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>{SCRIPT}</body></html>"#
    );
    write(&artifacts.join("evil.svg"), &svg);
    write(&artifacts.join("junit.xml"), &xhtml);
    write(&artifacts.join("page.xhtml"), &xhtml);
    write(&artifacts.join("report/index.html"), SCRIPT);
    write(&artifacts.join("report/data/shot.png"), "\u{89}PNG fake");
    write(&artifacts.join("report/data/evil.svg"), &svg);
    write(&folder.join("nodes/one/evil.svg"), &svg);

    let report_key = heddle_server::run_files_key(TOKEN, &run, "artifacts", "report");
    let shared = |path: &str| format!("/shared/{report_key}/{run}/artifacts/{path}");
    // Every file that is not a page, on every route, with a range or without: the strictest
    // policy (no script, nothing fetched), its declared type and no sniffing.
    for (path, auth, media_type) in [
        (
            format!("/api/runs/{run}/artifacts/evil.svg"),
            bearer(),
            "image/svg+xml",
        ),
        (
            format!("/api/runs/{run}/artifacts/junit.xml"),
            bearer(),
            "application/xml",
        ),
        (
            format!("/api/runs/{run}/artifacts/page.xhtml"),
            bearer(),
            "application/octet-stream",
        ),
        (
            format!("/api/runs/{run}/nodes/one/evil.svg"),
            bearer(),
            "image/svg+xml",
        ),
        (
            format!("/api/runs/{run}/artifacts/report/data/shot.png"),
            bearer(),
            "image/png",
        ),
        (shared("report/data/evil.svg"), vec![], "image/svg+xml"),
        (shared("report/data/shot.png"), vec![], "image/png"),
    ] {
        for range in [None, Some("Range: bytes=0-3".to_string())] {
            let headers: Vec<String> = auth.iter().cloned().chain(range.clone()).collect();
            let (status, response) = raw(&server.base, &format!("GET {path}"), &headers).await;
            assert!(matches!(status, 200 | 206), "{path}: {response}");
            assert_eq!(
                header_of(&response, "content-security-policy").as_deref(),
                Some(INERT_FILE_POLICY),
                "{path}"
            );
            assert_eq!(
                header_of(&response, "content-type").as_deref(),
                Some(media_type),
                "{path}"
            );
            assert_eq!(
                header_of(&response, "x-content-type-options").as_deref(),
                Some("nosniff"),
                "{path}"
            );
        }
    }

    // The page is served in a sandbox that lets its scripts run in an opaque origin only,
    // naming its own folder, never the run's other files.
    let (status, response) = raw(
        &server.base,
        &format!("GET {}", shared("report/index.html")),
        &[],
    )
    .await;
    assert_eq!(status, 200, "{response}");
    let policy = header_of(&response, "content-security-policy").unwrap();
    assert!(
        policy.starts_with("sandbox allow-scripts allow-popups;"),
        "{policy}"
    );
    assert!(!policy.contains("allow-same-origin"), "{policy}");
    assert!(
        policy.contains(&format!("{}{} ", server.base, shared("report/"))),
        "{policy}"
    );

    // What the page can navigate itself (or a frame) to: under its own folder, only files
    // with the policies above; anything else of the run is closed to its key, and the API
    // and the UI need the cookie its opaque origin cannot send.
    for outside in [
        format!("/shared/{report_key}/{run}/artifacts/evil.svg"),
        format!("/shared/{report_key}/{run}/artifacts/junit.xml"),
        format!("/shared/{report_key}/{run}/nodes/one/evil.svg"),
        format!("/shared/{report_key}/{run}/nodes/report/evil.svg"),
        format!("/shared/{report_key}/{run}/artifacts/report/../evil.svg"),
        format!("/shared/{report_key}/{run}/artifacts/report/%2e%2e/evil.svg"),
        format!("/api/runs/{run}/artifacts/evil.svg"),
        "/api/list_runs".to_string(),
        "/".to_string(),
    ] {
        let (status, response) = raw(&server.base, &format!("GET {outside}"), &[]).await;
        assert!(matches!(status, 400 | 401 | 404), "{outside}: {response}");
        assert!(!response.contains("<script>"), "{outside}: {response}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn traversal_and_encoding_tricks_reach_nothing_on_any_file_route() {
    let server = start_server().await;
    let (run, folder) = finished_run(&server).await;
    let artifacts = folder.join("artifacts");
    write(&artifacts.join("report/index.html"), "<html>report</html>");
    write(&artifacts.join("ok.txt"), "ok");
    let outside = server.work.parent().unwrap().join("outside-secret.txt");
    write(&outside, "outside secret");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&outside, artifacts.join("report/link.txt")).unwrap();
        std::os::unix::fs::symlink(
            folder.join("manifest.json"),
            artifacts.join("report/manifest.txt"),
        )
        .unwrap();
        std::os::unix::fs::symlink(&folder, artifacts.join("report/up")).unwrap();
        std::os::unix::fs::symlink(folder.join("nodes"), artifacts.join("report/nodes")).unwrap();
    }
    let key = heddle_server::run_files_key(TOKEN, &run, "artifacts", "report");
    let routes = [
        (format!("/api/runs/{run}/artifacts/report/"), bearer()),
        (format!("/shared/{key}/{run}/artifacts/report/"), vec![]),
    ];
    for (prefix, auth) in &routes {
        let (status, response) = raw(&server.base, &format!("GET {prefix}index.html"), auth).await;
        assert!(matches!(status, 200 | 303), "{prefix}: {response}");
        for trick in [
            "../ok.txt",
            "%2e%2e/ok.txt",
            "%2E%2E%2Fok.txt",
            "..%2f..%2fmanifest.json",
            "..%5c..%5cmanifest.json",
            "..\\..\\manifest.json",
            "index.html%00.png",
            "%00",
            "%2fetc%2fpasswd",
            "/etc/passwd",
            "%c0%ae%c0%ae/ok.txt",
            "%c0%af..%c0%afok.txt",
            "%e0%80%ae%e0%80%ae/ok.txt",
            "link.txt",
            "manifest.txt",
            "up/manifest.json",
            "nodes/one/status.json",
            ".",
            "",
        ] {
            let path = format!("{prefix}{trick}");
            let (status, response) = raw(&server.base, &format!("GET {path}"), auth).await;
            assert!(
                matches!(status, 400 | 401 | 404 | 422),
                "{path}: {status}\n{response}"
            );
            assert!(!response.contains("outside secret"), "{path}");
            assert!(
                !response.contains("\"run_id\""),
                "{path} leaked the manifest"
            );
            assert!(
                !response.contains("\"node_id\""),
                "{path} leaked a stage's file"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_launch_link_opens_the_server_once_and_never_carries_the_token() {
    let server = start_server().await;
    let port = server.base.rsplit(':').next().unwrap().to_string();
    let cookie_name = format!("heddle_token_{port}");
    assert_eq!(
        heddle_server::token_cookie(port.parse().unwrap()),
        cookie_name
    );

    // Neither a wrong launch token nor the access token in the URL opens anything.
    for path in [
        "/?launch=0000",
        &format!("/?token={TOKEN}"),
        &format!("/api/list_runs?token={TOKEN}"),
    ] {
        let (status, response) = raw(&server.base, &format!("GET {path}"), &[]).await;
        assert_eq!(status, 401, "{path}: {response}");
        assert!(header_of(&response, "set-cookie").is_none(), "{path}");
    }
    // The launch token, once: the cookie (named for this port), and a redirect to the same
    // address without it, so it stays in no address bar or history entry.
    let (status, response) = raw(
        &server.base,
        &format!("GET /?file=%2Fw%2Fa.dot&launch={LAUNCH}&run=R1"),
        &[],
    )
    .await;
    assert_eq!(status, 303, "{response}");
    assert_eq!(
        header_of(&response, "location").as_deref(),
        Some("/?file=%2Fw%2Fa.dot&run=R1")
    );
    let cookie = header_of(&response, "set-cookie").unwrap();
    assert_eq!(
        cookie,
        format!("{cookie_name}={TOKEN}; HttpOnly; SameSite=Strict; Path=/")
    );
    let (status, response) = raw(&server.base, &format!("GET /?launch={LAUNCH}"), &[]).await;
    assert_eq!(status, 401, "a launch link works once: {response}");
    assert!(response.contains("used already"), "{response}");
    // The cookie works from then on; a spent launch token beside it is just dropped.
    let with_cookie = vec![format!("Cookie: {cookie_name}={TOKEN}")];
    let (status, response) = post(&server.base, "list_runs", &with_cookie).await;
    assert_eq!(status, 200, "{response}");
    let (status, response) = raw(
        &server.base,
        &format!("GET //evil.example/?launch={LAUNCH}"),
        &with_cookie,
    )
    .await;
    assert_eq!(status, 303, "{response}");
    assert_eq!(
        header_of(&response, "location").as_deref(),
        Some("/evil.example/")
    );
    assert!(header_of(&response, "set-cookie").is_none());
    // Another server's cookie (another port), or the old shared name, opens nothing.
    for other in [
        format!("heddle_token={TOKEN}"),
        format!("heddle_token_1={TOKEN}"),
    ] {
        let (status, _) = raw(
            &server.base,
            "GET /api/runs/x/artifacts/a.png",
            &[format!("Cookie: {other}")],
        )
        .await;
        assert_eq!(status, 401, "{other}");
    }
    let (status, response) = raw(
        &server.base,
        "GET /api/runs/x/artifacts/a.png",
        &with_cookie,
    )
    .await;
    assert_eq!(status, 404, "the cookie opens the server: {response}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_other_page_can_frame_the_ui_or_the_api() {
    let server = start_server().await;
    for (request, headers) in [
        ("GET /api/runs/x/artifacts/a.png", bearer()),
        ("GET /api/runs/x/artifacts/a.png", vec![]),
        ("GET /", bearer()),
        ("GET /?launch=wrong", vec![]),
        ("GET /shared/nonsense/x/artifacts/a.png", vec![]),
    ] {
        let (status, response) = raw(&server.base, request, &headers).await;
        assert_ne!(status, 0);
        assert_eq!(
            header_of(&response, "x-frame-options").as_deref(),
            Some("SAMEORIGIN"),
            "{request}: {response}"
        );
        assert_eq!(
            header_of(&response, "content-security-policy").as_deref(),
            Some(heddle_server::FRAME_POLICY),
            "{request}"
        );
        assert_eq!(
            header_of(&response, "x-content-type-options").as_deref(),
            Some("nosniff"),
            "{request}"
        );
    }
    let (status, response) = post(&server.base, "list_runs", &bearer()).await;
    assert_eq!(status, 200, "{response}");
    assert_eq!(
        header_of(&response, "x-frame-options").as_deref(),
        Some("SAMEORIGIN")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_workflow_as_large_as_heddle_opens_can_be_saved_and_a_larger_body_is_refused() {
    let server = start_server().await;
    let path = server.work.parent().unwrap().join("big.dot");
    // Over the 2 MB axum allows by default, and full of characters JSON doubles.
    let comment = "\"\n".repeat(2 * 1024 * 1024);
    let source = format!("digraph Big {{ start -> exit }}\n/* {comment} */\n");
    let saved = server
        .ok(
            "save_workflow",
            json!({ "path": path.display().to_string(), "source": source }),
        )
        .await;
    assert_eq!(saved["source"].as_str().map(str::len), Some(source.len()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), source);
    assert!(heddle_server::MAX_BODY_BYTES as u64 >= 2 * heddle_api::MAX_WORKFLOW_BYTES);

    // A body over the limit is refused, with a clear error.
    let too_large: &'static [u8] = vec![b' '; heddle_server::MAX_BODY_BYTES + 1].leak();
    let (status, response) = raw_request(
        &server.base,
        "POST /api/save_workflow",
        &[
            bearer()[0].clone(),
            "Content-Type: application/json".into(),
            format!("Content-Length: {}", too_large.len()),
        ],
        too_large,
    )
    .await;
    assert_eq!(status, 413, "{response}");
    assert!(response.contains("\"too_large\""), "{response}");
    assert!(response.contains("MiB"), "{response}");
}

#[tokio::test]
async fn watch_streams_beyond_the_limit_are_refused_until_one_ends() {
    use axum::body::Body;
    use axum::http::{Request, header};
    use tower::ServiceExt;

    let dir = tempfile::tempdir().unwrap();
    let app = heddle_server::router(heddle_server::ServerConfig {
        watches: heddle_api::WorkflowWatches::new(2),
        ..support::config().await
    });
    let watch = |name: &str| {
        let uri = format!(
            "/api/watch_workflow?path={}",
            dir.path().join(name).display()
        );
        let request = Request::get(uri)
            .header(header::HOST, "127.0.0.1:7878")
            .header(header::AUTHORIZATION, format!("Bearer {}", support::TOKEN))
            .body(Body::empty())
            .unwrap();
        app.clone().oneshot(request)
    };
    let first = watch("a.dot").await.unwrap();
    let second = watch("b.dot").await.unwrap();
    assert_eq!(
        (first.status().as_u16(), second.status().as_u16()),
        (200, 200)
    );
    let refused = watch("c.dot").await.unwrap();
    assert_eq!(refused.status().as_u16(), 409);
    let body = http_body_util::BodyExt::collect(refused.into_body())
        .await
        .unwrap()
        .to_bytes();
    let error: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(error["code"], "busy");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("2 workflow watches"),
        "{error}"
    );
    // Closing a stream gives its place back.
    drop(first);
    assert_eq!(watch("c.dot").await.unwrap().status().as_u16(), 200);
    drop(second);
}
