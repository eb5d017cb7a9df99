//! The watcher: 20 runs started at once all complete and are all indexed correctly, runs
//! that appear or disappear are picked up, and dropping the handle stops it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::time::Duration;

use heddle_store::{PageRequest, RunFilter, RunStatus, Store};
use support::{Home, conclude, dump, eventually, manifest, run, synthetic_run};

const WORKFLOW: &str = r#"digraph Many {
    start [shape=Mdiamond]; exit [shape=Msquare];
    one [shape=parallelogram, script="echo one; sleep 0.05"];
    two [shape=parallelogram, script="for i in 1 2 3; do echo two $i; sleep 0.02; done"];
    start -> one -> two -> exit;
}"#;

async fn all_runs(store: &Store) -> heddle_store::RunPage {
    store
        .list_runs(
            &RunFilter::default(),
            &PageRequest {
                limit: 100,
                after: None,
            },
        )
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_runs_at_once_are_all_indexed_by_the_watcher() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    let watcher = store.watch(&home.runs()).unwrap();
    let mut changes = watcher.subscribe();
    let engine = home.plain_engine();
    let workflow = home.workflow("many", WORKFLOW);
    let work = home.work();
    let mut tasks = Vec::new();
    for n in 0..20 {
        let engine = engine.clone();
        let mut request = home.request(&workflow, &work);
        request.labels.insert("n".into(), n.to_string());
        tasks.push(tokio::spawn(async move { run(&engine, request).await }));
    }
    let mut ids = Vec::new();
    for task in tasks {
        let (dir, conclusion) = task.await.unwrap();
        assert_eq!(conclusion.status, heddle_engine::RunStatus::Success);
        ids.push((conclusion.run_id, dir));
    }
    eventually(20, "20 successful runs in the index", || async {
        let page = all_runs(&store).await;
        page.total == 20
            && page.items.iter().all(|r| {
                r.status == RunStatus::Success && r.event_count > 0 && r.ended_at.is_some()
            })
    })
    .await;
    // Give the last debounce window time to pass, then compare with a rebuild.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for (id, dir) in &ids {
        let run = store.run(id).await.unwrap();
        let lines = std::fs::read_to_string(dir.progress())
            .unwrap()
            .lines()
            .count();
        assert_eq!(run.event_count, i64::try_from(lines).unwrap(), "{id}");
        assert_eq!(run.last_seq, run.event_count);
        assert_eq!(run.stage_count, 4);
        let nodes: Vec<String> = store
            .timeline(id)
            .await
            .unwrap()
            .stages
            .into_iter()
            .map(|s| s.node_id)
            .collect();
        assert_eq!(nodes, ["start", "one", "two", "exit"]);
    }
    let rebuilt = home.store("rebuilt.db").await;
    rebuilt.reindex(&home.runs()).await.unwrap();
    assert_eq!(dump(&store).await, dump(&rebuilt).await);

    // Every run was announced, ending with its success.
    let mut finished = std::collections::BTreeSet::new();
    while let Ok(change) = changes.try_recv() {
        if change.status == Some(RunStatus::Success) {
            finished.insert(change.run_id);
        }
    }
    assert_eq!(finished.len(), 20);
    watcher.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_watcher_sees_folders_come_and_go_and_stops_when_dropped() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    // A run that was there before the watcher started is indexed by its first scan.
    let before = "01BEFORE000000000000000000";
    synthetic_run(
        &home.runs(),
        &manifest(before, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let watcher = store.watch(&home.runs()).unwrap();
    eventually(10, "the first scan", || async {
        store.run(before).await.is_ok()
    })
    .await;

    let id = "01LATER0000000000000000000";
    let folder = synthetic_run(
        &home.runs(),
        &manifest(id, "W", "2026-01-02T00:00:00.000Z", &[]),
    );
    eventually(10, "a new folder", || async {
        store
            .run(id)
            .await
            .is_ok_and(|r| r.status == RunStatus::Interrupted)
    })
    .await;
    conclude(&folder, id, "fail", "2026-01-02T00:01:00.000Z");
    eventually(10, "the conclusion", || async {
        store
            .run(id)
            .await
            .is_ok_and(|r| r.status == RunStatus::Fail)
    })
    .await;
    std::fs::remove_dir_all(&folder).unwrap();
    eventually(10, "the removal", || async { store.run(id).await.is_err() }).await;

    drop(watcher);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let unseen = "01UNSEEN000000000000000000";
    synthetic_run(
        &home.runs(),
        &manifest(unseen, "W", "2026-01-03T00:00:00.000Z", &[]),
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(store.run(unseen).await.is_err(), "the watcher kept going");
}
