#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Retries and backoff, parallel branches and joins, human gates, cancellation, resume, the
//! stall watchdog and manager loops, run end to end through the engine.

mod support;

use std::time::{Duration, Instant};

use heddle_engine::{Event, RunStatus};
use support::{Harness, finished};

const HEAD: &str = "start [shape=Mdiamond]; exit [shape=Msquare];";

#[tokio::test]
async fn retry_outcomes_back_off_exponentially_on_the_injected_clock() {
    let mut h = Harness::new();
    h.llm = h
        .llm
        .reply(
            "a",
            r#"{"outcome": "retry", "failure_reason": "rate limited"}"#,
        )
        .reply(
            "a",
            r#"{"outcome": "retry", "failure_reason": "rate limited"}"#,
        );
    let done = h
        .run(&format!(
            "digraph G {{ {HEAD} a [shape=tab, max_retries=2]; start -> a -> exit; }}"
        ))
        .await;
    done.assert_success();
    let sleeps = h.clock.sleeps();
    assert_eq!(sleeps.len(), 2, "{sleeps:?}");
    // 200 ms then 400 ms, each jittered by a factor in [0.5, 1.5).
    assert!(
        sleeps[0] >= Duration::from_millis(100) && sleeps[0] < Duration::from_millis(300),
        "{sleeps:?}"
    );
    assert!(
        sleeps[1] >= Duration::from_millis(200) && sleeps[1] < Duration::from_millis(600),
        "{sleeps:?}"
    );
    let retrying: Vec<u64> = done
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::StageRetrying { delay_ms, .. } => Some(*delay_ms),
            _ => None,
        })
        .collect();
    assert_eq!(retrying.len(), 2);
    let checkpoint = done.checkpoint();
    assert_eq!(checkpoint.node_retries["a"], 2);
    assert_eq!(checkpoint.timeline[1].attempts, 3);
}

#[tokio::test]
async fn retry_policy_presets_set_attempts_and_delays() {
    let mut h = Harness::new();
    for _ in 0..5 {
        h.llm = h.llm.reply("a", r#"{"outcome": "retry"}"#);
    }
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} a [shape=tab, retry_policy="linear"]; start -> a -> exit; a -> exit [condition="outcome=fail"]; }}"#
        ))
        .await;
    let sleeps = h.clock.sleeps();
    assert_eq!(sleeps.len(), 2, "linear allows 3 attempts: {sleeps:?}");
    for sleep in &sleeps {
        assert!(
            *sleep >= Duration::from_millis(250) && *sleep < Duration::from_millis(750),
            "{sleeps:?}"
        );
    }
    assert!(
        done.checkpoint().timeline[1]
            .failure_reason
            .clone()
            .unwrap()
            .contains("still asking to retry after 3 of 3")
    );
}

#[tokio::test]
async fn exhausted_retries_fail_unless_partial_success_is_allowed() {
    let mut h = Harness::new();
    h.llm = h
        .llm
        .reply("a", r#"{"outcome": "retry"}"#)
        .reply("a", r#"{"outcome": "retry"}"#);
    let done = h
        .run(&format!(
            "digraph G {{ {HEAD} a [shape=tab, max_retries=1, allow_partial=true]; start -> a -> exit; }}"
        ))
        .await;
    done.assert_success();
    assert_eq!(
        done.checkpoint().node_outcomes["a"].status,
        heddle_engine::StageStatus::PartialSuccess
    );
    let mut h = Harness::new();
    h.llm = h
        .llm
        .reply("a", r#"{"outcome": "retry"}"#)
        .reply("a", r#"{"outcome": "retry"}"#);
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} a [shape=tab, max_retries=1]; start -> a; a -> exit [condition="outcome=success"]; }}"#
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    assert!(
        done.reason().contains("still asking to retry after 2 of 2"),
        "{}",
        done.reason()
    );
}

fn parallel(policy: &str, x: &str, y: &str) -> String {
    format!(
        r#"digraph G {{ {HEAD}
        fork [shape=component, join_policy="{policy}", max_parallel=1];
        join [shape=tripleoctagon];
        x [{x}]; y [{y}];
        after [shape=tab, prompt="after"];
        start -> fork; fork -> x; fork -> y; x -> join; y -> join; join -> after -> exit; }}"#
    )
}

