#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The agent loop over a scripted provider: tool rounds, bad tool arguments, loop detection,
//! turn limits, compaction and usage. (The wire formats and real tools have their own tests;
//! these pin down what the loop does with what they return.)

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use heddle_engine::Usage;
use heddle_engine::llm::{LlmConversation, LlmError, LlmErrorKind, LlmEvent, LlmEventSink};
use heddle_llm::agent::{AgentSession, AgentSettings, ToolOutcome, ToolRunner};
use heddle_llm::chat::{
    Block, ChatRequest, ChatResponse, Message, Role, StopReason, ToolArguments, ToolCall, ToolSpec,
};
use heddle_llm::provider::{ChatObserver, ChatProvider};
use serde_json::{Value as Json, json};
use tokio_util::sync::CancellationToken;

/// Replies from a script and keeps every request.
#[derive(Default)]
struct Scripted {
    replies: Mutex<VecDeque<Result<ChatResponse, LlmError>>>,
    requests: Mutex<Vec<ChatRequest>>,
}

impl Scripted {
    fn new(replies: Vec<ChatResponse>) -> Arc<Self> {
        Arc::new(Scripted {
            replies: Mutex::new(replies.into_iter().map(Ok).collect()),
            requests: Mutex::default(),
        })
    }
    fn requests(&self) -> Vec<ChatRequest> {
        self.requests.lock().unwrap().clone()
    }
}

#[async_trait]
impl ChatProvider for Scripted {
    fn name(&self) -> &str {
        "scripted"
    }
    async fn complete(
        &self,
        request: &ChatRequest,
        observer: &dyn ChatObserver,
        _cancel: &CancellationToken,
    ) -> Result<ChatResponse, LlmError> {
        self.requests.lock().unwrap().push(request.clone());
        if request.tools.is_empty() && request.system.contains("condense") {
            return Ok(text("SUMMARY OF EARLY WORK"));
        }
        let reply = self
            .replies
            .lock()
            .unwrap()
            .pop_front()
            .unwrap_or_else(|| Err(LlmError::new(LlmErrorKind::Fatal, "script ran out")))?;
        observer.text_delta(&reply.message.text());
        Ok(reply)
    }
}

fn text(reply: &str) -> ChatResponse {
    ChatResponse {
        model: "scripted-1".into(),
        message: Message {
            role: Role::Assistant,
            content: vec![Block::Text { text: reply.into() }],
        },
        usage: Usage {
            input_tokens: 10,
            output_tokens: 2,
            ..Usage::default()
        },
        stop: StopReason::EndTurn,
    }
}

fn calls(calls: &[(&str, &str, &str)]) -> ChatResponse {
    ChatResponse {
        model: "scripted-1".into(),
        message: Message {
            role: Role::Assistant,
            content: calls
                .iter()
                .map(|(id, name, args)| {
                    Block::ToolCall(ToolCall {
                        id: (*id).into(),
                        name: (*name).into(),
                        arguments: ToolArguments::from_raw(args),
                    })
                })
                .collect(),
        },
        usage: Usage {
            input_tokens: 10,
            output_tokens: 2,
            ..Usage::default()
        },
        stop: StopReason::ToolUse,
    }
}

/// Records calls; `write` touches its path.
#[derive(Default)]
struct Recorder {
    calls: Mutex<Vec<(String, Json)>>,
}

#[async_trait]
impl ToolRunner for Recorder {
    fn specs(&self) -> Vec<ToolSpec> {
        vec![ToolSpec {
            name: "write".into(),
            description: "writes".into(),
            parameters: json!({"type": "object"}),
        }]
    }
    async fn run(&self, name: &str, arguments: &Json, _cancel: &CancellationToken) -> ToolOutcome {
        self.calls
            .lock()
            .unwrap()
            .push((name.to_owned(), arguments.clone()));
        ToolOutcome {
            output: format!("ran {name}"),
            is_error: false,
            touched: arguments["path"]
                .as_str()
                .map(|p| vec![p.to_owned()])
                .unwrap_or_default(),
        }
    }
}

