//! The checkpoints of a worker's run, read on another machine through the real binaries: a
//! worker runs a two-stage workflow and pushes it to the team's remote (a bare repository)
//! while sharing its folder through the test S3 server; a `heddle serve` without the run's
//! folder, given the remote (`HEDDLE_TEAM_REMOTE`), lists the run's checkpoints, shows a
//! file at a checkpoint, the saved state, and the diff between two, as for a run of its own.
//! Without the remote it says what to set.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use sandbox::Sandbox;
use sandbox::served::serve_with;
use sandbox::team::{Team, Working, ran, shared_files_env};
use serde_json::json;

const FLOW: &str = r#"digraph Steps {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    draft [shape=parallelogram, script="echo first draft > notes.txt"];
    edit  [shape=parallelogram, script="echo second draft > notes.txt && echo new > extra.txt"];
    start -> draft -> edit -> exit;
}
"#;

#[test]
fn a_server_reads_the_checkpoints_of_a_worker_s_run_from_the_team_remote() {
    let team = Team::with(&[("steps.dot", FLOW)]);
    let shared = shared_files_env(&team);
    let env: Vec<(&str, &str)> = shared.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let entry = team.queue("steps.dot");
    let run = ran(
        &Working::start_with(&team, "w1", &env).finish(),
        &entry,
        "success",
    );

    let mut with_remote = env.clone();
    with_remote.push(("HEDDLE_TEAM_REMOTE", team.remote()));
    let desk = Sandbox::new();
    let server = serve_with(&desk, 1, &with_remote);

    let checkpoints = server.ok("run_checkpoints", &json!({ "run_id": run }));
    let nodes: Vec<&str> = checkpoints
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["node_id"].as_str())
        .collect();
    assert!(
        nodes.contains(&"draft") && nodes.contains(&"edit"),
        "{checkpoints}"
    );

    let file = |at: &str, path: &str| {
        server.ok(
            "checkpoint_file",
            &json!({ "run_id": run, "at": at, "path": path }),
        )["text"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(file("draft", "notes.txt"), "first draft\n");
    assert_eq!(file("edit", "notes.txt"), "second draft\n");
    let files = server.ok("checkpoint_files", &json!({ "run_id": run, "at": "edit" }));
    assert!(files.to_string().contains("extra.txt"), "{files}");
    let state = server.ok("checkpoint_state", &json!({ "run_id": run, "at": "draft" }));
    assert_eq!(state["next_node_id"], "edit", "{state}");
    let diff = server.ok(
        "checkpoint_diff",
        &json!({ "run_id": run, "from": "draft", "to": "edit" }),
    );
    let changed: Vec<&str> = diff["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["path"].as_str())
        .collect();
    assert_eq!(changed, ["extra.txt", "notes.txt"], "{diff}");
    // Read from this machine's mirror of the remote, not from the worker's clone.
    assert!(desk.home().join("team-remote.git").join("HEAD").exists());

    // Without the remote, the server says where the checkpoints are and what to set.
    let unaware = serve_with(&Sandbox::new(), 1, &env);
    let (status, refused) = unaware.call("run_checkpoints", &json!({ "run_id": run }));
    assert_eq!(status, 404, "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("HEDDLE_TEAM_REMOTE"),
        "{refused}"
    );
}
