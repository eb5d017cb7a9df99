//! Runs over real HTTP on a loopback socket with a temp data dir: start a command-only
//! workflow, follow its events over SSE to the end, reconnect with `Last-Event-ID`, read
//! its checkpoints and diff, answer a human gate; and the token and Host checks.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use heddle_api::runs::HeddleHome;
use heddle_api::{LaunchInfo, RunHost};
use heddle_server::{ServerConfig, router};
use serde_json::{Value, json};

const TOKEN: &str = "0123456789abcdef0123456789abcdef";

const FLOW: &str = r#"digraph Steps {
    start [shape=Mdiamond]; exit [shape=Msquare];
    one [shape=parallelogram, script="echo one > one.txt"];
    two [shape=parallelogram, script="echo two > two.txt; echo more >> one.txt"];
    three [shape=parallelogram, script="echo three > three.txt"];
    start -> one -> two -> three -> exit;
}"#;

const GATE: &str = r#"digraph Gate {
    start [shape=Mdiamond]; exit [shape=Msquare];
    ask [shape=hexagon, label="Ship it?"];
    ship [shape=parallelogram, script="echo shipped > shipped.txt"];
    start -> ask;
    ask -> ship [label="[Y] Yes"];
    ask -> exit [label="[N] No"];
    ship -> exit;
}"#;

struct Server {
    base: String,
    _dir: tempfile::TempDir,
    work: PathBuf,
    client: reqwest::Client,
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A server over a temp HEDDLE_HOME, with a clean git repository as the work folder.
async fn start_server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    git(&work, &["init", "-q"]);
    std::fs::write(work.join("README.md"), "project\n").unwrap();
    git(&work, &["add", "-A"]);
    git(&work, &["commit", "-qm", "init"]);
    let env = vec![
        (
            "PATH".to_string(),
            std::env::var("PATH").unwrap_or_default(),
        ),
        ("HOME".to_string(), root.join("home").display().to_string()),
    ];
    let config = ServerConfig {
        ui_dir: None,
        launch: LaunchInfo::default(),
        allow_any_host: false,
        token: TOKEN.to_string(),
        host: RunHost::open(HeddleHome::at(root.join("heddle")), env)
            .await
            .unwrap(),
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, router(config)).await });
    Server {
        base: format!("http://{addr}"),
        _dir: dir,
        work,
        client: reqwest::Client::new(),
    }
}

impl Server {
    fn flow(&self, name: &str, source: &str) -> String {
        let path = self.work.parent().unwrap().join(name);
        std::fs::write(&path, source).unwrap();
        path.display().to_string()
    }

    /// Calls an operation with the token; the status and the JSON body.
    async fn call(&self, op: &str, body: Value) -> (u16, Value) {
        let response = self
            .client
            .post(format!("{}/api/{op}", self.base))
            .bearer_auth(TOKEN)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    async fn ok(&self, op: &str, body: Value) -> Value {
        let (status, value) = self.call(op, body).await;
        assert_eq!(status, 200, "{op}: {value}");
        value
    }

    /// Reads the SSE stream of `run` from `last_id` (as `Last-Event-ID`) until it ends or
    /// `limit` events came; the events and whether the `end` event came.
    async fn events(&self, run: &str, last_id: Option<u64>, limit: usize) -> (Vec<Value>, bool) {
        let mut request = self
            .client
            .get(format!("{}/api/events", self.base))
            .query(&[("run", run)])
            .bearer_auth(TOKEN);
        if let Some(id) = last_id {
            request = request.header("Last-Event-ID", id.to_string());
        }
        let mut response = request.send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200);
        let mut buffer = String::new();
        let mut events = Vec::new();
        loop {
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                let mut id = None;
                let mut kind = None;
                let mut data = String::new();
                for line in block.lines() {
                    if let Some(v) = line.strip_prefix("id:") {
                        id = Some(v.trim().to_string());
                    } else if let Some(v) = line.strip_prefix("event:") {
                        kind = Some(v.trim().to_string());
                    } else if let Some(v) = line.strip_prefix("data:") {
                        data.push_str(v.trim_start());
                    }
                }
                match kind.as_deref() {
                    Some("end") => return (events, true),
                    Some(other) => panic!("unexpected SSE event {other}: {data}"),
                    None if data.is_empty() => {}
                    None => {
                        let event: Value = serde_json::from_str(&data).unwrap();
                        assert_eq!(id.unwrap(), event["seq"].to_string());
                        events.push(event);
                        if events.len() == limit {
                            return (events, false);
                        }
                    }
                }
            }
            match response.chunk().await.unwrap() {
                Some(chunk) => buffer.push_str(&String::from_utf8_lossy(&chunk)),
                None => return (events, false),
            }
        }
    }
}

