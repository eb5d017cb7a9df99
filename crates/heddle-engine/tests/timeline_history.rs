#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The run's history lives in timeline.jsonl, appended once per stage; checkpoint.json keeps
//! only what resuming needs. Checkpoints written before (history inline, format 1) still
//! load and resume; a torn last line or bytes a crash left past the checkpoint are ignored.

mod support;

use std::collections::BTreeMap;

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
    assert_eq!(stage_lines(&history), 5);
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
    assert_eq!(stage_lines(history.as_bytes()), 5);
    // The resumed run's changes add up with what the file held before it.
    let loaded = done.checkpoint();
    let once: BTreeMap<String, u32> = ["start", "a", "b", "c", "exit"]
        .iter()
        .map(|n| (n.to_string(), 1))
        .collect();
    assert_eq!(loaded.node_visits, once);
    assert_eq!(loaded.context_values["last_stage"], json!("exit"));
}

fn stage_lines(history: &[u8]) -> usize {
    String::from_utf8_lossy(history)
        .lines()
        .filter(|l| l.starts_with("{\"stage\":"))
        .count()
}

/// A chain of `n` conditional nodes between start and exit.
fn chain(n: usize) -> String {
    let mut dot = String::from("digraph G { start [shape=Mdiamond]; exit [shape=Msquare];\n");
    for i in 0..n {
        dot.push_str(&format!("n{i} [shape=diamond];\n"));
    }
    dot.push_str("start -> n0;\n");
    for i in 1..n {
        dot.push_str(&format!("n{} -> n{i};\n", i - 1));
    }
    dot.push_str(&format!("n{} -> exit; }}", n - 1));
    dot
}

#[tokio::test]
async fn checkpoint_json_stays_the_same_size_however_many_nodes_the_run_ran() {
    let (h_short, h_long) = (Harness::new(), Harness::new());
    let short = h_short.run(&chain(3)).await;
    short.assert_success();
    let long = h_long.run(&chain(120)).await;
    long.assert_success();
    let size =
        |done: &support::Finished| std::fs::metadata(done.run_dir.checkpoint()).unwrap().len();
    // Only the numbers (stages, history bytes) may take a few more digits.
    assert!(
        size(&long) <= size(&short) + 8,
        "checkpoint.json grew from {} to {} bytes",
        size(&short),
        size(&long)
    );
    // The state is all there once loaded.
    let loaded = long.checkpoint();
    assert_eq!(loaded.node_visits.len(), 122);
    assert_eq!(loaded.node_outcomes.len(), 122);
    assert_eq!(loaded.context_values["internal.retry_count.n119"], json!(0));
    assert_eq!(loaded.context_values["last_stage"], json!("exit"));
    // The first checkpoint wrote the whole state; every later one only what changed.
    let history = std::fs::read_to_string(long.run_dir.timeline()).unwrap();
    let whole = history
        .lines()
        .filter(|l| l.contains("\"whole\":true"))
        .count();
    assert_eq!(whole, 1, "{history}");
}

#[tokio::test]
async fn removed_context_keys_stay_removed_once_the_state_is_added_up() {
    let mut h = Harness::new();
    h.llm = h
        .llm
        .clone()
        .reply(
            "ask",
            "{\"preferred_next_label\": \"Go\", \"context_updates\": {\"k\": \"v\"}}",
        )
        .reply("again", "fine");
    let done = h
        .run(
            r#"digraph G { start [shape=Mdiamond]; exit [shape=Msquare];
               ask [shape=box, prompt="Ask"]; again [shape=box, prompt="Again"];
               start -> ask -> again -> exit; }"#,
        )
        .await;
    done.assert_success();
    let history = std::fs::read_to_string(done.run_dir.timeline()).unwrap();
    assert!(history.contains("\"preferred_label\""), "{history}");
    let context = done.checkpoint().context_values;
    assert_eq!(context["k"], json!("v"));
    assert!(!context.contains_key("preferred_label"), "{context:?}");
}

