//! Command nodes: run `script` with `sh -c` or `python3 -c` in the work dir, in a process
//! group of its own, streaming its output to the stage's `stdout.log`/`stderr.log` and to
//! `command.output` events.
//!
//! When the script exits, anything it left running in its process group is stopped too
//! (SIGTERM, then SIGKILL after a grace); a script that wants a process to outlive the stage
//! starts it with `setsid` and its output sent elsewhere (`setsid server >server.log 2>&1 &`):
//! once the stage ends, nothing reads the stage's pipes, so a process still writing to them
//! would be stopped by SIGPIPE.

mod group;
mod output;
mod record;

pub use group::kill_orphaned_commands;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::Signal;
use nix::unistd::Pid;
use tokio_util::sync::CancellationToken;

use crate::clock::{Clock, rfc3339};
use crate::context::keys;
use crate::emitter::NodeEvents;
use crate::event::Stream;
use crate::outcome::{FailureClass, Outcome};
use crate::rundir::write_json;

use group::{GroupGuard, group_alive, stop_group};
pub use output::OutputLimits;
use output::{collect, spawn_pump};
use record::{INVOCATION, Invocation, TIMING, Timing};

/// Bytes of each stream kept in memory for the context (the log files hold everything).
pub const KEEP_BYTES: usize = 100 * 1024;
/// How long a process group gets between SIGTERM and SIGKILL.
const GRACE: Duration = Duration::from_secs(2);

/// The interpreter of a script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// `sh -c`.
    Shell,
    /// `python3 -c`.
    Python,
}

impl Language {
    /// The name the dialect uses (`shell`, `python`).
    pub fn name(self) -> &'static str {
        match self {
            Language::Shell => "shell",
            Language::Python => "python",
        }
    }

    /// The interpreter looked up on PATH (`sh`, `python3`).
    pub fn program(self) -> &'static str {
        match self {
            Language::Shell => "sh",
            Language::Python => "python3",
        }
    }
}

/// One command stage to run.
#[derive(Debug, Clone)]
pub struct CommandSpec {
    /// The command node's id (in its events and `HEDDLE_NODE_ID`).
    pub node_id: String,
    /// The node's `script` attribute, run by `language`'s interpreter in `work_dir`.
    pub script: String,
    /// Its interpreter.
    pub language: Language,
    /// Time limit.
    pub timeout: Option<Duration>,
    /// Where it runs.
    pub work_dir: PathBuf,
    /// The stage folder (logs, invocation, timing).
    pub stage_dir: PathBuf,
    /// The complete environment of the process.
    pub env: Vec<(String, String)>,
    /// How much output the logs and live events keep.
    pub output_limits: OutputLimits,
}

/// How the wait ended.
#[derive(PartialEq)]
enum End {
    Exited,
    TimedOut,
    Cancelled,
}

/// Runs the command and reports its outcome. Never panics; failures to start are
/// [`FailureClass::Setup`], and `command.output`/`command.stderr` are always set.
pub async fn run_command(
    spec: &CommandSpec,
    events: &NodeEvents,
    cancel: &CancellationToken,
    clock: &dyn Clock,
) -> Outcome {
    let node = &spec.node_id;
    if cancel.is_cancelled() {
        return with_output(
            Outcome::fail(
                FailureClass::Cancelled,
                format!("node `{node}`: cancelled before it started"),
            ),
            String::new(),
            String::new(),
        );
    }
    match run(spec, events, cancel, clock).await {
        Ok(outcome) => outcome,
        Err(reason) => with_output(
            Outcome::fail(FailureClass::Setup, reason),
            String::new(),
            String::new(),
        ),
    }
}

fn with_output(outcome: Outcome, stdout: String, stderr: String) -> Outcome {
    outcome
        .with_update(keys::TOOL_OUTPUT, stdout.clone())
        .with_update(keys::COMMAND_OUTPUT, stdout)
        .with_update(keys::COMMAND_STDERR, stderr)
}

