//! Real LLM stages end to end: `heddle run` against the loopback fake provider, speaking
//! all three wire formats in one run. A plan -> implement -> test -> review -> fix loop in a
//! git repository: the model writes and edits files through tools, a command node runs the
//! project's test, routing JSON sends the run back to fix once, and every step is a
//! checkpoint on the run branch.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::ffi::OsStr;
use std::path::Path;

use heddle_fake_llm::{FakeLlm, FakeReply, Scripted};
use serde_json::{Value, json};

mod gitfixture;
mod sandbox;

use gitfixture::{Fixture, describe, git, json, run_id};

const FLOW: &str = r#"digraph FixLoop {
    graph [goal="Make test.sh pass"]
    // Prompt node on Anthropic's Messages API.
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    plan      [shape=tab, model="claude-sonnet-4-5", prompt="Plan how to add add.sh"];
    // The agent on OpenAI's Responses API.
    implement [shape=box, model="gpt-5", prompt="Write add.sh as planned"];
    test      [shape=parallelogram, script="sh test.sh || true"];
    // A local OpenAI-compatible server reviews.
    review    [shape=tab, provider="openai_compatible", model="local-coder",
               prompt="Did the tests pass? Answer with routing JSON."];
    fix       [shape=box, model="claude-sonnet-4-5", prompt="Fix add.sh"];

    start -> plan -> implement -> test -> review;
    review -> fix  [label="Fix"];
    review -> exit [label="Done"];
    fix -> test;
}
"#;

const TEST_SH: &str = r#"out=$(sh add.sh 2 3)
if [ "$out" = "5" ]; then echo "PASS: add 2 3 = 5"; else echo "FAIL: add 2 3 = $out, wanted 5"; exit 1; fi
"#;

fn provider_env(fake: &FakeLlm) -> Vec<(&'static str, String)> {
    let url = fake.base_url();
    vec![
        ("ANTHROPIC_API_KEY", "test-anthropic-key".into()),
        ("ANTHROPIC_BASE_URL", url.clone()),
        ("OPENAI_API_KEY", "test-openai-key".into()),
        ("OPENAI_BASE_URL", url.clone()),
        ("OPENAI_COMPATIBLE_BASE_URL", url),
    ]
}

fn run_with(fx: &Fixture, fake: &FakeLlm, flow: &Path) -> std::process::Output {
    let env = provider_env(fake);
    let extra: Vec<(&str, &OsStr)> = env.iter().map(|(k, v)| (*k, OsStr::new(v))).collect();
    fx.heddle(&["run", flow.to_str().unwrap()], &extra)
}

fn status(run: &Path, stage: &str) -> Value {
    json(&run.join("nodes").join(stage).join("status.json"))
}

