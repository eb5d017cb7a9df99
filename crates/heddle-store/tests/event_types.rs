//! The index reads progress.jsonl as the engine's own event types: every event the engine
//! can write is indexed as written, a line from an older run still reads and derives its
//! stage, and a line that is not one of those events is skipped and named, never fatal.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

#[path = "../../heddle-engine/tests/support/event_samples.rs"]
mod event_samples;
mod support;

use heddle_engine::event::EVENT_NAMES;
use heddle_engine::{Event, StageStatus};
use heddle_store::{StageState, StoreError};
use support::{Home, append, line, manifest, synthetic_run};

const RUN: &str = "01EVENTTYPES00000000000000";

#[tokio::test]
async fn every_engine_event_is_indexed_as_written() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let samples = event_samples::samples();
    let text: String = samples
        .iter()
        .enumerate()
        .map(|(i, event)| line(RUN, i as u64 + 1, Some("a"), event.clone()))
        .collect();
    append(&folder, &text);
    let store = home.store("heddle.db").await;
    let report = store.ingest_run(&folder).await.unwrap();
    assert_eq!(report.new_events, samples.len() as i64);

    let events = store.events(RUN, 0, 1000).await.unwrap();
    let names: Vec<&str> = events.iter().map(|e| e.event.as_str()).collect();
    assert_eq!(names, EVENT_NAMES);
    for (stored, sample) in events.iter().zip(&samples) {
        let written = serde_json::to_value(sample).unwrap();
        assert_eq!(stored.properties, written["properties"], "{}", stored.event);
    }
    assert_eq!(store.run(RUN).await.unwrap().ingest_error, None);
}

#[tokio::test]
async fn a_line_from_an_older_run_still_reads() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    // As runs wrote them before stage events named their folder (no `stage_dir`, no
    // `branch`, no empty `notes`): kept as text so a change of the format breaks this test.
    append(
        &folder,
        concat!(
            r#"{"id":"01A","ts":"2026-01-01T00:00:01.000Z","run_id":"01EVENTTYPES00000000000000","seq":1,"node_id":"build","event":"stage.started","properties":{"kind":"command","visit":1,"attempt":1}}"#,
            "\n",
            r#"{"id":"01B","ts":"2026-01-01T00:00:03.500Z","run_id":"01EVENTTYPES00000000000000","seq":2,"node_id":"build","event":"stage.failed","properties":{"reason":"exit 2","failure_class":"deterministic","duration_ms":2500,"visit":1,"attempts":1}}"#,
            "\n",
        ),
    );
    let store = home.store("heddle.db").await;
    store.ingest_run(&folder).await.unwrap();
    let timeline = store.timeline(RUN).await.unwrap();
    let [stage] = timeline.stages.as_slice() else {
        panic!("{:?}", timeline.stages);
    };
    assert_eq!(stage.node_id, "build");
    assert_eq!(stage.status, StageState::Fail);
    assert_eq!(stage.duration_ms, Some(2500));
    assert_eq!(stage.failure_reason.as_deref(), Some("exit 2"));
    assert_eq!(stage.failure_class.as_deref(), Some("deterministic"));
    assert_eq!(stage.stage_dir, "nodes/build");
}

#[tokio::test]
async fn an_event_this_version_does_not_know_is_skipped_and_named() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "W", "2026-01-01T00:00:00.000Z", &[]),
    );
    let stage = |seq| {
        line(
            RUN,
            seq,
            Some("a"),
            Event::StageCompleted {
                status: StageStatus::Success,
                duration_ms: 5,
                visit: 1,
                attempts: 1,
                notes: String::new(),
                branch: None,
                stage_dir: None,
                usage: None,
                cost_usd: None,
            },
        )
    };
    let unknown = r#"{"id":"01X","ts":"2026-01-01T00:00:02.000Z","run_id":"01EVENTTYPES00000000000000","seq":2,"node_id":"a","event":"stage.paused","properties":{"why":"later"}}"#;
    append(&folder, &format!("{}{unknown}\n{}", stage(1), stage(3)));
    let store = home.store("heddle.db").await;
    let error = store.ingest_run(&folder).await.unwrap_err();
    let StoreError::CorruptEvent { line, .. } = &error else {
        panic!("{error}");
    };
    assert_eq!(*line, 2);
    assert!(error.to_string().contains("stage.paused"), "{error}");
    let seqs: Vec<i64> = store
        .events(RUN, 0, 100)
        .await
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, [1, 3]);
}
