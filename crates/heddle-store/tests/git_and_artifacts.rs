//! A run in a clean git repository (worktree checkpoints) that captured a JUnit file: its
//! checkpoints across two timelines (after a rollback and a resume) and its artifacts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::sync::Arc;

use heddle_checkpoint::history;
use heddle_checkpoint::{GitState, ModeChoice};
use heddle_engine::interviewer::AutoApprove;
use heddle_store::RunStatus;
use support::{Home, Scripted, dump, git_repo};

const WORKFLOW: &str = r#"digraph Tested {
    start [shape=Mdiamond]; exit [shape=Msquare];
    test [shape=parallelogram,
          script="printf '<testsuite name=\"t\" tests=\"1\"><testcase name=\"ok\"/></testsuite>' > junit.xml"];
    after [shape=parallelogram, script="echo after > after.txt"];
    start -> test -> after -> exit;
}"#;

fn checkpoints_in_git(folder: &std::path::Path) -> Vec<(String, String, u32, Vec<String>, bool)> {
    let run = heddle_engine::RunDir::at(folder);
    let state = GitState::load(&run).unwrap().unwrap();
    let repo = heddle_checkpoint::repo::open(&state).unwrap();
    history::list(&repo, &state)
        .unwrap()
        .into_iter()
        .map(|c| {
            (
                c.sha,
                c.node_id,
                u32::try_from(c.timeline).unwrap(),
                c.branches,
                c.current,
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checkpoints_across_timelines_and_captured_artifacts() {
    let home = Home::new();
    let repo = git_repo(&home.root().join("repo"));
    let engine = home.engine(
        ModeChoice::Worktree,
        Arc::new(Scripted::default()),
        Arc::new(AutoApprove),
    );
    let workflow = home.workflow("tested", WORKFLOW);
    let prepared = engine.prepare(home.request(&workflow, &repo)).unwrap();
    let folder = prepared.run_dir().root().to_path_buf();
    let run_id = prepared.run_id().to_string();
    let conclusion = prepared.execute().await;
    assert_eq!(
        conclusion.status,
        heddle_engine::RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );

    let store = home.store("heddle.db").await;
    store.ingest_run(&folder).await.unwrap();
    let run = store.run(&run_id).await.unwrap();
    assert_eq!(run.checkpoint_mode, "worktree");
    assert_eq!(
        run.run_branch.as_deref(),
        Some(format!("heddle/run/{run_id}").as_str())
    );
    assert!(run.base_sha.is_some() && run.final_sha.is_some());
    assert_eq!(run.artifact_count, 1);

    let artifacts = store.artifacts(&run_id).await.unwrap();
    assert_eq!(artifacts.len(), 1);
    let junit = &artifacts[0];
    assert_eq!(junit.kind, "junit");
    assert_eq!(junit.path, "test/retry_0/junit.xml");
    assert_eq!(
        (junit.stage.as_str(), junit.node_id.as_str(), junit.retry),
        ("test", "test", 0)
    );
    assert_eq!(junit.source, "junit.xml");
    assert_eq!(junit.sha256.len(), 64);
    assert!(junit.size > 0);
    let listed = heddle_artifacts::list_artifacts(&heddle_engine::RunDir::at(&folder));
    assert_eq!(listed[0].sha256, junit.sha256);

    let first = store.checkpoints(&run_id).await.unwrap();
    let nodes: Vec<&str> = first.iter().map(|c| c.node_id.as_str()).collect();
    assert_eq!(nodes, ["start", "test", "after", "exit"]);
    assert!(first.iter().all(|c| c.timeline == 1));
    assert!(first.last().unwrap().current);
    assert_eq!(
        run.final_sha.as_deref(),
        Some(first.last().unwrap().sha.as_str())
    );

    // Roll back to after `test` (no event is written: git.json changes), then resume: the
    // run continues on a second timeline.
    let report = heddle_checkpoint::rollback::rollback(
        &heddle_engine::RunDir::at(&folder),
        "test",
        false,
        "2026-05-01T10:00:00.000Z",
    )
    .unwrap();
    assert_eq!(report.next_node.as_deref(), Some("after"));
    let rolled = store.ingest_run(&folder).await.unwrap();
    assert!(rolled.changed);
    assert_eq!(rolled.status, Some(RunStatus::Interrupted));
    let after_rollback = store.checkpoints(&run_id).await.unwrap();
    assert!(
        after_rollback
            .iter()
            .all(|c| !c.current || c.node_id == "test")
    );

    let resumed = engine
        .resume(&heddle_engine::RunDir::at(&folder))
        .unwrap()
        .execute()
        .await;
    assert_eq!(resumed.status, heddle_engine::RunStatus::Success);
    store.ingest_run(&folder).await.unwrap();

    let all = store.checkpoints(&run_id).await.unwrap();
    let in_git = checkpoints_in_git(&folder);
    let indexed: Vec<(String, String, u32, Vec<String>, bool)> = all
        .iter()
        .map(|c| {
            (
                c.sha.clone(),
                c.node_id.clone(),
                c.timeline,
                c.branches.clone(),
                c.current,
            )
        })
        .collect();
    assert_eq!(indexed, in_git);
    let second: Vec<&str> = all
        .iter()
        .filter(|c| c.timeline == 2)
        .map(|c| c.node_id.as_str())
        .collect();
    assert_eq!(second, ["after", "exit"]);
    // Shared commits list every timeline that holds them.
    let test = all.iter().find(|c| c.node_id == "test").unwrap();
    assert_eq!(test.branches.len(), 2, "{test:?}");
    assert_eq!(store.run(&run_id).await.unwrap().status, RunStatus::Success);

    // The stage `after` ran twice (before and after the rollback), in two folders: both
    // stay in the index, the rerun as the node's next visit.
    let timeline = store.timeline(&run_id).await.unwrap();
    let visits: Vec<(String, u32)> = timeline
        .stages
        .iter()
        .filter(|s| s.node_id == "after")
        .map(|s| (s.stage_dir.clone(), s.visit))
        .collect();
    assert_eq!(
        visits,
        [
            ("nodes/after".to_string(), 1),
            ("nodes/after-rerun_2".to_string(), 2)
        ],
        "{timeline:?}"
    );
    let rerun = timeline
        .stages
        .iter()
        .rfind(|s| s.node_id == "after")
        .unwrap();
    // The rerun's row starts where the last start is.
    let events = store.events(&run_id, 0, 1000).await.unwrap();
    let last_start = events
        .iter()
        .rfind(|e| e.event == "stage.started" && e.node_id.as_deref() == Some("after"))
        .unwrap();
    assert_eq!(rerun.started_at, last_start.ts);
    assert_eq!(last_start.properties["stage_dir"], "nodes/after-rerun_2");

    let rebuilt = home.store("rebuilt.db").await;
    rebuilt.reindex(&home.runs()).await.unwrap();
    assert_eq!(dump(&rebuilt).await, dump(&store).await);
}
