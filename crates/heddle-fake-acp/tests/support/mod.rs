//! What the ACP tests share: an event sink that records, the scripted agent's command, work
//! dir and files, and waiting for processes and files.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use heddle_engine::llm::{LlmConversation, LlmError, LlmEvent, LlmEventSink, LlmReply, LlmRequest};
use heddle_llm::external::open_external;
use heddle_workflow::HandlerKind;
use tokio_util::sync::CancellationToken;

#[derive(Default)]
pub struct Events(Mutex<Vec<LlmEvent>>);

impl LlmEventSink for Events {
    fn emit(&self, event: LlmEvent) {
        self.0.lock().unwrap().push(event);
    }
}

impl Events {
    pub fn all(&self) -> Vec<LlmEvent> {
        self.0.lock().unwrap().clone()
    }

    pub fn text(&self) -> String {
        self.all()
            .into_iter()
            .filter_map(|e| match e {
                LlmEvent::TextDelta(text) => Some(text),
                _ => None,
            })
            .collect()
    }

    pub fn notes(&self, kind: &str) -> Vec<serde_json::Value> {
        self.all()
            .into_iter()
            .filter_map(|e| match e {
                LlmEvent::Note { kind: k, details } if k == kind => Some(details),
                _ => None,
            })
            .collect()
    }
}

/// A scripted agent in `work_dir`, its pid and cancel marker in `files`.
pub struct Agent {
    pub work_dir: tempfile::TempDir,
    pub files: tempfile::TempDir,
}

impl Agent {
    pub fn new() -> Self {
        Agent {
            work_dir: tempfile::tempdir().unwrap(),
            files: tempfile::tempdir().unwrap(),
        }
    }

    pub fn request(&self, command: Option<String>) -> LlmRequest {
        LlmRequest {
            run_id: "run-1".into(),
            node_id: "coder".into(),
            kind: HandlerKind::Agent,
            model: None,
            provider: None,
            reasoning_effort: None,
            backend: Some("acp".into()),
            command,
            max_turns: None,
            work_dir: self.work_dir.path().to_path_buf(),
            timeout: None,
            output_schema: None,
            thread_id: None,
        }
    }

    pub fn command(scenario: &str) -> String {
        format!("'{}' {scenario}", env!("CARGO_BIN_EXE_heddle-fake-acp"))
    }

    pub fn env(&self) -> Vec<(String, String)> {
        let mut env: Vec<(String, String)> = std::env::vars().collect();
        env.push((
            "FAKE_ACP_PID_FILE".into(),
            self.pid_file().display().to_string(),
        ));
        env.push((
            "FAKE_ACP_CANCEL_MARKER".into(),
            self.marker().display().to_string(),
        ));
        env
    }

    pub fn pid_file(&self) -> PathBuf {
        self.files.path().join("agent.pid")
    }

    pub fn marker(&self) -> PathBuf {
        self.files.path().join("cancelled")
    }

    pub async fn open(&self, scenario: &str) -> Box<dyn LlmConversation> {
        self.try_open(scenario).await.unwrap()
    }

    pub async fn try_open(&self, scenario: &str) -> Result<Box<dyn LlmConversation>, LlmError> {
        open_external(
            &self.request(Some(Self::command(scenario))),
            &self.env(),
            &work_tree(),
        )
        .await
    }

    pub fn pid(&self) -> i32 {
        std::fs::read_to_string(self.pid_file())
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }
}

/// Whether process `pid` is running (a zombie is not).
pub fn alive(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat[stat.rfind(')').unwrap() + 1..]
        .split_whitespace()
        .next();
    state != Some("Z")
}

pub async fn wait_until(what: &str, condition: impl Fn() -> bool) {
    for _ in 0..240 {
        if condition() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("timed out waiting until {what}");
}

pub async fn send(
    conversation: &mut dyn LlmConversation,
    message: &str,
    events: &Events,
) -> Result<LlmReply, LlmError> {
    conversation
        .send(message, events, &CancellationToken::new())
        .await
}

/// Which files a turn touched, told by git status as heddle-api wires it.
pub fn work_tree() -> std::sync::Arc<dyn heddle_engine::work_tree::WorkTreeWatch> {
    std::sync::Arc::new(heddle_checkpoint::GitStatusWatch)
}
