#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `backend="cli"`: the prompt goes in on stdin, stdout is the reply, files touched come from
//! git, failures carry stderr, and cancellation or dropping kills the whole process group.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use heddle_engine::llm::{LlmConversation, LlmErrorKind, LlmEvent, LlmEventSink, LlmRequest};
use heddle_llm::external::open_external;
use heddle_workflow::HandlerKind;
use tokio_util::sync::CancellationToken;

#[derive(Default)]
struct Events(Mutex<Vec<LlmEvent>>);

impl LlmEventSink for Events {
    fn emit(&self, event: LlmEvent) {
        self.0.lock().unwrap().push(event);
    }
}

impl Events {
    fn text(&self) -> String {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter_map(|e| match e {
                LlmEvent::TextDelta(text) => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

fn request(command: Option<&str>, work_dir: &Path) -> LlmRequest {
    LlmRequest {
        run_id: "run-1".into(),
        node_id: "coder".into(),
        kind: HandlerKind::Agent,
        model: None,
        provider: None,
        reasoning_effort: None,
        backend: Some("cli".into()),
        command: command.map(str::to_string),
        max_turns: None,
        work_dir: work_dir.to_path_buf(),
        timeout: None,
        output_schema: None,
        thread_id: None,
    }
}

fn env() -> Vec<(String, String)> {
    std::env::vars().collect()
}

async fn open(command: &str, work_dir: &Path) -> Box<dyn LlmConversation> {
    open_external(&request(Some(command), work_dir), &env(), &work_tree())
        .await
        .unwrap()
}

/// Whether process `pid` is running (a zombie is not).
fn alive(pid: i32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat[stat.rfind(')').unwrap() + 1..]
        .split_whitespace()
        .next();
    state != Some("Z")
}

async fn read_pid(path: &Path) -> i32 {
    for _ in 0..200 {
        if let Some(pid) = std::fs::read_to_string(path)
            .ok()
            .and_then(|text| text.trim().parse().ok())
        {
            return pid;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("no pid in {}", path.display());
}

async fn wait_gone(pid: i32) {
    for _ in 0..200 {
        if !alive(pid) {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("process {pid} is still running");
}

fn git_repo(dir: &Path, files: &[(&str, &str)]) -> git2::Repository {
    let repo = git2::Repository::init(dir).unwrap();
    for (path, text) in files {
        let full = dir.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text).unwrap();
    }
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let who = git2::Signature::now("Test", "test@example.com").unwrap();
    repo.commit(Some("HEAD"), &who, &who, "initial", &tree, &[])
        .unwrap();
    drop(tree);
    repo
}

#[tokio::test]
async fn cat_replies_with_the_prompt_streamed_as_text_deltas() {
    let dir = tempfile::tempdir().unwrap();
    let mut conversation = open("cat", dir.path()).await;
    let events = Events::default();
    let prompt = "Fix the bug in main.rs.\nThen run the tests. ✓";
    let reply = conversation
        .send(prompt, &events, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.text, prompt);
    assert_eq!(events.text(), prompt);
    assert_eq!(reply.model, "cli");
    assert!(!reply.simulated);
    assert!(reply.files_touched.is_empty());

    // Every message runs the command afresh.
    let again = conversation
        .send("second", &events, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(again.text, "second");
}

#[tokio::test]
async fn the_command_runs_in_the_work_dir_with_the_given_environment() {
    let dir = tempfile::tempdir().unwrap();
    let mut env = env();
    env.push(("HEDDLE_TEST_VALUE".into(), "from env".into()));
    let command = r#"tr a-z A-Z; printf ' %s %s' "$HEDDLE_TEST_VALUE" "$(basename "$PWD")""#;
    let mut conversation = open_external(&request(Some(command), dir.path()), &env, &work_tree())
        .await
        .unwrap();
    let reply = conversation
        .send("shout", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    let name = dir
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    assert_eq!(reply.text, format!("SHOUT from env {name}"));
}

#[tokio::test]
async fn files_touched_lists_new_and_edited_files_but_not_earlier_changes() {
    let dir = tempfile::tempdir().unwrap();
    git_repo(
        dir.path(),
        &[
            ("tracked.txt", "one\n"),
            ("dirty.txt", "committed\n"),
            (".gitignore", "*.log\n"),
        ],
    );
    // Changes made before the turn are not the agent's.
    std::fs::write(dir.path().join("dirty.txt"), "edited before\n").unwrap();
    std::fs::write(dir.path().join("untracked-before.txt"), "old\n").unwrap();
    let command = "echo two >> tracked.txt; printf new > new.txt; echo x > build.log; \
                   mkdir -p sub && echo y > sub/deep.txt; echo done";
    let mut conversation = open(command, dir.path()).await;
    let reply = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.text, "done\n");
    assert_eq!(
        reply.files_touched,
        ["new.txt", "sub/deep.txt", "tracked.txt"]
    );

    // The same command again: tracked.txt changes again; new.txt and sub/deep.txt do not.
    let again = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(again.files_touched, ["tracked.txt"]);
}

#[tokio::test]
async fn files_touched_is_relative_to_a_work_dir_inside_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    git_repo(dir.path(), &[("sub/keep.txt", "k\n"), ("top.txt", "t\n")]);
    let work_dir = dir.path().join("sub");
    let mut conversation = open("echo a > a.txt; echo changed > ../top.txt", &work_dir).await;
    let reply = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.files_touched, ["a.txt"]);
}

#[tokio::test]
async fn outside_a_git_repository_no_files_are_listed() {
    let dir = tempfile::tempdir().unwrap();
    let mut conversation = open("echo a > a.txt", dir.path()).await;
    let reply = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    assert!(dir.path().join("a.txt").exists());
    assert!(reply.files_touched.is_empty());
}

#[tokio::test]
async fn a_non_zero_exit_is_fatal_with_the_end_of_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let command = "echo partial; echo 'warming up' >&2; echo 'error: quota exhausted' >&2; exit 4";
    let mut conversation = open(command, dir.path()).await;
    let error = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Fatal);
    assert!(
        error
            .message
            .starts_with(&format!("cli agent `{command}` exited with status 4: ")),
        "{}",
        error.message
    );
    assert!(
        error
            .message
            .ends_with("warming up | error: quota exhausted")
    );
}

#[tokio::test]
async fn a_missing_acp_command_is_a_config_error_naming_node_and_attribute() {
    // Without `cli.command` a CLI is chosen by the model (tests/cli_agents.rs); an ACP agent
    // has no such default.
    let dir = tempfile::tempdir().unwrap();
    for command in [None, Some("   ")] {
        let mut request = request(command, dir.path());
        request.backend = Some("acp".into());
        let error = open_external(&request, &env(), &work_tree())
            .await
            .err()
            .unwrap();
        assert_eq!(error.kind, LlmErrorKind::Config);
        assert!(error.message.contains("`coder`"), "{}", error.message);
        assert!(error.message.contains("acp.command"), "{}", error.message);
    }
}

#[tokio::test]
async fn a_command_that_cannot_start_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let command = "heddle-no-such-agent --flag";
    let mut conversation = open(command, dir.path()).await;
    let error = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Config);
    assert!(error.message.contains(command), "{}", error.message);
    assert!(error.message.contains("not found"), "{}", error.message);

    let missing = dir.path().join("missing");
    let mut conversation = open("cat", &missing).await;
    let error = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Config);
    assert!(
        error.message.contains("does not exist"),
        "{}",
        error.message
    );
}

#[tokio::test]
async fn an_unknown_backend_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let mut request = request(Some("cat"), dir.path());
    request.backend = Some("builtin".into());
    let error = open_external(&request, &env(), &work_tree())
        .await
        .err()
        .unwrap();
    assert_eq!(error.kind, LlmErrorKind::Config);
}

