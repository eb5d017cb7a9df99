#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `dump_run` lays a run out one folder per stage visit, in order, with its artifacts.

use std::collections::BTreeMap;

use heddle_artifacts::dump_run;
use heddle_engine::{Checkpoint, RunDir, StageRecord, StageStatus};
use heddle_workflow::HandlerKind;

fn record(node: &str, visit: u32) -> StageRecord {
    StageRecord {
        node_id: node.into(),
        kind: HandlerKind::Command,
        visit,
        attempts: 1,
        status: StageStatus::Success,
        stage_dir: RunDir::stage_dir_name(node, visit),
        started_at: "2026-11-22T10:00:00.000Z".into(),
        ended_at: "2026-11-22T10:00:01.000Z".into(),
        duration_ms: 1000,
        branch: None,
        failure_reason: None,
        failure_class: None,
        notes: String::new(),
        preferred_label: None,
        model: None,
        usage: None,
        cost_usd: None,
        files_touched: Vec::new(),
        script: Some("true".into()),
        simulated: false,
        artifacts: 0,
        junit: None,
        blobs: Default::default(),
    }
}

#[test]
fn one_folder_per_stage_visit_in_order_with_its_artifacts() {
    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::create(dir.path().join("run")).unwrap();
    let checkpoint = Checkpoint {
        version: 1,
        run_id: "R".into(),
        timestamp: "2026-11-22T10:00:02.000Z".into(),
        current_node: Some("test".into()),
        next_node_id: None,
        completed_nodes: vec!["test".into(), "test".into()],
        node_retries: BTreeMap::new(),
        node_visits: BTreeMap::new(),
        node_outcomes: BTreeMap::new(),
        context_values: BTreeMap::new(),
        logs: Vec::new(),
        git_commit_sha: None,
        loop_failure_signatures: BTreeMap::new(),
        restart_failure_signatures: BTreeMap::new(),
        timeline: vec![record("test", 1), record("test", 2)],
        restarts: 0,
        branches: Vec::new(),
        stages: 0,
        history_bytes: None,
    };
    checkpoint.save(&run.checkpoint()).unwrap();
    std::fs::write(run.graph(), "digraph G {}").unwrap();
    std::fs::create_dir_all(run.stage_dir("test", 1)).unwrap();
    std::fs::write(run.stage_dir("test", 1).join("stdout.log"), "first").unwrap();
    std::fs::create_dir_all(run.stage_dir("test", 2).join("child")).unwrap();
    std::fs::write(run.stage_dir("test", 2).join("stdout.log"), "second").unwrap();
    std::fs::write(run.stage_dir("test", 2).join("child/manifest.json"), "{}").unwrap();
    let shots = run.artifacts().join("test-visit_2/retry_0/test-results");
    std::fs::create_dir_all(&shots).unwrap();
    std::fs::write(shots.join("shot.png"), [0x89, b'P', b'N', b'G']).unwrap();

    let out = dir.path().join("dump");
    let report = dump_run(&run, &out).unwrap();
    assert_eq!(report.stages, 2);
    let read = |p: &str| std::fs::read_to_string(out.join(p)).unwrap();
    assert_eq!(read("stages/001-test@1/stdout.log"), "first");
    assert_eq!(read("stages/002-test@2/stdout.log"), "second");
    assert!(
        out.join("stages/002-test@2/artifacts/retry_0/test-results/shot.png")
            .is_file()
    );
    assert!(
        !out.join("stages/002-test@2/child").exists(),
        "child runs stay out"
    );
    assert!(!out.join("stages/001-test@1/artifacts").exists());
    assert_eq!(read("graph.dot"), "digraph G {}");
    assert!(out.join("checkpoint.json").is_file());

    // A second dump into the same folder is refused: nothing is overwritten.
    let error = dump_run(&run, &out).unwrap_err().to_string();
    assert!(error.contains("not empty"), "{error}");
}
