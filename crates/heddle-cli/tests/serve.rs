//! `heddle serve` as a process: it prints a one-time launch URL and the access token for
//! scripts (never the token in a URL), runs started through
//! it execute in that process, and when the server is killed and started again the run it
//! was executing is reported as stopped and resumes to the end through the new server.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::process::Child;
use std::time::Duration;

use sandbox::served::{pending_through, serve};
use sandbox::{Sandbox, describe, text, wait_for};
use serde_json::json;

#[test]
fn a_run_the_killed_server_was_executing_resumes_through_a_new_one() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow(
        "slow.dot",
        r#"digraph Slow {
            start [shape=Mdiamond]; exit [shape=Msquare];
            first [shape=parallelogram, script="echo first >> log.txt"];
            wait [shape=parallelogram, script="test -f go || sleep 30; echo wait >> log.txt"];
            start -> first -> wait -> exit;
        }"#,
    );
    let server = serve(&sandbox, 1);
    let started = server.start(&sandbox, &flow);
    let run = started["run_id"].as_str().unwrap().to_string();
    let progress =
        std::path::Path::new(started["run_dir"].as_str().unwrap()).join("progress.jsonl");
    // Killed only once `first` is checkpointed and `wait` is under way.
    assert!(wait_for(Duration::from_secs(30), || {
        std::fs::read_to_string(&progress).is_ok_and(|events| {
            events
                .lines()
                .any(|l| l.contains("\"stage.started\"") && l.contains("\"node_id\":\"wait\""))
        })
    }));
    assert_eq!(server.status_of(&run), "running");
    drop(server);

    let server = serve(&sandbox, 2);
    // The new server's index finds the run its predecessor left unfinished.
    let mut status = String::new();
    assert!(
        wait_for(Duration::from_secs(30), || {
            status = server.status_of(&run);
            status == "interrupted"
        }),
        "a run whose server died shows as `{status}`"
    );
    // Its event stream ends, rather than waiting for a process that is gone.
    let stream = server.events(&run);
    assert!(stream.contains("event: end"), "{stream}");
    assert!(stream.contains("\"node_id\":\"wait\""), "{stream}");
    std::fs::write(sandbox.work().join("go"), "").unwrap();
    let resumed = server.ok("resume_run", &json!({ "run_id": run }));
    assert_eq!(resumed["start_node"], "wait", "{resumed}");
    assert!(
        wait_for(Duration::from_secs(30), || server.status_of(&run)
            == "success"),
        "the resumed run did not finish: {}",
        server.status_of(&run)
    );
    // `first` ran once, before the crash; `wait` once, after the resume.
    assert_eq!(
        std::fs::read_to_string(sandbox.work().join("log.txt")).unwrap(),
        "first\nwait\n"
    );
}

#[test]
fn a_run_the_server_executes_is_answered_from_a_terminal() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("gate.dot", sandbox::GATE_FLOW);
    let server = serve(&sandbox, 1);
    let started = server.start(&sandbox, &flow);
    let run = started["run_id"].as_str().unwrap().to_string();
    pending_through(&server, &run);

    let listed = sandbox.heddle(&["answer", &run]);
    assert!(
        text(&listed.stdout).contains("[A] Approve -> yes"),
        "{}",
        describe(&listed)
    );
    let answered = sandbox.heddle(&["answer", &run, "--choice", "approve"]);
    assert_eq!(answered.status.code(), Some(0), "{}", describe(&answered));
    assert!(
        wait_for(Duration::from_secs(20), || server.status_of(&run)
            == "success"),
        "the run did not finish after the answer: {}",
        server.status_of(&run)
    );
    let verdict = std::fs::read_to_string(sandbox.work().join("verdict.txt")).unwrap();
    assert_eq!(verdict.trim(), "approved");
}

#[test]
fn the_server_answers_and_cancels_runs_executing_in_terminals() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("gate.dot", sandbox::GATE_FLOW);
    let server = serve(&sandbox, 1);
    // The running run that is not `seen` (the index may still list an ended one as running
    // for a moment).
    let run_of = |child: &Child, seen: Option<&str>| {
        let mut id = None;
        let found = wait_for(Duration::from_secs(20), || {
            let page = server.ok("list_runs", &json!({}));
            id = page["items"].as_array().and_then(|runs| {
                runs.iter()
                    .find(|r| r["status"] == "running" && Some(r["id"].as_str().unwrap()) != seen)
                    .map(|r| r["id"].as_str().unwrap().to_string())
            });
            id.is_some()
        });
        assert!(found, "the server never listed run of pid {}", child.id());
        id.unwrap()
    };

    let mut first = sandbox.run_in_terminal(&flow);
    let run = run_of(&first, None);
    let gates = pending_through(&server, &run);
    let question = gates[0]["question_id"].as_str().unwrap();
    assert_eq!(gates[0]["node_id"], "review", "{gates}");
    let (status, refused) = server.call(
        "answer_gate",
        &json!({ "run_id": run, "question_id": question, "answer": "Z" }),
    );
    assert_eq!(status, 422, "{refused}");
    server.ok(
        "answer_gate",
        &json!({ "run_id": run, "question_id": question, "answer": "A" }),
    );
    let code = sandbox::exit_code_within(&mut first, Duration::from_secs(20), "the first run");
    assert_eq!(code, Some(0));
    let verdict = std::fs::read_to_string(sandbox.work().join("verdict.txt")).unwrap();
    assert_eq!(verdict.trim(), "approved");

    let mut second = sandbox.run_in_terminal(&flow);
    let run = run_of(&second, Some(&run));
    pending_through(&server, &run);
    server.ok("cancel_run", &json!({ "run_id": run }));
    let code = sandbox::exit_code_within(&mut second, Duration::from_secs(20), "the second run");
    assert_eq!(code, Some(130));
}
