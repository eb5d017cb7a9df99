//! Starting an external agent: its command line from the node, run with `sh -c` in the work
//! dir with the caller's environment, in a process group of its own, and the guard that
//! kills that group.

use std::path::PathBuf;
use std::process::{ExitStatus, Stdio};

use heddle_engine::llm::{LlmError, LlmErrorKind, LlmRequest};
use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use tokio::process::{Child, Command};

/// The shell that runs agent command lines.
const SHELL: &str = "/bin/sh";

/// An external agent's command line and where and how it runs.
#[derive(Debug, Clone)]
pub(crate) struct AgentCommand {
    /// The command line, run with `sh -c`.
    pub command: String,
    /// The attribute the command line came from (`cli.command`, `acp.command`).
    pub attribute: &'static str,
    /// The stage's work folder, the command's current directory.
    pub work_dir: PathBuf,
    /// Its complete environment; nothing else is inherited from Heddle's.
    pub env: Vec<(String, String)>,
}

impl AgentCommand {
    /// The command of `request`, which `attribute` sets; a missing or blank command is a
    /// Config error naming the node and the attribute.
    pub fn from_request(
        request: &LlmRequest,
        attribute: &'static str,
        env: &[(String, String)],
    ) -> Result<Self, LlmError> {
        let backend = attribute.split('.').next().unwrap_or(attribute);
        let command = request
            .command
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .ok_or_else(|| {
                LlmError::new(
                    LlmErrorKind::Config,
                    format!(
                        "node `{}`: backend=\"{backend}\" needs `{attribute}`, the command line \
                         of the agent to run (set it on the node or in the stylesheet)",
                        request.node_id
                    ),
                )
            })?;
        Ok(AgentCommand {
            command: command.to_string(),
            attribute,
            work_dir: request.work_dir.clone(),
            env: env.to_vec(),
        })
    }

    /// How messages name the agent: "cli agent `cmd`".
    pub fn label(&self) -> String {
        let backend = self.attribute.split('.').next().unwrap_or(self.attribute);
        format!("{backend} agent `{}`", self.command)
    }

    /// Starts the command with all three streams piped, in a new process group.
    pub fn spawn(&self) -> Result<(Child, ProcessGroup), LlmError> {
        if !self.work_dir.is_dir() {
            return Err(LlmError::new(
                LlmErrorKind::Config,
                format!(
                    "could not start `{}` ({}): work dir {} does not exist or is not a folder",
                    self.command,
                    self.attribute,
                    self.work_dir.display()
                ),
            ));
        }
        let child = Command::new(SHELL)
            .arg("-c")
            .arg(&self.command)
            .current_dir(&self.work_dir)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| {
                LlmError::new(
                    LlmErrorKind::Config,
                    format!(
                        "could not start `{}` ({}) with {SHELL} in {}: {e}",
                        self.command,
                        self.attribute,
                        self.work_dir.display()
                    ),
                )
            })?;
        // Never signal group 0 (our own group) for want of a pid.
        let pgid = child
            .id()
            .and_then(|pid| i32::try_from(pid).ok())
            .filter(|pid| *pid > 1)
            .ok_or_else(|| {
                LlmError::new(
                    LlmErrorKind::Fatal,
                    format!("`{}` started without a process id", self.command),
                )
            })?;
        Ok((child, ProcessGroup(Some(Pid::from_raw(pgid)))))
    }

    /// The error for an agent that exited with `status`, or `None` when the status says the
    /// shell could not run the command (126, 127): that is a Config error naming the command
    /// line and the shell's complaint.
    pub fn not_started(&self, status: ExitStatus, stderr_tail: &str) -> Option<LlmError> {
        let reason = match status.code()? {
            127 => "command not found",
            126 => "command not executable",
            _ => return None,
        };
        Some(LlmError::new(
            LlmErrorKind::Config,
            with_tail(
                format!(
                    "could not start `{}` ({}, exit status {}: {reason}; set `{}` to a command \
                     on PATH)",
                    self.command,
                    self.attribute,
                    status.code().unwrap_or_default(),
                    self.attribute
                ),
                stderr_tail,
            ),
        ))
    }
}

/// `head`, then `: tail` unless the tail is empty.
pub(crate) fn with_tail(head: String, tail: &str) -> String {
    if tail.is_empty() {
        head
    } else {
        format!("{head}: {tail}")
    }
}

/// Describes an exit status: "status 3", "signal 9 (SIGKILL)".
pub(crate) fn describe_status(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("status {code}"),
        (None, Some(signal)) => {
            let name = Signal::try_from(signal).map_or("unknown signal", Signal::as_str);
            format!("signal {signal} ({name})")
        }
        (None, None) => "an unknown status".to_string(),
    }
}

/// An agent's process group; dropping it (or [`ProcessGroup::kill`]) sends SIGKILL to the
/// whole group, so nothing the agent started outlives the conversation.
#[derive(Debug)]
pub(crate) struct ProcessGroup(Option<Pid>);

impl ProcessGroup {
    /// Kills every process of the group (once).
    pub fn kill(&mut self) {
        if let Some(pgid) = self.0.take() {
            let _ = killpg(pgid, Signal::SIGKILL);
        }
    }
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        self.kill();
    }
}
