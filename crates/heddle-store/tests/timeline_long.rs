//! The timeline of a long test → fix loop: every visit once, in the order it started, each
//! with its own status, times, notes and folder (the stage rows are read as one value; a
//! row out of place or a column shifted would show here).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::{Event, StageStatus};
use heddle_store::StageState;
use support::{Home, append, conclude, line, manifest, synthetic_run};

const RUN: &str = "01LONGLOOP0000000000000000";
/// test, fix, test, fix, …: visits of two nodes, the last test passing.
const STAGES: u32 = 1_201;

fn node_of(stage: u32) -> &'static str {
    if stage.is_multiple_of(2) {
        "test"
    } else {
        "fix"
    }
}

/// Two events a stage: started, then completed (fix) or failed (every test but the last).
fn events() -> String {
    let mut text = String::new();
    for stage in 0..STAGES {
        let node = node_of(stage);
        let visit = stage / 2 + 1;
        let seq = u64::from(stage) * 2 + 1;
        let started = Event::StageStarted {
            kind: "command".into(),
            visit,
            attempt: 1,
            branch: None,
            stage_dir: Some(format!("nodes/{node}-{visit}")),
        };
        text.push_str(&line(RUN, seq, Some(node), started));
        let ended = if node == "test" && stage + 1 < STAGES {
            Event::StageFailed {
                reason: format!("test visit {visit} failed"),
                failure_class: None,
                duration_ms: 1,
                visit,
                attempts: 1,
                branch: None,
                stage_dir: Some(format!("nodes/{node}-{visit}")),
                usage: None,
                cost_usd: None,
            }
        } else {
            Event::StageCompleted {
                status: StageStatus::Success,
                duration_ms: 1,
                visit,
                attempts: 1,
                notes: format!("{node} {visit}"),
                branch: None,
                stage_dir: Some(format!("nodes/{node}-{visit}")),
                usage: None,
                cost_usd: None,
            }
        };
        text.push_str(&line(RUN, seq + 1, Some(node), ended));
    }
    text
}

#[tokio::test]
async fn a_long_loop_lists_every_visit_once_in_start_order() {
    let home = Home::new();
    let folder = synthetic_run(
        &home.runs(),
        &manifest(RUN, "Loop", "2026-01-01T00:00:00.000Z", &[]),
    );
    append(&folder, &events());
    conclude(&folder, RUN, "success", "2026-01-01T00:01:00.000Z");
    let store = home.store("heddle.db").await;
    store.ingest_run(&folder).await.unwrap();

    let timeline = store.timeline(RUN).await.unwrap();
    assert_eq!(timeline.stages.len(), STAGES as usize);
    assert!(timeline.lanes.is_empty());
    for (i, stage) in timeline.stages.iter().enumerate() {
        let i = u32::try_from(i).unwrap();
        let node = node_of(i);
        let visit = i / 2 + 1;
        assert_eq!(
            (stage.node_id.as_str(), stage.visit),
            (node, visit),
            "stage {i}"
        );
        assert_eq!(stage.kind, "command");
        assert_eq!(stage.branch, None);
        assert_eq!(stage.attempts, 1);
        assert_eq!(stage.retries, 0);
        assert_eq!(stage.stage_dir, format!("nodes/{node}-{visit}"));
        assert_eq!(stage.duration_ms, Some(1));
        assert!(stage.ended_at.is_some(), "stage {i} ended");
        assert!(stage.waits.is_empty());
        if node == "test" && i + 1 < STAGES {
            assert_eq!(stage.status, StageState::Fail, "stage {i}");
            let reason = format!("test visit {visit} failed");
            assert_eq!(stage.failure_reason.as_deref(), Some(reason.as_str()));
            assert_eq!(stage.notes, None);
        } else {
            assert_eq!(stage.status, StageState::Success, "stage {i}");
            assert_eq!(stage.failure_reason, None);
            assert_eq!(stage.notes, Some(format!("{node} {visit}")));
        }
    }
    let starts: Vec<&str> = timeline
        .stages
        .iter()
        .map(|s| s.started_at.as_str())
        .collect();
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    assert_eq!(starts, sorted, "stages are in the order they started");
}
