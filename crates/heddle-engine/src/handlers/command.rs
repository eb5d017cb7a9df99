//! Command nodes: run `script` with `sh -c` or `python3 -c` in the work dir, in a process
//! group of its own, streaming its output to the stage's `stdout.log`/`stderr.log` and to
//! `command.output` events.
//!
//! When the script exits, anything it left running in its process group is stopped too
//! (SIGTERM, then SIGKILL after a grace); a script that wants a process to outlive the stage
//! starts it with `setsid`.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill, killpg};
use nix::unistd::Pid;
use serde::Serialize;
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio_util::sync::CancellationToken;

use crate::clock::{Clock, rfc3339};
use crate::context::keys;
use crate::emitter::NodeEvents;
use crate::event::{Event, Stream};
use crate::outcome::{FailureClass, Outcome};
use crate::rundir::{read_json, write_json};

/// Bytes of each stream kept in memory for the context (the log files hold everything).
pub const KEEP_BYTES: usize = 100 * 1024;
/// How long a process group gets between SIGTERM and SIGKILL.
const GRACE: Duration = Duration::from_secs(2);
const INVOCATION: &str = "script_invocation.json";
const TIMING: &str = "script_timing.json";

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
    /// The node.
    pub node_id: String,
    /// The script.
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
}

#[derive(Serialize)]
struct Invocation<'a> {
    node_id: &'a str,
    command: &'a str,
    language: &'static str,
    argv: [&'a str; 3],
    work_dir: String,
    timeout_ms: Option<u64>,
    pid: Option<u32>,
    started_at: String,
}

