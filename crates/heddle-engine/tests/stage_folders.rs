#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Which folder a stage runs in when its visit runs again: a stage that finished (on a
//! timeline a rollback abandoned) keeps its folder and the rerun gets `-rerun_{k}`; a stage
//! the run was cancelled in is resumed in its own folder. Events name the folder.

mod support;

use heddle_engine::{Checkpoint, Event, RunStatus};
use support::{Harness, finished};

const HEAD: &str = "start [shape=Mdiamond]; exit [shape=Msquare];";

/// `stage_dir` of every `stage.started` of `node`.
fn started_in(events: &[heddle_engine::Envelope], node: &str) -> Vec<Option<String>> {
    events
        .iter()
        .filter(|e| e.node_id.as_deref() == Some(node))
        .filter_map(|e| match &e.event {
            Event::StageStarted { stage_dir, .. } => Some(stage_dir.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_visit_run_again_after_its_checkpoint_was_rolled_back_gets_a_rerun_folder() {
    let h = Harness::new();
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} a [shape=parallelogram, script="echo a"];
            b [shape=parallelogram, script="date +%s%N; echo b >> b.txt"];
            start -> a -> b -> exit; }}"#
        ))
        .await;
    done.assert_success();
    let run_dir = done.run_dir.clone();
    let old_status = std::fs::read(run_dir.stage_dir("b", 1).join("status.json")).unwrap();
    let old_stdout = std::fs::read(run_dir.stage_dir("b", 1).join("stdout.log")).unwrap();
    // What a rollback to the end of `a` leaves: checkpoint.json as it was after `a`.
    let mut checkpoint = done.checkpoint();
    let before_b = |node: &String| node == "start" || node == "a";
    checkpoint.node_visits.retain(|k, _| before_b(k));
    checkpoint.node_outcomes.retain(|k, _| before_b(k));
    checkpoint.completed_nodes.truncate(2);
    checkpoint.timeline.truncate(2);
    checkpoint.current_node = Some("a".into());
    checkpoint.next_node_id = Some("b".into());
    checkpoint.save_with(&run_dir.checkpoint(), false).unwrap();
    std::fs::remove_file(run_dir.conclusion()).unwrap();

    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    let done = finished(conclusion, run_dir.clone());
    done.assert_success();
    assert_eq!(
        std::fs::read(run_dir.stage_dir("b", 1).join("status.json")).unwrap(),
        old_status
    );
    assert_eq!(
        std::fs::read(run_dir.stage_dir("b", 1).join("stdout.log")).unwrap(),
        old_stdout
    );
    let rerun = run_dir.root().join("nodes/b-rerun_2");
    assert!(rerun.join("status.json").is_file());
    assert_ne!(std::fs::read(rerun.join("stdout.log")).unwrap(), old_stdout);
    assert_eq!(
        started_in(&done.events, "b"),
        [Some("nodes/b".into()), Some("nodes/b-rerun_2".into())]
    );
    let record = Checkpoint::load(&run_dir.checkpoint()).unwrap().timeline;
    let b = record.iter().find(|r| r.node_id == "b").unwrap();
    assert_eq!((b.visit, b.stage_dir.as_str()), (1, "nodes/b-rerun_2"));
}

#[tokio::test]
async fn a_cancelled_stage_is_resumed_in_its_own_folder() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run_and_cancel_at(
            &format!(
                r#"digraph G {{ {HEAD}
            slow [shape=parallelogram, script="test -f go || sleep 30"];
            start -> slow -> exit; }}"#
            ),
            "slow",
        )
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Cancelled);
    let run_dir = done.run_dir.clone();
    assert!(run_dir.stage_dir("slow", 1).join("status.json").is_file());
    std::fs::write(h.work_dir().join("go"), "").unwrap();
    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    let done = finished(conclusion, run_dir.clone());
    done.assert_success();
    assert!(!run_dir.root().join("nodes/slow-rerun_2").exists());
    assert_eq!(
        started_in(&done.events, "slow"),
        [Some("nodes/slow".into()), Some("nodes/slow".into())]
    );
    let status: serde_json::Value = serde_json::from_slice(
        &std::fs::read(run_dir.stage_dir("slow", 1).join("status.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(status["status"], "success");
}
