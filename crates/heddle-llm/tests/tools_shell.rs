#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The shell tool: output and exit codes, the filtered environment, and the process group
//! killed whole on timeout, cancellation and exit.

use std::path::Path;
use std::time::{Duration, Instant};

use heddle_llm::tools::{ToolContext, ToolOutcome, Toolbox};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn toolbox(dir: &Path, env: Vec<(String, String)>, output_limit: usize) -> Toolbox {
    Toolbox::new(ToolContext {
        work_dir: dir.to_path_buf(),
        env,
        pass_env: Vec::new(),
        shell_timeout: Duration::from_secs(20),
        output_limit,
    })
}

fn path_env() -> Vec<(String, String)> {
    vec![(
        "PATH".to_string(),
        std::env::var("PATH").unwrap_or_else(|_| "/usr/bin:/bin".to_string()),
    )]
}

async fn shell(dir: &Path, args: Value) -> ToolOutcome {
    toolbox(dir, path_env(), 20_000)
        .call("shell", &args, &CancellationToken::new())
        .await
}

/// Whether process `pid` is still running (a zombie is not).
fn running(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .and_then(|rest| rest.split_whitespace().next())
                .unwrap_or("");
            state != "Z"
        }
        Err(_) => false,
    }
}

/// Waits up to 3 s for process `pid` to stop running.
async fn gone(pid: i32) -> bool {
    for _ in 0..300 {
        if !running(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    false
}

fn read_pid(dir: &Path) -> i32 {
    std::fs::read_to_string(dir.join("pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn output_and_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("here.txt"), "").unwrap();
    let ok = shell(
        dir.path(),
        json!({"command": "echo hello; ls; echo oops >&2"}),
    )
    .await;
    assert!(!ok.is_error, "{}", ok.output);
    assert!(ok.output.starts_with("exit code 0"), "{}", ok.output);
    assert!(
        ok.output.contains("--- stdout ---\nhello\nhere.txt\n"),
        "{}",
        ok.output
    );
    assert!(
        ok.output.contains("--- stderr ---\noops\n"),
        "{}",
        ok.output
    );
    assert!(ok.touched.is_empty());

    let failed = shell(dir.path(), json!({"command": "echo failing; exit 3"})).await;
    assert!(
        !failed.is_error,
        "a non-zero exit is information, not a tool error"
    );
    assert!(
        failed.output.starts_with("exit code 3"),
        "{}",
        failed.output
    );
    assert!(failed.output.contains("failing"));

    let quiet = shell(dir.path(), json!({"command": "true"})).await;
    assert_eq!(quiet.output, "exit code 0\n(no output)");

    let stdin = shell(dir.path(), json!({"command": "cat; echo after"})).await;
    assert!(
        stdin.output.contains("after"),
        "stdin is empty: {}",
        stdin.output
    );
}

#[tokio::test]
async fn secrets_are_filtered_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let mut env = path_env();
    for (k, v) in [
        ("OPENAI_API_KEY", "k1"),
        ("github_token", "k2"),
        ("DB_PASSWORD", "k3"),
        ("APP_SECRET", "k4"),
        ("AWS_SECRET_ACCESS_KEY", "k5"),
        ("AWS_SESSION_TOKEN", "k6"),
        ("GOOGLE_APPLICATION_CREDENTIALS", "k7"),
        ("NORMAL_VAR", "kept-value"),
    ] {
        env.push((k.to_string(), v.to_string()));
    }
    let outcome = toolbox(dir.path(), env, 20_000)
        .call(
            "shell",
            &json!({"command": "env"}),
            &CancellationToken::new(),
        )
        .await;
    assert!(!outcome.is_error, "{}", outcome.output);
    assert!(
        outcome.output.contains("NORMAL_VAR=kept-value"),
        "{}",
        outcome.output
    );
    for secret in ["k1", "k2", "k3", "k4", "k5", "k6", "k7"] {
        assert!(
            !outcome.output.contains(&format!("={secret}\n")),
            "{}",
            outcome.output
        );
    }
    assert!(!outcome.output.contains("OPENAI_API_KEY"));
}

#[tokio::test]
async fn timeout_kills_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let outcome = shell(
        dir.path(),
        json!({"command": "echo started; sleep 30 & echo $! > pid; sleep 30", "timeout_ms": 700}),
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(outcome.is_error);
    assert!(
        outcome.output.starts_with("timed out after 700 ms"),
        "{}",
        outcome.output
    );
    assert!(
        outcome.output.contains("started"),
        "output so far: {}",
        outcome.output
    );
    let pid = read_pid(dir.path());
    assert!(gone(pid).await, "background grandchild {pid} still running");
}

#[tokio::test]
async fn timeout_ms_is_capped_by_the_context() {
    let dir = tempfile::tempdir().unwrap();
    let toolbox = Toolbox::new(ToolContext {
        work_dir: dir.path().to_path_buf(),
        env: path_env(),
        pass_env: Vec::new(),
        shell_timeout: Duration::from_millis(500),
        output_limit: 20_000,
    });
    let started = Instant::now();
    let outcome = toolbox
        .call(
            "shell",
            &json!({"command": "sleep 30", "timeout_ms": 60000}),
            &CancellationToken::new(),
        )
        .await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(outcome.is_error);
    assert!(
        outcome.output.starts_with("timed out after 500 ms"),
        "{}",
        outcome.output
    );
}

#[tokio::test]
async fn cancellation_kills_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let toolbox = toolbox(dir.path(), path_env(), 20_000);
    let cancel = CancellationToken::new();
    let canceller = cancel.clone();
    let pid_file = dir.path().join("pid");
    tokio::spawn(async move {
        // Cancel once the background job is running.
        for _ in 0..500 {
            if std::fs::read_to_string(&pid_file).is_ok_and(|s| s.ends_with('\n')) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        canceller.cancel();
    });
    let started = Instant::now();
    let outcome = toolbox
        .call(
            "shell",
            &json!({"command": "sleep 30 & echo $! > pid; sleep 30"}),
            &cancel,
        )
        .await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(outcome.is_error);
    assert!(
        outcome.output.starts_with("cancelled"),
        "{}",
        outcome.output
    );
    let pid = read_pid(dir.path());
    assert!(gone(pid).await, "background grandchild {pid} still running");

    let before = toolbox
        .call("shell", &json!({"command": "echo never > ran"}), &cancel)
        .await;
    assert!(before.is_error);
    assert!(!dir.path().join("ran").exists());
}

#[tokio::test]
async fn a_background_child_holding_stdout_does_not_hang_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let outcome = shell(
        dir.path(),
        json!({"command": "sleep 30 & echo $! > pid; echo done"}),
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(!outcome.is_error, "{}", outcome.output);
    assert!(
        outcome.output.starts_with("exit code 0"),
        "{}",
        outcome.output
    );
    assert!(outcome.output.contains("done"));
    let pid = read_pid(dir.path());
    assert!(gone(pid).await, "background child {pid} still running");
}

#[tokio::test]
async fn long_output_keeps_head_and_tail_with_a_note() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = toolbox(dir.path(), path_env(), 2_000)
        .call(
            "shell",
            &json!({"command": "echo FIRST; i=0; while [ $i -lt 3000 ]; do echo line $i; i=$((i+1)); done; echo LAST"}),
            &CancellationToken::new(),
        )
        .await;
    assert!(!outcome.is_error);
    assert!(
        outcome.output.chars().count() <= 2_000,
        "{}",
        outcome.output.len()
    );
    // The stream was longer than what is kept of it, so its label gives its size.
    assert!(
        outcome
            .output
            .starts_with("exit code 0\n--- stdout (28901 bytes in all) ---\nFIRST\nline 0\n"),
        "{}",
        outcome.output
    );
    assert!(
        outcome.output.ends_with("line 2999\nLAST\n"),
        "{}",
        outcome.output
    );
    assert!(
        outcome
            .output
            .contains("characters omitted: output was longer than 2000 characters"),
        "{}",
        outcome.output
    );
    assert!(outcome.output.contains("narrow the command"));
}
