//! A `heddle serve` process for the tests that talk to it over HTTP: started on a free port,
//! called with its access token, killed when dropped.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::Child;
use std::time::Duration;

use serde_json::{Value, json};

use super::{Sandbox, serve_banner, wait_for};

/// A `heddle serve` process: its address and token.
pub struct Served {
    child: Child,
    addr: String,
    token: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn serve(sandbox: &Sandbox, n: u32) -> Served {
    serve_with(sandbox, n, &[])
}

/// `heddle serve` (the `n`th in the sandbox) with `env` set.
pub fn serve_with(sandbox: &Sandbox, n: u32, env: &[(&str, &str)]) -> Served {
    let out = sandbox.path().join(format!("serve-{n}.out"));
    let child = sandbox
        .command(&["serve", "--port", "0"])
        .envs(env.iter().copied())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(sandbox.path().join(format!("serve-{n}.err"))).unwrap())
        .spawn()
        .unwrap();
    let banner = serve_banner(&out);
    assert_eq!(banner.token.len(), 32, "token {}", banner.token);
    assert!(!banner.launch.is_empty(), "the URL has no launch key");
    assert_ne!(
        banner.launch, banner.token,
        "the URL must not carry the access token"
    );
    Served {
        child,
        addr: banner.addr,
        token: banner.token,
    }
}

impl Served {
    /// `POST /api/{op}` with the token; the status and JSON body.
    pub fn call(&self, op: &str, body: &Value) -> (u16, Value) {
        let body = body.to_string();
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "POST /api/{op} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            self.token,
            body.len()
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let status: u16 = response[9..12].parse().unwrap();
        let (_, payload) = response.split_once("\r\n\r\n").unwrap();
        (status, serde_json::from_str(payload).unwrap_or(Value::Null))
    }

    /// Starts `flow` through the server, trusted, in the sandbox's work folder without git
    /// checkpoints; the `RunStarted` answer.
    pub fn start(&self, sandbox: &Sandbox, flow: &std::path::Path) -> Value {
        self.ok(
            "start_run",
            &json!({ "trust": true,
                     "workflow_path": flow.display().to_string(),
                     "work_dir": sandbox.work().display().to_string(),
                     "checkpoints": "none" }),
        )
    }

    /// `GET /api{path}` with the token; the status and body.
    pub fn get(&self, path: &str) -> (u16, String) {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "GET /api{path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Connection: close\r\n\r\n",
            self.addr, self.token
        )
        .unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let response = String::from_utf8_lossy(&response).into_owned();
        let status: u16 = response[9..12].parse().unwrap();
        let body = response.split_once("\r\n\r\n").map(|(_, b)| b.to_string());
        (status, body.unwrap_or_default())
    }

    pub fn ok(&self, op: &str, body: &Value) -> Value {
        let (status, value) = self.call(op, body);
        assert_eq!(status, 200, "{op}: {value}");
        value
    }

    /// The SSE stream of `run`'s events, read until the server closes it (which it must do
    /// before a 10 s silence; the server's keep-alives come every 15 s).
    pub fn events(&self, run: &str) -> String {
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "GET /api/events?run={run} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
             Connection: close\r\n\r\n",
            self.addr, self.token
        )
        .unwrap();
        let mut response = Vec::new();
        stream
            .read_to_end(&mut response)
            .unwrap_or_else(|e| panic!("the event stream of {run} did not end: {e}"));
        String::from_utf8_lossy(&response).into_owned()
    }

    pub fn status_of(&self, run: &str) -> String {
        let (status, record) = self.call("get_run", &json!({ "run_id": run }));
        if status != 200 {
            return String::new();
        }
        record["status"].as_str().unwrap().to_string()
    }
}

/// The gates `server` lists for `run`, once it lists one.
pub fn pending_through(server: &Served, run: &str) -> Value {
    let mut gates = Value::Null;
    let listed = wait_for(Duration::from_secs(20), || {
        gates = server.ok("pending_gates", &json!({ "run_id": run }));
        gates.as_array().is_some_and(|g| !g.is_empty())
    });
    assert!(listed, "the server lists no gate of {run}: {gates}");
    gates
}
