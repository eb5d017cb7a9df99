//! What a run left, parsed in Rust and answered over HTTP so the UI parses nothing: its JUnit
//! reports (and a clear error for a broken one), a stage's diff.patch and a checkpoint diff as
//! files and hunks, and the run's own graph.dot.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::{Value, json};
use support::live::start_server;

/// One stage writes a passing and failing JUnit report and a broken one, edits and adds
/// files; the next renames one.
const FLOW: &str = r#"digraph Parsed {
    start [shape=Mdiamond]; exit [shape=Msquare];
    test [shape=parallelogram, script="mkdir -p reports broken && printf '%s' '<testsuites name=\"unit\"><testsuite name=\"page\"><testcase classname=\"page\" name=\"title\" time=\"0.5\"/><testcase classname=\"page\" name=\"greeting\"><failure message=\"expected Hello\" type=\"AssertionError\">at greet (page.py:3)</failure></testcase></testsuite></testsuites>' > reports/junit.xml && printf '%s' '<testsuite><testcase name=\"x\">' > broken/junit-cut.xml && printf 'one\ntwo\n' > notes.txt && printf 'no newline' > tail.txt"];
    move [shape=parallelogram, script="git mv notes.txt moved.txt 2>/dev/null || mv notes.txt moved.txt"];
    start -> test -> move -> exit;
}"#;

