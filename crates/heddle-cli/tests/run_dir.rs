//! A run kept outside `$HEDDLE_HOME/runs` (`heddle run --run-dir`) is found by its id or a
//! prefix by every command, and listed by `heddle ps` like any other.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use std::path::Path;

use sandbox::{Sandbox, describe, json, text};
use serde_json::Value;

const TWO_STEPS: &str = r#"digraph TwoSteps {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    one   [shape=parallelogram, script="echo one > one.txt"];
    two   [shape=parallelogram, script="echo two > two.txt"];
    start -> one -> two -> exit;
}
"#;

#[test]
fn a_run_in_its_own_folder_is_found_by_id_everywhere() {
    let sandbox = Sandbox::new();
    let flow = sandbox.write_flow("two.dot", TWO_STEPS);
    let elsewhere = sandbox.path().join("elsewhere").join("my-run");
    std::process::Command::new("git")
        .args(["init", "-q"])
        .current_dir(sandbox.work())
        .status()
        .unwrap();
    let out = sandbox.heddle(&[
        "run",
        flow.to_str().unwrap(),
        "--run-dir",
        elsewhere.to_str().unwrap(),
        "--checkpoints",
        "shadow",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", describe(&out));
    let id = json(&elsewhere.join("manifest.json"))["run_id"]
        .as_str()
        .unwrap()
        .to_string();
    let prefix = &id[..10];

    let listed = sandbox.heddle(&["ps", "-a", "--json"]);
    assert_eq!(listed.status.code(), Some(0), "{}", describe(&listed));
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let runs = listed.as_array().unwrap();
    assert_eq!(runs.len(), 1, "{listed}");
    assert_eq!(runs[0]["id"], id.as_str());
    assert_eq!(runs[0]["status"], "success");

    let inspected = sandbox.heddle(&["inspect", prefix]);
    assert_eq!(inspected.status.code(), Some(0), "{}", describe(&inspected));
    assert!(
        text(&inspected.stdout).contains("two"),
        "{}",
        describe(&inspected)
    );

    let checkpoints = sandbox.heddle(&["checkpoints", prefix, "--json"]);
    assert_eq!(
        checkpoints.status.code(),
        Some(0),
        "{}",
        describe(&checkpoints)
    );
    let entries: Value = serde_json::from_slice(&checkpoints.stdout).unwrap();
    let nodes: Vec<&str> = entries
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["node_id"].as_str().unwrap())
        .collect();
    assert!(
        nodes.contains(&"one") && nodes.contains(&"two"),
        "{entries}"
    );

    let events = sandbox.heddle(&["events", prefix, "--json"]);
    assert_eq!(events.status.code(), Some(0), "{}", describe(&events));
    assert!(
        text(&events.stdout).contains("run.completed"),
        "{}",
        describe(&events)
    );

    // The run's files stay where it was asked to keep them; the runs folder only links them.
    assert!(Path::new(&elsewhere).join("progress.jsonl").is_file());
    let linked: Vec<_> = std::fs::read_dir(sandbox.home().join("runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(linked.len(), 1, "{linked:?}");
    assert_eq!(std::fs::read_link(&linked[0]).unwrap(), elsewhere);
}
