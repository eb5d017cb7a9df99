//! Logs and traces of the real `heddle` binary: `-v --log-format json` and `RUST_LOG` show
//! the run and stage spans on stderr, plain commands stay quiet, `heddle serve` records its
//! HTTP requests in `$HEDDLE_HOME/logs/`, and with `OTEL_EXPORTER_OTLP_ENDPOINT` set the
//! spans reach an OTLP/HTTP receiver (a loopback one written here).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;
use std::time::Duration;

use prost::Message;
use sandbox::{Sandbox, describe, serve_banner, text, wait_for};
use serde_json::Value;

/// A workflow of two command stages (no LLM, no key).
const FLOW: &str = r#"digraph Logged {
    start [shape="Mdiamond"];
    exit  [shape="Msquare"];
    greet [shape="parallelogram", script="echo hello"];
    count [shape="parallelogram", script="echo 1 2 3"];
    start -> greet -> count -> exit;
}"#;

/// The JSON log lines of `stderr` (other lines left out).
fn json_lines(stderr: &str) -> Vec<Value> {
    stderr
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(Value::is_object)
        .collect()
}

/// The spans (name and fields) a JSON line was written in, outermost first.
fn span_names(line: &Value) -> Vec<String> {
    line["spans"]
        .as_array()
        .map(|spans| {
            spans
                .iter()
                .map(|s| s["name"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

fn run_logged(sandbox: &Sandbox, flags: &[&str], rust_log: Option<&str>) -> (String, String) {
    let flow = sandbox.write_flow("logged.dot", FLOW);
    let mut args = flags.to_vec();
    args.extend(["run", flow.to_str().unwrap(), "--checkpoints", "none"]);
    let mut command = sandbox.command(&args);
    if let Some(filter) = rust_log {
        command.env("RUST_LOG", filter);
    }
    let out = command.output().unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    (text(&out.stdout), text(&out.stderr))
}

#[test]
fn verbose_json_logs_carry_the_run_and_stage_spans() {
    let sandbox = Sandbox::new();
    let (_, stderr) = run_logged(&sandbox, &["-v", "--log-format", "json"], None);
    let lines = json_lines(&stderr);
    let finished: Vec<&Value> = lines
        .iter()
        .filter(|l| l["fields"]["message"] == "stage finished")
        .collect();
    let nodes: Vec<&str> = finished
        .iter()
        .map(|l| l["span"]["node_id"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(nodes, ["start", "greet", "count", "exit"], "{stderr}");
    for line in &finished {
        assert_eq!(span_names(line), ["run", "stage"], "{line}");
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["fields"]["status"], "success", "{line}");
        assert_eq!(line["span"]["attempt"], 1, "{line}");
        let run = &line["spans"][0];
        assert_eq!(run["workflow"], "Logged", "{line}");
        assert_eq!(run["run_id"].as_str().unwrap().len(), 26, "{line}");
    }
    let run_finished = lines
        .iter()
        .find(|l| l["fields"]["message"] == "run finished")
        .unwrap_or_else(|| panic!("no run finished line: {stderr}"));
    assert_eq!(span_names(run_finished), ["run"]);
}

#[test]
fn rust_log_picks_what_is_logged_and_plain_runs_stay_quiet() {
    let sandbox = Sandbox::new();
    let (_, quiet) = run_logged(&sandbox, &["--log-format", "json"], None);
    assert!(json_lines(&quiet).is_empty(), "{quiet}");

    let (_, stderr) = run_logged(
        &sandbox,
        &["--log-format", "json"],
        Some("warn,heddle_engine=debug"),
    );
    let lines = json_lines(&stderr);
    assert!(
        lines.iter().any(|l| l["level"] == "DEBUG"
            && l["fields"]["event"] == "stage.started"
            && span_names(l) == ["run", "stage"]),
        "{stderr}"
    );
    assert!(
        lines.iter().all(|l| l["target"]
            .as_str()
            .unwrap_or("")
            .starts_with("heddle_engine")),
        "{stderr}"
    );

    // `-q` beats RUST_LOG.
    let (_, stderr) = run_logged(&sandbox, &["-q"], Some("debug"));
    assert!(
        !stderr.contains("DEBUG") && !stderr.contains("INFO"),
        "{stderr}"
    );
}

#[test]
fn serve_records_its_requests_in_the_rotated_log_folder() {
    let sandbox = Sandbox::new();
    let out = sandbox.path().join("serve.out");
    let mut child = sandbox
        .command(&["serve", "--port", "0"])
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(sandbox.path().join("serve.err")).unwrap())
        .spawn()
        .unwrap();
    let banner = serve_banner(&out);
    let mut stream = TcpStream::connect(&banner.addr).unwrap();
    write!(
        stream,
        "POST /api/list_runs HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n\
         Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{{}}",
        banner.addr, banner.token
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");

    let logs = sandbox.home().join("logs");
    let mut answered = None;
    let found = wait_for(Duration::from_secs(10), || {
        let files: Vec<_> = std::fs::read_dir(&logs)
            .map(|dir| dir.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        answered = files.iter().find_map(|file| {
            let name = file.file_name()?.to_str()?;
            if !(name.starts_with("serve.") && name.ends_with(".log")) {
                return None;
            }
            let text = std::fs::read_to_string(file).ok()?;
            json_lines(&text)
                .into_iter()
                .find(|l| l["fields"]["message"] == "request answered")
                .map(|line| (line, text))
        });
        answered.is_some()
    });
    let _ = child.kill();
    let _ = child.wait();
    assert!(found, "no request line under {}", logs.display());
    let (line, text) = answered.unwrap();
    assert_eq!(line["span"]["name"], "http_request", "{line}");
    assert_eq!(line["span"]["method"], "POST", "{line}");
    assert_eq!(line["span"]["route"], "/api/list_runs", "{line}");
    assert_eq!(line["fields"]["status"], 200, "{line}");
    assert!(line["fields"]["latency_ms"].is_u64(), "{line}");
    assert!(
        !text.contains(&banner.token),
        "the token is in the log: {text}"
    );
    assert!(
        !text.contains(&banner.launch),
        "the launch key is in the log"
    );
}

/// A one-request-at-a-time OTLP/HTTP receiver: each `POST /v1/traces` body goes to the
/// channel and is answered 200 with an empty export response.
fn otlp_receiver() -> (String, mpsc::Receiver<Vec<u8>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (sender, bodies) = mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut request_line = String::new();
            reader.read_line(&mut request_line).unwrap();
            let mut length = 0;
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).unwrap();
                if header.trim().is_empty() {
                    break;
                }
                if let Some((name, value)) = header.split_once(':')
                    && name.eq_ignore_ascii_case("content-length")
                {
                    length = value.trim().parse().unwrap();
                }
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).unwrap();
            let reply = if request_line.starts_with("POST /v1/traces ") {
                let _ = sender.send(body);
                "HTTP/1.1 200 OK\r\nContent-Type: application/x-protobuf\r\nContent-Length: 0\r\n\r\n"
            } else {
                "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n"
            };
            let _ = stream.write_all(reply.as_bytes());
        }
    });
    (format!("http://{addr}"), bodies)
}

#[test]
fn spans_are_exported_to_the_otlp_endpoint() {
    use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
    use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;

    let (endpoint, bodies) = otlp_receiver();
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("logged.dot", FLOW);
    let out = sandbox
        .command(&["run", flow.to_str().unwrap(), "--checkpoints", "none"])
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint)
        .env("OTEL_SERVICE_NAME", "heddle-under-test")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", describe(&out));
    // The spans were flushed before the process exited: every export was answered, so its
    // body is already in the channel.
    let mut spans = Vec::new();
    let mut services = Vec::new();
    for body in bodies.try_iter() {
        let request = ExportTraceServiceRequest::decode(body.as_slice()).unwrap();
        for resource in request.resource_spans {
            for attribute in resource.resource.iter().flat_map(|r| &r.attributes) {
                if attribute.key == "service.name"
                    && let Some(AnyValue::StringValue(name)) =
                        attribute.value.as_ref().and_then(|v| v.value.clone())
                {
                    services.push(name);
                }
            }
            for scope in resource.scope_spans {
                spans.extend(scope.spans);
            }
        }
    }
    assert_eq!(
        services.first().map(String::as_str),
        Some("heddle-under-test")
    );
    let attribute = |span: &opentelemetry_proto::tonic::trace::v1::Span, key: &str| {
        span.attributes
            .iter()
            .find(|a| a.key == key)
            .and_then(|a| a.value.as_ref().and_then(|v| v.value.clone()))
    };
    let run = spans
        .iter()
        .find(|s| s.name == "run")
        .unwrap_or_else(|| panic!("no run span: {spans:?}"));
    assert_eq!(
        attribute(run, "workflow"),
        Some(AnyValue::StringValue("Logged".into()))
    );
    let stages: Vec<&opentelemetry_proto::tonic::trace::v1::Span> =
        spans.iter().filter(|s| s.name == "stage").collect();
    let mut nodes: Vec<String> = stages
        .iter()
        .filter_map(|s| match attribute(s, "node_id") {
            Some(AnyValue::StringValue(node)) => Some(node),
            _ => None,
        })
        .collect();
    nodes.sort();
    assert_eq!(nodes, ["count", "exit", "greet", "start"], "{stages:?}");
    for stage in &stages {
        assert_eq!(stage.trace_id, run.trace_id, "one trace per run");
        assert_eq!(
            stage.parent_span_id, run.span_id,
            "stages are children of the run"
        );
    }
}
