//! `dump_run` answers a folder it must not write into with the code that says why: a folder
//! already holding files is `already_exists`, a file is `wrong_kind`, a write the disk
//! refuses is `io` — never `invalid_request` — and the message names the path.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use heddle_api::runs::HeddleHome;
use heddle_api::{ErrorCode, RunLibrary};
use heddle_engine::hooks::{NoArtifacts, NoBlobs, NoCheckpoints};
use heddle_engine::interviewer::AutoApprove;
use heddle_engine::llm::SimulatedBackend;
use heddle_engine::{
    Engine, EngineEnv, RunRequest, RunStatus, SeededEntropy, Services, SystemClock,
};

/// Runs a one-command workflow into `home`'s runs folder; its id.
async fn finished_run(home: &Path) -> String {
    let engine = Engine::new(
        EngineEnv {
            clock: Arc::new(SystemClock::new()),
            entropy: Arc::new(SeededEntropy::new(5)),
            env: vec![("PATH".into(), std::env::var("PATH").unwrap_or_default())],
        },
        Services {
            llm: Arc::new(SimulatedBackend),
            interviewer: Arc::new(AutoApprove),
            checkpoints: Arc::new(NoCheckpoints),
            artifacts: Arc::new(NoArtifacts),
            blobs: Arc::new(NoBlobs),
        },
    );
    let work = home.join("work");
    std::fs::create_dir_all(&work).unwrap();
    let workflow = work.join("workflow.dot");
    std::fs::write(
        &workflow,
        "digraph G { start [shape=Mdiamond]; exit [shape=Msquare]; \
         test [shape=parallelogram, script=\"echo hi\"]; start -> test -> exit; }",
    )
    .unwrap();
    let prepared = engine
        .prepare(RunRequest {
            workflow_path: workflow,
            source: None,
            goal: None,
            labels: BTreeMap::new(),
            inputs: BTreeMap::new(),
            runs_root: home.join("runs"),
            run_dir: None,
            work_dir: work,
            dry_run: false,
            parent_run_id: None,
        })
        .unwrap();
    let conclusion = prepared.execute().await;
    assert_eq!(conclusion.status, RunStatus::Success, "{conclusion:?}");
    conclusion.run_id
}

#[tokio::test]
async fn a_dump_into_a_used_folder_or_a_file_answers_with_the_code_that_says_why() {
    let tmp = tempfile::tempdir().unwrap();
    let run = finished_run(tmp.path()).await;
    let library = RunLibrary::open(HeddleHome::at(tmp.path())).await.unwrap();

    let used = tmp.path().join("used");
    std::fs::create_dir_all(&used).unwrap();
    std::fs::write(used.join("notes.txt"), "mine").unwrap();
    let error = library.dump_run(&run, &used).unwrap_err();
    assert_eq!(error.code, ErrorCode::AlreadyExists, "{}", error.message);
    assert!(
        error.message.contains(&used.display().to_string()),
        "{}",
        error.message
    );
    assert_eq!(
        std::fs::read_to_string(used.join("notes.txt")).unwrap(),
        "mine"
    );

    let file = tmp.path().join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let error = library.dump_run(&run, &file).unwrap_err();
    assert_eq!(error.code, ErrorCode::WrongKind, "{}", error.message);
    assert!(
        error.message.contains(&file.display().to_string()),
        "{}",
        error.message
    );

    let below_a_file = file.join("dump");
    let error = library.dump_run(&run, &below_a_file).unwrap_err();
    assert_eq!(error.code, ErrorCode::Io, "{}", error.message);
    assert!(
        error.message.contains(&below_a_file.display().to_string()),
        "{}",
        error.message
    );

    let fresh = tmp.path().join("fresh");
    let report = library.dump_run(&run, &fresh).unwrap();
    assert_eq!(report.stages, 3, "start, test and exit");
}
