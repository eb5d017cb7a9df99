//! Command nodes against real processes: output capture and streaming, logs and metadata,
//! failures, timeouts and cancellation killing whole process groups, orphan cleanup.

use std::error::Error;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use heddle_engine::event::Stream;
use heddle_engine::handlers::command::{
    CommandSpec, Language, kill_orphaned_commands, run_command,
};
use heddle_engine::{
    Emitter, Envelope, Event, FailureClass, Outcome, RunDir, SeededEntropy, StageStatus,
    SystemClock,
};
use serde_json::Value as Json;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

type TestResult = Result<(), Box<dyn Error>>;

struct Fixture {
    _tmp: tempfile::TempDir,
    spec: CommandSpec,
    emitter: Emitter,
}

impl Fixture {
    fn new(script: &str, language: Language) -> Result<Fixture, Box<dyn Error>> {
        let tmp = tempfile::tempdir()?;
        let work_dir = tmp.path().join("work");
        std::fs::create_dir_all(&work_dir)?;
        let env = std::env::vars()
            .filter(|(k, _)| k != "HEDDLE_RUN_ID")
            .chain([("HEDDLE_RUN_ID".to_string(), "run1".to_string())])
            .collect();
        let spec = CommandSpec {
            node_id: "n".into(),
            script: script.into(),
            language,
            timeout: None,
            work_dir,
            stage_dir: tmp.path().join("run/nodes/n"),
            env,
        };
        let emitter = Emitter::open(
            "run1",
            None,
            Arc::new(SystemClock::new()),
            Arc::new(SeededEntropy::new(1)),
        )?;
        Ok(Fixture {
            _tmp: tmp,
            spec,
            emitter,
        })
    }

    fn work(&self, name: &str) -> PathBuf {
        self.spec.work_dir.join(name)
    }

    fn stage(&self, name: &str) -> PathBuf {
        self.spec.stage_dir.join(name)
    }

    async fn run_with(&self, cancel: &CancellationToken) -> Outcome {
        let events = self.emitter.for_node("n");
        run_command(&self.spec, &events, cancel, &SystemClock::new()).await
    }

    async fn run(&self) -> Outcome {
        self.run_with(&CancellationToken::new()).await
    }
}

fn context_text(outcome: &Outcome, key: &str) -> String {
    outcome
        .context_updates
        .get(key)
        .and_then(Json::as_str)
        .unwrap_or("<missing>")
        .to_string()
}

/// Every command.output event received so far, joined per stream.
fn streamed(rx: &mut broadcast::Receiver<Envelope>) -> (String, String) {
    let (mut out, mut err) = (String::new(), String::new());
    while let Ok(envelope) = rx.try_recv() {
        if let Event::CommandOutput { stream, text } = envelope.event {
            match stream {
                Stream::Stdout => out.push_str(&text),
                Stream::Stderr => err.push_str(&text),
            }
        }
    }
    (out, err)
}

fn read_json(path: &Path) -> Result<Json, Box<dyn Error>> {
    Ok(serde_json::from_str(&std::fs::read_to_string(path)?)?)
}

/// Alive and not a zombie (an unreaped dead process still answers kill(pid, 0)).
fn running(pid: i32) -> bool {
    let zombie = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| {
            s.rfind(')')
                .map(|i| s[i + 1..].trim_start().starts_with('Z'))
        })
        .unwrap_or(false);
    std::path::Path::new(&format!("/proc/{pid}")).exists() && !zombie
}

async fn gone_within(pid: i32, limit: Duration) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if !running(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    !running(pid)
}

fn read_pid(path: &Path) -> Result<i32, Box<dyn Error>> {
    Ok(std::fs::read_to_string(path)?.trim().parse()?)
}

