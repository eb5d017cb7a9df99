//! Reaching a run from another process: a run executing in one `heddle run` is answered and
//! cancelled by `heddle answer` / `heddle cancel` run as separate processes, through the
//! run folder's control channel, and followed by `heddle events --follow` as it goes. (The server door's side is in serve.rs.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use sandbox::{Sandbox, describe, exit_code_within, json, run_id, text, wait_for, wait_for_stage};
use serde_json::Value;

/// Waits until `heddle answer RUN` lists a waiting gate; its output.
fn waiting_gate(sandbox: &Sandbox, run: &str) -> String {
    let mut listed = String::new();
    let seen = wait_for(Duration::from_secs(20), || {
        listed = text(&sandbox.heddle(&["answer", run]).stdout);
        listed.contains("gate `review`")
    });
    assert!(
        seen,
        "no gate listed: {listed}\n{}",
        sandbox.spawned_output()
    );
    listed
}

/// A `heddle run` of the gate workflow, from a terminal, waiting at its gate: the process,
/// the run's folder and its id.
fn run_waiting_at_gate(sandbox: &Sandbox) -> (Child, PathBuf, String) {
    let flow = sandbox.write_flow("gate.dot", sandbox::GATE_FLOW);
    let mut child = sandbox.run_in_terminal(&flow);
    let run = wait_for_stage(sandbox, &mut child, "review");
    let id = run_id(&run);
    (child, run, id)
}

#[test]
fn a_gate_of_a_terminal_run_is_answered_from_another_process() {
    let sandbox = Sandbox::new();
    let (mut child, run, id) = run_waiting_at_gate(&sandbox);
    let listed = waiting_gate(&sandbox, &id);
    assert!(listed.contains("Ship it?"), "{listed}");
    assert!(listed.contains("[R] Reject -> no"), "{listed}");

    // A choice the gate does not have is refused by the answering process, not the run.
    let wrong = sandbox.heddle(&["answer", &id, "--choice", "X"]);
    assert_eq!(wrong.status.code(), Some(1), "{}", describe(&wrong));
    assert!(text(&wrong.stderr).contains("X"), "{}", describe(&wrong));

    let out = sandbox.heddle(&["answer", &id, "--choice", "R"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    assert!(
        text(&out.stdout).contains("answered gate `review`"),
        "{}",
        describe(&out)
    );
    let code = exit_code_within(&mut child, Duration::from_secs(20), "the answered run");
    assert_eq!(code, Some(0), "{}", sandbox.spawned_output());
    let verdict = std::fs::read_to_string(sandbox.work().join("verdict.txt")).unwrap();
    assert_eq!(verdict.trim(), "rejected");
    let answered = sandbox::events(&run)
        .into_iter()
        .find(|e| e["event"] == "interview.answered")
        .unwrap();
    assert_eq!(answered["properties"]["selected"], "R", "{answered}");
    assert!(
        !run.join("control/gates").read_dir().unwrap().any(|_| true),
        "the answered gate is still listed in the run folder"
    );

    let after = sandbox.heddle(&["answer", &id, "--choice", "A"]);
    assert_eq!(after.status.code(), Some(1), "{}", describe(&after));
    assert!(
        text(&after.stderr).contains("not executing"),
        "{}",
        describe(&after)
    );
}

#[test]
fn a_terminal_run_is_cancelled_from_another_process_at_its_checkpoint() {
    let sandbox = Sandbox::new();
    let (mut child, run, id) = run_waiting_at_gate(&sandbox);
    waiting_gate(&sandbox, &id);

    let out = sandbox.heddle(&["cancel", &id]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let code = exit_code_within(&mut child, Duration::from_secs(20), "the cancelled run");
    assert_eq!(code, Some(130), "{}", sandbox.spawned_output());
    let conclusion = json(&run.join("conclusion.json"));
    assert_eq!(conclusion["status"], "cancelled", "{conclusion}");
    assert!(
        conclusion["failure_reason"]
            .as_str()
            .unwrap()
            .contains("another Heddle process"),
        "{conclusion}"
    );
    assert_eq!(json(&run.join("checkpoint.json"))["next_node_id"], "review");

    // Nothing executes it now: a second cancel is refused and says so.
    let again = sandbox.heddle(&["cancel", &id]);
    assert_eq!(again.status.code(), Some(1), "{}", describe(&again));
    assert!(
        text(&again.stderr).contains("not executing"),
        "{}",
        describe(&again)
    );
}

#[test]
fn events_follow_prints_a_waiting_run_s_events_before_it_ends() {
    let sandbox = Sandbox::new();
    let (mut child, _run, id) = run_waiting_at_gate(&sandbox);
    waiting_gate(&sandbox, &id);

    // The follower's output is written a batch at a time: the gate's events must reach the
    // pipe while the run still waits on it, not when the follower exits.
    let mut follower = sandbox
        .command(&["events", &id, "--follow", "--json"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let (lines, received) = mpsc::channel::<String>();
    let stdout = follower.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !seen
        .iter()
        .any(|l: &String| l.contains("interview.started"))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match received.recv_timeout(left) {
            Ok(line) => seen.push(line),
            Err(_) => panic!("the gate's start was not printed while it waits: {seen:?}"),
        }
    }
    assert!(
        !seen.iter().any(|l| l.contains("run.completed")),
        "the run ended before it was answered: {seen:?}"
    );

    let out = sandbox.heddle(&["answer", &id, "--choice", "A"]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let code = exit_code_within(&mut child, Duration::from_secs(20), "the answered run");
    assert_eq!(code, Some(0), "{}", sandbox.spawned_output());
    // The follower prints the rest as it comes and stops at the run's end.
    let code = exit_code_within(&mut follower, Duration::from_secs(20), "the follower");
    assert_eq!(code, Some(0));
    reader.join().unwrap();
    seen.extend(received.try_iter());
    let last: Value = serde_json::from_str(seen.last().unwrap()).unwrap();
    assert_eq!(last["event"], "run.completed", "{seen:?}");
}