/// A command that starts a grandchild and records both pids in `pids`, then waits.
fn sleeper(pids: &Path) -> String {
    format!(
        "sleep 60 & echo $! > '{g}'; echo $$ > '{s}'; echo started; wait",
        g = pids.join("grandchild").display(),
        s = pids.join("shell").display()
    )
}

#[tokio::test]
async fn cancellation_kills_the_process_group_quickly() {
    let dir = tempfile::tempdir().unwrap();
    let pids = tempfile::tempdir().unwrap();
    let mut conversation = open(&sleeper(pids.path()), dir.path()).await;
    let cancel = CancellationToken::new();
    let events = Events::default();
    let canceller = async {
        let shell = read_pid(&pids.path().join("shell")).await;
        let grandchild = read_pid(&pids.path().join("grandchild")).await;
        assert!(alive(shell) && alive(grandchild));
        cancel.cancel();
        (Instant::now(), shell, grandchild)
    };
    let (result, (cancelled_at, shell, grandchild)) =
        tokio::join!(conversation.send("go", &events, &cancel), canceller);
    assert!(cancelled_at.elapsed() < Duration::from_secs(2));
    let error = result.unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Cancelled);
    wait_gone(shell).await;
    wait_gone(grandchild).await;
}

#[tokio::test]
async fn dropping_the_turn_and_conversation_kills_the_process_group() {
    let dir = tempfile::tempdir().unwrap();
    let pids = tempfile::tempdir().unwrap();
    let mut conversation = open(&sleeper(pids.path()), dir.path()).await;
    let cancel = CancellationToken::new();
    let events = Events::default();
    let (shell, grandchild) = tokio::select! {
        _ = conversation.send("go", &events, &cancel) => panic!("the command ended"),
        pids = async {
            let shell = read_pid(&pids.path().join("shell")).await;
            (shell, read_pid(&pids.path().join("grandchild")).await)
        } => pids,
    };
    drop(conversation);
    wait_gone(shell).await;
    wait_gone(grandchild).await;
}

#[tokio::test]
async fn what_the_command_leaves_running_is_killed_when_it_exits() {
    let dir = tempfile::tempdir().unwrap();
    let pids = tempfile::tempdir().unwrap();
    let leftover: PathBuf = pids.path().join("leftover");
    let command = format!("sleep 60 & echo $! > '{}'; echo done", leftover.display());
    let started = Instant::now();
    let mut conversation = open(&command, dir.path()).await;
    let reply = conversation
        .send("go", &Events::default(), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.text, "done\n");
    assert!(started.elapsed() < Duration::from_secs(10));
    wait_gone(read_pid(&leftover).await).await;
}

/// Which files a turn touched, told by git status as heddle-api wires it.
fn work_tree() -> std::sync::Arc<dyn heddle_engine::work_tree::WorkTreeWatch> {
    std::sync::Arc::new(heddle_checkpoint::GitStatusWatch)
}
