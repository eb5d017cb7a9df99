#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Edge selection, failure routing, goal gates and visit limits, run end to end through the
//! engine with a scripted LLM backend.

mod support;

use heddle_engine::{EdgeReason, Event, RunStatus};
use support::Harness;

const HEAD: &str = "start [shape=Mdiamond]; exit [shape=Msquare]; node [shape=tab];";

/// A workflow with `body`, declaring every node an edge names (as prompt nodes).
fn wf(body: &str) -> String {
    let mut declared = String::new();
    let mut seen = std::collections::BTreeSet::new();
    for part in body.split("->") {
        for word in [
            part.split_whitespace().last(),
            part.split_whitespace().next(),
        ]
        .into_iter()
        .flatten()
        {
            let id = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
            if !id.is_empty()
                && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !["start", "exit", "check", "graph", "node", "edge"].contains(&id)
                && seen.insert(id.to_string())
            {
                declared.push_str(&format!("{id} [prompt=\"do {id}\"]; "));
            }
        }
    }
    format!("digraph G {{ {HEAD} {declared} {body} }}")
}

fn reasons_from(finished: &support::Finished, node: &str) -> Vec<(String, EdgeReason)> {
    finished
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::EdgeSelected {
                from, to, reason, ..
            } if from == node => Some((to.clone(), *reason)),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn conditions_win_heaviest_first_then_by_target_id() {
    let h = Harness::new();
    let done = h
        .run(&wf(r#"start -> a;
            a -> d [condition="outcome=success", weight=1];
            a -> c [condition="outcome=success", weight=1];
            a -> b [condition="outcome=success"];
            a -> exit [label="c"];
            b -> exit; c -> exit; d -> exit;"#))
        .await;
    done.assert_success();
    assert_eq!(
        reasons_from(&done, "a"),
        vec![("c".into(), EdgeReason::Condition)]
    );
}

#[tokio::test]
async fn preferred_label_is_normalised_and_beats_suggestions_and_weight() {
    let mut h = Harness::new();
    h.llm = h.llm.reply(
        "a",
        r#"Done. {"preferred_next_label": "[Y] Yes", "suggested_next_ids": ["c"]}"#,
    );
    let done = h
        .run(&wf(
            r#"start -> a; a -> b [label="No", weight=5]; a -> c; a -> d [label="y) YES "];
            b -> exit; c -> exit; d -> exit;"#,
        ))
        .await;
    assert_eq!(
        reasons_from(&done, "a"),
        vec![("d".into(), EdgeReason::Label)]
    );
}

#[tokio::test]
async fn suggested_ids_beat_weight() {
    let mut h = Harness::new();
    h.llm = h.llm.reply("a", r#"{"suggested_next_ids": ["zz", "c"]}"#);
    let done = h
        .run(&wf(
            "start -> a; a -> b [weight=5]; a -> c; b -> exit; c -> exit;",
        ))
        .await;
    assert_eq!(
        reasons_from(&done, "a"),
        vec![("c".into(), EdgeReason::Suggestion)]
    );
}

#[tokio::test]
async fn unconditional_edges_go_by_weight_then_target_id() {
    let h = Harness::new();
    let done = h
        .run(&wf("start -> a; a -> d [weight=1]; a -> c [weight=2]; a -> b [weight=2]; b -> exit; c -> exit; d -> exit;"))
        .await;
    assert_eq!(
        reasons_from(&done, "a"),
        vec![("b".into(), EdgeReason::Weight)]
    );
}

#[tokio::test]
async fn after_a_failure_the_unconditional_edge_is_taken_before_retry_target() {
    let mut h = Harness::new();
    h.llm = h.llm.reply(
        "a",
        r#"{"outcome": "fail", "failure_reason": "tests broke"}"#,
    );
    let done = h
        .run(&wf(
            r#"start -> a; a [retry_target="fix"]; a -> b; b -> exit; fix -> exit;"#,
        ))
        .await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "a", "b", "exit"]);
    assert_eq!(
        reasons_from(&done, "a"),
        vec![("b".into(), EdgeReason::Weight)]
    );
}

#[tokio::test]
async fn after_a_failure_with_no_edge_chosen_retry_target_is_used() {
    let mut h = Harness::new();
    h.llm = h.llm.reply(
        "a",
        r#"{"outcome": "fail", "failure_reason": "tests broke"}"#,
    );
    let done = h
        .run(&wf(
            r#"start -> a; a [retry_target="fix"]; a -> b [condition="outcome=success"]; b -> exit; fix -> exit;"#,
        ))
        .await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "a", "fix", "exit"]);
    assert_eq!(
        reasons_from(&done, "a"),
        vec![("fix".into(), EdgeReason::RetryTarget)]
    );
}