#[derive(Serialize)]
struct Timing {
    duration_ms: u64,
    exit_code: Option<i32>,
    signal: Option<i32>,
    timed_out: bool,
    cancelled: bool,
    finished_at: String,
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
    let (stdout_log, stdout_path) = open_log("stdout.log")?;
    let (stderr_log, stderr_path) = open_log("stderr.log")?;

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
    let pump_task = |reader: Option<Box<dyn AsyncRead + Unpin + Send>>, log, path, stream| {
        tokio::spawn(pump(
            reader,
            log,
            path,
            stream,
            events.clone(),
            stop.clone(),
        ))
    };
    let out = pump_task(
        child.stdout.take().map(|r| Box::new(r) as _),
        stdout_log,
        stdout_path,
        Stream::Stdout,
    );
    let err = pump_task(
        child.stderr.take().map(|r| Box::new(r) as _),
        stderr_log,
        stderr_path,
        Stream::Stderr,
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
        let _ = killpg(pgid, Signal::SIGTERM);
        let limit = Instant::now() + GRACE;
        loop {
            if status.is_none() {
                status = child.try_wait().ok().flatten();
            }
            if status.is_some() && readers_done() && !group_alive(pgid) {
                break;
            }
            if Instant::now() >= limit {
                let _ = killpg(pgid, Signal::SIGKILL);
                break;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        if status.is_none() {
            status = child.wait().await.ok();
        }
    }
    guard.0 = None;
    // Drain what is left; something that escaped the group may hold a pipe open.
    if tokio::time::timeout(GRACE, async {
        while !(out.is_finished() && err.is_finished()) {
            tokio::time::sleep(Duration::from_millis(10)).await
        }
    })
    .await
    .is_err()
    {
        stop.cancel();
    }
    let (stdout, stderr) = (out.await.unwrap_or_default(), err.await.unwrap_or_default());
    let duration = started.elapsed();

    let (exit_code, signal) = exit_parts(status);
    let timing = Timing {
        duration_ms: millis(duration),
        exit_code,
        signal,
        timed_out: end == End::TimedOut,
        cancelled: end == End::Cancelled,
        finished_at: rfc3339(clock.now()),
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

/// Kills the group if dropped while armed (a cancelled or dropped stage future).
struct GroupGuard(Option<Pid>);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if let Some(pgid) = self.0 {
            let _ = killpg(pgid, Signal::SIGKILL);
        }
    }
}

/// What a stream produced: its last bytes and how many there were.
#[derive(Default)]
struct Captured {
    tail: Vec<u8>,
    total: u64,
    write_error: Option<String>,
}

impl Captured {
    fn push(&mut self, chunk: &[u8]) {
        self.tail.extend_from_slice(chunk);
        self.total += chunk.len() as u64;
        if self.tail.len() > 2 * KEEP_BYTES {
            self.tail.drain(..self.tail.len() - KEEP_BYTES);
        }
    }

    /// The kept text; when output was cut, a first line says how much and where it all is.
    fn text(&self, log_name: &str) -> String {
        let start = self.tail.len().saturating_sub(KEEP_BYTES);
        let start = start
            + self.tail[start..]
                .iter()
                .take_while(|b| **b & 0xC0 == 0x80)
                .count();
        let text = String::from_utf8_lossy(&self.tail[start..]);
        let cut = self.total - (self.tail.len() - start) as u64;
        if cut == 0 {
            text.into_owned()
        } else {
            format!("[{cut} bytes cut; the full output is in {log_name}]\n{text}")
        }
    }
}

/// Length of the longest prefix of `bytes` that does not end inside a UTF-8 character.
fn complete_utf8_len(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let byte = bytes[len - back];
        if byte & 0xC0 == 0x80 {
            continue;
        }
        let needed = match byte {
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        return if needed > back { len - back } else { len };
    }
    len
}

/// Copies one stream to its log file and to events as it arrives, keeping its tail.
async fn pump(
    reader: Option<Box<dyn AsyncRead + Unpin + Send>>,
    mut log: std::fs::File,
    log_path: PathBuf,
    stream: Stream,
    events: NodeEvents,
    stop: CancellationToken,
) -> Captured {
    let mut captured = Captured::default();
    let Some(mut reader) = reader else {
        return captured;
    };
    let mut buf = vec![0u8; 16 * 1024];
    let mut pending = Vec::new();
    let emit = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        events.emit(Event::CommandOutput { stream, text });
    };
    loop {
        let read = tokio::select! {
            biased;
            read = reader.read(&mut buf) => read,
            () = stop.cancelled() => break,
        };
        let chunk = match read {
            Ok(0) | Err(_) => break,
            Ok(n) => &buf[..n],
        };
        if let Err(e) = log.write_all(chunk).and_then(|()| log.flush())
            && captured.write_error.is_none()
        {
            captured.write_error = Some(format!(
                "{}: {}",
                log_path.display(),
                crate::describe_io(&e)
            ));
        }
        captured.push(chunk);
        pending.extend_from_slice(chunk);
        let complete = complete_utf8_len(&pending);
        if complete > 0 {
            emit(&pending[..complete]);
            pending.drain(..complete);
        }
    }
    if !pending.is_empty() {
        emit(&pending);
    }
    captured
}

/// A process of the system: pid, state letter, process group.
struct Proc {
    pid: i32,
    state: char,
    pgrp: i32,
}

/// Every process listed in /proc (empty where there is no /proc).
fn processes() -> Vec<Proc> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // `pid (comm) state ppid pgrp ...`; comm may hold spaces and parentheses.
            let mut fields = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
            let state = fields.next()?.chars().next()?;
            let pgrp = fields.nth(1)?.parse().ok()?;
            Some(Proc { pid, state, pgrp })
        })
        .collect()
}

/// Whether a process of the group is still running (zombies do not count).
fn group_alive(pgid: Pid) -> bool {
    if !Path::new("/proc/self/stat").exists() {
        return killpg(pgid, None).is_ok();
    }
    processes()
        .iter()
        .any(|p| p.pgrp == pgid.as_raw() && p.state != 'Z')
}

