//! Command nodes against real processes: logs and metadata, failures, timeouts and
//! cancellation killing whole process groups, orphan cleanup. What the output becomes
//! (streaming, logs, limits) is in `command/output.rs`.

#[path = "command/fixture.rs"]
mod fixture;
#[path = "command/output.rs"]
mod output;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::time::{Duration, Instant};

use heddle_engine::handlers::command::{Language, OutputLimits, kill_orphaned_commands};
use heddle_engine::{FailureClass, RunDir, StageStatus};
use tokio_util::sync::CancellationToken;

use fixture::{Fixture, TestResult, context_text, gone_within, read_json, read_pid, streamed};

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
    // Long enough for a loaded machine to reach `echo started` (after the trap) first.
    fx.spec.timeout = Some(Duration::from_secs(1));
    let start = Instant::now();
    let outcome = fx.run().await;
    let took = start.elapsed();
    // Everything a failure needs to be understood, in every message below.
    let seen = format!(
        "took {took:?}; outcome {outcome:?}; bg.pid {:?}; timing {:?}",
        std::fs::read_to_string(fx.work("bg.pid")).ok(),
        std::fs::read_to_string(fx.stage("script_timing.json")).ok()
    );
    assert_eq!(
        context_text(&outcome, "command.output"),
        "started\n",
        "the script never got going: {seen}"
    );
    // The timeout, then the whole grace (SIGTERM is ignored), then SIGKILL.
    assert!(
        took >= Duration::from_secs(3) && took < Duration::from_secs(10),
        "{seen}"
    );
    assert_eq!(outcome.failure_class, Some(FailureClass::Timeout), "{seen}");
    let bg = read_pid(&fx.work("bg.pid"))?;
    assert!(
        gone_within(bg, Duration::from_secs(5)).await,
        "background {bg} still runs: {seen}"
    );
    assert_eq!(
        read_json(&fx.stage("script_timing.json"))?["signal"],
        9,
        "{seen}"
    );
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

    use std::os::unix::process::ExitStatusExt;
    // The kills are sent; how soon a process is gone depends on the machine's load. The
    // others are looked at no sooner than 200 ms after, and after the orphan is gone.
    let killed_by = Instant::now();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut status = reap.0[0].try_wait()?;
    while status.is_none() && killed_by.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(20)).await;
        status = reap.0[0].try_wait()?;
    }
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
    // `yes` writes about a gigabyte while the stage winds down; none of it needs keeping.
    fx.spec.output_limits = OutputLimits {
        log_bytes: 1024 * 1024,
        event_bytes: 64 * 1024,
    };
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
