//! Shared by the engine's run tests: an engine on a fake clock and seeded randomness, a
//! scripted LLM backend, and a runner that returns the conclusion with the events.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use async_trait::async_trait;
use heddle_engine::hooks::NoCheckpoints;
use heddle_engine::interviewer::{AutoApprove, Interviewer};
use heddle_engine::llm::{
    LlmBackend, LlmConversation, LlmError, LlmEvent, LlmEventSink, LlmReply, LlmRequest,
};
use heddle_engine::{
    Checkpoint, Conclusion, Engine, EngineEnv, Envelope, FakeClock, RunDir, RunRequest,
    SeededEntropy, Services, Usage,
};
use tokio_util::sync::CancellationToken;

/// Replies queued per node; a node without replies answers `{"outcome": "success"}`.
#[derive(Clone, Default)]
pub struct Scripted {
    replies: Arc<Mutex<HashMap<String, VecDeque<String>>>>,
    pub prompts: Arc<Mutex<Vec<(String, String)>>>,
    /// What every reply reports using and costing: (input tokens, output tokens, USD).
    price: Arc<Mutex<Option<(u64, u64, f64)>>>,
}

impl Scripted {
    pub fn reply(self, node: &str, text: &str) -> Self {
        self.replies
            .lock()
            .unwrap()
            .entry(node.to_string())
            .or_default()
            .push_back(text.to_string());
        self
    }

    /// Every reply from now on reports `input` and `output` tokens costing `usd`.
    pub fn priced(self, input: u64, output: u64, usd: f64) -> Self {
        *self.price.lock().unwrap() = Some((input, output, usd));
        self
    }

    pub fn prompts_for(&self, node: &str) -> Vec<String> {
        let prompts = self.prompts.lock().unwrap();
        prompts
            .iter()
            .filter(|(n, _)| n == node)
            .map(|(_, p)| p.clone())
            .collect()
    }
}

struct ScriptedConversation {
    node: String,
    script: Scripted,
}

#[async_trait]
impl LlmBackend for Scripted {
    async fn open(&self, request: &LlmRequest) -> Result<Box<dyn LlmConversation>, LlmError> {
        Ok(Box::new(ScriptedConversation {
            node: request.node_id.clone(),
            script: self.clone(),
        }))
    }
}

#[async_trait]
impl LlmConversation for ScriptedConversation {
    async fn send(
        &mut self,
        message: &str,
        events: &dyn LlmEventSink,
        _cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError> {
        self.script
            .prompts
            .lock()
            .unwrap()
            .push((self.node.clone(), message.to_string()));
        let text = self
            .script
            .replies
            .lock()
            .unwrap()
            .get_mut(&self.node)
            .and_then(VecDeque::pop_front)
            .unwrap_or_else(|| r#"{"outcome": "success"}"#.to_string());
        events.emit(LlmEvent::TextDelta(text.clone()));
        let price = *self.script.price.lock().unwrap();
        Ok(LlmReply {
            text,
            model: "scripted".into(),
            usage: price.map_or_else(Usage::default, |(input, output, _)| Usage {
                input_tokens: input,
                output_tokens: output,
                ..Usage::default()
            }),
            cost_usd: price.map(|(_, _, usd)| usd),
            ..LlmReply::default()
        })
    }
}

pub struct Harness {
    pub dir: tempfile::TempDir,
    pub clock: Arc<FakeClock>,
    pub llm: Scripted,
    pub interviewer: Arc<dyn Interviewer>,
    pub real_clock: bool,
    pub artifacts: Arc<dyn heddle_engine::hooks::ArtifactHook>,
    pub blobs: Arc<dyn heddle_engine::hooks::BlobSink>,
}

pub struct Finished {
    pub conclusion: Conclusion,
    pub run_dir: RunDir,
    pub events: Vec<Envelope>,
}

impl Finished {
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint::load(&self.run_dir.checkpoint()).unwrap()
    }

    /// Node ids in the order their stages completed or failed.
    pub fn stages(&self) -> Vec<String> {
        self.checkpoint()
            .timeline
            .iter()
            .map(|s| s.node_id.clone())
            .collect()
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.events.iter().map(|e| e.event.name()).collect()
    }

    /// Fails the test with the run's failure reason unless it succeeded.
    pub fn assert_success(&self) {
        assert_eq!(
            self.conclusion.status,
            heddle_engine::RunStatus::Success,
            "{}",
            self.reason()
        );
    }

    pub fn reason(&self) -> String {
        self.conclusion.failure_reason.clone().unwrap_or_default()
    }
}

impl Harness {
    pub fn new() -> Self {
        Harness {
            dir: tempfile::tempdir().unwrap(),
            clock: Arc::new(FakeClock::new(
                SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_000_000),
            )),
            llm: Scripted::default(),
            interviewer: Arc::new(AutoApprove),
            real_clock: false,
            artifacts: Arc::new(heddle_engine::hooks::NoArtifacts),
            blobs: Arc::new(heddle_engine::hooks::NoBlobs),
        }
    }

