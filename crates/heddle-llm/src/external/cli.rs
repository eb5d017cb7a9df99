//! `backend="cli"`: every message runs the agent's command afresh; the message goes in on
//! stdin, stdout is the reply (streamed as text deltas), stderr is kept for errors.

use std::path::PathBuf;
use std::process::ExitStatus;
use std::time::Duration;

use async_trait::async_trait;
use heddle_engine::Usage;
use heddle_engine::llm::{
    LlmConversation, LlmError, LlmErrorKind, LlmEvent, LlmEventSink, LlmReply, LlmRequest,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Child;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::files_touched::WorkTreeSnapshot;
use super::launch::{AgentCommand, ProcessGroup, describe_status, with_tail};
use super::stderr_tail::StderrTail;
use super::text_decoder::TextDecoder;

/// The model name of CLI replies.
const MODEL: &str = "cli";
/// How long output is still read once the command has exited (what it left running is
/// killed then, but a process outside its group may hold the pipes).
const DRAIN: Duration = Duration::from_secs(2);
/// How long to wait for a killed command to be reaped.
const REAP: Duration = Duration::from_secs(1);

/// A conversation with a command-line agent (`backend="cli"`, command from `cli.command`).
/// Each [`LlmConversation::send`] runs the command once; nothing carries over between
/// messages except what the agent keeps itself.
#[derive(Debug, Clone)]
pub struct CliConversation {
    agent: AgentCommand,
}

impl CliConversation {
    /// A conversation running `request.command` in `request.work_dir` with environment
    /// `env`. Fails (Config) when the node has no command.
    pub fn new(request: &LlmRequest, env: &[(String, String)]) -> Result<Self, LlmError> {
        Ok(CliConversation {
            agent: AgentCommand::from_request(request, "cli.command", env)?,
        })
    }
}

#[async_trait]
impl LlmConversation for CliConversation {
    async fn send(
        &mut self,
        message: &str,
        events: &dyn LlmEventSink,
        cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError> {
        if cancel.is_cancelled() {
            return Err(cancelled(&self.agent));
        }
        let before = WorkTreeSnapshot::take(&self.agent.work_dir).await;
        let text = run_once(&self.agent, message, events, cancel).await?;
        let work_dir: PathBuf = self.agent.work_dir.clone();
        Ok(LlmReply {
            text,
            model: MODEL.to_string(),
            usage: Usage::default(),
            cost_usd: None,
            files_touched: WorkTreeSnapshot::touched_since(before, &work_dir).await,
            simulated: false,
        })
    }
}

/// Runs the command once with `message` on stdin; returns its stdout.
async fn run_once(
    agent: &AgentCommand,
    message: &str,
    events: &dyn LlmEventSink,
    cancel: &CancellationToken,
) -> Result<String, LlmError> {
    let (mut child, mut group) = agent.spawn()?;
    let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(LlmError::new(
            LlmErrorKind::Fatal,
            format!("{}: its output could not be read", agent.label()),
        ));
    };
    if let Some(mut stdin) = child.stdin.take() {
        let input = message.to_string();
        // A command that exits without reading its input makes this fail: that is fine.
        tokio::spawn(async move {
            let _ = stdin.write_all(input.as_bytes()).await;
            let _ = stdin.shutdown().await;
        });
    }

    let mut decoder = TextDecoder::default();
    let mut reply = String::new();
    let mut tail = StderrTail::default();
    let mut out_buffer = [0u8; 8192];
    let mut err_buffer = [0u8; 4096];
    let (mut out_open, mut err_open) = (true, true);
    let mut status: Option<ExitStatus> = None;
    let mut drain_until: Option<Instant> = None;
    while out_open || err_open || status.is_none() {
        let drained = async {
            match drain_until {
                Some(deadline) => tokio::time::sleep_until(deadline).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            biased;
            () = cancel.cancelled() => {
                stop(&mut child, &mut group).await;
                return Err(cancelled(agent));
            }
            read = stdout.read(&mut out_buffer), if out_open => match read {
                Ok(n) if n > 0 => {
                    let piece = decoder.push(&out_buffer[..n]);
                    if !piece.is_empty() {
                        reply.push_str(&piece);
                        events.emit(LlmEvent::TextDelta(piece));
                    }
                }
                _ => out_open = false,
            },
            read = stderr.read(&mut err_buffer), if err_open => match read {
                Ok(n) if n > 0 => tail.push(&err_buffer[..n]),
                _ => err_open = false,
            },
            waited = child.wait(), if status.is_none() => {
                let exited = waited.map_err(|e| {
                    LlmError::new(
                        LlmErrorKind::Fatal,
                        format!("{}: its exit status could not be read: {e}", agent.label()),
                    )
                })?;
                status = Some(exited);
                // Whatever it left running goes with it.
                group.kill();
                drain_until = Some(Instant::now() + DRAIN);
            }
            () = drained => break,
        }
    }
    let rest = decoder.finish();
    if !rest.is_empty() {
        reply.push_str(&rest);
        events.emit(LlmEvent::TextDelta(rest));
    }
    let Some(status) = status else {
        return Err(LlmError::new(
            LlmErrorKind::Fatal,
            format!("{}: its exit status could not be read", agent.label()),
        ));
    };
    if status.success() {
        return Ok(reply);
    }
    let tail = tail.text();
    Err(agent.not_started(status, &tail).unwrap_or_else(|| {
        LlmError::new(
            LlmErrorKind::Fatal,
            with_tail(
                format!("{} exited with {}", agent.label(), describe_status(status)),
                &tail,
            ),
        )
    }))
}

/// Kills the command's process group and reaps the command.
async fn stop(child: &mut Child, group: &mut ProcessGroup) {
    group.kill();
    let _ = tokio::time::timeout(REAP, child.wait()).await;
}

fn cancelled(agent: &AgentCommand) -> LlmError {
    LlmError::new(
        LlmErrorKind::Cancelled,
        format!("cancelled; {} was stopped", agent.label()),
    )
}