#[test]
fn a_plan_implement_test_fix_loop_runs_against_three_wire_formats() {
    let fx = Fixture::new();
    fx.init_repo(&[("test.sh", TEST_SH), ("README.md", "# demo\n")]);
    let fake = FakeLlm::start();
    fake.script([
        // plan (Anthropic, prompt node)
        Scripted::Reply(FakeReply::text(
            "1. Write add.sh printing the sum of its arguments.",
        )),
        // implement (OpenAI Responses): an unknown tool, bad JSON, then a real write.
        Scripted::Reply(
            FakeReply::text("Let me look around.").tool_call("list_everything", json!({})),
        ),
        Scripted::Reply(FakeReply::text("").raw_tool_call("write_file", "{\"path\": \"add.sh\"")),
        Scripted::Reply(FakeReply::text("").tool_call(
            "write_file",
            json!({"path": "add.sh", "content": "echo $(($1 - $2))\n"}),
        )),
        Scripted::Reply(FakeReply::text("add.sh is written.").usage(1200, 40, 800, 0)),
        // review (Chat Completions): the test failed.
        Scripted::Reply(FakeReply::text(
            "The test fails.\n{\"preferred_next_label\": \"Fix\"}",
        )),
        // fix (Anthropic agent): edit, then done.
        Scripted::Reply(FakeReply::text("").tool_call(
            "edit_file",
            json!({"path": "add.sh", "old_string": "$1 - $2", "new_string": "$1 + $2"}),
        )),
        Scripted::Reply(FakeReply::text("Fixed the operator.")),
        // review again: done.
        Scripted::Reply(FakeReply::text("{\"preferred_next_label\": \"Done\"}")),
    ]);
    let flow = fx.write_flow("fix.dot", FLOW);
    let out = run_with(&fx, &fake, &flow);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let run = fx.only_run();
    let id = run_id(&run);
    let branch = format!("heddle/run/{id}");

    // The run branch ends with the fixed file, and the user's checkout never saw it.
    assert_eq!(
        git(&fx.repo(), &["show", &format!("{branch}:add.sh")]),
        "echo $(($1 + $2))\n"
    );
    assert!(!fx.repo().join("add.sh").exists());

    // One checkpoint per step, in order, with the loop back through fix.
    let subjects = git(&fx.repo(), &["log", "--reverse", "--format=%s", &branch]);
    let nodes: Vec<&str> = subjects
        .lines()
        .filter_map(|s| s.strip_prefix(&format!("heddle({id}): ")))
        .map(|s| s.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        nodes,
        [
            "start",
            "plan",
            "implement",
            "test",
            "review",
            "fix",
            "test",
            "review",
            "exit"
        ]
    );

    // Requests went to the right endpoints with the right credentials.
    let requests = fake.requests();
    let paths: Vec<&str> = requests.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/v1/messages",
            "/v1/responses",
            "/v1/responses",
            "/v1/responses",
            "/v1/responses",
            "/v1/chat/completions",
            "/v1/messages",
            "/v1/messages",
            "/v1/chat/completions",
        ]
    );
    let header = |i: usize, name: &str| {
        requests[i]
            .headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    assert_eq!(header(0, "x-api-key"), "test-anthropic-key");
    assert_eq!(header(1, "authorization"), "Bearer test-openai-key");
    assert_eq!(
        header(5, "authorization"),
        "",
        "no key for the local server"
    );

    // The unknown tool and the bad JSON were answered with errors the model could act on.
    let second = requests[2].body.to_string();
    assert!(second.contains("list_everything"), "{second}");
    assert!(
        second.contains("read_file"),
        "the error lists the real tools: {second}"
    );
    let third = requests[3].body.to_string();
    assert!(third.contains("not valid JSON"), "{third}");
    // The review saw the failing test's output in its preamble.
    let review = requests[5].body.to_string();
    assert!(review.contains("FAIL: add 2 3 = -1"), "{review}");

    // Stage records: files touched from tool events, usage and cost, the routing choice.
    let implement = status(&run, "implement");
    assert_eq!(implement["files_touched"], json!(["add.sh"]), "{implement}");
    assert_eq!(implement["model"], "gpt-5", "{implement}");
    assert_eq!(implement["usage"]["input_tokens"], 1200, "{implement}");
    assert_eq!(implement["usage"]["cache_read_tokens"], 800, "{implement}");
    assert!(implement["cost_usd"].as_f64().unwrap() > 0.0, "{implement}");
    let response = std::fs::read_to_string(run.join("nodes/implement/response.md")).unwrap();
    assert!(response.contains("add.sh is written."), "{response}");
    let progress = std::fs::read_to_string(run.join("progress.jsonl")).unwrap();
    for kind in [
        "agent.text",
        "agent.tool_call.started",
        "agent.tool_call.completed",
        "agent.usage",
    ] {
        assert!(progress.contains(kind), "no {kind} in progress.jsonl");
    }
}

#[test]
fn without_a_provider_the_run_stops_before_it_starts_and_names_what_to_set() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    let flow = fx.write_flow("fix.dot", FLOW);
    let out = fx.heddle(&["run", flow.to_str().unwrap()], &[]);
    assert_ne!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for wanted in ["ANTHROPIC_API_KEY", "OPENAI_API_KEY", "--dry-run", "plan"] {
        assert!(stderr.contains(wanted), "no {wanted} in: {stderr}");
    }
    assert!(fx.runs().is_empty(), "no run folder was made");
}

