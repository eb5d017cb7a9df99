//! A stage run again on a new timeline (rollback, then resume) gets a folder of its own,
//! `nodes/{node}-rerun_{k}`, and its artifacts `artifacts/{node}-rerun_{k}/`: the abandoned
//! timeline's stage folder and artifacts stay byte for byte, and the run index keeps both
//! stage visits.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod gitfixture;
mod sandbox;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use gitfixture::{commit_all, git, snapshot_files};
use heddle_api::index::Store;
use sandbox::{Sandbox, describe, events, run_id};
use serde_json::Value;

const FLOW: &str = r#"digraph R {
    start [shape=Mdiamond]; exit [shape=Msquare];
    unit [shape=parallelogram, script="echo unit > unit.txt"];
    browser [shape=parallelogram, script="mkdir -p test-results && date +%s%N > test-results/shot.png && date +%s%N && echo browser >> browser.txt"];
    start -> unit -> browser -> exit;
}"#;

/// Asserts the files under `dir` are `before`, byte for byte, naming those that differ.
fn assert_unchanged(dir: &Path, before: &BTreeMap<PathBuf, Vec<u8>>) {
    let after = snapshot_files(dir, true);
    let changed: Vec<&PathBuf> = before
        .keys()
        .chain(after.keys())
        .filter(|p| before.get(*p) != after.get(*p))
        .collect();
    assert!(
        changed.is_empty(),
        "changed in {}: {changed:?}",
        dir.display()
    );
}

/// The `stage_dir` of each `event` of `node`, in order.
fn stage_dirs(events: &[Value], event: &str, node: &str) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["event"] == event && e["node_id"] == node)
        .map(|e| e["properties"]["stage_dir"].as_str().unwrap().to_string())
        .collect()
}

/// `(node, visit, stage_dir)` of the index's timeline of the run, in order.
async fn indexed(db: &Path, run: &Path, id: &str) -> Vec<(String, u32, String)> {
    let store = Store::open(db, heddle_api::run_readers()).await.unwrap();
    store.ingest_run(run).await.unwrap();
    let timeline = store.timeline(id).await.unwrap();
    timeline
        .stages
        .into_iter()
        .map(|s| (s.node_id, s.visit, s.stage_dir))
        .collect()
}

#[test]
fn a_stage_rerun_after_a_rollback_keeps_the_old_timelines_folder_and_artifacts() {
    let sandbox = Sandbox::new();
    let work = sandbox.work();
    git(&work, &["init", "-q"]);
    std::fs::write(work.join("README.md"), "project\n").unwrap();
    commit_all(&work, "init");
    let flow = sandbox.write_flow("r.dot", FLOW);
    let out = sandbox.heddle(&["run", flow.to_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let run = sandbox.only_run();
    let id = run_id(&run);
    let old_stage = snapshot_files(&run.join("nodes/browser"), true);
    let old_artifacts = snapshot_files(&run.join("artifacts/browser"), true);
    assert!(
        old_stage.contains_key(Path::new("status.json")),
        "{old_stage:?}"
    );
    assert!(
        old_stage.contains_key(Path::new("diff.patch")),
        "{old_stage:?}"
    );
    assert!(
        old_artifacts.contains_key(Path::new("retry_0/test-results/shot.png")),
        "{old_artifacts:?}"
    );
    // The index as the watcher keeps it: ingested now, and again after the resume.
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let live_db = sandbox.path().join("live.db");
    runtime.block_on(indexed(&live_db, &run, &id));

    let out = sandbox.heddle(&["checkpoints", &id, "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let checkpoints: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let unit = checkpoints
        .iter()
        .find(|c| c["node_id"] == "unit")
        .unwrap_or_else(|| panic!("no unit checkpoint: {checkpoints:?}"));
    let out = sandbox.heddle(&["rollback", &id, "--to", unit["sha"].as_str().unwrap()]);
    assert!(out.status.success(), "{}", describe(&out));
    let out = sandbox.heddle(&["resume", &id]);
    assert!(out.status.success(), "{}", describe(&out));

    // The first timeline's stage and artifacts are untouched; the rerun has its own.
    assert_unchanged(&run.join("nodes/browser"), &old_stage);
    assert_unchanged(&run.join("artifacts/browser"), &old_artifacts);
    let rerun = run.join("nodes/browser-rerun_2");
    assert!(rerun.join("status.json").is_file());
    assert!(rerun.join("stdout.log").is_file());
    let new_shot = run.join("artifacts/browser-rerun_2/retry_0/test-results/shot.png");
    assert!(new_shot.is_file());
    assert_ne!(
        std::fs::read(&new_shot).unwrap(),
        old_artifacts[Path::new("retry_0/test-results/shot.png")]
    );
    assert!(
        !run.join("nodes/unit-rerun_2").exists(),
        "unit did not run again"
    );

    // The events and the run's timeline name the folders.
    let log = events(&run);
    let both = ["nodes/browser", "nodes/browser-rerun_2"];
    assert_eq!(stage_dirs(&log, "stage.started", "browser"), both);
    assert_eq!(stage_dirs(&log, "stage.completed", "browser"), both);
    let stages = sandbox::timeline(&run);
    let record = stages.iter().find(|r| r["node_id"] == "browser").unwrap();
    assert_eq!(record["stage_dir"], "nodes/browser-rerun_2");
    assert_eq!(record["visit"], 1);

    // The index keeps both visits of `browser`, incrementally and rebuilt from scratch.
    let expected = vec![
        ("browser".to_string(), 1, "nodes/browser".to_string()),
        (
            "browser".to_string(),
            2,
            "nodes/browser-rerun_2".to_string(),
        ),
    ];
    for db in [live_db, sandbox.path().join("fresh.db")] {
        let stages = runtime.block_on(indexed(&db, &run, &id));
        let browser: Vec<_> = stages.into_iter().filter(|s| s.0 == "browser").collect();
        assert_eq!(browser, expected, "{}", db.display());
    }

    // `heddle artifact list` names the node of both stage folders.
    let out = sandbox.heddle(&["artifact", "list", &id, "--json"]);
    assert!(out.status.success(), "{}", describe(&out));
    let listed: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    let stages: Vec<(&str, &str)> = listed
        .iter()
        .map(|a| (a["stage"].as_str().unwrap(), a["node"].as_str().unwrap()))
        .collect();
    assert_eq!(
        stages,
        [("browser", "browser"), ("browser-rerun_2", "browser")]
    );
}
