//! Shared by the CLI's run tests: a sandbox (HEDDLE_HOME and a work dir in one temp dir)
//! that runs the real `heddle` binary, and small readers of what it leaves on disk.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

pub mod served;
pub mod team;

/// A temp dir holding `home/` (HEDDLE_HOME) and `work/` (where stages run).
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        std::fs::create_dir_all(dir.path().join("work")).unwrap();
        Sandbox { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.dir.path().join("work")
    }

    /// Makes the work folder a clean repository with one commit (a README and a
    /// `.gitignore` of `ignored/`).
    pub fn clean_repo(&self) {
        let work = self.work();
        git(&work, &["init", "-q"]);
        std::fs::write(work.join("README.md"), "project\n").unwrap();
        std::fs::write(work.join(".gitignore"), "ignored/\n").unwrap();
        git(&work, &["add", "-A"]);
        git(&work, &["commit", "-qm", "init"]);
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_heddle"));
        command
            .args(args)
            .env("HEDDLE_HOME", self.home())
            .env("HOME", self.dir.path())
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("ANTHROPIC_BASE_URL")
            .env_remove("OPENAI_API_KEY")
            .env_remove("OPENAI_BASE_URL")
            .env_remove("OPENAI_COMPATIBLE_BASE_URL")
            .env_remove("OPENAI_COMPATIBLE_API_KEY")
            .env_remove("GEMINI_API_KEY")
            .env_remove("GOOGLE_API_KEY")
            .env_remove("GEMINI_BASE_URL")
            // Logs and span export as each test asks, not as the caller's shell has them.
            .env_remove("RUST_LOG")
            // A team's shared settings only where a test gives them.
            .env_remove("HEDDLE_DATABASE_URL")
            .env_remove("HEDDLE_RUN_FILES_URL")
            .env_remove("HEDDLE_TEAM_REMOTE")
            .env_remove("OTEL_EXPORTER_OTLP_ENDPOINT")
            .env_remove("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
            .env_remove("OTEL_SERVICE_NAME")
            .env("NO_COLOR", "1")
            // These tests run workflows of their own: trusted, as in CI (tests/trust.rs
            // checks the asking without it).
            .env("HEDDLE_TRUST_WORKFLOWS", "1")
            .current_dir(self.work())
            .stdin(Stdio::null());
        command
    }

    pub fn heddle(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// [`Sandbox::command`] without `HEDDLE_TRUST_WORKFLOWS`, so trust is asked for.
    pub fn untrusting(&self, args: &[&str]) -> Command {
        let mut command = self.command(args);
        command.env_remove("HEDDLE_TRUST_WORKFLOWS");
        command
    }

    /// Starts `heddle args` in the background, its output going to files in the sandbox.
    pub fn spawn(&self, args: &[&str]) -> Child {
        let log = |name: &str| std::fs::File::create(self.dir.path().join(name)).unwrap();
        self.command(args)
            .stdout(log("spawned.out"))
            .stderr(log("spawned.err"))
            .spawn()
            .unwrap()
    }

    /// `heddle run FLOW` as from a terminal that stays open and silent, so its gates wait
    /// for answers from elsewhere; logs like [`Sandbox::spawn`].
    pub fn run_in_terminal(&self, flow: &Path) -> Child {
        let log = |name: &str| std::fs::File::create(self.dir.path().join(name)).unwrap();
        self.command(&["run", flow.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(log("spawned.out"))
            .stderr(log("spawned.err"))
            .spawn()
            .unwrap()
    }

    pub fn spawned_output(&self) -> String {
        let read = |name: &str| std::fs::read_to_string(self.dir.path().join(name));
        format!(
            "{}{}",
            read("spawned.out").unwrap_or_default(),
            read("spawned.err").unwrap_or_default()
        )
    }

    pub fn write_flow(&self, name: &str, source: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::write(&path, source).unwrap();
        path
    }

    /// The run folders under HEDDLE_HOME/runs, sorted.
    pub fn runs(&self) -> Vec<PathBuf> {
        run_folders(&self.home())
    }

    pub fn only_run(&self) -> PathBuf {
        only_run_in(&self.home())
    }

    /// Clones the work repository with the runs' refs (`refs/heddle/*`) into `clone/`, then
    /// rebuilds run `id` there from `refs/heddle/{id}` alone (`heddle resume --from-ref`,
    /// under a second HEDDLE_HOME `home2/`, with `env` set) and checks it succeeded; the
    /// clone and the rebuilt run's folder.
    pub fn resume_from_git_in_clone(&self, id: &str, env: &[(&str, &str)]) -> (PathBuf, PathBuf) {
        let clone = self.path().join("clone");
        git(
            self.path(),
            &[
                "clone",
                "-q",
                self.work().to_str().unwrap(),
                clone.to_str().unwrap(),
            ],
        );
        git(
            &clone,
            &["fetch", "-q", "origin", "refs/heddle/*:refs/heddle/*"],
        );
        let home2 = self.path().join("home2");
        let out = self
            .command(&["resume", "--from-ref", &format!("refs/heddle/{id}")])
            .env("HEDDLE_HOME", &home2)
            .envs(env.iter().copied())
            .current_dir(&clone)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", describe(&out));
        let rebuilt = only_run_in(&home2);
        (clone, rebuilt)
    }
}

/// A database of its own on the test PostgreSQL server (its URL), for the test that owns
/// `sandbox`: the shared run index of a team.
pub fn postgres_database(sandbox: &Sandbox) -> String {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let key = sandbox
        .path()
        .join("shared-index")
        .to_string_lossy()
        .into_owned();
    match runtime.block_on(heddle_store::testing::postgres_database(&key)) {
        heddle_store::IndexLocation::Postgres(url) => url,
        heddle_store::IndexLocation::File(path) => {
            panic!("a file, not a database: {}", path.display())
        }
    }
}

/// The run folders under `heddle_home`/runs, sorted.
pub fn run_folders(heddle_home: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(heddle_home.join("runs")) else {
        return Vec::new();
    };
    let mut runs: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    runs.sort();
    runs
}

/// The one run folder under `heddle_home`/runs.
pub fn only_run_in(heddle_home: &Path) -> PathBuf {
    let runs = run_folders(heddle_home);
    assert_eq!(runs.len(), 1, "expected one run folder, found {runs:?}");
    runs[0].clone()
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub fn describe(out: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status.code(),
        text(&out.stdout),
        text(&out.stderr)
    )
}

pub fn json(path: &Path) -> Value {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The run's checkpoint as a resume loads it (checkpoint.json, and the `head` lines of
/// timeline.jsonl past it: while a run goes, the file is rewritten only every few stages);
/// `Value::Null` when it cannot be read (not written yet, or being replaced).
pub fn loaded_checkpoint(run: &Path) -> Value {
    heddle_engine::Checkpoint::load(&run.join("checkpoint.json"))
        .ok()
        .and_then(|c| serde_json::to_value(c).ok())
        .unwrap_or(Value::Null)
}

/// The run id in a run folder's manifest.
pub fn run_id(run: &Path) -> String {
    json(&run.join("manifest.json"))["run_id"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The complete lines of progress.jsonl, parsed (a line still being written is skipped).
/// The run's stage records as a resume would load them: the lines of timeline.jsonl that
/// checkpoint.json covers (`history_bytes`), with the later files-touched lines applied.
pub fn timeline(run: &Path) -> Vec<Value> {
    let covered = json(&run.join("checkpoint.json"))["history_bytes"].as_u64();
    let text = std::fs::read(run.join("timeline.jsonl")).unwrap();
    let end = covered.map_or(text.len(), |n| usize::try_from(n).unwrap());
    let mut stages: Vec<Value> = Vec::new();
    for line in text[..end].split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let line: Value = serde_json::from_slice(line).unwrap();
        if let Some(stage) = line.get("stage") {
            stages.push(stage.clone());
        } else if let Some(touched) = line.get("files_touched") {
            let at = usize::try_from(touched["stage"].as_u64().unwrap()).unwrap();
            stages[at]["files_touched"] = touched["files"].clone();
        }
    }
    stages
}

/// The run's context as a resume would load it: the `state` lines of timeline.jsonl that
/// checkpoint.json covers, added up (format 3).
pub fn context_values(run: &Path) -> serde_json::Map<String, Value> {
    let covered = json(&run.join("checkpoint.json"))["history_bytes"].as_u64();
    let text = std::fs::read(run.join("timeline.jsonl")).unwrap();
    let end = covered.map_or(text.len(), |n| usize::try_from(n).unwrap());
    let mut context = serde_json::Map::new();
    for line in text[..end].split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
        let line: Value = serde_json::from_slice(line).unwrap();
        let Some(state) = line.get("state") else {
            continue;
        };
        let flag = |name: &str| state[name].as_bool() == Some(true);
        if flag("whole") || flag("context_cleared") {
            context.clear();
        }
        for key in state["context_removed"].as_array().into_iter().flatten() {
            context.remove(key.as_str().unwrap());
        }
        if let Some(set) = state["context_set"].as_object() {
            context.extend(set.clone());
        }
    }
    context
}

/// The nodes the run completed, in order (the node of each stage record).
pub fn completed_nodes(run: &Path) -> Vec<String> {
    timeline(run)
        .iter()
        .map(|stage| stage["node_id"].as_str().unwrap().to_string())
        .collect()
}

pub fn events(run: &Path) -> Vec<Value> {
    let content = std::fs::read_to_string(run.join("progress.jsonl")).unwrap_or_default();
    let complete = content.rfind('\n').map_or("", |end| &content[..end]);
    complete
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect()
}

pub fn names(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect()
}

pub fn assert_seq_without_gaps(events: &[Value]) {
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = (1..=seqs.len() as u64).collect();
    assert_eq!(seqs, expected, "seq must run 1..n without gaps");
}

pub fn started(events: &[Value], node: &str) -> bool {
    events
        .iter()
        .any(|e| e["event"] == "stage.started" && e["node_id"] == node)
}

/// `git args` in `dir`, its stdout; panics on failure.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Polls `ready` every 25 ms until it holds or `limit` passes.
pub fn wait_for(limit: Duration, mut ready: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if ready() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
    ready()
}

/// What `heddle serve` prints when it is listening: its address (`127.0.0.1:PORT`), the
/// one-time launch key in its URL, and the access token for scripts.
pub struct ServeBanner {
    pub addr: String,
    pub launch: String,
    pub token: String,
}

/// Waits up to 30 s for the banner `heddle serve` writes to the file `out`, and reads it.
pub fn serve_banner(out: &Path) -> ServeBanner {
    let mut text = String::new();
    let ready = wait_for(Duration::from_secs(30), || {
        text = std::fs::read_to_string(out).unwrap_or_default();
        text.contains("Bearer ")
    });
    assert!(ready, "heddle serve printed no URL: {text}");
    let url = text
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap_or_else(|| panic!("heddle serve printed no URL: {text}"));
    let (base, launch) = url.split_once("/?launch=").unwrap_or((url, ""));
    let token = text.split("Bearer ").nth(1).unwrap().trim_end();
    ServeBanner {
        addr: base.trim_start_matches("http://").to_string(),
        launch: launch.to_string(),
        token: token.trim_end_matches('`').to_string(),
    }
}

/// Waits for `child` to exit within `limit`; kills it and panics otherwise.
pub fn exit_code_within(child: &mut Child, limit: Duration, what: &str) -> Option<i32> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// Whether process `pid` is gone (a zombie waiting for a reaper counts as gone).
pub fn process_gone(pid: i32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rfind(')')
            .and_then(|i| stat[i + 1..].split_whitespace().next())
            .is_some_and(|state| state == "Z" || state == "X"),
    }
}

pub fn read_pid(path: &Path) -> i32 {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .trim()
        .parse()
        .unwrap()
}

/// Waits until the spawned run has a folder and its progress shows `node` started.
pub fn wait_for_stage(sandbox: &Sandbox, child: &mut Child, node: &str) -> PathBuf {
    let mut run = None;
    let seen = wait_for(Duration::from_secs(20), || {
        if let Ok(Some(status)) = child.try_wait() {
            panic!(
                "heddle exited early ({status}): {}",
                sandbox.spawned_output()
            );
        }
        run = sandbox.runs().into_iter().next();
        run.as_deref().is_some_and(|r| started(&events(r), node))
    });
    if !seen {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "no stage.started for `{node}` within 20 s: {}",
            sandbox.spawned_output()
        );
    }
    run.unwrap()
}

/// A workflow whose one human gate, `review`, chooses between `[A] Approve` (writes
/// `approved` to verdict.txt) and `[R] Reject` (writes `rejected`).
pub const GATE_FLOW: &str = r#"digraph Gate {
    start  [shape=Mdiamond];
    exit   [shape=Msquare];
    review [shape=hexagon, label="Ship it?"];
    yes    [shape=parallelogram, script="echo approved > verdict.txt"];
    no     [shape=parallelogram, script="echo rejected > verdict.txt"];
    start -> review;
    review -> yes [label="[A] Approve"];
    review -> no  [label="[R] Reject"];
    yes -> exit;
    no -> exit;
}
"#;

/// A workflow of `n` no-op conditional nodes `n0`..`n{n-1}` in a line.
pub fn chain_of_conditions(n: usize) -> String {
    let nodes: Vec<String> = (0..n).map(|i| format!("n{i}")).collect();
    format!(
        "digraph C {{ start [shape=Mdiamond]; exit [shape=Msquare];\n{}\nstart -> {} -> exit; }}",
        nodes
            .iter()
            .map(|n| format!("{n} [shape=diamond];"))
            .collect::<String>(),
        nodes.join(" -> ")
    )
}