#[tokio::test]
async fn success_captures_output_logs_and_metadata() -> TestResult {
    let fx = Fixture::new(
        "echo hello; echo oops >&2; pwd > where.txt",
        Language::Shell,
    )?;
    let mut rx = fx.emitter.subscribe();
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Success, "{outcome:?}");
    assert!(outcome.notes.starts_with("exit 0 in ") && outcome.notes.ends_with(" ms"));
    assert_eq!(context_text(&outcome, "command.output"), "hello\n");
    assert_eq!(context_text(&outcome, "command.stderr"), "oops\n");
    assert_eq!(std::fs::read_to_string(fx.stage("stdout.log"))?, "hello\n");
    assert_eq!(std::fs::read_to_string(fx.stage("stderr.log"))?, "oops\n");
    assert_eq!(streamed(&mut rx), ("hello\n".into(), "oops\n".into()));
    // It ran in the work dir.
    let cwd = std::fs::read_to_string(fx.work("where.txt"))?;
    assert_eq!(
        Path::new(cwd.trim()).canonicalize()?,
        fx.spec.work_dir.canonicalize()?
    );

    let invocation = read_json(&fx.stage("script_invocation.json"))?;
    assert_eq!(invocation["command"], fx.spec.script.as_str());
    assert_eq!(invocation["language"], "shell");
    assert_eq!(invocation["argv"][1], "-c");
    assert!(
        invocation["argv"][0]
            .as_str()
            .unwrap_or("")
            .ends_with("/sh")
    );
    assert_eq!(
        invocation["work_dir"],
        fx.spec.work_dir.display().to_string()
    );
    assert!(invocation["pid"].as_u64().unwrap_or(0) > 1);
    assert!(invocation["timeout_ms"].is_null());
    assert!(
        invocation["started_at"]
            .as_str()
            .unwrap_or("")
            .ends_with('Z')
    );

    let timing = read_json(&fx.stage("script_timing.json"))?;
    assert_eq!(timing["exit_code"], 0);
    assert!(timing["signal"].is_null());
    assert_eq!(timing["timed_out"], false);
    assert_eq!(timing["cancelled"], false);
    assert!(timing["duration_ms"].is_u64());
    assert!(timing["finished_at"].is_string());
    Ok(())
}

#[tokio::test]
async fn nonzero_exit_fails_with_the_last_stderr_line() -> TestResult {
    let script = "echo progress; echo 'first' >&2; echo '  real problem  ' >&2; echo >&2; exit 3";
    let fx = Fixture::new(script, Language::Shell)?;
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Fail);
    assert_eq!(outcome.failure_class, Some(FailureClass::Deterministic));
    let reason = outcome.failure_reason.clone().unwrap_or_default();
    assert_eq!(reason, "node `n`: exit code 3: real problem");
    assert_eq!(context_text(&outcome, "command.output"), "progress\n");
    let timing = read_json(&fx.stage("script_timing.json"))?;
    assert_eq!(timing["exit_code"], 3);
    Ok(())
}

#[tokio::test]
async fn nonzero_exit_without_stderr_uses_stdout() -> TestResult {
    let fx = Fixture::new("echo 'tests failed: 2'; exit 1", Language::Shell)?;
    let reason = fx.run().await.failure_reason.unwrap_or_default();
    assert_eq!(reason, "node `n`: exit code 1: tests failed: 2");
    Ok(())
}

#[tokio::test]
async fn killed_by_a_signal_names_it() -> TestResult {
    let fx = Fixture::new("kill -9 $$", Language::Shell)?;
    let outcome = fx.run().await;
    assert_eq!(outcome.failure_class, Some(FailureClass::Deterministic));
    let reason = outcome.failure_reason.unwrap_or_default();
    assert!(
        reason.contains("signal 9") && reason.contains("SIGKILL"),
        "{reason}"
    );
    let timing = read_json(&fx.stage("script_timing.json"))?;
    assert!(timing["exit_code"].is_null());
    assert_eq!(timing["signal"], 9);
    Ok(())
}