/// Whether process `pid`'s environment holds `entry` (`KEY=value`).
fn environ_has(pid: i32, entry: &str) -> bool {
    std::fs::read(format!("/proc/{pid}/environ"))
        .is_ok_and(|env| env.split(|b| *b == 0).any(|item| item == entry.as_bytes()))
}

/// Kills commands a crashed run left running (found through their script_invocation.json):
/// for each stage folder with an invocation and no `script_timing.json`, every live process
/// of the recorded process group whose environment holds `HEDDLE_RUN_ID={run_id}` gets
/// SIGKILL. A process without that variable is never touched (its pid may have been reused).
/// Needs /proc (Linux); elsewhere it kills nothing. Returns a note per stage cleaned up.
pub fn kill_orphaned_commands(run_dir: &crate::RunDir, run_id: &str) -> Vec<String> {
    let marker = format!("HEDDLE_RUN_ID={run_id}");
    let own = i32::try_from(std::process::id()).unwrap_or(0);
    let mut notes = Vec::new();
    let Ok(entries) = std::fs::read_dir(run_dir.nodes_dir()) else {
        return notes;
    };
    for dir in entries.flatten().map(|e| e.path()) {
        let invocation = dir.join(INVOCATION);
        if !invocation.is_file() || dir.join(TIMING).exists() {
            continue;
        }
        let Some(pgid) = read_json::<serde_json::Value>(&invocation)
            .ok()
            .and_then(|v| v.get("pid")?.as_i64())
            .and_then(|p| i32::try_from(p).ok())
            .filter(|p| *p > 1)
        else {
            continue;
        };
        let mut killed = Vec::new();
        // Again after a pause, for children forked while the first signals went out.
        for _ in 0..3 {
            let targets: Vec<i32> = processes()
                .into_iter()
                .filter(|p| {
                    p.pgrp == pgid && p.state != 'Z' && p.pid != own && !killed.contains(&p.pid)
                })
                .filter(|p| environ_has(p.pid, &marker))
                .map(|p| p.pid)
                .collect();
            if targets.is_empty() {
                break;
            }
            for pid in targets {
                if kill(Pid::from_raw(pid), Signal::SIGKILL).is_ok() {
                    killed.push(pid);
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        if !killed.is_empty() {
            let stage = dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            notes.push(format!(
                "killed {} process(es) of stage {stage} left running by run {run_id} (process group {pgid}, pids {killed:?})",
                killed.len()
            ));
        }
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_prefix_stops_before_a_partial_character() {
        let euro = "€".as_bytes(); // 3 bytes
        assert_eq!(complete_utf8_len(b"abc"), 3);
        assert_eq!(complete_utf8_len(&[b'a', euro[0]]), 1);
        assert_eq!(complete_utf8_len(&[b'a', euro[0], euro[1]]), 1);
        assert_eq!(complete_utf8_len(&[b'a', euro[0], euro[1], euro[2]]), 4);
        assert_eq!(complete_utf8_len(&[0x80, 0x80, 0x80, 0x80]), 4);
        assert_eq!(complete_utf8_len(&[]), 0);
    }

    #[test]
    fn captured_keeps_the_tail_and_says_what_was_cut() {
        let mut captured = Captured::default();
        captured.push(b"short");
        assert_eq!(captured.text("stdout.log"), "short");
        for _ in 0..300 {
            captured.push(&[b'x'; 1024]);
        }
        captured.push("é!".as_bytes());
        let text = captured.text("stdout.log");
        let (first, rest) = text.split_once('\n').unwrap_or_default();
        assert!(
            first.contains("bytes cut") && first.contains("stdout.log"),
            "{first}"
        );
        assert!(rest.ends_with("é!"));
        assert_eq!(rest.len(), KEEP_BYTES);
        let cut: u64 = first
            .trim_start_matches('[')
            .split(' ')
            .next()
            .unwrap_or("")
            .parse()
            .unwrap_or(0);
        assert_eq!(cut + KEEP_BYTES as u64, captured.total);
    }

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