#[test]
fn rate_limits_and_server_errors_are_retried_and_shown_as_events() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    std::fs::write(
        fx.heddle_home().join("heddle.toml"),
        "[network]\ninitial_backoff_ms = 5\nmax_backoff_ms = 20\n",
    )
    .unwrap();
    let fake = FakeLlm::start();
    fake.script([
        Scripted::status_retry_after(429, 0, "rate limited, slow down"),
        Scripted::status(500, "internal error"),
        Scripted::Reply(FakeReply::text("A plan.")),
    ]);
    let flow = fx.write_flow(
        "plan.dot",
        r#"digraph P { start [shape=Mdiamond]; exit [shape=Msquare];
           plan [shape=tab, model="claude-sonnet-4-5", prompt="Plan"]; start -> plan -> exit; }"#,
    );
    let out = run_with(&fx, &fake, &flow);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert_eq!(fake.requests().len(), 3);
    let progress = std::fs::read_to_string(fx.only_run().join("progress.jsonl")).unwrap();
    let retries = progress
        .lines()
        .filter(|l| l.contains("agent.note") && l.contains("\"retry\""))
        .count();
    assert_eq!(retries, 2, "{progress}");
    assert!(progress.contains("429"), "{progress}");
}

#[test]
fn a_stream_that_keeps_breaking_fails_the_stage_with_a_clear_reason() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    std::fs::write(
        fx.heddle_home().join("heddle.toml"),
        "[network]\nmax_retries = 1\ninitial_backoff_ms = 5\n",
    )
    .unwrap();
    let fake = FakeLlm::start();
    fake.script([
        Scripted::truncated(FakeReply::text("Half a reply")),
        Scripted::truncated(FakeReply::text("Half a reply")),
    ]);
    let flow = fx.write_flow(
        "plan.dot",
        r#"digraph P { start [shape=Mdiamond]; exit [shape=Msquare];
           plan [shape=tab, model="gpt-5", prompt="Plan", max_retries=0];
           start -> plan; plan -> exit [condition="outcome=success"]; }"#,
    );
    let out = run_with(&fx, &fake, &flow);
    assert_ne!(out.status.code(), Some(0), "{}", describe(&out));
    let plan = status(&fx.only_run(), "plan");
    let reason = plan["failure_reason"].as_str().unwrap();
    assert!(reason.starts_with("plan: "), "{reason}");
    assert!(
        reason.contains("ended") || reason.contains("truncated"),
        "{reason}"
    );
}

#[test]
fn a_cli_agent_gets_the_prompt_on_stdin_and_its_changes_are_tracked_by_git() {
    let fx = Fixture::new();
    fx.init_repo(&[("README.md", "# demo\n")]);
    let flow = fx.write_flow(
        "cli.dot",
        r#"digraph C { start [shape=Mdiamond]; exit [shape=Msquare];
           agent [shape=box, backend="cli", prompt="Write the notes",
                  cli.command="cat > notes.txt; echo 'wrote notes.txt'"];
           start -> agent -> exit; }"#,
    );
    // No provider is configured: an external agent does not need one.
    let out = fx.heddle(&["run", flow.to_str().unwrap()], &[]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let run = fx.only_run();
    let agent = status(&run, "agent");
    assert_eq!(agent["files_touched"], json!(["notes.txt"]), "{agent}");
    assert_eq!(agent["model"], "cli", "{agent}");
    let branch = format!("heddle/run/{}", run_id(&run));
    let notes = git(&fx.repo(), &["show", &format!("{branch}:notes.txt")]);
    assert!(
        notes.contains("Write the notes"),
        "the prompt reached stdin: {notes}"
    );
    let response = std::fs::read_to_string(run.join("nodes/agent/response.md")).unwrap();
    assert!(response.contains("wrote notes.txt"), "{response}");
}