#[tokio::test]
async fn python_scripts_run_with_python3() -> TestResult {
    let script = "import sys\nprint(6 * 7)\nsys.stderr.write('warn\\n')";
    let fx = Fixture::new(script, Language::Python)?;
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Success, "{outcome:?}");
    assert_eq!(context_text(&outcome, "command.output"), "42\n");
    assert_eq!(context_text(&outcome, "command.stderr"), "warn\n");
    let invocation = read_json(&fx.stage("script_invocation.json"))?;
    assert_eq!(invocation["language"], "python");
    assert!(
        invocation["argv"][0]
            .as_str()
            .unwrap_or("")
            .ends_with("/python3")
    );
    Ok(())
}

#[tokio::test]
async fn missing_interpreter_is_a_setup_error_naming_the_node() -> TestResult {
    for (language, program) in [(Language::Python, "python3"), (Language::Shell, "sh")] {
        let mut fx = Fixture::new("print(1)", language)?;
        let empty = fx.work("empty-bin");
        std::fs::create_dir_all(&empty)?;
        fx.spec.node_id = "count".into();
        fx.spec.env.retain(|(k, _)| k != "PATH");
        fx.spec
            .env
            .push(("PATH".into(), empty.display().to_string()));
        let outcome = fx.run().await;
        assert_eq!(outcome.failure_class, Some(FailureClass::Setup));
        let reason = outcome.failure_reason.clone().unwrap_or_default();
        let expected = format!(
            "node `count`: language={} needs `{program}` on PATH, which was not found",
            language.name()
        );
        assert_eq!(reason, expected);
        assert_eq!(context_text(&outcome, "command.output"), "");
        assert_eq!(context_text(&outcome, "command.stderr"), "");
    }
    Ok(())
}

#[tokio::test]
async fn missing_work_dir_is_a_setup_error_naming_it() -> TestResult {
    let mut fx = Fixture::new("echo hi", Language::Shell)?;
    fx.spec.work_dir = fx.spec.work_dir.join("nope");
    let outcome = fx.run().await;
    assert_eq!(outcome.failure_class, Some(FailureClass::Setup));
    let reason = outcome.failure_reason.unwrap_or_default();
    assert!(reason.starts_with("node `n`: work dir "), "{reason}");
    assert!(
        reason.contains(&fx.spec.work_dir.display().to_string()),
        "{reason}"
    );
    Ok(())
}

const GROUP_SCRIPT: &str = "sleep 30 & echo $! > bg.pid; echo $$ > sh.pid; echo started; sleep 30";

#[tokio::test]
async fn timeout_kills_the_whole_process_group() -> TestResult {
    let mut fx = Fixture::new(GROUP_SCRIPT, Language::Shell)?;
    fx.spec.timeout = Some(Duration::from_secs(1));
    let start = Instant::now();
    let outcome = fx.run().await;
    let took = start.elapsed();
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(8),
        "{took:?}"
    );
    assert_eq!(outcome.failure_class, Some(FailureClass::Timeout));
    assert_eq!(
        outcome.failure_reason.as_deref(),
        Some("node `n`: timed out after 1s (process group killed)")
    );
    assert_eq!(context_text(&outcome, "command.output"), "started\n");
    for file in ["bg.pid", "sh.pid"] {
        let pid = read_pid(&fx.work(file))?;
        assert!(
            gone_within(pid, Duration::from_secs(2)).await,
            "{file} {pid} still runs"
        );
    }
    let timing = read_json(&fx.stage("script_timing.json"))?;
    assert_eq!(timing["timed_out"], true);
    assert!(timing["exit_code"].is_null());
    assert_eq!(timing["signal"], 15);
    let invocation = read_json(&fx.stage("script_invocation.json"))?;
    assert_eq!(invocation["timeout_ms"], 1000);
    Ok(())
}

#[tokio::test]
async fn cancellation_kills_the_whole_process_group() -> TestResult {
    let fx = Fixture::new(GROUP_SCRIPT, Language::Shell)?;
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        trigger.cancel();
    });
    let start = Instant::now();
    let outcome = fx.run_with(&cancel).await;
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(outcome.failure_class, Some(FailureClass::Cancelled));
    let bg = read_pid(&fx.work("bg.pid"))?;
    assert!(
        gone_within(bg, Duration::from_secs(2)).await,
        "background {bg} still runs"
    );
    let timing = read_json(&fx.stage("script_timing.json"))?;
    assert_eq!(timing["cancelled"], true);
    Ok(())
}

