//! A run's budget (`max_cost_usd`, `max_tokens`): the run stops at the stage boundary after
//! its spending passes the budget, with a checkpoint pointing at the next node, a
//! `run.budget_exceeded` event and a cancelled conclusion saying why; a resume with a
//! higher budget runs the rest, and no stage twice. The caller's limits win over the graph's.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use heddle_engine::{Budget, Event, RunStatus};
use support::{Harness, finished};

const FLOW: &str = r#"digraph Spend {
    graph [max_cost_usd=0.25]
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    plan   [shape=tab, prompt="Plan"];
    build  [shape=tab, prompt="Build"];
    review [shape=tab, prompt="Review"];
    start -> plan -> build -> review -> exit;
}
"#;

fn priced_harness() -> Harness {
    let mut h = Harness::new();
    // Each LLM stage: 1000 input + 200 output tokens, $0.15.
    h.llm = h.llm.clone().priced(1000, 200, 0.15);
    h
}

#[tokio::test]
async fn the_graph_budget_stops_after_the_stage_that_crossed_it_and_resume_finishes() {
    let h = priced_harness();
    let run = h.run(FLOW).await;
    // plan: $0.15 (under); build: $0.30 (over $0.25): review must not run.
    assert_eq!(
        run.conclusion.status,
        RunStatus::Cancelled,
        "{}",
        run.reason()
    );
    assert!(
        run.reason().starts_with("budget exceeded"),
        "{}",
        run.reason()
    );
    assert!(run.reason().contains("max_cost_usd"), "{}", run.reason());
    assert_eq!(run.stages(), ["start", "plan", "build"]);
    let checkpoint = run.checkpoint();
    assert_eq!(checkpoint.next_node_id.as_deref(), Some("review"));
    let stopped = run
        .events
        .iter()
        .find_map(|e| match &e.event {
            Event::RunBudgetExceeded {
                cost_usd,
                tokens,
                max_cost_usd,
                next_node,
                ..
            } => Some((*cost_usd, *tokens, *max_cost_usd, next_node.clone())),
            _ => None,
        })
        .expect("a run.budget_exceeded event");
    assert!((stopped.0 - 0.30).abs() < 1e-9, "{stopped:?}");
    assert_eq!(
        (stopped.1, stopped.2, stopped.3.as_str()),
        (2400, Some(0.25), "review")
    );
    let started = |node: &str, events: &[heddle_engine::Envelope]| {
        events
            .iter()
            .filter(|e| {
                matches!(e.event, Event::StageStarted { .. }) && e.node_id.as_deref() == Some(node)
            })
            .count()
    };
    assert_eq!(started("review", &run.events), 0);

    // The same budget again stops before anything runs; a higher one finishes.
    let again = h.engine().resume(&run.run_dir).unwrap();
    let conclusion = again.execute().await;
    assert_eq!(conclusion.status, RunStatus::Cancelled);
    let resumed = h
        .engine()
        .resume(&run.run_dir)
        .unwrap()
        .with_budget(Budget {
            max_cost_usd: Some(1.0),
            max_tokens: None,
        });
    assert_eq!(resumed.start_node(), "review");
    let conclusion = resumed.execute().await;
    let done = finished(conclusion, run.run_dir.clone());
    done.assert_success();
    assert_eq!(done.stages(), ["start", "plan", "build", "review", "exit"]);
    for node in ["plan", "build", "review"] {
        assert_eq!(started(node, &done.events), 1, "{node} ran once");
    }
}

#[tokio::test]
async fn the_callers_token_limit_wins_over_the_graph_and_no_limit_runs_to_the_end() {
    let h = priced_harness();
    let prepared = h
        .engine()
        .prepare(h.request(FLOW))
        .unwrap()
        .with_budget(Budget {
            max_cost_usd: Some(10.0),
            max_tokens: Some(1000),
        });
    let run_dir = prepared.run_dir().clone();
    let run = finished(prepared.execute().await, run_dir);
    // plan alone used 1200 tokens, over 1000: build never starts.
    assert_eq!(run.conclusion.status, RunStatus::Cancelled);
    assert!(
        run.reason().contains("max_tokens of 1000"),
        "{}",
        run.reason()
    );
    assert_eq!(run.stages(), ["start", "plan"]);

    let unpriced = Harness::new();
    let free = unpriced.run(FLOW).await;
    free.assert_success();
}
