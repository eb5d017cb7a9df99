#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Cases found in review: cancelling inside parallel branches, resuming a node that hit its
//! visit limit, nested parallel nodes, the stall watchdog and human gates, and runs that end
//! with nothing left to resume.

mod support;

use std::sync::Arc;

use heddle_engine::RunStatus;
use heddle_engine::hooks::BlobSinkError;
use heddle_engine::interviewer::QueueInterviewer;
use support::{Harness, finished};

const HEAD: &str = "start [shape=Mdiamond]; exit [shape=Msquare];";

#[tokio::test]
async fn a_cancelled_parallel_node_runs_its_unfinished_branches_on_resume() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run_and_cancel_at(&format!(
            r#"digraph G {{ {HEAD}
            fork [shape=component, max_parallel=1]; join [shape=tripleoctagon];
            quick [shape=parallelogram, script="echo quick >> count.txt"];
            slow [shape=parallelogram, script="test -f go || sleep 30; echo slow >> count.txt"];
            start -> fork; fork -> quick; fork -> slow; quick -> join; slow -> join; join -> exit; }}"#
        ), "slow")
        .await;
    let conclusion = done.conclusion.clone();
    let run_dir = done.run_dir.clone();
    assert_eq!(conclusion.status, RunStatus::Cancelled);
    assert_eq!(done.checkpoint().next_node_id.as_deref(), Some("fork"));
    std::fs::write(h.work_dir().join("go"), "").unwrap();
    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    assert_eq!(
        conclusion.status,
        RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );
    let count = std::fs::read_to_string(h.work_dir().join("count.txt")).unwrap();
    // The branch that had ended is not run again; the interrupted one continues.
    assert_eq!(count.matches("quick").count(), 1, "{count}");
    assert_eq!(count.matches("slow").count(), 1, "{count}");
    let checkpoint = finished(conclusion, run_dir).checkpoint();
    assert!(
        checkpoint.branches.is_empty(),
        "branch progress outlived the parallel node"
    );
    assert!(
        count.contains("slow"),
        "the interrupted branch never finished: {count}"
    );
}

#[tokio::test]
async fn a_node_that_failed_at_its_visit_limit_can_be_resumed_after_a_fix() {
    let h = Harness::new();
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} work [shape=parallelogram, max_visits=1, script="test -f fixed"];
            start -> work; work -> exit [condition="outcome=success"]; }}"#
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    std::fs::write(h.work_dir().join("fixed"), "").unwrap();
    let conclusion = h.engine().resume(&done.run_dir).unwrap().execute().await;
    assert_eq!(
        conclusion.status,
        RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );
    // The failed visit's folder is kept; the retry got its own.
    assert!(
        done.run_dir
            .stage_dir("work", 1)
            .join("stderr.log")
            .is_file()
    );
    assert!(
        done.run_dir
            .stage_dir("work", 2)
            .join("status.json")
            .is_file()
    );
}

#[tokio::test]
async fn a_nested_parallel_node_runs_its_own_fan_in_inside_the_outer_branch() {
    let h = Harness::new();
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} node [shape=tab];
            p1 [shape=component]; p2 [shape=component];
            f1 [shape=tripleoctagon]; f2 [shape=tripleoctagon];
            x; y; z; w;
            start -> p1; p1 -> x; p1 -> p2; p2 -> y; p2 -> z; y -> f2; z -> f2; f2 -> w; w -> f1; x -> f1;
            f1 -> exit; }}"#
        ))
        .await;
    done.assert_success();
    let stages = done.stages();
    for node in ["x", "p2", "y", "z", "f2", "w", "f1"] {
        assert!(
            stages.iter().any(|s| s == node),
            "{node} did not run: {stages:?}"
        );
    }
}

#[tokio::test]
async fn waiting_for_a_person_is_not_a_stall() {
    let mut h = Harness::new();
    h.real_clock = true;
    h.interviewer = Arc::new(QueueInterviewer::new());
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} graph [stall_timeout="1s"];
            ask [shape=hexagon, timeout="2500ms", "human.default_choice"="go"];
            start -> ask; ask -> exit [label="go"]; }}"#
        ))
        .await;
    done.assert_success();
    assert!(done.names().contains(&"interview.timed_out"));
}

#[tokio::test]
async fn a_run_that_ended_after_a_success_with_no_edge_has_nothing_to_resume() {
    let h = Harness::new();
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} a [shape=tab]; b [shape=tab];
            start -> a; a -> b [condition="outcome=fail"]; b -> exit; a -> exit [condition="outcome=fail"]; }}"#
        ))
        .await;
    // The loop breaks there (Attractor spec, Fabro): the run succeeded, and says where it ended.
    assert_eq!(done.conclusion.status, RunStatus::Success);
    assert!(done.names().contains(&"run.ended_without_edge"));
    assert_eq!(done.checkpoint().next_node_id, None);
    assert!(h.engine().resume(&done.run_dir).is_err());
    // `a` ran once and is not queued to run again.
    assert_eq!(done.stages(), ["start", "a"]);
}