/// A run folder written by format 2: checkpoint.json holds the keyed state (visits,
/// outcomes, context) and timeline.jsonl only the history.
#[tokio::test]
async fn a_format_2_checkpoint_loads_and_resumes_with_its_keyed_state() {
    let h = Harness::new();
    let done = h.run(CHAIN).await;
    let run_dir = done.run_dir.clone();
    let mut old = done.checkpoint();
    old.version = 2;
    old.timeline.truncate(3);
    old.completed_nodes.truncate(3);
    old.node_visits
        .retain(|k, _| ["start", "a", "b"].contains(&k.as_str()));
    old.node_outcomes
        .retain(|k, _| ["start", "a", "b"].contains(&k.as_str()));
    old.context_values
        .insert("from_format_2".into(), json!(true));
    old.current_node = Some("b".into());
    old.next_node_id = Some("c".into());
    let history = heddle_engine::timeline_file::History::to_text(&old.timeline, &[], None).unwrap();
    old.history_bytes = Some(history.len() as u64);
    std::fs::write(run_dir.timeline(), &history).unwrap();
    std::fs::write(
        run_dir.checkpoint(),
        old.head_bytes(&run_dir.checkpoint()).unwrap(),
    )
    .unwrap();
    std::fs::remove_file(run_dir.conclusion()).unwrap();

    let loaded = Checkpoint::load(&run_dir.checkpoint()).unwrap();
    assert_eq!(loaded.node_visits.len(), 3);
    assert_eq!(loaded.context_values["from_format_2"], json!(true));

    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    let done = finished(conclusion, run_dir);
    done.assert_success();
    let resumed = done.checkpoint();
    assert_eq!(
        resumed.version,
        heddle_engine::checkpoint::CHECKPOINT_VERSION
    );
    assert_eq!(resumed.node_visits.len(), 5);
    assert_eq!(resumed.context_values["from_format_2"], json!(true));
    assert!(head(&done).get("context_values").is_none());
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

#[tokio::test]
async fn head_lines_carry_the_checkpoint_between_rewrites_and_a_stop_writes_the_file() {
    // 100 conditional nodes, then a command that waits for a file: while the run waits
    // there, 101 stages in, checkpoint.json was last rewritten at stage 65 and the head
    // lines after it hold the rest; cancelled, the run brings the file up to date.
    let h = Harness::new();
    let mut dot = chain(100).replace("n99 -> exit; }", "n99 -> slow -> exit; }");
    dot = dot.replace(
        "start [shape=Mdiamond];",
        r#"start [shape=Mdiamond]; slow [shape=parallelogram, script="test -f go || sleep 30"];"#,
    );
    let every = heddle_engine::timeline_file::HEAD_EVERY;
    let mut while_waiting = None;
    let done = h
        .run_and_cancel_at_after(&dot, "slow", |run_dir| {
            let path = run_dir.checkpoint();
            let text = std::fs::read(&path).unwrap();
            let on_disk = Checkpoint::parse_head(&path, &text).unwrap();
            while_waiting = Some((on_disk.stages, Checkpoint::load(&path).unwrap().stages));
        })
        .await;
    assert_eq!(while_waiting, Some((every + 1, 101)), "(on disk, loaded)");
    assert_eq!(done.conclusion.status, heddle_engine::RunStatus::Cancelled);
    let on_disk = head(&done);
    assert_eq!(on_disk["stages"], json!(101), "{on_disk}");
    let loaded = done.checkpoint();
    assert_eq!(loaded.timeline.len(), 101);
    assert_eq!(loaded.current_node.as_deref(), Some("n99"));
    assert_eq!(loaded.next_node_id.as_deref(), Some("slow"));
    assert_eq!(
        loaded.node_visits.len(),
        102,
        "start, n0..n99 and the cancelled slow"
    );
    let history = std::fs::read(done.run_dir.timeline()).unwrap();
    assert_eq!(loaded.history_bytes, Some(history.len() as u64));

    // Resumed, it goes on from `slow`: no stage runs twice.
    std::fs::write(h.work_dir().join("go"), "").unwrap();
    let run_dir = done.run_dir.clone();
    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    let done = finished(conclusion, run_dir);
    done.assert_success();
    let mut expected = vec!["start".to_string()];
    expected.extend((0..100).map(|i| format!("n{i}")));
    expected.extend(["slow".to_string(), "exit".to_string()]);
    assert_eq!(done.stages(), expected);
    // The end rewrites checkpoint.json: it covers the whole history again.
    let history = std::fs::read(done.run_dir.timeline()).unwrap();
    assert_eq!(head(&done)["history_bytes"], json!(history.len()));
}
