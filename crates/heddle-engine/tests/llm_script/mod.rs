//! A scripted in-memory LLM backend for the LLM stage tests: queued replies, recorded
//! messages, and helpers to build a stage.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use async_trait::async_trait;
use heddle_engine::handlers::llm_stage::{LlmStage, run_llm_stage};
use heddle_engine::llm::{
    LlmBackend, LlmConversation, LlmError, LlmEventSink, LlmReply, LlmRequest, OutputSchema,
};
use heddle_engine::{Emitter, FakeClock, NodeEvents, Outcome, SeededEntropy, Usage};
use heddle_workflow::HandlerKind;
use tokio_util::sync::CancellationToken;

/// One scripted turn.
pub enum Step {
    Reply(LlmReply),
    Error(LlmError),
    Hang,
    /// Writes a file (as an agent's tool would) and then replies.
    WriteThenReply(std::path::PathBuf, String, LlmReply),
}

/// Replies from a queue and records every message it received.
#[derive(Clone, Default)]
pub struct Script {
    pub steps: Arc<Mutex<VecDeque<Step>>>,
    pub received: Arc<Mutex<Vec<String>>>,
    pub opened: Arc<AtomicUsize>,
}

impl Script {
    pub fn new(steps: Vec<Step>) -> Self {
        Script {
            steps: Arc::new(Mutex::new(steps.into())),
            ..Script::default()
        }
    }

    pub fn received(&self) -> Vec<String> {
        self.received.lock().unwrap().clone()
    }
}

pub fn reply(text: &str, tokens: u64) -> Step {
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
            Some(Step::WriteThenReply(path, content, reply)) => {
                std::fs::write(path, content).unwrap();
                Ok(reply)
            }
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

pub fn node_events() -> (Emitter, NodeEvents) {
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

pub fn stage(dir: &Path, kind: HandlerKind) -> LlmStage {
    LlmStage {
        request: LlmRequest {
            run_id: "run1".into(),
            node_id: "n".into(),
            kind,
            model: None,
            provider: None,
            reasoning_effort: None,
            backend: None,
            command: None,
            max_turns: None,
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

pub async fn run(backend: &dyn LlmBackend, stage: LlmStage) -> (Outcome, bool) {
    let (_emitter, events) = node_events();
    let (outcome, conversation) =
        run_llm_stage(backend, stage, &events, &CancellationToken::new()).await;
    (outcome, conversation.is_some())
}

pub fn with_schema(dir: &Path, retries: u32) -> LlmStage {
    let mut schema_stage = stage(dir, HandlerKind::Prompt);
    let schema = OutputSchema::routing();
    schema_stage.request.output_schema = Some(schema.schema.clone());
    schema_stage.output_schema = Some(schema);
    schema_stage.output_retries = retries;
    schema_stage
}