#[tokio::test]
async fn a_success_with_no_edge_ends_the_run_successfully_and_says_so() {
    let h = Harness::new();
    let done = h
        .run(&wf(
            r#"start -> a; a -> b [condition="outcome=fail"]; b -> exit;"#,
        ))
        .await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "a"]);
    let names = done.names();
    let ended = names
        .iter()
        .position(|n| *n == "run.ended_without_edge")
        .expect("a run.ended_without_edge event");
    let completed = names.iter().position(|n| *n == "run.completed").unwrap();
    assert!(ended < completed, "{names:?}");
}

#[tokio::test]
async fn fallback_then_graph_retry_targets_are_tried_in_order() {
    let mut h = Harness::new();
    h.llm = h.llm.reply("a", r#"{"outcome": "fail"}"#);
    let done = h
        .run(&wf(
            r#"graph [retry_target="graphfix"]; start -> a; a [fallback_retry_target="fallback"];
            a -> b [condition="outcome=success"]; b -> exit; fallback -> exit; graphfix -> exit;"#,
        ))
        .await;
    assert_eq!(done.stages(), ["start", "a", "fallback", "exit"]);
    let mut h = Harness::new();
    h.llm = h.llm.reply("a", r#"{"outcome": "fail"}"#);
    let done = h
        .run(&wf(
            r#"graph [retry_target="graphfix"]; start -> a; a -> b [condition="outcome=success"]; b -> exit; graphfix -> exit;"#,
        ))
        .await;
    assert_eq!(done.stages(), ["start", "a", "graphfix", "exit"]);
}

#[tokio::test]
async fn a_failure_with_no_route_fails_the_run_with_the_stage_reason() {
    let mut h = Harness::new();
    h.llm = h.llm.reply(
        "a",
        r#"{"outcome": "fail", "failure_reason": "tests broke"}"#,
    );
    let done = h
        .run(&wf(
            r#"start -> a; a -> b [condition="outcome=success"]; b -> exit;"#,
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    assert!(done.reason().contains("tests broke"), "{}", done.reason());
    // Resuming runs the failed node again.
    assert_eq!(done.checkpoint().next_node_id.as_deref(), Some("a"));
    assert!(done.names().contains(&"run.failed"));
}

#[tokio::test]
async fn a_failure_takes_a_condition_edge_that_holds() {
    let mut h = Harness::new();
    h.llm = h.llm.reply("a", r#"{"outcome": "failed"}"#);
    let done = h
        .run(&wf(
            r#"start -> a; a -> b; a -> c [condition="outcome=fail"]; b -> exit; c -> exit;"#,
        ))
        .await;
    assert_eq!(done.stages(), ["start", "a", "c", "exit"]);
}

#[tokio::test]
async fn a_conditional_routes_on_the_stage_before_it() {
    let mut h = Harness::new();
    h.llm = h.llm.reply("a", r#"{"outcome": "fail"}"#);
    let done = h
        .run(&wf(r#"check [shape=diamond]; start -> a; a -> check [condition="outcome=fail"];
            check -> x [condition="outcome=fail"]; check -> exit [condition="outcome=success"]; x -> exit;"#))
        .await;
    assert_eq!(done.stages(), ["start", "a", "check", "x", "exit"]);
}

#[tokio::test]
async fn an_unmet_goal_gate_jumps_to_its_retry_target_then_passes() {
    let mut h = Harness::new();
    h.llm = h.llm.reply("gate", r#"{"outcome": "fail"}"#);
    let done = h
        .run(&wf(
            r#"start -> gate; gate [goal_gate=true, fallback_retry_target="fix"];
            gate -> exit [condition="outcome=fail"]; gate -> exit; fix -> gate;"#,
        ))
        .await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "gate", "fix", "gate", "exit"]);
    let gates: Vec<(bool, Option<String>)> = done
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::GoalGateChecked {
                satisfied, target, ..
            } => Some((*satisfied, target.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(gates, vec![(false, Some("fix".into())), (true, None)]);
}

#[tokio::test]
async fn an_unmet_goal_gate_without_targets_fails_the_run() {
    let mut h = Harness::new();
    h.llm = h.llm.reply("gate", r#"{"outcome": "fail"}"#);
    let done = h
        .run(&wf(
            r#"start -> gate; gate [goal_gate=true]; gate -> exit [condition="outcome=fail"];"#,
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    assert!(
        done.reason().contains("goal gate `gate`"),
        "{}",
        done.reason()
    );
    assert!(!done.stages().contains(&"exit".to_string()));
}

#[tokio::test]
async fn a_node_entered_more_than_max_visits_fails_the_run() {
    let h = Harness::new();
    let done = h
        .run(&wf(
            r#"start -> a; a [max_visits=3]; a -> a [condition="outcome=success"];"#,
        ))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    assert!(
        done.reason()
            .contains("entered 4 times, over its limit of 3"),
        "{}",
        done.reason()
    );
    assert_eq!(done.checkpoint().node_visits["a"], 4);
    let h = Harness::new();
    let done = h
        .run(&wf(
            r#"graph [max_node_visits=2]; start -> a; a -> a [condition="outcome=success"];"#,
        ))
        .await;
    assert!(
        done.reason().contains("over its limit of 2"),
        "{}",
        done.reason()
    );
}

#[tokio::test]
async fn the_same_failure_three_times_is_a_loop() {
    let mut h = Harness::new();
    for _ in 0..5 {
        h.llm = h.llm.reply(
            "a",
            r#"{"outcome": "fail", "failure_reason": "flaky thing took 12 ms"}"#,
        );
    }
    let done = h
        .run(&wf(r#"start -> a; a -> a [condition="outcome=fail"]; a -> exit [condition="outcome=success"];"#))
        .await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    assert!(
        done.reason()
            .starts_with("loop detected: `a` failed the same way 3 times"),
        "{}",
        done.reason()
    );
    assert_eq!(done.stages(), ["start", "a", "a", "a"]);
    assert_eq!(
        done.checkpoint().loop_failure_signatures.values().max(),
        Some(&3)
    );
}

#[tokio::test]
async fn loop_restart_starts_over_with_a_fresh_context() {
    let mut h = Harness::new();
    h.llm = h
        .llm
        .reply("a", r#"{"context_updates": {"seen": "first pass"}}"#)
        .reply("a", "second pass, nothing to add");
    let done = h
        .run(&wf(r#"start -> a -> b;
            b -> a [loop_restart=true, condition="internal.node_visit_count < 2"];
            b -> exit [condition="internal.node_visit_count >= 2"];"#))
        .await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "a", "b", "a", "b", "exit"]);
    assert!(done.names().contains(&"loop.restarted"));
    let checkpoint = done.checkpoint();
    assert!(
        !checkpoint.context_values.contains_key("seen"),
        "the restart kept old context"
    );
    assert_eq!(checkpoint.restarts, 1);
    assert!(
        checkpoint.context_values.contains_key("graph.retry_target")
            || checkpoint.context_values.contains_key("internal.run_id")
    );
}

/// Never answers: input is closed.
struct NoAnswer;

#[async_trait::async_trait]
impl heddle_engine::interviewer::Interviewer for NoAnswer {
    async fn ask(
        &self,
        _question: &heddle_engine::interviewer::Question,
    ) -> Result<heddle_engine::interviewer::Answer, heddle_engine::interviewer::InterviewError>
    {
        Err(heddle_engine::interviewer::InterviewError::Closed(
            "stdin closed".into(),
        ))
    }
}

#[tokio::test]
async fn an_unanswered_human_gate_does_not_fall_through_its_unconditional_edge() {
    let mut h = Harness::new();
    h.interviewer = std::sync::Arc::new(NoAnswer);
    let gate = r#"digraph G { start [shape=Mdiamond]; exit [shape=Msquare];
        approve [shape=hexagon, label="Release?"]; ship [shape=parallelogram, script="true"];
        start -> approve; approve -> ship; approve -> exit [label="[N] No"]; ship -> exit; }"#;
    let done = h.run(gate).await;
    assert_eq!(done.conclusion.status, RunStatus::Fail);
    assert_eq!(done.stages(), ["start", "approve"]);
    // With a route for the unanswered case, the run takes it.
    let mut h = Harness::new();
    h.interviewer = std::sync::Arc::new(NoAnswer);
    let routed = gate.replace(
        "approve -> ship;",
        r#"approve -> ship; approve -> review [condition="outcome=fail"]; review [shape=parallelogram, script="true"]; review -> exit;"#,
    );
    let done = h.run(&routed).await;
    done.assert_success();
    assert_eq!(done.stages(), ["start", "approve", "review", "exit"]);
}
