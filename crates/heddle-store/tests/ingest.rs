//! Ingesting progress.jsonl incrementally: a half-written last line waits for the next
//! ingest, a second ingest adds nothing, a corrupt line is named by file and line without
//! losing the events around it, and a folder without a manifest or gone is handled.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::{Event, StageStatus};
use heddle_store::{RunStatus, StageState, StoreError};
use support::{Home, append, conclude, line, manifest, synthetic_run};

const RUN: &str = "01HALFLINE0000000000000000";

fn started(seq: u64, node: &str) -> String {
    line(
        RUN,
        seq,
        Some(node),
        Event::StageStarted {
            kind: "command".into(),
            visit: 1,
            attempt: 1,
            branch: None,
            stage_dir: None,
        },
    )
}

fn completed(seq: u64, node: &str) -> String {
    line(
        RUN,
        seq,
        Some(node),
        Event::StageCompleted {
            status: StageStatus::Success,
            duration_ms: 5,
            visit: 1,
            attempts: 1,
            notes: "exit 0".into(),
            branch: None,
            stage_dir: None,
            usage: None,
            cost_usd: None,
        },
    )
}

fn run_started(seq: u64) -> String {
    line(
        RUN,
        seq,
        None,
        Event::RunStarted {
            workflow: "W".into(),
            goal: None,
            work_dir: "/work".into(),
            run_dir: "/runs/x".into(),
            dry_run: false,
            resumed: false,
            max_cost_usd: None,
            max_tokens: None,
        },
    )
}

#[tokio::test]
async fn a_half_written_line_waits_and_ingest_is_idempotent() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let store = home.store("heddle.db").await;

    let third = started(3, "b");
    let (head, rest) = third.split_at(25);
    append(
        &folder,
        &format!("{}{}{head}", run_started(1), started(2, "a")),
    );
    let first = store.ingest_run(&folder).await.unwrap();
    assert_eq!(first.new_events, 2);
    assert_eq!(first.status, Some(RunStatus::Interrupted));
    assert!(first.changed);
    let run = store.run(RUN).await.unwrap();
    assert_eq!((run.event_count, run.last_seq), (2, 2));
    assert_eq!(run.current_node, None, "not running: no current node");

    // Nothing new: nothing changes.
    let again = store.ingest_run(&folder).await.unwrap();
    assert_eq!((again.new_events, again.changed), (0, false));

    append(&folder, &format!("{rest}{}", completed(4, "a")));
    let next = store.ingest_run(&folder).await.unwrap();
    assert_eq!(next.new_events, 2);
    let events = store.events(RUN, 0, 100).await.unwrap();
    let seqs: Vec<i64> = events.iter().map(|e| e.seq).collect();
    assert_eq!(seqs, [1, 2, 3, 4]);
    assert_eq!(events[2].event, "stage.started");
    assert_eq!(events[2].node_id.as_deref(), Some("b"));
    assert_eq!(events[2].properties["kind"], "command");
    assert_eq!(store.events(RUN, 2, 1).await.unwrap()[0].seq, 3);

    let timeline = store.timeline(RUN).await.unwrap();
    let states: Vec<(&str, StageState)> = timeline
        .stages
        .iter()
        .map(|s| (s.node_id.as_str(), s.status))
        .collect();
    assert_eq!(
        states,
        [("a", StageState::Success), ("b", StageState::Interrupted)]
    );
    assert_eq!(store.ingest_run(&folder).await.unwrap().new_events, 0);
    assert_eq!(store.run(RUN).await.unwrap().event_count, 4);

    // Concluding changes the status without new events.
    conclude(&folder, RUN, "success", "2026-01-01T00:01:00.000Z");
    let concluded = store.ingest_run(&folder).await.unwrap();
    assert!(concluded.changed);
    let run = store.run(RUN).await.unwrap();
    assert_eq!(run.status, RunStatus::Success);
    assert_eq!(run.duration_ms, Some(1234));
    assert_eq!(run.ended_at.as_deref(), Some("2026-01-01T00:01:00.000Z"));
}

#[tokio::test]
async fn a_corrupt_line_is_named_and_loses_nothing_around_it() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let store = home.store("heddle.db").await;
    append(
        &folder,
        &format!(
            "{}{}{{\"id\":\"x\",\"seq\":\n{}",
            run_started(1),
            started(2, "a"),
            completed(3, "a")
        ),
    );
    let error = store.ingest_run(&folder).await.unwrap_err();
    let StoreError::CorruptEvent { file, line, .. } = &error else {
        panic!("{error}");
    };
    assert_eq!(file, &folder.join("progress.jsonl"));
    assert_eq!(*line, 3);
    assert!(error.to_string().contains("progress.jsonl:3:"), "{error}");
    let seqs: Vec<i64> = store
        .events(RUN, 0, 100)
        .await
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, [1, 2, 3]);
    let run = store.run(RUN).await.unwrap();
    assert!(
        run.ingest_error
            .as_deref()
            .unwrap()
            .contains("progress.jsonl:3:"),
        "{:?}",
        run.ingest_error
    );
    // The line was skipped and recorded: the next ingest goes on past it.
    append(&folder, &started(4, "b"));
    let next = store.ingest_run(&folder).await.unwrap();
    assert_eq!(next.new_events, 1);
    assert_eq!(store.run(RUN).await.unwrap().last_seq, 4);
    assert!(store.run(RUN).await.unwrap().ingest_error.is_some());

    // A rebuild meets the same line and the same events.
    let rebuilt = home.store("rebuilt.db").await;
    let report = rebuilt.reindex(&home.runs()).await.unwrap();
    assert_eq!(report.failures.len(), 1);
    assert!(report.failures[0].error.contains(":3:"));
    assert_eq!(support::dump(&rebuilt).await, support::dump(&store).await);
}

#[tokio::test]
async fn folders_without_a_manifest_wait_and_removed_folders_leave_the_index() {
    let home = Home::new();
    let store = home.store("heddle.db").await;
    let empty = home.runs().join("20260101-01EMPTY");
    std::fs::create_dir_all(&empty).unwrap();
    let report = store.ingest_run(&empty).await.unwrap();
    assert_eq!(report.run_id, None);

    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    append(&folder, &run_started(1));
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(store.run(RUN).await.unwrap().event_count, 1);

    // progress.jsonl replaced by a shorter one: read again from the start.
    std::fs::write(folder.join("progress.jsonl"), "").unwrap();
    store.ingest_run(&folder).await.unwrap();
    assert_eq!(store.run(RUN).await.unwrap().event_count, 0);

    let mut changes = store.subscribe();
    std::fs::remove_dir_all(&folder).unwrap();
    store.ingest_run(&folder).await.unwrap();
    assert!(matches!(
        store.run(RUN).await,
        Err(StoreError::RunNotFound { .. })
    ));
    let change = changes.recv().await.unwrap();
    assert_eq!((change.run_id.as_str(), change.status), (RUN, None));
}