#[tokio::test]
async fn branches_get_isolated_copies_of_the_context_and_wait_all_joins_them() {
    let mut h = Harness::new();
    h.llm = h
        .llm
        .reply(
            "x",
            r#"x done {"context_updates": {"from_x": "leak?", "score": 0.2}}"#,
        )
        .reply("y", r#"y done {"context_updates": {"score": 0.9}}"#);
    let done = h
        .run(&parallel(
            "wait_all",
            "shape=tab, prompt=\"x\"",
            "shape=tab, prompt=\"y\"",
        ))
        .await;
    done.assert_success();
    // y ran after x (max_parallel=1) and still did not see x's update.
    let y_prompt = h.llm.prompts_for("y").join("\n");
    assert!(!y_prompt.contains("from_x"), "{y_prompt}");
    let context = done.checkpoint().context_values;
    assert!(
        !context.contains_key("from_x"),
        "branch update leaked into the run context"
    );
    assert!(
        context["response.x"]
            .as_str()
            .unwrap()
            .starts_with("x done")
    );
    assert!(
        context["response.y"]
            .as_str()
            .unwrap()
            .starts_with("y done")
    );
    assert_eq!(context["parallel.results"].as_array().unwrap().len(), 2);
    // Both succeeded; y scored higher.
    assert_eq!(context["parallel.fan_in.best_id"], "y");
    assert_eq!(context["parallel.fan_in.best_outcome"], "success");
    let names = done.names();
    assert_eq!(
        names
            .iter()
            .filter(|n| **n == "parallel.branch.started")
            .count(),
        2
    );
    assert_eq!(
        names
            .iter()
            .filter(|n| **n == "parallel.branch.completed")
            .count(),
        2
    );
    let stages = done.stages();
    assert_eq!(stages.first().map(String::as_str), Some("start"));
    assert!(
        stages.ends_with(&["fork".into(), "join".into(), "after".into(), "exit".into()]),
        "{stages:?}"
    );
}

#[tokio::test]
async fn fan_in_ranks_status_before_score() {
    let mut h = Harness::new();
    h.llm = h
        .llm
        .reply(
            "x",
            r#"{"outcome": "success", "context_updates": {"score": 0.1}}"#,
        )
        .reply(
            "y",
            r#"{"outcome": "fail", "context_updates": {"score": 0.9}}"#,
        );
    let done = h
        .run(&parallel(
            "wait_all",
            "shape=tab, prompt=\"x\"",
            "shape=tab, prompt=\"y\"",
        ))
        .await;
    let context = done.checkpoint().context_values;
    assert_eq!(context["parallel.fan_in.best_id"], "x");
    assert_eq!(
        done.checkpoint().node_outcomes["fork"].status,
        heddle_engine::StageStatus::PartialSuccess
    );
}

#[tokio::test]
async fn first_success_stops_the_other_branches() {
    let mut h = Harness::new();
    h.real_clock = true;
    let started = Instant::now();
    let done = h
        .run(&parallel(
            "first_success",
            "shape=tab, prompt=\"quick\"",
            "shape=parallelogram, script=\"sleep 30\"",
        ))
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the slow branch was not stopped"
    );
    done.assert_success();
    let context = done.checkpoint().context_values;
    assert_eq!(context["parallel.fan_in.best_id"], "x");
    let results = context["parallel.results"].as_array().unwrap().clone();
    let y = results.iter().find(|r| r["branch"] == "y").unwrap();
    assert_eq!(y["status"], "skipped", "{results:?}");
}

