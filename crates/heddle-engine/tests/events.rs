#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The event envelope is a contract: its JSON shape, that every event has a name listed in
//! EVENT_NAMES, and that docs/events.md documents each of them.

use heddle_engine::event::EVENT_NAMES;
use heddle_engine::{Envelope, Event, StageStatus};
use serde_json::json;

#[path = "support/event_samples.rs"]
mod event_samples;
use event_samples::samples;

#[test]
fn every_variant_is_listed_with_its_serialized_name() {
    let samples = samples();
    let names: Vec<&str> = samples.iter().map(Event::name).collect();
    assert_eq!(names, EVENT_NAMES);
    for event in samples {
        let value = serde_json::to_value(&event).unwrap();
        assert_eq!(value["event"], event.name());
        // Exhaustive on purpose: a new variant fails to compile here until it is sampled.
        match event {
            Event::RunStarted { .. }
            | Event::RunCompleted { .. }
            | Event::RunFailed { .. }
            | Event::RunCancelled { .. }
            | Event::RunBudgetExceeded { .. }
            | Event::RunRolledBack { .. }
            | Event::RunRecovered { .. }
            | Event::StageStarted { .. }
            | Event::StageCompleted { .. }
            | Event::StageFailed { .. }
            | Event::StageRetrying { .. }
            | Event::EdgeSelected { .. }
            | Event::RunEndedWithoutEdge { .. }
            | Event::GoalGateChecked { .. }
            | Event::CheckpointSaved { .. }
            | Event::ParallelBranchStarted { .. }
            | Event::ParallelBranchCompleted { .. }
            | Event::InterviewStarted { .. }
            | Event::InterviewAnswered { .. }
            | Event::InterviewTimedOut { .. }
            | Event::CommandOutput { .. }
            | Event::AgentText { .. }
            | Event::AgentToolCallStarted { .. }
            | Event::AgentToolCallCompleted { .. }
            | Event::AgentUsage { .. }
            | Event::AgentNote { .. }
            | Event::ArtifactCaptured { .. }
            | Event::LoopRestarted { .. }
            | Event::ManagerCycle { .. }
            | Event::Warning { .. } => {}
        }
    }
}

#[test]
fn the_envelope_has_a_stable_shape_and_round_trips() {
    let envelope = Envelope {
        id: "01M8".into(),
        ts: "2026-11-22T17:40:01.123Z".into(),
        run_id: "01M7".into(),
        seq: 7,
        node_id: Some("test".into()),
        event: Event::StageStarted {
            kind: "command".into(),
            visit: 2,
            attempt: 1,
            branch: None,
            stage_dir: None,
        },
    };
    let value = serde_json::to_value(&envelope).unwrap();
    assert_eq!(
        value,
        json!({"id": "01M8", "ts": "2026-11-22T17:40:01.123Z", "run_id": "01M7", "seq": 7,
               "node_id": "test", "event": "stage.started",
               "properties": {"kind": "command", "visit": 2, "attempt": 1}})
    );
    let back: Envelope = serde_json::from_value(value).unwrap();
    assert_eq!(back, envelope);
}

#[test]
fn stage_events_name_their_folder_and_lines_without_it_still_parse() {
    let event = Event::StageCompleted {
        status: StageStatus::Success,
        duration_ms: 3,
        visit: 1,
        attempts: 1,
        notes: String::new(),
        branch: None,
        stage_dir: Some("nodes/unit-rerun_2".into()),
        usage: None,
        cost_usd: None,
    };
    let value = serde_json::to_value(&event).unwrap();
    assert_eq!(value["properties"]["stage_dir"], "nodes/unit-rerun_2");
    // A line written before stage_dir existed.
    let old: Event = serde_json::from_value(json!({"event": "stage.failed", "properties":
        {"reason": "r", "failure_class": null, "duration_ms": 1, "visit": 2, "attempts": 1}}))
    .unwrap();
    assert!(matches!(
        old,
        Event::StageFailed {
            stage_dir: None,
            visit: 2,
            ..
        }
    ));
}

#[test]
fn docs_events_md_documents_every_event() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/events.md");
    let docs = std::fs::read_to_string(&path).unwrap();
    let documented: Vec<&str> = docs
        .lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|l| l.strip_suffix('`'))
        .collect();
    assert_eq!(
        documented, EVENT_NAMES,
        "docs/events.md must list every event, in order"
    );
}

#[test]
fn subscribers_see_events_in_seq_order_under_concurrent_emitters() {
    use std::sync::Arc;
    use std::time::SystemTime;

    use heddle_engine::{Emitter, FakeClock, SeededEntropy};

    let emitter = Emitter::open(
        "run1",
        None,
        Arc::new(FakeClock::new(SystemTime::UNIX_EPOCH)),
        Arc::new(SeededEntropy::new(1)),
    )
    .unwrap();
    let mut received = emitter.subscribe();
    std::thread::scope(|scope| {
        for t in 0..8 {
            let emitter = emitter.clone();
            scope.spawn(move || {
                for i in 0..200 {
                    emitter.emit(
                        None,
                        Event::Warning {
                            message: format!("{t}/{i}"),
                        },
                    );
                }
            });
        }
    });
    let mut last = 0;
    while let Ok(envelope) = received.try_recv() {
        assert_eq!(envelope.seq, last + 1, "out of order after seq {last}");
        last = envelope.seq;
    }
    assert_eq!(last, 1600);
}

#[test]
fn appending_after_a_line_cut_short_by_a_crash_keeps_new_events_readable() {
    use std::sync::Arc;
    use std::time::SystemTime;

    use heddle_engine::{Emitter, FakeClock, RunDir, SeededEntropy};

    let dir = tempfile::tempdir().unwrap();
    let run = RunDir::at(dir.path());
    std::fs::write(
        run.progress(),
        "{\"seq\":1,\"event\":\"run.started\"}\n{\"seq\":2,\"ev",
    )
    .unwrap();
    let emitter = Emitter::open(
        "run1",
        Some(&run),
        Arc::new(FakeClock::new(SystemTime::UNIX_EPOCH)),
        Arc::new(SeededEntropy::new(1)),
    )
    .unwrap();
    emitter.emit(
        None,
        Event::Warning {
            message: "after the crash".into(),
        },
    );
    let text = std::fs::read_to_string(run.progress()).unwrap();
    let last: Envelope = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(last.seq, 2);
    assert_eq!(text.lines().count(), 3);
}