fn seqs(events: &[Value]) -> Vec<u64> {
    events.iter().map(|e| e["seq"].as_u64().unwrap()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_started_over_http_streams_its_events_and_reads_its_history() {
    let server = start_server().await;
    let started = server
        .ok(
            "start_run",
            json!({ "workflow_path": server.flow("steps.dot", FLOW),
                    "work_dir": server.work.display().to_string(),
                    "labels": { "suite": "http" } }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();

    // Follow it to the end.
    let (all, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended, "the stream ended without its end event");
    let wanted: Vec<u64> = (1..=all.len() as u64).collect();
    assert_eq!(seqs(&all), wanted, "events lost or repeated");
    assert_eq!(all.last().unwrap()["event"], "run.completed");
    for node in ["one", "two", "three"] {
        assert!(
            all.iter()
                .any(|e| e["event"] == "stage.completed" && e["node_id"] == node),
            "no stage.completed for {node}"
        );
    }

    // Reconnect after the third event: the rest, nothing twice.
    let (first, ended) = server.events(&run, None, 3).await;
    assert!(!ended);
    assert_eq!(seqs(&first), [1, 2, 3]);
    let (rest, ended) = server.events(&run, Some(3), usize::MAX).await;
    assert!(ended);
    let joined: Vec<Value> = first.into_iter().chain(rest).collect();
    assert_eq!(joined, all);

    // Indexed (the host ingests a run it ran as soon as it ends), with its timeline.
    let runs = server
        .ok(
            "list_runs",
            json!({ "filter": { "labels": { "suite": "http" } } }),
        )
        .await;
    let items = runs["items"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{runs}");
    assert_eq!(items[0]["id"], run.as_str());
    assert_eq!(items[0]["status"], "success", "{runs}");
    assert_eq!(items[0]["event_count"], all.len());
    let others = server
        .ok(
            "list_runs",
            json!({ "filter": { "labels": { "suite": "other" } } }),
        )
        .await;
    assert_eq!(others["total"], 0, "{others}");
    let timeline = server.ok("run_timeline", json!({ "run_id": run })).await;
    let stages: Vec<&str> = timeline["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        stages,
        ["start", "one", "two", "three", "exit"],
        "{timeline}"
    );
    let record = server.ok("get_run", json!({ "run_id": &run[..10] })).await;
    assert_eq!(record["id"], run.as_str());
    let checkpoints = server.ok("run_checkpoints", json!({ "run_id": run })).await;
    let nodes: Vec<&str> = checkpoints
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(nodes, ["start", "one", "two", "three", "exit"]);
    let files = server
        .ok("checkpoint_files", json!({ "run_id": run, "at": "two" }))
        .await;
    let paths: Vec<&str> = files
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["README.md", "one.txt", "two.txt"]);
    let file = server
        .ok(
            "checkpoint_file",
            json!({ "run_id": run, "at": "one", "path": "one.txt" }),
        )
        .await;
    assert_eq!(file["text"], "one\n");
    let diff = server
        .ok(
            "checkpoint_diff",
            json!({ "run_id": run, "from": "one", "to": "three" }),
        )
        .await;
    let changed: Vec<&str> = diff["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["path"].as_str().unwrap())
        .collect();
    assert_eq!(changed, ["one.txt", "three.txt", "two.txt"]);

    // Errors carry codes, not just text.
    let (status, error) = server
        .call("checkpoint_files", json!({ "run_id": run, "at": "nosuch" }))
        .await;
    assert_eq!(status, 404, "{error}");
    assert_eq!(error["code"], "not_found");
    let (status, error) = server.call("cancel_run", json!({ "run_id": run })).await;
    assert_eq!(status, 409, "{error}");
    assert_eq!(error["code"], "not_running");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_human_gate_is_answered_over_http() {
    let server = start_server().await;
    let started = server
        .ok(
            "start_run",
            json!({ "workflow_path": server.flow("gate.dot", GATE),
                    "work_dir": server.work.display().to_string(),
                    "checkpoints": "none" }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let mut gates = Value::Null;
    for _ in 0..200 {
        gates = server.ok("pending_gates", json!({ "run_id": run })).await;
        if !gates.as_array().unwrap().is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    let gate = &gates[0];
    assert_eq!(gate["node_id"], "ask", "{gates}");
    assert_eq!(gate["text"], "Ship it?");
    let keys: Vec<&str> = gate["choices"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["key"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["Y", "N"]);
    let (status, error) = server
        .call(
            "answer_gate",
            json!({ "run_id": run, "question_id": gate["question_id"], "answer": "Maybe" }),
        )
        .await;
    assert_eq!(status, 422, "{error}");
    server
        .ok(
            "answer_gate",
            json!({ "run_id": run, "question_id": gate["question_id"], "answer": "Y" }),
        )
        .await;
    let (events, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended);
    assert_eq!(events.last().unwrap()["event"], "run.completed");
    assert_eq!(
        std::fs::read_to_string(server.work.join("shipped.txt")).unwrap(),
        "shipped\n"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_without_the_token_or_with_a_foreign_host_are_refused() {
    let server = start_server().await;
    let url = format!("{}/api/list_runs", server.base);
    let plain = reqwest::Client::new();

    let response = plain.post(&url).json(&json!({})).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 401);
    let error: Value = response.json().await.unwrap();
    assert_eq!(error["code"], "unauthorized");

    let response = plain
        .post(&url)
        .bearer_auth("0123456789abcdef0123456789abcdeX")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);

    let events = format!("{}/api/events?run=x", server.base);
    assert_eq!(
        plain.get(&events).send().await.unwrap().status().as_u16(),
        401
    );

    // The token in the URL works once and leaves a cookie that works from then on.
    let response = plain
        .post(format!("{url}?token={TOKEN}"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let cookie = response
        .headers()
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let pair = cookie.split(';').next().unwrap();
    let response = plain
        .post(&url)
        .header("Cookie", pair)
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);

    // A foreign Host is refused even with the token (DNS rebinding).
    let response = plain
        .post(&url)
        .bearer_auth(TOKEN)
        .header("Host", "evil.example:80")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 421);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_runs_started_at_once_all_complete_and_are_indexed() {
    let server = start_server().await;
    let flow = server.flow(
        "quick.dot",
        r#"digraph Quick {
            start [shape=Mdiamond]; exit [shape=Msquare];
            work [shape=parallelogram, script="echo $HEDDLE_RUN_ID > /dev/null; sleep 0.1"];
            start -> work -> exit;
        }"#,
    );
    let starts = (0..20).map(|n| {
        server.ok(
            "start_run",
            json!({ "workflow_path": flow, "checkpoints": "none",
                    "work_dir": server.work.display().to_string(),
                    "labels": { "batch": "twenty", "n": n.to_string() } }),
        )
    });
    let started = futures_util::future::join_all(starts).await;
    let ids: std::collections::BTreeSet<String> = started
        .iter()
        .map(|s| s["run_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 20);
    for id in &ids {
        let (events, ended) = server.events(id, None, usize::MAX).await;
        assert!(ended);
        assert_eq!(events.last().unwrap()["event"], "run.completed", "{id}");
    }
    let filter = json!({ "filter": { "labels": { "batch": "twenty" } }, "page": { "limit": 50 } });
    let mut page = server.ok("list_runs", filter.clone()).await;
    for _ in 0..100 {
        let done = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["status"] == "success")
            .count();
        if done == 20 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        page = server.ok("list_runs", filter.clone()).await;
    }
    assert_eq!(page["total"], 20, "{page}");
    let listed: std::collections::BTreeSet<String> = page["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            assert_eq!(r["status"], "success", "{r}");
            assert_eq!(r["stage_count"], 3, "{r}");
            r["id"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(listed, ids);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_run_changes_stream_announces_a_run_until_it_ends() {
    let server = start_server().await;
    let mut response = server
        .client
        .get(format!("{}/api/run_changes", server.base))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let started = server
        .ok(
            "start_run",
            json!({ "workflow_path": server.flow("steps.dot", FLOW),
                    "work_dir": server.work.display().to_string(),
                    "checkpoints": "none" }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let mut buffer = String::new();
    let mut statuses = Vec::new();
    let read = async {
        while !statuses.iter().any(|s| s == "success") {
            let chunk = response.chunk().await.unwrap().expect("the stream ended");
            buffer.push_str(&String::from_utf8_lossy(&chunk));
            while let Some(end) = buffer.find("\n\n") {
                let block: String = buffer.drain(..end + 2).collect();
                for data in block.lines().filter_map(|l| l.strip_prefix("data:")) {
                    let change: Value = serde_json::from_str(data.trim()).unwrap();
                    if change["run_id"] == run.as_str() {
                        statuses.push(change["status"].as_str().unwrap_or("").to_string());
                    }
                }
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(30), read)
        .await
        .unwrap_or_else(|_| panic!("no success announced for {run}: {statuses:?}"));
    assert_eq!(statuses.last().map(String::as_str), Some("success"));
}

/// A raw `GET` over its own connection, so the path reaches the server exactly as written
/// (HTTP clients normalise `..` and `%2e%2e` away); the status and the response head.
async fn raw_get(base: &str, path: &str) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {TOKEN}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runs_files_are_served_and_never_anything_outside_them() {
    let server = start_server().await;
    let started = server
        .ok(
            "start_run",
            json!({ "workflow_path": server.flow("steps.dot", FLOW),
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
    let (status, head) = raw_get(
        &server.base,
        &format!("/api/runs/{run}/artifacts/one/retry_0/report.html"),
    )
    .await;
    assert_eq!(status, 200, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-security-policy: sandbox"),
        "{head}"
    );
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
