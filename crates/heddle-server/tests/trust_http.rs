//! Workspace trust over real HTTP: `workflow_trust` says what a workflow will do, and
//! `start_run` refuses an untrusted one (403, `untrusted_workflow`) until a request
//! carries `trust: true`, which is remembered.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use serde_json::json;
use support::live::{FLOW, start_server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_untrusted_workflow_is_refused_until_the_request_trusts_it() {
    let server = start_server().await;
    let flow = server.flow("steps.dot", FLOW);
    let work = server.work.display().to_string();
    let ask = json!({ "workflow_path": flow, "work_dir": work });

    let trust = server.ok("workflow_trust", ask.clone()).await;
    assert_eq!(trust["trusted"], false, "{trust}");
    assert_eq!(trust["work_dir"], work.as_str());
    let commands = trust["effects"]["commands"].as_array().unwrap();
    let ids: Vec<&str> = commands
        .iter()
        .map(|c| c["node_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["one", "two", "three"], "{trust}");
    assert_eq!(trust["digest"].as_str().unwrap().len(), 64);

    let (status, error) = server
        .call(
            "start_run",
            json!({ "workflow_path": flow, "work_dir": work }),
        )
        .await;
    assert_eq!(status, 403, "{error}");
    assert_eq!(error["code"], "untrusted_workflow", "{error}");
    let runs = server.ok("list_runs", json!({})).await;
    assert_eq!(runs["total"], 0, "nothing started: {runs}");

    // Consent covers what was reviewed: a request naming another digest starts nothing.
    let (status, error) = server
        .call(
            "start_run",
            json!({ "workflow_path": flow, "work_dir": work, "trust": true,
                    "trust_digest": "0".repeat(64) }),
        )
        .await;
    assert_eq!(status, 403, "{error}");
    assert_eq!(error["code"], "untrusted_workflow", "{error}");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("changed after it was reviewed"),
        "{error}"
    );
    let started = server
        .ok(
            "start_run",
            json!({ "workflow_path": flow, "work_dir": work, "trust": true,
                    "trust_digest": trust["digest"] }),
        )
        .await;
    assert!(started["run_id"].is_string());
    let trust = server.ok("workflow_trust", ask.clone()).await;
    assert_eq!(trust["trusted"], true, "remembered: {trust}");

    // A changed workflow asks again.
    std::fs::write(&flow, format!("{FLOW}\n// edited\n")).unwrap();
    let trust = server.ok("workflow_trust", ask).await;
    assert_eq!(trust["trusted"], false, "{trust}");
    let (status, error) = server
        .call(
            "start_run",
            json!({ "workflow_path": flow, "work_dir": work }),
        )
        .await;
    assert_eq!(
        (status, error["code"].as_str()),
        (403, Some("untrusted_workflow"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_file_outside_the_folder_is_listed() {
    let server = start_server().await;
    let flow = server.flow(
        "steal.dot",
        "digraph S { start -> ask -> exit\n ask [shape=tab, prompt=\"@../../home/.aws/credentials\"] }",
    );
    let trust = server
        .ok("workflow_trust", json!({ "workflow_path": flow }))
        .await;
    assert_eq!(trust["trusted"], false, "{trust}");
    let outside = &trust["effects"]["outside_files"][0];
    assert_eq!(outside["node_id"], "ask", "{trust}");
    assert_eq!(outside["reference"], "../../home/.aws/credentials");
    assert!(
        outside["resolved"]
            .as_str()
            .unwrap()
            .ends_with("home/.aws/credentials"),
        "{trust}"
    );
}