#[tokio::test]
async fn a_crash_after_the_exit_checkpoint_is_recorded_as_the_success_it_was() {
    let h = Harness::new();
    let done = h
        .run(&format!("digraph G {{ {HEAD} start -> exit; }}"))
        .await;
    std::fs::remove_file(done.run_dir.conclusion()).unwrap();
    let error = h.engine().resume(&done.run_dir).unwrap_err().to_string();
    assert!(error.contains("already reached its exit"), "{error}");
    assert_eq!(
        done.run_dir.read_conclusion().unwrap().status,
        RunStatus::Success
    );
}

#[tokio::test]
async fn a_run_being_executed_is_locked_against_a_second_resume() {
    let h = Harness::new();
    let prepared = h
        .engine()
        .prepare(h.request(&format!("digraph G {{ {HEAD} start -> exit; }}")))
        .unwrap();
    let run_dir = prepared.run_dir().clone();
    assert_eq!(run_dir.status(), RunStatus::Running);
    let error = h.engine().resume(&run_dir).unwrap_err().to_string();
    assert!(error.contains("another process is running it"), "{error}");
    // Given up before executing: the lock and the run.pid it created go away.
    drop(prepared);
    assert_eq!(run_dir.status(), RunStatus::Interrupted);
    // A process that dies leaves its run.pid behind, unlocked: interrupted too.
    std::fs::write(run_dir.pid(), "4194304\n").unwrap();
    assert_eq!(run_dir.status(), RunStatus::Interrupted);
    let conclusion = h.engine().resume(&run_dir).unwrap().execute().await;
    assert_eq!(conclusion.status, RunStatus::Success);
    assert!(!run_dir.pid().exists());
}

/// Keeps blobs in memory, named like the real store names them.
#[derive(Default)]
struct MemoryBlobs(std::sync::Mutex<Vec<Vec<u8>>>);

impl heddle_engine::hooks::BlobSink for MemoryBlobs {
    fn put(&self, bytes: &[u8]) -> Result<String, BlobSinkError> {
        let mut stored = self.0.lock().unwrap();
        stored.push(bytes.to_vec());
        Ok(format!("blob://sha256/{:064x}", stored.len()))
    }

    fn copy_to(&self, blob: &str, dest: &std::path::Path) -> Result<u64, BlobSinkError> {
        let index =
            usize::from_str_radix(blob.trim_start_matches("blob://sha256/"), 16).map_err(|e| {
                BlobSinkError::BadRef {
                    blob: blob.to_string(),
                    cause: e.to_string(),
                }
            })?;
        let stored = self.0.lock().unwrap();
        let bytes = stored.get(index - 1).ok_or(BlobSinkError::NotFound {
            blob: blob.to_string(),
            path: dest.to_path_buf(),
        })?;
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::write(dest, bytes).unwrap();
        Ok(bytes.len() as u64)
    }
}

#[tokio::test]
async fn a_later_prompt_reads_a_large_value_from_a_run_local_file() {
    let mut h = Harness::new();
    h.blobs = Arc::new(MemoryBlobs::default());
    let big = "y".repeat(120 * 1024);
    let reply = format!(r#"{{"context_updates": {{"findings": "{big}"}}}}"#);
    h.llm = h.llm.reply("survey", &reply);
    let done = h
        .run(&format!(
            "digraph G {{ {HEAD} survey [shape=tab]; report [shape=tab]; start -> survey -> report -> exit; }}"
        ))
        .await;
    done.assert_success();
    let prompt = h.llm.prompts_for("report").join("\n");
    assert!(
        !prompt.contains(&big[..1000]),
        "the large value was inlined in the prompt"
    );
    let file = done.run_dir.root().join("blobs");
    assert!(prompt.contains(&file.display().to_string()), "{prompt}");
    let written: Vec<_> = std::fs::read_dir(&file).unwrap().collect();
    assert_eq!(written.len(), 1);
    let content = std::fs::read(written[0].as_ref().unwrap().path()).unwrap();
    assert_eq!(serde_json::from_slice::<String>(&content).unwrap(), big);
}

#[tokio::test]
async fn large_context_values_are_stored_as_blobs_and_the_checkpoint_keeps_refs() {
    let blobs = Arc::new(MemoryBlobs::default());
    let mut h = Harness::new();
    h.blobs = blobs.clone();
    let big = "x".repeat(150 * 1024);
    h.llm = h.llm.reply("plan", &big);
    let done = h
        .run(&format!(
            "digraph G {{ {HEAD} plan [shape=tab]; start -> plan -> exit; }}"
        ))
        .await;
    done.assert_success();
    let context = done.checkpoint().context_values;
    let stored = context["response.plan"].as_str().unwrap();
    assert!(stored.starts_with("blob://sha256/"), "{stored}");
    // The small copy stays inline; the blob holds the value as JSON.
    assert_eq!(context["last_response"].as_str().unwrap().len(), 200);
    let kept = blobs.0.lock().unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(serde_json::from_slice::<String>(&kept[0]).unwrap(), big);
    let checkpoint = std::fs::read_to_string(done.run_dir.checkpoint()).unwrap();
    assert!(
        checkpoint.len() < 50 * 1024,
        "the value went into the checkpoint"
    );
}
