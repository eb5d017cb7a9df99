#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The run's history lives in timeline.jsonl, appended once per stage; checkpoint.json keeps
//! only what resuming needs. Checkpoints written before (history inline, format 1) still
//! load and resume; a torn last line or bytes a crash left past the checkpoint are ignored.

mod support;

use heddle_engine::Checkpoint;
use serde_json::{Value, json};
use support::{Harness, finished};

const CHAIN: &str = r#"digraph G { start [shape=Mdiamond]; exit [shape=Msquare];
    a [shape=diamond]; b [shape=diamond]; c [shape=diamond];
    start -> a -> b -> c -> exit; }"#;

fn head(done: &support::Finished) -> Value {
    serde_json::from_slice(&std::fs::read(done.run_dir.checkpoint()).unwrap()).unwrap()
}

#[tokio::test]
async fn checkpoint_json_holds_no_history_and_timeline_jsonl_holds_it_once() {
    let h = Harness::new();
    let done = h.run(CHAIN).await;
    done.assert_success();
    let head = head(&done);
    for key in ["timeline", "completed_nodes", "logs"] {
        assert!(head.get(key).is_none(), "checkpoint.json has {key}: {head}");
    }
    let history = std::fs::read(done.run_dir.timeline()).unwrap();
    assert_eq!(head["history_bytes"], json!(history.len()));
    assert_eq!(head["stages"], json!(5));
    // One line per stage, each written once.
    assert_eq!(history.iter().filter(|b| **b == b'\n').count(), 5);
    let loaded = done.checkpoint();
    assert_eq!(loaded.completed_nodes, ["start", "a", "b", "c", "exit"]);
    assert_eq!(done.stages(), ["start", "a", "b", "c", "exit"]);
}

#[tokio::test]
async fn a_torn_line_and_bytes_past_the_checkpoint_are_ignored_when_loading_and_resuming() {
    let h = Harness::new();
    let done = h.run(CHAIN).await;
    let run_dir = done.run_dir.clone();
    // What a rollback to the end of `a` leaves, plus what a crash mid-append leaves.
    let mut checkpoint = done.checkpoint();
    checkpoint.timeline.truncate(2);
    checkpoint.completed_nodes.truncate(2);
    checkpoint
        .node_visits
        .retain(|k, _| k == "start" || k == "a");
    checkpoint.current_node = Some("a".into());
    checkpoint.next_node_id = Some("b".into());
    checkpoint.save(&run_dir.checkpoint()).unwrap();
    let mut text = std::fs::read(run_dir.timeline()).unwrap();
    text.extend_from_slice(b"{\"stage\":{\"node_id\":\"b\",\"ki");
    std::fs::write(run_dir.timeline(), &text).unwrap();
    assert_eq!(
        Checkpoint::load(&run_dir.checkpoint())
            .unwrap()
            .timeline
            .len(),
        2
    );
    std::fs::remove_file(run_dir.conclusion()).unwrap();

    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    let done = finished(conclusion, run_dir);
    done.assert_success();
    assert_eq!(done.stages(), ["start", "a", "b", "c", "exit"]);
    let history = std::fs::read_to_string(done.run_dir.timeline()).unwrap();
    // The torn line was cut off before the resumed run appended.
    assert!(
        history
            .lines()
            .all(|l| serde_json::from_str::<Value>(l).is_ok()),
        "{history}"
    );
    assert_eq!(history.lines().count(), 5);
}

/// A run folder written by an older Heddle: checkpoint.json (format 1) holds the timeline,
/// the completed nodes and the logs inline, and there is no timeline.jsonl.
#[tokio::test]
async fn a_format_1_checkpoint_loads_and_resumes_with_its_inline_history() {
    let h = Harness::new();
    let done = h.run(CHAIN).await;
    let run_dir = done.run_dir.clone();
    let full = done.checkpoint();
    let stages: Vec<Value> = full.timeline[..3]
        .iter()
        .map(|r| serde_json::to_value(r).unwrap())
        .collect();
    let mut old = head(&done);
    let object = old.as_object_mut().unwrap();
    object.remove("history_bytes");
    object.remove("stages");
    object.insert("version".into(), json!(1));
    object.insert("current_node".into(), json!("b"));
    object.insert("next_node_id".into(), json!("c"));
    object.insert("completed_nodes".into(), json!(["start", "a", "b"]));
    object.insert("logs".into(), json!(["an old warning"]));
    object.insert("timeline".into(), Value::Array(stages));
    object.insert("node_visits".into(), json!({"start": 1, "a": 1, "b": 1}));
    std::fs::write(run_dir.checkpoint(), serde_json::to_vec(&old).unwrap()).unwrap();
    std::fs::remove_file(run_dir.timeline()).unwrap();
    std::fs::remove_file(run_dir.conclusion()).unwrap();

    let loaded = Checkpoint::load(&run_dir.checkpoint()).unwrap();
    assert_eq!(loaded.completed_nodes, ["start", "a", "b"]);
    assert_eq!(loaded.timeline.len(), 3);
    assert_eq!(loaded.stages, 3);
    assert_eq!(loaded.logs, ["an old warning"]);

    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    let done = finished(conclusion, run_dir);
    done.assert_success();
    let resumed = done.checkpoint();
    assert_eq!(resumed.completed_nodes, ["start", "a", "b", "c", "exit"]);
    assert_eq!(resumed.logs, ["an old warning"]);
    assert_eq!(
        resumed.version,
        heddle_engine::checkpoint::CHECKPOINT_VERSION
    );
    assert!(head(&done).get("timeline").is_none());
}