fn artifact<'a>(listed: &'a Value, suffix: &str) -> &'a str {
    listed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["path"].as_str().unwrap())
        .find(|p| p.ends_with(suffix))
        .unwrap_or_else(|| panic!("no artifact ending {suffix} in {listed}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_runs_reports_patches_and_graph_arrive_parsed() {
    let server = start_server().await;
    let started = server
        .ok(
            "start_run",
            json!({ "trust": true,
                    "workflow_path": server.flow("parsed.dot", FLOW),
                    "work_dir": server.work.display().to_string() }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let (_, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended);

    // JUnit: the report as heddle-artifacts parsed it.
    let listed = server.ok("run_artifacts", json!({ "run_id": run })).await;
    let good = artifact(&listed, "reports/junit.xml");
    let report = server
        .ok(
            "junit_report",
            json!({ "run_id": run, "area": "artifacts", "path": good }),
        )
        .await;
    assert_eq!(report["name"], "unit");
    let suite = &report["suites"][0];
    assert_eq!(
        (suite["name"].as_str(), suite["tests"].as_u64()),
        (Some("page"), Some(2))
    );
    let failed = &suite["cases"][1];
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["message"], "expected Hello");
    assert_eq!(failed["failure_type"], "AssertionError");
    assert_eq!(failed["text"], "at greet (page.py:3)");
    assert_eq!(suite["cases"][0]["time"], 0.5);

    // A broken one: a clear error with where it broke.
    let broken = artifact(&listed, "broken/junit-cut.xml");
    let (status, error) = server
        .call(
            "junit_report",
            json!({ "run_id": run, "area": "artifacts", "path": broken }),
        )
        .await;
    assert_eq!(status, 422, "{error}");
    assert_eq!(error["code"], "wrong_kind");
    let message = error["message"].as_str().unwrap();
    assert!(message.contains(broken), "{message}");
    assert!(
        message.contains("not well-formed XML at line 1"),
        "{message}"
    );
    let (status, _) = server
        .call(
            "junit_report",
            json!({ "run_id": run, "area": "artifacts", "path": "../manifest.json" }),
        )
        .await;
    assert_eq!(status, 422, "paths stay confined");

    // The stage's diff.patch as files and hunks.
    let patch = server
        .ok(
            "run_patch",
            json!({ "run_id": run, "area": "nodes", "path": "test/diff.patch" }),
        )
        .await;
    assert_eq!(patch["cut"], false);
    let files = patch["files"].as_array().unwrap();
    let notes = files.iter().find(|f| f["path"] == "notes.txt").unwrap();
    assert_eq!(notes["status"], "added");
    assert_eq!(notes["additions"], 2);
    let lines = &notes["hunks"][0]["lines"];
    assert_eq!(lines[1]["kind"], "added");
    assert_eq!(lines[1]["text"], "two");
    assert_eq!(lines[1]["new_line"], 2);
    let tail = files.iter().find(|f| f["path"] == "tail.txt").unwrap();
    assert_eq!(tail["hunks"][0]["lines"][1]["kind"], "no_newline");

    // A checkpoint diff carries the same structure; the rename is one file.
    let checkpoints = server.ok("run_checkpoints", json!({ "run_id": run })).await;
    let sha_of = |node: &str| {
        checkpoints
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["node_id"] == node)
            .unwrap_or_else(|| panic!("no checkpoint of {node} in {checkpoints}"))["sha"]
            .clone()
    };
    let diff = server
        .ok(
            "checkpoint_diff",
            json!({ "run_id": run, "from": sha_of("test"), "to": sha_of("move") }),
        )
        .await;
    let files = diff["files"].as_array().unwrap();
    assert_eq!(files.len(), 1, "{diff}");
    assert_eq!(files[0]["status"], "renamed");
    assert_eq!(files[0]["old_path"], "notes.txt");
    assert_eq!(files[0]["path"], "moved.txt");

    // The run's own graph, without the client building a path.
    let graph = server.ok("run_graph", json!({ "run_id": run })).await;
    assert!(graph["path"].as_str().unwrap().ends_with("graph.dot"));
    assert_eq!(graph["workflow"]["name"], "Parsed");
    // As the run screen draws it: no file text, no attribute a node's card does not show.
    assert!(graph.get("source").is_none(), "{graph}");
    for node in graph["workflow"]["nodes"].as_array().unwrap() {
        for attr in node["attrs"].as_array().unwrap() {
            let key = attr["canonical"].as_str().unwrap();
            assert!(
                heddle_api::CARD_ATTRIBUTES.contains(&key),
                "{key} in {node}"
            );
        }
    }
    // Asked again, the same graph: from the cache of graphs parsed lately, so even a file
    // whose text changed behind the cache's back (same inode, length and time) is not read.
    assert_eq!(
        server.ok("run_graph", json!({ "run_id": run })).await,
        graph
    );
    let graph_path = std::path::PathBuf::from(graph["path"].as_str().unwrap());
    let source = std::fs::read_to_string(&graph_path).unwrap();
    let modified = std::fs::metadata(&graph_path).unwrap().modified().unwrap();
    let disguised = source.replacen("digraph Parsed", "digraph Hidden", 1);
    assert_eq!(disguised.len(), source.len());
    // Written in place on purpose (the same inode): the one change the stamp cannot see.
    std::fs::write(&graph_path, &disguised).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&graph_path)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let cached = server.ok("run_graph", json!({ "run_id": run })).await;
    assert_eq!(
        cached["workflow"]["name"], "Parsed",
        "served from the cache"
    );
    // A graph.dot that changed since it was parsed is read again, whether written in place
    // (here a new length) or written whole and renamed over it, as Heddle writes run files.
    let renamed = source.replacen("digraph Parsed", "digraph ParsedAgain", 1);
    assert_ne!(renamed, source, "the fixture's graph is named Parsed");
    std::fs::write(&graph_path, &renamed).unwrap();
    let again = server.ok("run_graph", json!({ "run_id": run })).await;
    assert_eq!(again["workflow"]["name"], "ParsedAgain");
    let same_length = source.replacen("digraph Parsed", "digraph Reread", 1);
    heddle_engine::atomic_file::replace_file(&graph_path, same_length.as_bytes(), false).unwrap();
    let reread = server.ok("run_graph", json!({ "run_id": run })).await;
    assert_eq!(reread["workflow"]["name"], "Reread");

    let (status, error) = server
        .call("run_graph", json!({ "run_id": "01NOSUCHRUN" }))
        .await;
    assert_eq!(status, 404, "{error}");
}
