#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `output_schema` in LLM stages: repair turns in the same conversation, final failures, and
//! the simulated backend passing its schema.

mod llm_script;

use std::time::Duration;

use heddle_engine::handlers::llm_stage::run_llm_stage;
use heddle_engine::llm::{
    LlmError, LlmErrorKind, OutputSchema, SchemaOutcome, SimulatedBackend, validate_with_repairs,
};
use heddle_engine::{Event, FailureClass, StageStatus};
use llm_script::{Script, Step, node_events, reply, run, with_schema};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn schema_repair_then_pass() {
    let dir = tempfile::tempdir().unwrap();
    let script = Script::new(vec![
        reply(r#"Here: {"outcome": "great"}"#, 5),
        reply(r#"{"outcome": "fail", "failure_reason": "bad input"}"#, 7),
    ]);
    let (outcome, _) = run(&script, with_schema(dir.path(), 2)).await;
    let received = script.received();
    assert_eq!(received.len(), 2);
    assert!(
        received[1].contains("/outcome: ") && received[1].contains("only the corrected JSON"),
        "{}",
        received[1]
    );
    assert_eq!(outcome.status, StageStatus::Fail);
    assert_eq!(outcome.failure_reason.as_deref(), Some("bad input"));
    assert_eq!(
        outcome.context_updates["output.n"],
        json!({"outcome": "fail", "failure_reason": "bad input"})
    );
    assert_eq!(outcome.usage.unwrap().input_tokens, 12);
    assert_eq!(outcome.notes, "1 repair turn");
    let stage_dir = dir.path().join("stages/n");
    assert!(
        std::fs::read_to_string(stage_dir.join("response.md"))
            .unwrap()
            .contains("great")
    );
    assert!(
        std::fs::read_to_string(stage_dir.join("response.repair_1.md"))
            .unwrap()
            .contains("bad input")
    );
}

#[tokio::test]
async fn schema_fails_after_every_repair() {
    let dir = tempfile::tempdir().unwrap();
    let script = Script::new(vec![
        reply("no json", 1),
        reply("still none", 1),
        reply("{\"outcome\": 3}", 1),
    ]);
    let (outcome, _) = run(&script, with_schema(dir.path(), 2)).await;
    assert_eq!(outcome.failure_class, Some(FailureClass::Schema));
    let reason = outcome.failure_reason.unwrap();
    assert!(
        reason.starts_with("n: ")
            && reason.contains("routing")
            && reason.contains("2 repair turns"),
        "{reason}"
    );
    assert!(reason.contains("/outcome"), "{reason}");
    assert!(
        script.received()[1].contains("no JSON object"),
        "{:?}",
        script.received()
    );
    assert!(dir.path().join("stages/n/response.repair_2.md").exists());
    assert!(!outcome.context_updates.contains_key("output.n"));
    assert!(outcome.context_updates.contains_key("response.n"));
}

#[tokio::test]
async fn validate_with_repairs_reports_turns_and_errors() {
    let schema = OutputSchema::routing();
    let (_emitter, events) = node_events();
    let cancel = CancellationToken::new();
    let mut script = Script::new(Vec::new());
    let mut replies = Vec::new();
    let valid = validate_with_repairs(
        &schema,
        r#"{"outcome": "success"}"#,
        &mut script,
        2,
        &events,
        &cancel,
        &mut replies,
    )
    .await;
    assert_eq!(
        valid,
        Ok(SchemaOutcome::Valid {
            output: json!({"outcome": "success"}),
            repairs: 0
        })
    );
    assert!(script.received().is_empty() && replies.is_empty());

    let mut script = Script::new(vec![reply("{}", 1)]);
    let invalid = validate_with_repairs(
        &schema,
        "{}",
        &mut script,
        1,
        &events,
        &cancel,
        &mut replies,
    )
    .await
    .unwrap();
    let SchemaOutcome::Invalid { errors, repairs: 1 } = invalid else {
        panic!("{invalid:?}")
    };
    assert!(errors[0].starts_with("(root): "), "{errors:?}");
    assert_eq!(replies.len(), 1);

    let mut script = Script::new(vec![
        reply("{}", 1),
        Step::Error(LlmError::new(LlmErrorKind::Transient, "503")),
    ]);
    let mut replies = Vec::new();
    let failed = validate_with_repairs(
        &schema,
        "{}",
        &mut script,
        5,
        &events,
        &cancel,
        &mut replies,
    )
    .await;
    assert_eq!(failed.unwrap_err().kind, LlmErrorKind::Transient);
    assert_eq!(replies.len(), 1, "the reply before the failed turn is kept");
}

#[tokio::test]
async fn simulated_stage_passes_its_schema_and_marks_events() {
    let dir = tempfile::tempdir().unwrap();
    let (emitter, events) = node_events();
    let mut receiver = emitter.subscribe();
    let (outcome, _) = run_llm_stage(
        &SimulatedBackend,
        with_schema(dir.path(), 0),
        &events,
        &CancellationToken::new(),
    )
    .await;
    assert_eq!(outcome.status, StageStatus::Success);
    assert!(outcome.simulated);
    assert_eq!(outcome.notes, "simulated reply");
    assert_eq!(outcome.model.as_deref(), Some("simulated"));
    assert_eq!(
        outcome.context_updates["output.n"],
        json!({"outcome": "success"})
    );
    let first = receiver.try_recv().unwrap();
    assert!(
        matches!(first.event, Event::AgentText { simulated: true, ref text } if text.starts_with("[simulated]"))
    );
    assert!(matches!(
        receiver.try_recv().unwrap().event,
        Event::AgentUsage { .. }
    ));
}

#[tokio::test(start_paused = true)]
async fn a_repair_turn_that_hangs_times_out_and_keeps_the_first_reply() {
    let dir = tempfile::tempdir().unwrap();
    let script = Script::new(vec![reply("no json here", 9), Step::Hang]);
    let mut hung = with_schema(dir.path(), 2);
    hung.request.timeout = Some(Duration::from_secs(90));
    let (outcome, kept) = run(&script, hung).await;
    assert!(!kept);
    assert_eq!(outcome.failure_class, Some(FailureClass::Timeout));
    assert!(outcome.failure_reason.unwrap().contains("1m30s"));
    assert_eq!(outcome.usage.unwrap().input_tokens, 9);
    assert_eq!(outcome.context_updates["response.n"], json!("no json here"));
    assert!(dir.path().join("stages/n/response.md").exists());
    assert_eq!(script.received().len(), 2);
}

/// Only the reply that passed the schema routes the stage: a rejected first reply's
/// directive must not decide the outcome.
#[tokio::test]
async fn a_rejected_reply_does_not_route_the_stage() {
    let dir = tempfile::tempdir().unwrap();
    let mut stage = with_schema(dir.path(), 2);
    let schema = heddle_engine::llm::OutputSchema::from_json(
        json!({"type": "object", "required": ["summary"],
               "properties": {"summary": {"type": "string"}}}),
        "summary.schema.json",
    )
    .unwrap();
    stage.request.output_schema = Some(schema.schema.clone());
    stage.output_schema = Some(schema);
    let script = Script::new(vec![
        reply(
            r#"{"outcome": "fail", "failure_reason": "looked wrong"}"#,
            1,
        ),
        reply(r#"{"summary": "all good"}"#, 1),
    ]);
    let (outcome, _) = run(&script, stage).await;
    assert_eq!(
        outcome.status,
        StageStatus::Success,
        "{:?}",
        outcome.failure_reason
    );
    assert_eq!(
        outcome.context_updates["output.n"],
        json!({"summary": "all good"})
    );
}