#[tokio::test]
async fn a_group_ignoring_sigterm_gets_sigkill_after_the_grace() -> TestResult {
    let script = format!("trap '' TERM; {GROUP_SCRIPT}");
    let mut fx = Fixture::new(&script, Language::Shell)?;
    fx.spec.timeout = Some(Duration::from_millis(300));
    let start = Instant::now();
    let outcome = fx.run().await;
    let took = start.elapsed();
    assert!(
        took >= Duration::from_secs(2) && took < Duration::from_secs(8),
        "{took:?}"
    );
    assert_eq!(outcome.failure_class, Some(FailureClass::Timeout));
    let bg = read_pid(&fx.work("bg.pid"))?;
    assert!(
        gone_within(bg, Duration::from_secs(2)).await,
        "background {bg} still runs"
    );
    assert_eq!(read_json(&fx.stage("script_timing.json"))?["signal"], 9);
    Ok(())
}

#[tokio::test]
async fn background_processes_left_after_exit_are_stopped() -> TestResult {
    let fx = Fixture::new(
        "sleep 30 > /dev/null 2>&1 & echo $! > bg.pid",
        Language::Shell,
    )?;
    let start = Instant::now();
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Success, "{outcome:?}");
    assert!(start.elapsed() < Duration::from_secs(5));
    assert!(outcome.notes.contains("left running"), "{}", outcome.notes);
    let bg = read_pid(&fx.work("bg.pid"))?;
    assert!(
        gone_within(bg, Duration::from_secs(2)).await,
        "background {bg} still runs"
    );
    Ok(())
}

#[tokio::test]
async fn output_streams_while_the_process_runs() -> TestResult {
    let fx = Fixture::new("echo first; sleep 1; echo second", Language::Shell)?;
    let mut rx = fx.emitter.subscribe();
    let spec = fx.spec.clone();
    let events = fx.emitter.for_node("n");
    let task = tokio::spawn(async move {
        run_command(
            &spec,
            &events,
            &CancellationToken::new(),
            &SystemClock::new(),
        )
        .await
    });
    let first = tokio::time::timeout(Duration::from_secs(5), rx.recv()).await??;
    assert!(
        !task.is_finished(),
        "the first chunk came only after the process ended"
    );
    assert_eq!(
        first.event,
        Event::CommandOutput {
            stream: Stream::Stdout,
            text: "first\n".into()
        }
    );
    assert_eq!(first.node_id.as_deref(), Some("n"));
    // The log already holds it (a `tail -f` sees it).
    assert_eq!(std::fs::read_to_string(fx.stage("stdout.log"))?, "first\n");
    let outcome = task.await?;
    assert_eq!(outcome.status, StageStatus::Success);
    assert_eq!(streamed(&mut rx).0, "second\n");
    Ok(())
}

#[tokio::test]
async fn large_output_keeps_the_tail_in_the_context() -> TestResult {
    let script = "yes abcdefghi | head -c 300000; printf END; printf 'tail' >&2";
    let fx = Fixture::new(script, Language::Shell)?;
    let mut rx = fx.emitter.subscribe();
    let outcome = fx.run().await;
    assert_eq!(outcome.status, StageStatus::Success, "{outcome:?}");
    let kept = context_text(&outcome, "command.output");
    let (first, rest) = kept.split_once('\n').unwrap_or_default();
    assert_eq!(
        first,
        "[197603 bytes cut; the full output is in stdout.log]"
    );
    assert_eq!(rest.len(), 100 * 1024);
    assert!(rest.ends_with("abcdefghi\nEND"));
    assert_eq!(context_text(&outcome, "command.stderr"), "tail");
    assert_eq!(std::fs::metadata(fx.stage("stdout.log"))?.len(), 300_003);
    assert_eq!(streamed(&mut rx).0.len(), 300_003);
    Ok(())
}

