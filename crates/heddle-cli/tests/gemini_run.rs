//! Gemini end to end: `heddle run` with a node whose model is a Fabro alias (`gemini-flash`)
//! goes to Google's `streamGenerateContent` format on the loopback fake, writes a file
//! through a tool call round trip and records usage and cost; and a `backend="cli"` node
//! without `cli.command` runs the `gemini` CLI found on the PATH Heddle is given.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ffi::OsStr;
use std::os::unix::fs::PermissionsExt;

use heddle_fake_llm::{FakeLlm, FakeReply, Scripted};
use serde_json::json;

mod gitfixture;
mod sandbox;

use gitfixture::{Fixture, describe, git, json, run_id};

#[test]
fn an_agent_on_a_gemini_alias_writes_a_file_through_the_gemini_api() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    let fake = FakeLlm::start();
    fake.script([
        Scripted::Reply(
            FakeReply::text("Writing it.")
                .reasoning("A file is wanted.")
                .tool_call(
                    "write_file",
                    json!({"path": "hello.txt", "content": "hello from gemini\n"}),
                )
                .usage(900, 30, 0, 0),
        ),
        Scripted::Reply(FakeReply::text("hello.txt is written.").usage(1000, 10, 600, 0)),
    ]);
    let flow = fx.write_flow(
        "g.dot",
        r#"digraph G { start [shape=Mdiamond]; exit [shape=Msquare];
           write [shape=box, model="gemini-flash", prompt="Write hello.txt"];
           start -> write -> exit; }"#,
    );
    let url = fake.base_url();
    let extra: Vec<(&str, &OsStr)> = vec![
        ("GEMINI_API_KEY", OsStr::new("test-gemini-key")),
        ("GEMINI_BASE_URL", OsStr::new(&url)),
    ];
    let out = fx.heddle(&["run", flow.to_str().unwrap()], &extra);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));

    let run = fx.only_run();
    let branch = format!("heddle/run/{}", run_id(&run));
    assert_eq!(
        git(&fx.repo(), &["show", &format!("{branch}:hello.txt")]),
        "hello from gemini\n"
    );

    let requests = fake.requests();
    assert_eq!(requests.len(), 2);
    for request in &requests {
        assert_eq!(
            request.path,
            "/v1/models/gemini-3-flash-preview:streamGenerateContent"
        );
        assert_eq!(request.query, "alt=sse");
        assert_eq!(request.header("x-goog-api-key"), Some("test-gemini-key"));
    }
    let second = &requests[1].body;
    let model_turn = &second["contents"][1]["parts"];
    assert_eq!(model_turn[1]["functionCall"]["name"], "write_file");
    assert!(model_turn[1]["thoughtSignature"].is_string(), "{second}");
    let result = &second["contents"][2]["parts"][0]["functionResponse"];
    assert_eq!(result["name"], "write_file", "{second}");

    let status = json(&run.join("nodes/write/status.json"));
    assert_eq!(status["model"], "gemini-3-flash-preview", "{status}");
    assert_eq!(status["files_touched"], json!(["hello.txt"]), "{status}");
    assert_eq!(status["usage"]["input_tokens"], 900 + 1000, "{status}");
    assert_eq!(status["usage"]["cache_read_tokens"], 600, "{status}");
    assert!(status["cost_usd"].as_f64().unwrap() > 0.0, "{status}");
}

const FAKE_GEMINI_CLI: &str = r#"#!/bin/sh
printf '%s\n' "$@" > "$HEDDLE_TEST_LOG"
cat > /dev/null
echo 'fixed' > fixed.txt
echo '{"response": "gemini fixed it", "stats": {"models": {"m": {"tokens": {"prompt": 50, "candidates": 7}}}}}'
"#;

#[test]
fn a_cli_node_without_a_command_runs_the_gemini_cli_for_a_gemini_model() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    let bin = fx.root().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let cli = bin.join("gemini");
    std::fs::write(&cli, FAKE_GEMINI_CLI).unwrap();
    std::fs::set_permissions(&cli, std::fs::Permissions::from_mode(0o755)).unwrap();
    let log = fx.root().join("gemini.args");
    let flow = fx.write_flow(
        "cli.dot",
        r#"digraph C { start [shape=Mdiamond]; exit [shape=Msquare];
           fix [shape=box, backend="cli", model="gemini-pro", prompt="Fix it"];
           start -> fix -> exit; }"#,
    );
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let extra: Vec<(&str, &OsStr)> = vec![
        ("PATH", OsStr::new(&path)),
        ("HEDDLE_TEST_LOG", log.as_os_str()),
    ];
    // No provider is configured: the CLI brings its own.
    let out = fx.heddle(&["run", flow.to_str().unwrap()], &extra);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));

    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "-o\njson\n--yolo\n-m\ngemini-3.1-pro-preview\n"
    );
    let run = fx.only_run();
    let status = json(&run.join("nodes/fix/status.json"));
    assert_eq!(status["model"], "gemini-3.1-pro-preview", "{status}");
    assert_eq!(status["files_touched"], json!(["fixed.txt"]), "{status}");
    assert_eq!(status["usage"]["input_tokens"], 50, "{status}");
    let response = std::fs::read_to_string(run.join("nodes/fix/response.md")).unwrap();
    assert!(response.contains("gemini fixed it"), "{response}");

    // Without the CLI on PATH the run does not start, and says what is missing.
    let out = fx.heddle(&["run", flow.to_str().unwrap()], &[]);
    assert_ne!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`gemini`"), "{stderr}");
    assert!(stderr.contains("not on PATH"), "{stderr}");
}