async fn run(
    spec: &CommandSpec,
    events: &NodeEvents,
    cancel: &CancellationToken,
    clock: &dyn Clock,
) -> Result<Outcome, String> {
    let node = &spec.node_id;
    if !spec.work_dir.is_dir() {
        return Err(format!(
            "node `{node}`: work dir {} does not exist or is not a folder",
            spec.work_dir.display()
        ));
    }
    let program = find_program(spec).ok_or_else(|| {
        format!(
            "node `{node}`: language={} needs `{}` on PATH, which was not found",
            spec.language.name(),
            spec.language.program()
        )
    })?;
    let stage = &spec.stage_dir;
    let io_err = |path: &Path, e: std::io::Error| {
        format!(
            "node `{node}`: {}: {}",
            path.display(),
            crate::describe_io(&e)
        )
    };
    std::fs::create_dir_all(stage).map_err(|e| io_err(stage, e))?;
    // A timing file from an earlier attempt would hide this one from orphan cleanup.
    let _ = std::fs::remove_file(stage.join(TIMING));
    let open_log = |name: &str| {
        let path = stage.join(name);
        std::fs::File::create(&path)
            .map(|f| (f, path.clone()))
            .map_err(|e| io_err(&path, e))
    };
    let out_log = open_log("stdout.log")?;
    let err_log = open_log("stderr.log")?;

    let program_text = program.to_string_lossy().into_owned();
    let mut invocation = Invocation {
        node_id: node,
        command: &spec.script,
        language: spec.language.name(),
        argv: [&program_text, "-c", &spec.script],
        work_dir: spec.work_dir.display().to_string(),
        timeout_ms: spec.timeout.map(millis),
        pid: None,
        started_at: rfc3339(clock.now()),
    };
    let invocation_path = stage.join(INVOCATION);
    let write_invocation = |inv: &Invocation<'_>| {
        write_json(&invocation_path, inv, false).map_err(|e| format!("node `{node}`: {e}"))
    };
    write_invocation(&invocation)?;

    let started = Instant::now();
    let mut child = tokio::process::Command::new(&program)
        .arg("-c")
        .arg(&spec.script)
        .current_dir(&spec.work_dir)
        .env_clear()
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| {
            format!(
                "node `{node}`: could not start `{program_text}` for language={}: {}",
                spec.language.name(),
                crate::describe_io(&e)
            )
        })?;
    // Never signal group 0 (our own group) for want of a pid.
    let Some((pid, raw)) = child
        .id()
        .and_then(|pid| Some((pid, i32::try_from(pid).ok().filter(|p| *p > 1)?)))
    else {
        return Err(format!(
            "node `{node}`: `{program_text}` started without a pid"
        ));
    };
    let pgid = Pid::from_raw(raw);
    // Whatever happens below, a dropped future must not leave the group running.
    let mut guard = GroupGuard(Some(pgid));
    invocation.pid = Some(pid);
    write_invocation(&invocation)?;

    let stop = CancellationToken::new();
    let limits = spec.output_limits;
    let out = spawn_pump(
        child.stdout.take(),
        out_log,
        Stream::Stdout,
        limits,
        events,
        &stop,
    );
    let err = spawn_pump(
        child.stderr.take(),
        err_log,
        Stream::Stderr,
        limits,
        events,
        &stop,
    );

    let deadline = async {
        match spec.timeout {
            Some(limit) => tokio::time::sleep(limit).await,
            None => std::future::pending().await,
        }
    };
    let (end, mut status) = tokio::select! {
        biased;
        status = child.wait() => (End::Exited, status.ok()),
        () = deadline => (End::TimedOut, None),
        () = cancel.cancelled() => (End::Cancelled, None),
    };
    let leftovers = end == End::Exited && group_alive(pgid);
    if end != End::Exited || leftovers {
        let readers_done = || out.is_finished() && err.is_finished();
        status = stop_group(pgid, &mut child, status, readers_done).await;
    }
    guard.0 = None;
    let (stdout, stderr) = collect(out, err, &stop).await;
    let duration = started.elapsed();

    let (exit_code, signal) = exit_parts(status);
    let timing = Timing {
        duration_ms: millis(duration),
        exit_code,
        signal,
        timed_out: end == End::TimedOut,
        cancelled: end == End::Cancelled,
        finished_at: rfc3339(clock.now()),
        stdout_bytes: stdout.total(),
        stderr_bytes: stderr.total(),
        not_logged_bytes: stdout.not_logged + stderr.not_logged,
    };
    let mut problems: Vec<String> = [stdout.write_error.clone(), stderr.write_error.clone()]
        .into_iter()
        .flatten()
        .collect();
    if let Err(e) = write_json(&stage.join(TIMING), &timing, false) {
        problems.push(e.to_string());
    }
    let stdout_text = stdout.text("stdout.log");
    let stderr_text = stderr.text("stderr.log");
    let mut outcome = match (end, exit_code, signal) {
        (End::TimedOut, ..) => Outcome::fail(
            FailureClass::Timeout,
            format!(
                "node `{node}`: timed out after {} (process group killed)",
                humantime::format_duration(spec.timeout.unwrap_or_default())
            ),
        ),
        (End::Cancelled, ..) => Outcome::fail(
            FailureClass::Cancelled,
            format!("node `{node}`: cancelled (process group killed)"),
        ),
        (End::Exited, Some(0), _) => {
            Outcome::success().with_notes(format!("exit 0 in {} ms", millis(duration)))
        }
        (End::Exited, Some(code), _) => Outcome::fail(
            FailureClass::Deterministic,
            with_last_line(
                format!("node `{node}`: exit code {code}"),
                &stderr_text,
                &stdout_text,
            ),
        ),
        (End::Exited, None, Some(sig)) => {
            let name = Signal::try_from(sig)
                .map(Signal::as_str)
                .unwrap_or("unknown signal");
            Outcome::fail(
                FailureClass::Deterministic,
                with_last_line(
                    format!("node `{node}`: killed by signal {sig} ({name})"),
                    &stderr_text,
                    &stdout_text,
                ),
            )
        }
        (End::Exited, None, None) => Outcome::fail(
            FailureClass::Deterministic,
            format!("node `{node}`: its exit status could not be read"),
        ),
    };
    if leftovers {
        problems.push("stopped processes it left running in its process group".into());
    }
    for (captured, log) in [(&stdout, "stdout.log"), (&stderr, "stderr.log")] {
        if captured.not_logged > 0 {
            problems.push(format!(
                "{log} keeps the first {} of {} bytes",
                limits.log_bytes,
                captured.total()
            ));
        }
    }
    if !problems.is_empty() {
        let notes = [outcome.notes.clone()]
            .into_iter()
            .chain(problems)
            .filter(|n| !n.is_empty())
            .collect::<Vec<_>>();
        outcome.notes = notes.join("; ");
    }
    Ok(with_output(outcome, stdout_text, stderr_text))
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

