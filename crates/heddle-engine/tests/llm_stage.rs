#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! LLM stages end to end with scripted in-memory backends, and repair turns.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use heddle_engine::handlers::llm_stage::{LlmStage, run_llm_stage};
use heddle_engine::llm::{
    LlmBackend, LlmConversation, LlmError, LlmErrorKind, LlmEventSink, LlmReply, LlmRequest,
    OutputSchema, SchemaOutcome, SimulatedBackend, validate_with_repairs,
};
use heddle_engine::{
    Emitter, Event, FailureClass, FakeClock, NodeEvents, Outcome, SeededEntropy, StageStatus, Usage,
};
use heddle_workflow::HandlerKind;
use serde_json::json;
use tokio_util::sync::CancellationToken;

/// One scripted turn.
enum Step {
    Reply(LlmReply),
    Error(LlmError),
    Hang,
}

/// Replies from a queue and records every message it received.
#[derive(Clone, Default)]
struct Script {
    steps: Arc<Mutex<VecDeque<Step>>>,
    received: Arc<Mutex<Vec<String>>>,
    opened: Arc<AtomicUsize>,
}

impl Script {
    fn new(steps: Vec<Step>) -> Self {
        Script {
            steps: Arc::new(Mutex::new(steps.into())),
            ..Script::default()
        }
    }

    fn received(&self) -> Vec<String> {
        self.received.lock().unwrap().clone()
    }
}

fn reply(text: &str, tokens: u64) -> Step {
    Step::Reply(LlmReply {
        text: text.into(),
        model: "m1".into(),
        usage: Usage {
            input_tokens: tokens,
            output_tokens: 1,
            ..Usage::default()
        },
        ..LlmReply::default()
    })
}

#[async_trait]
impl LlmConversation for Script {
    async fn send(
        &mut self,
        message: &str,
        _events: &dyn LlmEventSink,
        _cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError> {
        self.received.lock().unwrap().push(message.to_string());
        let step = self.steps.lock().unwrap().pop_front();
        match step {
            Some(Step::Reply(reply)) => Ok(reply),
            Some(Step::Error(error)) => Err(error),
            Some(Step::Hang) => std::future::pending().await,
            None => panic!("script ran out of replies"),
        }
    }
}

#[async_trait]
impl LlmBackend for Script {
    async fn open(&self, _request: &LlmRequest) -> Result<Box<dyn LlmConversation>, LlmError> {
        self.opened.fetch_add(1, Ordering::SeqCst);
        Ok(Box::new(self.clone()))
    }
}

fn node_events() -> (Emitter, NodeEvents) {
    let emitter = Emitter::open(
        "run1",
        None,
        Arc::new(FakeClock::new(SystemTime::UNIX_EPOCH)),
        Arc::new(SeededEntropy::new(1)),
    )
    .unwrap();
    let events = emitter.for_node("n");
    (emitter, events)
}

fn stage(dir: &Path, kind: HandlerKind) -> LlmStage {
    LlmStage {
        request: LlmRequest {
            run_id: "run1".into(),
            node_id: "n".into(),
            kind,
            model: None,
            provider: None,
            reasoning_effort: None,
            backend: None,
            work_dir: dir.join("work"),
            timeout: None,
            output_schema: None,
            thread_id: None,
        },
        prompt: "Do the thing.".into(),
        stage_dir: dir.join("stages/n"),
        output_schema: None,
        output_retries: 2,
        conversation: None,
    }
}

async fn run(backend: &dyn LlmBackend, stage: LlmStage) -> (Outcome, bool) {
    let (_emitter, events) = node_events();
    let (outcome, conversation) =
        run_llm_stage(backend, stage, &events, &CancellationToken::new()).await;
    (outcome, conversation.is_some())
}

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
    std::fs::write(
        dir.path().join("work/status.json"),
        r#"{"outcome": "fail", "failure_reason": "tests red"}"#,
    )
    .unwrap();
    let (outcome, _) = run(
        &Script::new(vec![reply("I tried.", 1)]),
        stage(dir.path(), HandlerKind::Agent),
    )
    .await;
    assert_eq!(outcome.status, StageStatus::Fail);
    assert_eq!(outcome.failure_class, Some(FailureClass::Deterministic));
    assert_eq!(outcome.failure_reason.as_deref(), Some("tests red"));
    assert!(outcome.notes.contains("status.json"), "{}", outcome.notes);
    let (outcome, _) = run(
        &Script::new(vec![reply("I tried.", 1)]),
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

fn with_schema(dir: &Path, retries: u32) -> LlmStage {
    let mut schema_stage = stage(dir, HandlerKind::Prompt);
    let schema = OutputSchema::routing();
    schema_stage.request.output_schema = Some(schema.schema.clone());
    schema_stage.output_schema = Some(schema);
    schema_stage.output_retries = retries;
    schema_stage
}

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
