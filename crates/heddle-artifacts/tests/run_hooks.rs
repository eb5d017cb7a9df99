//! The capture hook and the blob store as a real run uses them: when the run folder cannot
//! take a stage's artifacts, or the blob store cannot take its logs, the run goes on and
//! says so in one warning naming the node, the path and the cause.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use heddle_artifacts::{BlobStore, CaptureHook};
use heddle_engine::hooks::NoCheckpoints;
use heddle_engine::interviewer::AutoApprove;
use heddle_engine::llm::SimulatedBackend;
use heddle_engine::{
    Conclusion, Engine, EngineEnv, Envelope, Event, RunRequest, RunStatus, SeededEntropy, Services,
    SystemClock,
};

const HEAD: &str = "start [shape=Mdiamond]; exit [shape=Msquare];";

/// Runs `source` in `dir` with the real capture hook and a blob store at `blobs`.
async fn run(dir: &Path, blobs: &Path, source: &str) -> (Conclusion, Vec<Envelope>) {
    let engine = Engine::new(
        EngineEnv {
            clock: Arc::new(SystemClock::new()),
            entropy: Arc::new(SeededEntropy::new(3)),
            env: vec![("PATH".into(), std::env::var("PATH").unwrap_or_default())],
        },
        Services {
            llm: Arc::new(SimulatedBackend),
            interviewer: Arc::new(AutoApprove),
            checkpoints: Arc::new(NoCheckpoints),
            artifacts: Arc::new(CaptureHook::default()),
            blobs: Arc::new(BlobStore::new(blobs)),
        },
    );
    let workflow = dir.join("workflow.dot");
    std::fs::write(&workflow, source).unwrap();
    let prepared = engine
        .prepare(RunRequest {
            workflow_path: workflow,
            source: None,
            goal: None,
            labels: BTreeMap::new(),
            inputs: BTreeMap::new(),
            runs_root: dir.join("runs"),
            run_dir: None,
            work_dir: dir.to_path_buf(),
            dry_run: false,
            parent_run_id: None,
        })
        .unwrap();
    let run_dir = prepared.run_dir().clone();
    let conclusion = prepared.execute().await;
    let events = std::fs::read_to_string(run_dir.progress())
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (conclusion, events)
}

fn warnings(events: &[Envelope]) -> Vec<(Option<&str>, &str)> {
    events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Warning { message } => Some((e.node_id.as_deref(), message.as_str())),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn artifacts_the_run_folder_cannot_take_are_one_warning_naming_node_and_folder() {
    let tmp = tempfile::tempdir().unwrap();
    // The stage leaves two screenshots and puts a file where the artifacts folder goes.
    let source = format!(
        r#"digraph G {{ {HEAD} test [shape=parallelogram, script="mkdir -p test-results && echo a > test-results/a.png && echo b > test-results/b.png && rm -rf $HEDDLE_RUN_DIR/artifacts && echo x > $HEDDLE_RUN_DIR/artifacts"]; start -> test -> exit; }}"#
    );
    let (conclusion, events) = run(tmp.path(), &tmp.path().join("blobs"), &source).await;
    assert_eq!(conclusion.status, RunStatus::Success, "{conclusion:?}");
    assert_eq!(conclusion.artifact_count, 0);
    let warnings = warnings(&events);
    let dest = Path::new("artifacts").join("test").join("retry_0");
    let about_artifacts: Vec<_> = warnings
        .iter()
        .filter(|(_, message)| message.contains("artifact"))
        .collect();
    assert_eq!(about_artifacts.len(), 1, "{warnings:?}");
    let (node, message) = about_artifacts[0];
    assert_eq!(*node, Some("test"));
    assert!(message.contains("node `test`"), "{message}");
    assert!(
        message.contains(&dest.display().to_string()),
        "the artifact folder is not named: {message}"
    );
    assert!(message.contains("directory"), "no cause: {message}");
}

#[tokio::test]
async fn logs_the_blob_store_cannot_take_are_a_warning_naming_the_store() {
    let tmp = tempfile::tempdir().unwrap();
    let blobs = tmp.path().join("blobs");
    std::fs::write(&blobs, b"a file where the blob store goes").unwrap();
    let source = format!(
        r#"digraph G {{ {HEAD} test [shape=parallelogram, script="echo hello"]; start -> test -> exit; }}"#
    );
    let (conclusion, events) = run(tmp.path(), &blobs, &source).await;
    assert_eq!(conclusion.status, RunStatus::Success, "{conclusion:?}");
    let warnings = warnings(&events);
    let (node, message) = warnings
        .iter()
        .find(|(_, message)| message.starts_with("stdout.log could not be stored as a blob"))
        .unwrap_or_else(|| panic!("no warning about stdout.log: {warnings:?}"));
    assert_eq!(*node, Some("test"));
    assert!(
        message.contains(&blobs.display().to_string()),
        "the store is not named: {message}"
    );
}