#[derive(Default)]
struct Events(Mutex<Vec<LlmEvent>>);

impl LlmEventSink for Events {
    fn emit(&self, event: LlmEvent) {
        self.0.lock().unwrap().push(event);
    }
}

impl Events {
    fn notes(&self, kind: &str) -> Vec<Json> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|e| match e {
                LlmEvent::Note { kind: k, details } if k == kind => Some(details.clone()),
                _ => None,
            })
            .collect()
    }
}

fn settings() -> AgentSettings {
    AgentSettings::for_model("scripted-1", None, None)
}

fn session(provider: Arc<Scripted>, tools: Arc<Recorder>, settings: AgentSettings) -> AgentSession {
    AgentSession::new(provider, Some(tools), settings)
}

#[tokio::test]
async fn tool_rounds_run_until_the_model_answers() {
    let provider = Scripted::new(vec![
        calls(&[
            ("c1", "write", r#"{"path":"a.txt"}"#),
            ("c2", "write", r#"{"path":"b.txt"}"#),
        ]),
        calls(&[("c3", "write", r#"{"path":"a.txt"}"#)]),
        text("done"),
    ]);
    let tools = Arc::new(Recorder::default());
    let mut agent = session(provider.clone(), tools.clone(), settings());
    let events = Events::default();
    let reply = agent
        .send("do it", &events, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.text, "done");
    assert_eq!(reply.model, "scripted-1");
    assert_eq!(reply.usage.input_tokens, 30);
    assert_eq!(reply.files_touched, ["b.txt", "a.txt"], "last touched last");
    assert_eq!(tools.calls.lock().unwrap().len(), 3);
    // The second request carries the first round's results, matched by call id.
    let requests = provider.requests();
    let results: Vec<&Block> = requests[1].messages[2].content.iter().collect();
    assert!(
        matches!(results[0], Block::ToolResult { call_id, content, is_error: false }
        if call_id == "c1" && content == "ran write")
    );
    assert_eq!(requests[1].tools.len(), 1);
    let started = events
        .0
        .lock()
        .unwrap()
        .iter()
        .filter(|e| matches!(e, LlmEvent::ToolCallStarted { .. }))
        .count();
    assert_eq!(started, 3);
}

#[tokio::test]
async fn invalid_arguments_are_answered_with_an_error_the_model_can_fix() {
    let provider = Scripted::new(vec![
        calls(&[("c1", "write", r#"{"path": "a.txt""#)]),
        calls(&[("c2", "write", r#"{"path": "a.txt"}"#)]),
        text("fixed"),
    ]);
    let tools = Arc::new(Recorder::default());
    let mut agent = session(provider.clone(), tools.clone(), settings());
    let reply = agent
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.text, "fixed");
    assert_eq!(
        tools.calls.lock().unwrap().len(),
        1,
        "the bad call never ran"
    );
    let second = &provider.requests()[1];
    let Block::ToolResult {
        content, is_error, ..
    } = &second.messages[2].content[0]
    else {
        panic!("expected a tool result");
    };
    assert!(*is_error);
    assert!(content.contains("not valid JSON"), "{content}");
}

#[tokio::test]
async fn a_loop_is_warned_about_then_stopped() {
    let same = r#"{"path":"same.txt"}"#;
    let mut script: Vec<ChatResponse> = (0..8)
        .map(|i| calls(&[(&format!("c{i}"), "write", same)]))
        .collect();
    script.push(text("never reached"));
    let provider = Scripted::new(script);
    let events = Events::default();
    let mut agent = session(provider.clone(), Arc::new(Recorder::default()), settings());
    let error = agent
        .send("go", &events, &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Fatal);
    assert!(error.message.contains("repeating"), "{}", error.message);
    let notes = events.notes("loop_detected");
    assert_eq!(notes[0]["action"], "warned");
    assert_eq!(notes[1]["action"], "stopped");
    // The warning reached the model with the fourth call's result.
    let fifth = &provider.requests()[4];
    let warning = fifth.messages.last().unwrap().text();
    assert!(
        warning.contains("repeating the same tool calls"),
        "{warning}"
    );
}

#[tokio::test]
async fn max_turns_stops_an_agent_that_never_finishes() {
    let script = (0..5)
        .map(|i| calls(&[(&format!("c{i}"), "write", &format!(r#"{{"path":"f{i}"}}"#))]))
        .collect();
    let provider = Scripted::new(script);
    let mut agent = session(
        provider.clone(),
        Arc::new(Recorder::default()),
        AgentSettings::for_model("scripted-1", None, Some(3)),
    );
    let error = agent
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(error.message.contains("max_turns"), "{}", error.message);
    assert_eq!(provider.requests().len(), 3);
}

#[tokio::test]
async fn a_long_history_is_compacted_keeping_the_recent_turns() {
    let big = "x".repeat(400);
    let mut script: Vec<ChatResponse> = (0..8)
        .map(|i| {
            calls(&[(
                &format!("c{i}"),
                "write",
                &format!(r#"{{"path":"f{i}","pad":"{big}"}}"#),
            )])
        })
        .collect();
    // Summary calls are answered by the provider itself (see `Scripted`).
    script.push(text("finished"));
    let provider = Scripted::new(script);
    let mut settings = settings();
    settings.context_window = 1_000;
    let events = Events::default();
    let mut agent = AgentSession::new(
        provider.clone(),
        Some(Arc::new(Recorder::default())),
        settings,
    );
    let reply = agent
        .send("task", &events, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.text, "finished");
    assert!(!events.notes("context_window_warning").is_empty());
    let completed = events.notes("compaction_completed");
    assert!(!completed.is_empty(), "compaction ran");
    let history = agent.history();
    assert!(
        history[0].text().starts_with("[Context Summary]"),
        "{}",
        history[0].text()
    );
    assert!(history[0].text().contains("SUMMARY OF EARLY WORK"));
    assert!(history[0].text().contains("f0"), "tracked files are listed");
    // The summariser got the old turns without tools.
    let summary_request = provider
        .requests()
        .into_iter()
        .find(|r| r.tools.is_empty())
        .unwrap();
    let rendered = summary_request.messages[0].text();
    assert!(rendered.contains("TOOL CALL write"), "{rendered}");
}

#[tokio::test]
async fn a_prompt_session_makes_one_call_per_message_and_keeps_the_thread() {
    let provider = Scripted::new(vec![text("first"), text("second")]);
    let mut prompt = AgentSession::new(provider.clone(), None, settings());
    let events = Events::default();
    let cancel = CancellationToken::new();
    assert_eq!(
        prompt.send("one", &events, &cancel).await.unwrap().text,
        "first"
    );
    assert_eq!(
        prompt.send("two", &events, &cancel).await.unwrap().text,
        "second"
    );
    let requests = provider.requests();
    assert!(requests[0].tools.is_empty());
    assert_eq!(requests[1].messages.len(), 3, "the thread continues");
    let deltas: Vec<String> = events
        .0
        .lock()
        .unwrap()
        .iter()
        .filter_map(|e| match e {
            LlmEvent::TextDelta(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(deltas, ["first", "second"]);
}

#[tokio::test]
async fn a_refusal_fails_the_turn() {
    let mut refusal = text("I can't help with that");
    refusal.stop = StopReason::Refusal;
    let provider = Scripted::new(vec![refusal]);
    let mut prompt = AgentSession::new(provider, None, settings());
    let error = prompt
        .send("x", &Events::default(), &CancellationToken::new())
        .await
        .unwrap_err();
    assert!(error.message.contains("refused"), "{}", error.message);
}

#[tokio::test]
async fn priced_models_report_their_cost() {
    let provider = Scripted::new(vec![text("ok")]);
    let mut prompt = AgentSession::new(
        provider,
        None,
        AgentSettings::for_model("claude-sonnet-4-5", None, None),
    );
    let reply = prompt
        .send("x", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    let cost = reply.cost_usd.unwrap();
    assert!(
        (cost - (10.0 * 3.0 + 2.0 * 15.0) / 1e6).abs() < 1e-12,
        "{cost}"
    );
}
