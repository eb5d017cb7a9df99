#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! LLM stages end to end with a scripted in-memory backend: files, context updates, routing
//! directives and their fallbacks, timeouts, cancellation and backend errors.

mod llm_script;

use std::sync::atomic::Ordering;
use std::time::Duration;

use heddle_engine::handlers::llm_stage::run_llm_stage;
use heddle_engine::llm::{LlmError, LlmErrorKind};
use heddle_engine::{FailureClass, StageStatus};
use heddle_workflow::HandlerKind;
use llm_script::{Script, Step, node_events, reply, run, stage};
use serde_json::json;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn writes_files_and_routes_on_the_directive() {
    let dir = tempfile::tempdir().unwrap();
    let text = "Done.\n```json\n{\"outcome\": \"partial_success\", \"preferred_next_label\": \"Ship\", \
                \"suggested_next_ids\": [\"deploy\"], \"context_updates\": {\"k\": \"v\"}}\n```";
    let script = Script::new(vec![reply(text, 10)]);
    let (outcome, kept) = run(&script, stage(dir.path(), HandlerKind::Prompt)).await;
    assert!(kept);
    assert_eq!(script.opened.load(Ordering::SeqCst), 1);
    assert_eq!(script.received(), vec!["Do the thing.".to_string()]);
    let stage_dir = dir.path().join("stages/n");
    assert_eq!(
        std::fs::read_to_string(stage_dir.join("prompt.md")).unwrap(),
        "Do the thing."
    );
    assert_eq!(
        std::fs::read_to_string(stage_dir.join("response.md")).unwrap(),
        text
    );
    assert!(!stage_dir.join("status.json").exists());
    assert_eq!(outcome.status, StageStatus::PartialSuccess);
    assert_eq!(outcome.preferred_label.as_deref(), Some("Ship"));
    assert_eq!(outcome.suggested_next_ids, vec!["deploy"]);
    assert_eq!(outcome.context_updates["k"], json!("v"));
    assert_eq!(outcome.context_updates["response.n"], json!(text));
    assert_eq!(outcome.context_updates["last_response"], json!(text));
    assert_eq!(outcome.model.as_deref(), Some("m1"));
    assert_eq!(outcome.usage.unwrap().input_tokens, 10);
    assert!(!outcome.simulated);
}

#[tokio::test]
async fn no_directive_is_success_and_last_response_is_cut_on_a_char_boundary() {
    let dir = tempfile::tempdir().unwrap();
    let text = "é".repeat(300);
    let (outcome, _) = run(
        &Script::new(vec![reply(&text, 1)]),
        stage(dir.path(), HandlerKind::Prompt),
    )
    .await;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(
        outcome.context_updates["last_response"],
        json!("é".repeat(200))
    );
    assert_eq!(outcome.context_updates["response.n"], json!(text));
}

#[tokio::test]
async fn agents_fall_back_to_status_json_but_prompts_do_not() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("work")).unwrap();
    let status = dir.path().join("work/status.json");
    let written = |text: &str| {
        let Step::Reply(answer) = reply(text, 1) else {
            unreachable!()
        };
        Step::WriteThenReply(
            status.clone(),
            r#"{"outcome": "fail", "failure_reason": "tests red"}"#.into(),
            answer,
        )
    };
    let (outcome, _) = run(
        &Script::new(vec![written("I tried.")]),
        stage(dir.path(), HandlerKind::Agent),
    )
    .await;
    assert_eq!(outcome.status, StageStatus::Fail);
    assert_eq!(outcome.failure_class, Some(FailureClass::Deterministic));
    assert_eq!(outcome.failure_reason.as_deref(), Some("tests red"));
    assert!(outcome.notes.contains("status.json"), "{}", outcome.notes);
    // A status.json the agent did not write during its stage (an older one, or the user's)
    // is ignored and left alone.
    let (outcome, _) = run(
        &Script::new(vec![reply("I tried again.", 1)]),
        stage(dir.path(), HandlerKind::Agent),
    )
    .await;
    assert_eq!(
        outcome.status,
        StageStatus::Success,
        "{:?}",
        outcome.failure_reason
    );
    assert!(status.is_file());
    let (outcome, _) = run(
        &Script::new(vec![written("I tried.")]),
        stage(dir.path(), HandlerKind::Prompt),
    )
    .await;
    assert_eq!(outcome.status, StageStatus::Success);
}

