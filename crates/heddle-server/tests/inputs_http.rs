//! Run inputs over real HTTP: opening a workflow lists the inputs its templates use (with
//! the run config's values), `start_run` takes values for them, `get_run` shows what a run
//! was given, and a missing input is refused before a run starts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::json;
use support::live::start_server;

const FLOW: &str = r#"digraph Inputs {
    start [shape=Mdiamond]; exit [shape=Msquare];
    write [shape=parallelogram, script="echo '{{ inputs.greeting }} {{ inputs.name }}' > out.txt"];
    start -> write -> exit;
}"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inputs_are_listed_given_recorded_and_required() {
    let server = start_server().await;
    let path = server.flow("inputs.dot", FLOW);
    let dir = std::path::Path::new(&path).parent().unwrap().to_path_buf();
    std::fs::write(
        dir.join("run.toml"),
        "[workflow]\ngraph = \"inputs.dot\"\n[run.inputs]\ngreeting = \"hello\"\n",
    )
    .unwrap();
    let opened = server.ok("open_workflow", json!({ "path": path })).await;
    assert_eq!(
        opened["inputs"],
        json!([
            { "name": "greeting", "value": "hello" },
            { "name": "name", "value": null }
        ]),
        "{opened}"
    );
    // With a run config beside it, an input the config lacks is a warning.
    let warning = opened["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["rule"] == "template_input")
        .unwrap();
    assert_eq!(warning["severity"], "warning");

    let (status, refused) = server
        .call(
            "start_run",
            json!({ "trust": true, "workflow_path": path,
                    "work_dir": server.work.display().to_string() }),
        )
        .await;
    assert_eq!(status, 422, "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("input `name` is not given a value"),
        "{refused}"
    );

    let started = server
        .ok(
            "start_run",
            json!({ "trust": true, "workflow_path": path,
                    "work_dir": server.work.display().to_string(),
                    "inputs": { "name": "world" } }),
        )
        .await;
    let run = started["run_id"].as_str().unwrap().to_string();
    let (_, ended) = server.events(&run, None, usize::MAX).await;
    assert!(ended);
    let record = server.ok("get_run", json!({ "run_id": run })).await;
    let work_dir = std::path::Path::new(record["work_dir"].as_str().unwrap());
    let out = std::fs::read_to_string(work_dir.join("out.txt")).unwrap();
    assert_eq!(out.trim(), "hello world");
    assert_eq!(
        record["inputs"],
        json!({ "greeting": "hello", "name": "world" }),
        "{record}"
    );
}