fn exit_parts(status: Option<ExitStatus>) -> (Option<i32>, Option<i32>) {
    use std::os::unix::process::ExitStatusExt;
    status.map_or((None, None), |s| (s.code(), s.signal()))
}

/// `head` plus the last non-empty line of `stderr` (else `stdout`), cut to 300 characters.
fn with_last_line(head: String, stderr: &str, stdout: &str) -> String {
    let last = |text: &str| {
        text.lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty())
            .map(str::to_string)
    };
    match last(stderr).or_else(|| last(stdout)) {
        Some(line) if line.chars().count() > 300 => {
            format!("{head}: {}…", line.chars().take(300).collect::<String>())
        }
        Some(line) => format!("{head}: {line}"),
        None => head,
    }
}

/// The interpreter's path, searched on `spec.env`'s PATH (else this process's).
fn find_program(spec: &CommandSpec) -> Option<PathBuf> {
    let path = match spec.env.iter().rev().find(|(k, _)| k == "PATH") {
        Some((_, value)) => value.into(),
        None => std::env::var_os("PATH")?,
    };
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| spec.work_dir.join(dir).join(spec.language.program()))
        .find(|file| {
            file.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_line_prefers_stderr_and_is_trimmed() {
        assert_eq!(with_last_line("h".into(), "a\n  b  \n\n", "c"), "h: b");
        assert_eq!(with_last_line("h".into(), "", "out\n"), "h: out");
        assert_eq!(with_last_line("h".into(), "", ""), "h");
        assert_eq!(
            with_last_line("h".into(), &"y".repeat(400), "")
                .chars()
                .count(),
            3 + 300 + 1
        );
    }
}
