//! `backend="cli"`: every message runs the agent's command afresh; the message goes in on
//! stdin, stdout is the reply (streamed as text deltas), stderr is kept for errors. Without
//! `cli.command` the command is the `claude`, `codex` or `gemini` CLI chosen by the model's
//! family ([`CliAgent`]); its JSON output is read for the answer and the token usage.

use std::process::ExitStatus;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use heddle_engine::Usage;
use heddle_engine::llm::{
    LlmConversation, LlmError, LlmErrorKind, LlmEvent, LlmEventSink, LlmReply, LlmRequest,
};
use heddle_engine::work_tree::WorkTreeWatch;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::Child;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::cli_agents::CliAgent;
use super::files_touched::FolderWatch;
use super::launch::{AgentCommand, ProcessGroup, describe_status, with_tail};
use super::stderr_tail::StderrTail;
use super::text_decoder::TextDecoder;
use crate::catalog;

/// The model name of CLI replies.
const MODEL: &str = "cli";
/// How long output is still read once the command has exited (what it left running is
/// killed then, but a process outside its group may hold the pipes).
const DRAIN: Duration = Duration::from_secs(2);
/// How long to wait for a killed command to be reaped.
const REAP: Duration = Duration::from_secs(1);

/// A conversation with a command-line agent (`backend="cli"`, command from `cli.command`
/// or chosen by the model's family). Each [`LlmConversation::send`] runs the command once;
/// nothing carries over between messages except what the agent keeps itself.
#[derive(Debug, Clone)]
pub struct CliConversation {
    agent: AgentCommand,
    /// The CLI Heddle chose (no `cli.command`), and the model it was given.
    chosen: Option<(CliAgent, Option<String>)>,
    /// Its work folder, snapshotted around each message for the files it touched.
    folder: FolderWatch,
}

impl CliConversation {
    /// A conversation running `request.command` in `request.work_dir` with environment
    /// `env`; without a command, the CLI [`CliAgent::choose`] picks for the node's model
    /// and provider. `work_tree` tells which files each message touched.
    pub fn new(
        request: &LlmRequest,
        env: &[(String, String)],
        work_tree: &Arc<dyn WorkTreeWatch>,
    ) -> Result<Self, LlmError> {
        let folder = FolderWatch::new(work_tree.clone(), request.work_dir.clone());
        let has_command = request
            .command
            .as_deref()
            .is_some_and(|command| !command.trim().is_empty());
        if has_command {
            return Ok(CliConversation {
                agent: AgentCommand::from_request(request, "cli.command", env)?,
                chosen: None,
                folder,
            });
        }
        let model = request.model.as_deref().map(catalog::resolve_alias);
        let cli = CliAgent::choose(model, request.provider.as_deref(), None);
        Ok(CliConversation {
            agent: AgentCommand {
                command: cli.command_line(model),
                attribute: "cli.command",
                work_dir: request.work_dir.clone(),
                env: env.to_vec(),
            },
            chosen: Some((cli, model.map(str::to_owned))),
            folder,
        })
    }

    /// The command line each message runs.
    pub fn command_line(&self) -> &str {
        &self.agent.command
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
        let before = self.folder.snapshot().await;
        let streamed = self.chosen.is_none();
        let output = run_once(&self.agent, message, events, cancel, streamed).await?;
        let (text, model, usage) = match &self.chosen {
            None => (output, MODEL.to_string(), Usage::default()),
            Some((cli, model)) => {
                let reply = cli.read_output(&output).ok_or_else(|| {
                    LlmError::new(
                        LlmErrorKind::Fatal,
                        with_tail(
                            format!(
                                "{}: its output is not the JSON `{}` prints",
                                self.agent.label(),
                                cli.program()
                            ),
                            &output.chars().take(300).collect::<String>(),
                        ),
                    )
                })?;
                if !reply.text.is_empty() {
                    events.emit(LlmEvent::TextDelta(reply.text.clone()));
                }
                let model = model.clone().unwrap_or_else(|| cli.program().to_owned());
                (reply.text, model, reply.usage)
            }
        };
        let cost_usd = catalog::cost_usd(&model, &usage);
        Ok(LlmReply {
            text,
            model,
            usage,
            cost_usd,
            files_touched: self.folder.touched_since(before).await,
            simulated: false,
        })
    }
}

/// Runs the command once with `message` on stdin; returns its stdout, which is also
/// streamed as text deltas when `streamed`.
async fn run_once(
    agent: &AgentCommand,
    message: &str,
    events: &dyn LlmEventSink,
    cancel: &CancellationToken,
    streamed: bool,
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
                        if streamed {
                            events.emit(LlmEvent::TextDelta(piece));
                        }
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
        if streamed {
            events.emit(LlmEvent::TextDelta(rest));
        }
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
