//! Reaching a run that a worker executes on another machine, through the real binaries and a
//! PostgreSQL index shared by every machine (sandbox): its waiting gate is listed and
//! answered from a machine without its folder, by `heddle answer` and through `heddle serve`;
//! its events stream there as the worker writes them; a cancel from there stops it; and two
//! servers show the same history.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::time::Duration;

use sandbox::served::{pending_through, serve_with};
use sandbox::team::{Team, Working, ran};
use sandbox::{GATE_FLOW, Sandbox, describe, git, text, wait_for};
use serde_json::{Value, json};

const SLOW: &str = r#"digraph Slow {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    first [shape=parallelogram, script="echo first > first.txt"];
    wait  [shape=parallelogram, script="sleep 60"];
    start -> first -> wait -> exit;
}
"#;

/// The id of the run of workflow `name` that `machine` lists, once it lists one.
fn run_listed(team: &Team, machine: &Sandbox, name: &str) -> String {
    let mut id = None;
    let listed = wait_for(Duration::from_secs(60), || {
        let ps = team
            .heddle(machine, &["ps", "-a", "--json"])
            .output()
            .unwrap();
        assert!(ps.status.success(), "{}", describe(&ps));
        let runs: Value = serde_json::from_slice(&ps.stdout).unwrap();
        id = runs
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["workflow_name"] == name)
            .map(|r| r["id"].as_str().unwrap().to_string());
        id.is_some()
    });
    assert!(listed, "no run of {name} is listed");
    id.unwrap()
}

#[test]
fn a_gate_of_a_run_on_a_worker_is_answered_from_another_machine() {
    let team = Team::with(&[("gate.dot", GATE_FLOW)]);
    let entry = team.queue("gate.dot");
    let worker = Working::start(&team, "w1");
    let desk = Sandbox::new();
    let run = run_listed(&team, &desk, "Gate");

    // The desk has no folder of the run: the gate comes from what the worker published.
    let mut listing = Value::Null;
    let waiting = wait_for(Duration::from_secs(30), || {
        let out = team
            .heddle(&desk, &["answer", &run, "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        listing = serde_json::from_slice(&out.stdout).unwrap();
        listing.as_array().is_some_and(|g| !g.is_empty())
    });
    assert!(waiting, "no gate listed: {listing}");
    assert_eq!(listing[0]["node_id"], "review", "{listing}");
    assert_eq!(listing[0]["text"], "Ship it?", "{listing}");

    let wrong = team
        .heddle(&desk, &["answer", &run, "--choice", "maybe"])
        .output()
        .unwrap();
    assert!(!wrong.status.success(), "{}", describe(&wrong));
    assert!(
        text(&wrong.stderr).contains("maybe"),
        "{}",
        describe(&wrong)
    );

    let answered = team
        .heddle(&desk, &["answer", &run, "--choice", "A"])
        .output()
        .unwrap();
    assert!(answered.status.success(), "{}", describe(&answered));
    assert!(
        text(&answered.stdout).contains("answered gate `review`"),
        "{}",
        describe(&answered)
    );

    // The desk follows the run's events from the index until the run ends.
    let events = team
        .heddle(&desk, &["events", &run, "--follow", "--json"])
        .output()
        .unwrap();
    assert!(events.status.success(), "{}", describe(&events));
    let names: Vec<String> = text(&events.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["event"].to_string())
        .collect();
    for wanted in ["interview.started", "interview.answered", "run.completed"] {
        assert!(
            names.iter().any(|n| n.contains(wanted)),
            "{wanted} missing: {names:?}"
        );
    }

    let report = worker.finish();
    assert_eq!(ran(&report, &entry, "success"), run);
    let verdict = git(
        &team.remote,
        &["show", &format!("heddle/run/{run}:verdict.txt")],
    );
    assert_eq!(verdict, "approved\n");
}

#[test]
fn two_servers_show_a_worker_s_run_and_either_answers_its_gate() {
    let team = Team::with(&[("gate.dot", GATE_FLOW)]);
    let entry = team.queue("gate.dot");
    let worker = Working::start(&team, "w1");
    let env = [("HEDDLE_DATABASE_URL", team.url.as_str())];
    let (one, two) = (Sandbox::new(), Sandbox::new());
    let (first, second) = (serve_with(&one, 1, &env), serve_with(&two, 1, &env));
    let run = run_listed(&team, &one, "Gate");

    let gates = pending_through(&second, &run);
    let question = gates[0]["question_id"].as_str().unwrap().to_string();
    assert_eq!(
        pending_through(&first, &run)[0]["question_id"],
        question.as_str()
    );
    let refused = first.call(
        "answer_gate",
        &json!({ "run_id": run, "question_id": "nope", "answer": "A" }),
    );
    assert_eq!(refused.0, 422, "{refused:?}");
    second.ok(
        "answer_gate",
        &json!({ "run_id": run, "question_id": question, "answer": "Approve" }),
    );

    // Either server streams the run to its end from the index.
    let stream = first.events(&run);
    assert!(stream.contains("event: end"), "{stream}");
    assert!(stream.contains("\"interview.answered\""), "{stream}");
    assert!(stream.contains("\"run.completed\""), "{stream}");
    assert_eq!(ran(&worker.finish(), &entry, "success"), run);

    for server in [&first, &second] {
        assert!(
            wait_for(Duration::from_secs(10), || server.status_of(&run)
                == "success"),
            "{}",
            server.status_of(&run)
        );
        let page = server.ok("list_runs", &json!({}));
        let ids: Vec<&str> = page["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(ids, [run.as_str()], "{page}");
        assert!(server.ok("pending_gates", &json!({ "run_id": run })) == json!([]));
    }
}

#[test]
fn a_run_on_a_worker_is_cancelled_from_another_machine() {
    let team = Team::with(&[("slow.dot", SLOW)]);
    let entry = team.queue("slow.dot");
    let worker = Working::start(&team, "w1");
    let desk = Sandbox::new();
    let run = run_listed(&team, &desk, "Slow");
    // Cancelled once `wait` is under way (its events reach the desk through the index).
    let started = wait_for(Duration::from_secs(30), || {
        let events = team.heddle(&desk, &["events", &run]).output().unwrap();
        text(&events.stdout).contains("wait")
    });
    assert!(started, "the desk never saw `wait` start");

    let cancel = team.heddle(&desk, &["cancel", &run]).output().unwrap();
    assert!(cancel.status.success(), "{}", describe(&cancel));
    let report = worker.finish();
    assert_eq!(ran(&report, &entry, "cancelled"), run);

    // Over: asking again is refused, saying so.
    let again = team.heddle(&desk, &["cancel", &run]).output().unwrap();
    assert!(!again.status.success());
    assert!(
        text(&again.stderr).contains("not executing"),
        "{}",
        describe(&again)
    );
}