/// Kills and reaps test processes even when an assertion fails.
struct Reap(Vec<std::process::Child>);

impl Drop for Reap {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn detached(
    script: &str,
    run_id: Option<&str>,
    dir: &Path,
) -> std::io::Result<std::process::Child> {
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .process_group(0);
    if let Some(id) = run_id {
        command.env("HEDDLE_RUN_ID", id);
    }
    command.spawn()
}

fn stage_with(run: &RunDir, name: &str, pid: u32, finished: bool) -> TestResult {
    let dir = run.nodes_dir().join(name);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(
        dir.join("script_invocation.json"),
        format!("{{\"pid\": {pid}}}"),
    )?;
    if finished {
        std::fs::write(dir.join("script_timing.json"), "{}")?;
    }
    Ok(())
}

#[tokio::test]
async fn kill_orphaned_commands_only_kills_this_runs_processes() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let run = RunDir::create(tmp.path().join("run"))?;
    let here = tmp.path();
    let mut reap = Reap(Vec::new());
    // `exec` so the recorded pid is the sleeping process itself.
    reap.0.push(detached("exec sleep 30", Some("run1"), here)?); // orphan of run1
    reap.0.push(detached("exec sleep 30", None, here)?); // pid reused by a stranger
    reap.0.push(detached("exec sleep 30", Some("run2"), here)?); // another run's
    reap.0.push(detached("exec sleep 30", Some("run1"), here)?); // finished stage
    // A leader that exited, leaving a background child in its group.
    let mut leader = detached("sleep 30 & echo $! > bg.pid", Some("run1"), here)?;
    leader.wait()?;
    let bg = read_pid(&here.join("bg.pid"))?;
    for (i, name) in ["a", "b", "c", "d"].iter().enumerate() {
        stage_with(&run, name, reap.0[i].id(), *name == "d")?;
    }
    stage_with(&run, "e-visit_2", leader.id(), false)?;

    let notes = kill_orphaned_commands(&run, "run1");
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("stage a ")), "{notes:?}");
    assert!(
        notes.iter().any(|n| n.contains("stage e-visit_2 ")),
        "{notes:?}"
    );

    tokio::time::sleep(Duration::from_millis(200)).await;
    use std::os::unix::process::ExitStatusExt;
    let status = reap.0[0].try_wait()?;
    assert_eq!(
        status.and_then(|s| s.signal()),
        Some(9),
        "the orphan still runs"
    );
    for (i, child) in reap.0.iter_mut().enumerate().skip(1) {
        assert!(child.try_wait()?.is_none(), "process {i} was killed");
    }
    assert!(
        gone_within(bg, Duration::from_secs(2)).await,
        "background {bg} still runs"
    );
    // Nothing is left to kill the second time.
    assert!(kill_orphaned_commands(&run, "run1").is_empty());
    Ok(())
}

/// A process that leaves the group (setsid) and writes without pause must not hold the
/// stage open: the readers stop after the grace and the timeout still ends the stage.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_escaped_writer_cannot_hold_the_stage_open() -> TestResult {
    let mut fx = Fixture::new(
        "setsid sh -c 'echo $$ > escaped.pid; exec yes' & echo started; sleep 30",
        Language::Shell,
    )?;
    fx.spec.timeout = Some(Duration::from_secs(1));
    let start = Instant::now();
    let outcome = fx.run().await;
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "the stage was held open for {:?}",
        start.elapsed()
    );
    assert_eq!(outcome.failure_class, Some(FailureClass::Timeout));
    // The escaped writer dies of SIGPIPE once nothing reads the pipe any more.
    let pid = read_pid(&fx.work("escaped.pid"))?;
    assert!(
        gone_within(pid, Duration::from_secs(5)).await,
        "{pid} still writes"
    );
    Ok(())
}