#[tokio::test]
async fn agents_fall_back_to_the_last_json_file_touched() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("work/out")).unwrap();
    std::fs::write(
        dir.path().join("work/out/result.json"),
        r#"{"preferred_next_label": "Review"}"#,
    )
    .unwrap();
    let Step::Reply(mut answer) = reply("Wrote the result.", 1) else {
        unreachable!()
    };
    answer.files_touched = vec!["src/lib.rs".into(), "out/result.json".into()];
    let (outcome, _) = run(
        &Script::new(vec![Step::Reply(answer)]),
        stage(dir.path(), HandlerKind::Agent),
    )
    .await;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(outcome.preferred_label.as_deref(), Some("Review"));
    assert_eq!(outcome.files_touched, vec!["src/lib.rs", "out/result.json"]);
}

#[tokio::test]
async fn an_unknown_outcome_fails_and_lists_the_allowed_ones() {
    let dir = tempfile::tempdir().unwrap();
    let script = Script::new(vec![reply(r#"{"outcome": "great"}"#, 1)]);
    let (outcome, _) = run(&script, stage(dir.path(), HandlerKind::Prompt)).await;
    assert_eq!(outcome.failure_class, Some(FailureClass::Deterministic));
    let reason = outcome.failure_reason.unwrap();
    assert!(
        reason.starts_with("n: ") && reason.contains("`great`"),
        "{reason}"
    );
    assert!(
        reason.contains("partial_success") && reason.contains("succeeded"),
        "{reason}"
    );
}

#[tokio::test(start_paused = true)]
async fn a_hung_model_times_out() {
    let dir = tempfile::tempdir().unwrap();
    let mut hung = stage(dir.path(), HandlerKind::Agent);
    hung.request.timeout = Some(Duration::from_secs(30));
    let (outcome, kept) = run(&Script::new(vec![Step::Hang]), hung).await;
    assert!(!kept);
    assert_eq!(outcome.failure_class, Some(FailureClass::Timeout));
    let reason = outcome.failure_reason.unwrap();
    assert!(
        reason.starts_with("n: ") && reason.contains("30s"),
        "{reason}"
    );
    assert!(dir.path().join("stages/n/prompt.md").exists());
}

#[tokio::test]
async fn cancellation_stops_the_stage() {
    let dir = tempfile::tempdir().unwrap();
    let (_emitter, events) = node_events();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(20)).await;
        trigger.cancel();
    });
    let script = Script::new(vec![Step::Hang]);
    let (outcome, conversation) = run_llm_stage(
        &script,
        stage(dir.path(), HandlerKind::Agent),
        &events,
        &cancel,
    )
    .await;
    assert!(conversation.is_none());
    assert_eq!(outcome.failure_class, Some(FailureClass::Cancelled));
    assert!(outcome.failure_reason.unwrap().starts_with("n: "));
}

#[tokio::test]
async fn backend_errors_map_to_failure_classes() {
    let cases = [
        (LlmErrorKind::Config, FailureClass::Setup),
        (LlmErrorKind::Transient, FailureClass::Transient),
        (LlmErrorKind::Timeout, FailureClass::Timeout),
        (LlmErrorKind::Cancelled, FailureClass::Cancelled),
        (LlmErrorKind::Fatal, FailureClass::Deterministic),
    ];
    for (kind, class) in cases {
        let dir = tempfile::tempdir().unwrap();
        let script = Script::new(vec![Step::Error(LlmError::new(kind, "provider said no"))]);
        let (outcome, kept) = run(&script, stage(dir.path(), HandlerKind::Prompt)).await;
        assert!(kept, "{kind:?}");
        assert_eq!(outcome.failure_class, Some(class), "{kind:?}");
        assert_eq!(
            outcome.failure_reason.as_deref(),
            Some("n: provider said no")
        );
    }
}

#[tokio::test]
async fn a_given_conversation_is_continued() {
    let dir = tempfile::tempdir().unwrap();
    let backend = Script::new(Vec::new());
    let thread = Script::new(vec![reply("ok", 1)]);
    let mut continued = stage(dir.path(), HandlerKind::Prompt);
    continued.conversation = Some(Box::new(thread.clone()));
    let (outcome, kept) = run(&backend, continued).await;
    assert!(kept);
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(backend.opened.load(Ordering::SeqCst), 0);
    assert_eq!(thread.received().len(), 1);
}