#[tokio::test]
async fn a_human_gate_routes_on_the_chosen_edge() {
    let h = Harness::new();
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} review [shape=hexagon, label="Ship it?"];
            ship [shape=tab]; rework [shape=tab];
            start -> review; review -> rework [label="[R] Rework"]; review -> ship [label="[A] Approve"];
            ship -> exit; rework -> exit; }}"#
        ))
        .await;
    assert_eq!(done.stages(), ["start", "review", "ship", "exit"]);
    let context = done.checkpoint().context_values;
    assert_eq!(context["human.gate.selected"], "A");
    assert_eq!(context["human.gate.label"], "[A] Approve");
    assert!(done.names().contains(&"interview.answered"));
    assert!(
        done.run_dir
            .stage_dir("review", 1)
            .join("interview.json")
            .is_file()
    );
}

#[tokio::test]
async fn cancelling_stops_the_stage_and_checkpoints_it_for_resume() {
    let mut h = Harness::new();
    h.real_clock = true;
    let done = h
        .run_and_cancel_at(
            &format!(
                r#"digraph G {{ {HEAD} a [shape=parallelogram, script="echo a >> count.txt"];
            slow [shape=parallelogram, script="test -f go || sleep 30"];
            start -> a -> slow -> exit; }}"#
            ),
            "slow",
        )
        .await;
    let conclusion = done.conclusion.clone();
    let run_dir = done.run_dir.clone();
    assert_eq!(conclusion.status, RunStatus::Cancelled);
    assert_eq!(conclusion.failure_reason.as_deref(), Some("test says stop"));
    let checkpoint = done.checkpoint();
    assert_eq!(checkpoint.next_node_id.as_deref(), Some("slow"));
    assert!(!checkpoint.node_visits.contains_key("slow") || checkpoint.node_visits["slow"] == 0);
    assert!(done.names().contains(&"run.cancelled"));
    // Resume runs the interrupted stage again and nothing before it.
    std::fs::write(h.work_dir().join("go"), "").unwrap();
    let resumed = h.engine().resume(&run_dir).unwrap();
    assert_eq!(resumed.start_node(), "slow");
    let conclusion = resumed.execute().await;
    assert_eq!(
        conclusion.status,
        RunStatus::Success,
        "{:?}",
        conclusion.failure_reason
    );
    assert_eq!(
        std::fs::read_to_string(h.work_dir().join("count.txt")).unwrap(),
        "a\n"
    );
    let done = finished(conclusion, run_dir);
    let seqs: Vec<u64> = done.events.iter().map(|e| e.seq).collect();
    assert_eq!(
        seqs,
        (1..=seqs.len() as u64).collect::<Vec<_>>(),
        "seq has gaps across the resume"
    );
    assert!(
        done.events
            .iter()
            .any(|e| matches!(e.event, Event::RunStarted { resumed: true, .. }))
    );
}

#[tokio::test]
async fn a_completed_run_cannot_resume_and_a_corrupt_checkpoint_is_reported() {
    let h = Harness::new();
    let done = h
        .run(&format!("digraph G {{ {HEAD} start -> exit; }}"))
        .await;
    let error = h.engine().resume(&done.run_dir).unwrap_err().to_string();
    assert!(error.contains("already completed"), "{error}");
    std::fs::remove_file(done.run_dir.conclusion()).unwrap();
    std::fs::write(done.run_dir.checkpoint(), "{\n  \"run_id\": tru").unwrap();
    let error = h.engine().resume(&done.run_dir).unwrap_err().to_string();
    assert!(error.contains("checkpoint.json:2:"), "{error}");
    assert!(error.contains("corrupt"), "{error}");
    assert_eq!(
        std::fs::read_to_string(done.run_dir.checkpoint()).unwrap(),
        "{\n  \"run_id\": tru"
    );
}

#[tokio::test]
async fn a_stalled_stage_fails_the_run() {
    let mut h = Harness::new();
    h.real_clock = true;
    let started = Instant::now();
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} graph [stall_timeout="1s"]; quiet [shape=parallelogram, script="sleep 30"]; start -> quiet -> exit; }}"#
        ))
        .await;
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    assert!(
        done.reason().starts_with("stalled: no progress for 1s"),
        "{}",
        done.reason()
    );
    assert_eq!(done.checkpoint().next_node_id.as_deref(), Some("quiet"));
}

