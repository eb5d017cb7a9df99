//! A real `heddle serve` router on a loopback socket over a temp data dir, with a clean git
//! repository as the work folder: for the tests that start runs over HTTP.

use std::path::{Path, PathBuf};
use std::process::Command;

use heddle_api::runs::HeddleHome;
use heddle_api::{LaunchInfo, RunHost};
use heddle_server::{ServerConfig, router};
use serde_json::Value;

pub const TOKEN: &str = "0123456789abcdef0123456789abcdef";

/// The one-time launch token of the server's URL.
pub const LAUNCH: &str = "fedcba9876543210fedcba9876543210";

pub const FLOW: &str = r#"digraph Steps {
    start [shape=Mdiamond]; exit [shape=Msquare];
    one [shape=parallelogram, script="echo one > one.txt"];
    two [shape=parallelogram, script="echo two > two.txt; echo more >> one.txt"];
    three [shape=parallelogram, script="echo three > three.txt"];
    start -> one -> two -> three -> exit;
}"#;

pub struct Server {
    pub base: String,
    _dir: tempfile::TempDir,
    pub work: PathBuf,
    pub client: reqwest::Client,
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
pub async fn start_server() -> Server {
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
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let config = ServerConfig {
        ui: heddle_server::UiSource::NotBuilt,
        launch: LaunchInfo::default(),
        allow_any_host: false,
        token: TOKEN.to_string(),
        launch_token: Some(LAUNCH.to_string()),
        port: addr.port(),
        watches: heddle_api::WorkflowWatches::default(),
        host: RunHost::open(HeddleHome::at(root.join("heddle")), env)
            .await
            .unwrap(),
    };
    tokio::spawn(async move { axum::serve(listener, router(config)).await });
    Server {
        base: format!("http://{addr}"),
        _dir: dir,
        work,
        client: reqwest::Client::new(),
    }
}

impl Server {
    pub fn flow(&self, name: &str, source: &str) -> String {
        let path = self.work.parent().unwrap().join(name);
        std::fs::write(&path, source).unwrap();
        path.display().to_string()
    }

    /// Calls an operation with the token; the status and the JSON body.
    pub async fn call(&self, op: &str, body: Value) -> (u16, Value) {
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

    pub async fn ok(&self, op: &str, body: Value) -> Value {
        let (status, value) = self.call(op, body).await;
        assert_eq!(status, 200, "{op}: {value}");
        value
    }

    /// Reads the SSE stream of `run` from `last_id` (as `Last-Event-ID`) until it ends or
    /// `limit` events came; the events and whether the `end` event came.
    pub async fn events(
        &self,
        run: &str,
        last_id: Option<u64>,
        limit: usize,
    ) -> (Vec<Value>, bool) {
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

/// A raw request over its own connection, so the path reaches the server exactly as written
/// (HTTP clients normalise `..` and `%2e%2e` away): `request_line` (`GET /path`), extra
/// `headers`, and a `body` after the head (its `Content-Length` among `headers`); the status
/// and the whole response.
pub async fn raw_request(
    base: &str,
    request_line: &str,
    headers: &[String],
    body: &'static [u8],
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let extra: String = headers
        .iter()
        .map(|h| format!("{}\r\n", h.trim_end()))
        .collect();
    let request =
        format!("{request_line} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n");
    // Written beside the reading: the server may answer (and stop reading) before the end.
    let writing = tokio::spawn(async move {
        writer.write_all(request.as_bytes()).await?;
        writer.write_all(body).await?;
        Ok::<_, std::io::Error>(writer)
    });
    let mut response = Vec::new();
    let _ = reader.read_to_end(&mut response).await;
    let _ = writing.await;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}
