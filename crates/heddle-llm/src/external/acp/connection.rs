//! The agent process of an ACP conversation and the JSON-RPC channel to it: requests and
//! notifications out (through a writer task, so a slow agent never blocks the client),
//! messages in, stderr kept for errors, and stopping it (the whole process group).

use std::time::Duration;

use heddle_engine::llm::{LlmError, LlmErrorKind};
use serde_json::Value as Json;
use tokio::process::{Child, ChildStdout};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::wire::{Incoming, LineReader, error_response, notification, request, result_response};
use crate::external::launch::{AgentCommand, ProcessGroup, describe_status, with_tail};
use crate::external::stderr_tail::SharedTail;

/// How long an agent that closed its stdout gets to exit before it is killed.
const EXIT_WAIT: Duration = Duration::from_secs(2);
/// How long the stderr reader gets to catch up with an agent that ended.
const STDERR_WAIT: Duration = Duration::from_secs(1);

/// A running ACP agent.
#[derive(Debug)]
pub(super) struct AcpConnection {
    agent: AgentCommand,
    child: Child,
    group: ProcessGroup,
    lines: LineReader<ChildStdout>,
    outbox: Option<mpsc::UnboundedSender<String>>,
    stderr: SharedTail,
    stderr_task: Option<JoinHandle<()>>,
    next_id: u64,
    /// Why the agent was stopped, once it was.
    stopped: Option<String>,
}

impl AcpConnection {
    /// Starts the agent.
    pub fn start(agent: &AgentCommand) -> Result<Self, LlmError> {
        let (mut child, group) = agent.spawn()?;
        let (Some(mut stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(LlmError::new(
                LlmErrorKind::Fatal,
                format!("{}: its stdio could not be connected", agent.label()),
            ));
        };
        let (outbox, mut queue) = mpsc::unbounded_channel::<String>();
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            while let Some(line) = queue.recv().await {
                if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
                    break;
                }
            }
        });
        let (stderr, stderr_task) = SharedTail::read_from(stderr);
        Ok(AcpConnection {
            agent: agent.clone(),
            child,
            group,
            lines: LineReader::new(stdout),
            outbox: Some(outbox),
            stderr,
            stderr_task: Some(stderr_task),
            next_id: 0,
            stopped: None,
        })
    }

    /// The agent's command.
    pub fn agent(&self) -> &AgentCommand {
        &self.agent
    }

    /// Sends a request; returns its id.
    pub fn send_request(&mut self, method: &str, params: Json) -> Json {
        let id = self.next_id;
        self.next_id += 1;
        self.write(request(id, method, params));
        Json::from(id)
    }

    /// Sends a notification.
    pub fn notify(&self, method: &str, params: Json) {
        self.write(notification(method, params));
    }

    /// Answers request `id` with `result`.
    pub fn respond(&self, id: &Json, result: Json) {
        self.write(result_response(id, result));
    }

    /// Answers request `id` with an error.
    pub fn respond_error(&self, id: &Json, code: i64, message: &str) {
        self.write(error_response(id, code, message));
    }

    fn write(&self, line: String) {
        if let Some(outbox) = &self.outbox {
            // Fails only once the writer gave up on a closed stdin; reading notices that.
            let _ = outbox.send(line);
        }
    }

    /// The next message; `None` once the agent closed its stdout. Cancel-safe.
    pub async fn next_message(&mut self) -> Option<Incoming> {
        loop {
            let line = self.lines.next_line().await?;
            if !line.trim().is_empty() {
                return Some(Incoming::parse(&line));
            }
        }
    }

    /// The error for an agent whose stdout ended `during` something ("mid-turn"): waits a
    /// little for it to exit and for its last stderr, then stops it. An exit status saying
    /// the command was not found is a Config error; otherwise the error is of `kind`.
    pub async fn ended_error(&mut self, during: &str, kind: LlmErrorKind) -> LlmError {
        let status = tokio::time::timeout(EXIT_WAIT, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok);
        self.group.kill();
        if let Some(task) = self.stderr_task.take() {
            let _ = tokio::time::timeout(STDERR_WAIT, task).await;
        }
        let tail = self.stderr.text();
        let label = self.agent.label();
        let error = match status {
            Some(status) => self.agent.not_started(status, &tail).unwrap_or_else(|| {
                LlmError::new(
                    kind,
                    with_tail(
                        format!("{label} exited {during} with {}", describe_status(status)),
                        &tail,
                    ),
                )
            }),
            None => LlmError::new(
                kind,
                with_tail(
                    format!("{label} closed its output {during} (killed)"),
                    &tail,
                ),
            ),
        };
        self.stop(&error.message).await;
        error
    }

    /// Stops the agent for `reason`: closes its stdin, kills its process group and reaps it.
    pub async fn stop(&mut self, reason: &str) {
        self.outbox = None;
        self.group.kill();
        let _ = tokio::time::timeout(EXIT_WAIT, self.child.wait()).await;
        if self.stopped.is_none() {
            self.stopped = Some(reason.to_string());
        }
    }

    /// Why the agent was stopped, if it was.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }
}
