//! `shell { command, timeout_ms? }`: `sh -c command` in the work dir, in a process group of
//! its own, stdin empty, with the caller's environment minus secrets.
//!
//! However the command ends (it exits, times out or is cancelled), its whole process group
//! is killed right away: background jobs and grandchildren do not outlive the call, and a
//! background process holding stdout open cannot keep the call waiting. Something that left
//! the group (`setsid`) and still holds a pipe is no longer read after [`READ_GRACE`].

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use nix::sys::signal::Signal;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::arguments::Arguments;
use super::process_group::ProcessGroup;
use super::shell_env::shell_environment;
use super::shell_output::{Captured, spawn_reader};
use super::tool_error::ToolError;
use super::{ToolContext, ToolOutcome};

/// How long the output is still read once the process group was killed.
const READ_GRACE: Duration = Duration::from_millis(500);
/// The shell.
const SHELL: &str = "/bin/sh";

/// How the wait for the shell ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Exited,
    TimedOut,
    Cancelled,
}

/// Runs the command and reports its exit status and output.
pub(crate) async fn shell(
    context: &ToolContext,
    root: &Path,
    args: &Arguments<'_>,
    cancel: &CancellationToken,
) -> Result<ToolOutcome, ToolError> {
    let command = args.required_str("command")?;
    let timeout = match args.optional_count("timeout_ms")? {
        Some(ms) => Duration::from_millis(ms).min(context.shell_timeout),
        None => context.shell_timeout,
    };
    if command.trim().is_empty() {
        return Err(ToolError::Failed(
            "shell: `command` is empty; give the command to run".to_string(),
        ));
    }
    if cancel.is_cancelled() {
        return Ok(ToolOutcome::error(
            "shell: cancelled before the command started",
        ));
    }

    let mut child = tokio::process::Command::new(SHELL)
        .arg("-c")
        .arg(command)
        .current_dir(root)
        .env_clear()
        .envs(shell_environment(&context.env, &context.pass_env))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| ToolError::Failed(format!("shell: cannot start {SHELL}: {e}")))?;
    // Armed at once: if this future is dropped, the group dies with it.
    let mut group = ProcessGroup::led_by(child.id());
    if !group.is_known() {
        let _ = child.start_kill();
        return Err(ToolError::Failed(
            "shell: the command started without a process id".to_string(),
        ));
    }

    // Each stream keeps enough bytes for a head and a tail of `output_limit` characters.
    let keep = context
        .output_limit
        .saturating_mul(4)
        .clamp(4096, 64 * 1024 * 1024);
    let stop = CancellationToken::new();
    let stdout = spawn_reader(child.stdout.take(), keep, stop.clone());
    let stderr = spawn_reader(child.stderr.take(), keep, stop.clone());

    let (end, status) = tokio::select! {
        biased;
        status = child.wait() => (End::Exited, status.ok()),
        () = cancel.cancelled() => (End::Cancelled, None),
        () = tokio::time::sleep(timeout) => (End::TimedOut, None),
    };
    group.kill();
    let status = match status {
        Some(status) => Some(status),
        None => child.wait().await.ok(),
    };
    let (stdout, stderr) = collect(stdout, stderr, &stop).await;

    let (headline, is_error) = match end {
        End::Exited => (describe_status(status), false),
        End::TimedOut => (
            format!(
                "timed out after {}: the command and every process it started were killed. \
                 Run something quicker, or raise timeout_ms (at most {} ms). Output so far:",
                describe_duration(timeout),
                context.shell_timeout.as_millis()
            ),
            true,
        ),
        End::Cancelled => (
            "cancelled: the command and every process it started were killed. Output so far:"
                .to_string(),
            true,
        ),
    };
    Ok(ToolOutcome {
        output: format_output(&headline, &stdout, &stderr),
        is_error,
        touched: Vec::new(),
    })
}

/// What the readers captured: they get [`READ_GRACE`] to reach the end of their streams,
/// then are stopped (a process outside the group may hold a pipe open).
async fn collect(
    mut stdout: JoinHandle<Captured>,
    mut stderr: JoinHandle<Captured>,
    stop: &CancellationToken,
) -> (Captured, Captured) {
    let both = async {
        while !(stdout.is_finished() && stderr.is_finished()) {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    if tokio::time::timeout(READ_GRACE, both).await.is_err() {
        stop.cancel();
    }
    let out = (&mut stdout).await.unwrap_or_default();
    let err = (&mut stderr).await.unwrap_or_default();
    (out, err)
}

/// `exit code 0`, `killed by signal 9 (SIGKILL)`, ...
fn describe_status(status: Option<ExitStatus>) -> String {
    let Some(status) = status else {
        return "the exit status could not be read".to_string();
    };
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exit code {code}"),
        (None, Some(signal)) => {
            let name = Signal::try_from(signal).map_or("unknown signal", Signal::as_str);
            format!("killed by signal {signal} ({name})")
        }
        (None, None) => "the exit status could not be read".to_string(),
    }
}

/// `2 s` or `1500 ms`.
fn describe_duration(duration: Duration) -> String {
    let ms = duration.as_millis();
    if ms.is_multiple_of(1000) {
        format!("{} s", ms / 1000)
    } else {
        format!("{ms} ms")
    }
}

/// The headline, then each non-empty stream under its label.
fn format_output(headline: &str, stdout: &Captured, stderr: &Captured) -> String {
    let mut output = headline.to_string();
    let mut empty = true;
    for (label, captured) in [("stdout", stdout), ("stderr", stderr)] {
        if captured.total() == 0 {
            continue;
        }
        empty = false;
        let size = if captured.was_cut() {
            format!(" ({} bytes in all)", captured.total())
        } else {
            String::new()
        };
        let text = captured.text();
        output.push_str(&format!("\n--- {label}{size} ---\n{text}"));
        if !text.ends_with('\n') {
            output.push('\n');
        }
    }
    if empty {
        output.push_str("\n(no output)");
    }
    output
}
