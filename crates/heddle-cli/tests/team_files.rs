//! Run files for everyone, through the real binaries: a worker shares its run's folder and
//! blobs through an S3-compatible store (the test suite's moto, `HEDDLE_TEST_S3_URL`), and a
//! `heddle serve` on a machine without the run's folder shows its graph, its artifacts, a
//! JUnit report and the artifact's bytes. Without a run files URL, the server says where
//! the files are and how to share them.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod sandbox;

use sandbox::served::serve_with;
use sandbox::team::{Team, Working, ran, shared_files_env};
use sandbox::{Sandbox, text};
use serde_json::{Value, json};

const FLOW: &str = r#"digraph Report {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    check [shape=parallelogram,
           script="printf '<testsuite name=\"team\" tests=\"1\"><testcase name=\"shared\"/></testsuite>' > junit-team.xml"];
    start -> check -> exit;
}
"#;

#[test]
fn a_server_shows_the_files_of_a_run_a_worker_ran_elsewhere() {
    let team = Team::with(&[("report.dot", FLOW)]);
    let shared = shared_files_env(&team);
    let env: Vec<(&str, &str)> = shared.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let entry = team.queue("report.dot");
    let report = Working::start_with(&team, "w1", &env).finish();
    let run = ran(&report, &entry, "success");

    let desk = Sandbox::new();
    let server = serve_with(&desk, 1, &env);
    let graph = server.ok("run_graph", &json!({ "run_id": run }));
    assert!(graph.to_string().contains("\"check\""), "{graph}");

    let artifacts = server.ok("run_artifacts", &json!({ "run_id": run }));
    let junit = artifacts
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["path"].as_str().unwrap().ends_with("junit-team.xml"))
        .unwrap_or_else(|| panic!("no JUnit artifact: {artifacts}"));
    let path = junit["path"].as_str().unwrap();
    let parsed = server.ok(
        "junit_report",
        &json!({ "run_id": run, "area": "artifacts", "path": path }),
    );
    assert!(parsed.to_string().contains("\"shared\""), "{parsed}");
    let (status, body) = server.get(&format!("/runs/{run}/artifacts/{path}"));
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("<testcase name=\"shared\"/>"), "{body}");
    // The copy is under the desk's home, outside its runs folder: not indexed as its own.
    assert!(desk.home().join("shared-runs").is_dir());
    let ps = team
        .heddle(&desk, &["ps", "-a", "--json"])
        .output()
        .unwrap();
    let listed: Value = serde_json::from_slice(&ps.stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{}", text(&ps.stdout));

    // A server that shares no run files says where they are and what to set.
    let elsewhere = Sandbox::new();
    let unshared = serve_with(&elsewhere, 1, &env[..1]);
    let (status, refused) = unshared.call("run_graph", &json!({ "run_id": run }));
    assert_eq!(status, 404, "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("HEDDLE_RUN_FILES_URL"),
        "{refused}"
    );
}