#[tokio::test]
async fn a_manager_loop_supervises_a_child_run() {
    let mut h = Harness::new();
    h.real_clock = true;
    std::fs::write(
        h.work_dir().join("child.dot"),
        r#"digraph Child { start [shape=Mdiamond]; exit [shape=Msquare];
           work [shape=parallelogram, script="echo child >> child.txt"]; start -> work -> exit; }"#,
    )
    .unwrap();
    // The stop condition never holds here (it is read from the child's context, where
    // `outcome` is its last stage's until it ends), so the child runs to its end: with
    // `outcome=success` a poll landing after the child's `start` stopped it before `work`.
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} boss [shape=house, "stack.child_workflow"="child.dot",
               "manager.poll_interval"="50ms", "manager.max_cycles"=100, "manager.stop_condition"="outcome=fail"];
               start -> boss -> exit; }}"#
        ))
        .await;
    done.assert_success();
    assert_eq!(
        std::fs::read_to_string(h.work_dir().join("child.txt")).unwrap(),
        "child\n"
    );
    let child = heddle_engine::RunDir::at(done.run_dir.stage_dir("boss", 1).join("child"));
    assert_eq!(child.read_conclusion().unwrap().status, RunStatus::Success);
    assert_eq!(
        child.read_manifest().unwrap().parent_run_id.as_deref(),
        Some(done.conclusion.run_id.as_str())
    );
    assert!(done.names().contains(&"manager.cycle"));
}

/// Reports one JUnit file for every command stage: what heddle-artifacts does for real.
struct OneReport;

impl heddle_engine::hooks::ArtifactHook for OneReport {
    fn before_stage(&self, work_dir: &std::path::Path) -> Box<dyn std::any::Any + Send> {
        Box::new(work_dir.to_path_buf())
    }

    fn after_stage(
        &self,
        stage: &heddle_engine::hooks::ArtifactStage<'_>,
        before: Box<dyn std::any::Any + Send>,
    ) -> Result<heddle_engine::hooks::CapturedArtifacts, heddle_engine::hooks::ArtifactError> {
        assert!(before.downcast_ref::<std::path::PathBuf>().is_some());
        let path = stage
            .dest
            .strip_prefix(stage.run_dir)
            .unwrap()
            .join("junit.xml");
        Ok(heddle_engine::hooks::CapturedArtifacts {
            artifacts: vec![heddle_engine::hooks::CapturedArtifact {
                path: path.to_string_lossy().into_owned(),
                kind: "junit".into(),
                media_type: "application/xml".into(),
                size: 120,
            }],
            skipped: vec!["big.webm: over the 10 MB limit".into()],
            junit_summary: Some("2 passed, 1 failed: a::b — boom".into()),
        })
    }
}

#[tokio::test]
async fn command_stages_report_captured_artifacts_and_their_junit_summary() {
    let mut h = Harness::new();
    h.artifacts = std::sync::Arc::new(OneReport);
    let done = h
        .run(&format!(
            r#"digraph G {{ {HEAD} test [shape=parallelogram, script="true"]; start -> test -> exit; }}"#
        ))
        .await;
    done.assert_success();
    assert_eq!(done.conclusion.artifact_count, 1);
    let captured: Vec<String> = done
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::ArtifactCaptured { path, .. } => Some(path.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(captured, ["artifacts/test/retry_0/junit.xml"]);
    assert!(done.events.iter().any(|e| matches!(&e.event,
        Event::Warning { message } if message.contains("big.webm"))));
    let stage = &done.checkpoint().timeline[1];
    assert_eq!(
        stage.junit.as_deref(),
        Some("2 passed, 1 failed: a::b — boom")
    );
    assert!(
        stage.notes.contains("tests: 2 passed, 1 failed"),
        "{}",
        stage.notes
    );
}