    pub fn work_dir(&self) -> &Path {
        self.dir.path()
    }

    pub fn engine(&self) -> Engine {
        let clock: Arc<dyn heddle_engine::Clock> = if self.real_clock {
            Arc::new(heddle_engine::SystemClock::new())
        } else {
            self.clock.clone()
        };
        Engine::new(
            EngineEnv {
                clock,
                entropy: Arc::new(SeededEntropy::new(7)),
                env: vec![("PATH".into(), std::env::var("PATH").unwrap_or_default())],
            },
            Services {
                llm: Arc::new(self.llm.clone()),
                interviewer: self.interviewer.clone(),
                checkpoints: Arc::new(NoCheckpoints),
                artifacts: self.artifacts.clone(),
                blobs: self.blobs.clone(),
            },
        )
    }

    pub fn request(&self, source: &str) -> RunRequest {
        let path = self.dir.path().join("workflow.dot");
        std::fs::write(&path, source).unwrap();
        RunRequest {
            workflow_path: path,
            source: None,
            goal: None,
            labels: BTreeMap::new(),
            inputs: Default::default(),
            runs_root: self.dir.path().join("runs"),
            run_dir: None,
            work_dir: self.dir.path().to_path_buf(),
            dry_run: false,
            parent_run_id: None,
        }
    }

    pub async fn run(&self, source: &str) -> Finished {
        let prepared = self.engine().prepare(self.request(source)).unwrap();
        let run_dir = prepared.run_dir().clone();
        let conclusion = prepared.execute().await;
        finished(conclusion, run_dir)
    }
}

impl Harness {
    /// Runs `source` and cancels it once node `node` has started; returns what the
    /// cancelled run left.
    pub async fn run_and_cancel_at(&self, source: &str, node: &str) -> Finished {
        self.run_and_cancel_at_after(source, node, |_| {}).await
    }

    /// [`Harness::run_and_cancel_at`], calling `look` on the run folder once `node` started,
    /// before the cancel.
    pub async fn run_and_cancel_at_after(
        &self,
        source: &str,
        node: &str,
        look: impl FnOnce(&RunDir),
    ) -> Finished {
        let prepared = self.engine().prepare(self.request(source)).unwrap();
        let mut events = prepared.subscribe();
        let cancel = prepared.cancel_handle();
        let run_dir = prepared.run_dir().clone();
        let task = tokio::spawn(prepared.execute());
        loop {
            let envelope = events.recv().await.unwrap();
            if matches!(envelope.event, heddle_engine::Event::StageStarted { .. })
                && envelope.node_id.as_deref() == Some(node)
            {
                break;
            }
        }
        look(&run_dir);
        cancel.cancel("test says stop");
        let conclusion = tokio::time::timeout(Duration::from_secs(15), task)
            .await
            .unwrap()
            .unwrap();
        finished(conclusion, run_dir)
    }
}

pub fn finished(conclusion: Conclusion, run_dir: RunDir) -> Finished {
    let events = std::fs::read_to_string(run_dir.progress())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Finished {
        conclusion,
        run_dir,
        events,
    }
}
