//! Shared by the store tests: a Heddle home in a temp dir, an engine wired like heddle-api's
//! (git checkpoints, artifact capture, blob store; a scripted LLM backend), synthetic run
//! folders written in the engine's real formats, and a full dump of what the index answers.
#![allow(
    dead_code,
    missing_docs,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use heddle_checkpoint::{GitCheckpoints, ModeChoice};
use heddle_engine::interviewer::{AutoApprove, Interviewer};
use heddle_engine::llm::{
    LlmBackend, LlmConversation, LlmError, LlmEvent, LlmEventSink, LlmReply, LlmRequest,
};
use heddle_engine::{
    Conclusion, Engine, EngineEnv, Envelope, Event, Manifest, OsEntropy, RunDir, RunRequest,
    Services, SystemClock,
};
use heddle_store::{IndexLocation, PageRequest, RunFilter, RunReaders, Store};
use serde_json::{Value as Json, json};
use tokio_util::sync::CancellationToken;

/// `$HEDDLE_HOME` in a temp dir.
pub struct Home {
    pub dir: tempfile::TempDir,
}

impl Home {
    pub fn new() -> Self {
        Home {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    pub fn runs(&self) -> PathBuf {
        self.dir.path().join("runs")
    }

    pub fn db(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// Opens the index `name` of the home, reading checkpoints and artifacts with the real
    /// readers.
    pub async fn store(&self, name: &str) -> Store {
        Store::open(self.index(name).await, readers())
            .await
            .unwrap()
    }

    /// The index `name` of the home: the file `name` in it, or with `HEDDLE_TEST_INDEX=postgres`
    /// a database of its own on the test PostgreSQL server.
    pub async fn index(&self, name: &str) -> IndexLocation {
        if heddle_store::testing::postgres_asked() {
            heddle_store::testing::postgres_database(&self.db(name).to_string_lossy()).await
        } else {
            IndexLocation::File(self.db(name))
        }
    }

    /// A work folder (plain, not a repository).
    pub fn work(&self) -> PathBuf {
        let work = self.dir.path().join("work");
        std::fs::create_dir_all(&work).unwrap();
        work
    }

    pub fn workflow(&self, name: &str, source: &str) -> PathBuf {
        let path = self.dir.path().join(format!("{name}.dot"));
        std::fs::write(&path, source).unwrap();
        path
    }

    pub fn request(&self, workflow: &Path, work_dir: &Path) -> RunRequest {
        RunRequest {
            workflow_path: workflow.to_path_buf(),
            source: None,
            goal: None,
            labels: BTreeMap::new(),
            inputs: Default::default(),
            runs_root: self.runs(),
            run_dir: None,
            work_dir: work_dir.to_path_buf(),
            dry_run: false,
            parent_run_id: None,
        }
    }

    /// An engine on the real clock, with `llm`, `interviewer` and checkpoints in `mode`.
    pub fn engine(
        &self,
        mode: ModeChoice,
        llm: Arc<dyn LlmBackend>,
        interviewer: Arc<dyn Interviewer>,
    ) -> Engine {
        let clock = Arc::new(SystemClock::new());
        let git = GitCheckpoints::new(self.root().to_path_buf(), None, mode, clock.clone());
        Engine::new(
            EngineEnv {
                clock,
                entropy: Arc::new(OsEntropy::new()),
                env: vec![("PATH".into(), std::env::var("PATH").unwrap_or_default())],
            },
            Services {
                llm,
                interviewer,
                checkpoints: Arc::new(git),
                artifacts: Arc::new(heddle_artifacts::CaptureHook::default()),
                blobs: Arc::new(heddle_artifacts::BlobStore::new(self.root().join("blobs"))),
            },
        )
    }

    /// A command-only engine without git checkpoints.
    pub fn plain_engine(&self) -> Engine {
        self.engine(
            ModeChoice::None,
            Arc::new(Scripted::default()),
            Arc::new(AutoApprove),
        )
    }
}

/// Runs `request` to the end.
pub async fn run(engine: &Engine, request: RunRequest) -> (RunDir, Conclusion) {
    let prepared = engine.prepare(request).unwrap();
    let dir = prepared.run_dir().clone();
    let conclusion = prepared.execute().await;
    (dir, conclusion)
}

/// Replies queued per node; a node without replies answers `{"outcome": "success"}`.
#[derive(Clone, Default)]
pub struct Scripted {
    replies: Arc<Mutex<HashMap<String, VecDeque<String>>>>,
}

impl Scripted {
    pub fn reply(self, node: &str, text: &str) -> Self {
        self.replies
            .lock()
            .unwrap()
            .entry(node.to_string())
            .or_default()
            .push_back(text.to_string());
        self
    }
}

struct Conversation {
    node: String,
    script: Scripted,
}

#[async_trait]
impl LlmBackend for Scripted {
    async fn open(&self, request: &LlmRequest) -> Result<Box<dyn LlmConversation>, LlmError> {
        Ok(Box::new(Conversation {
            node: request.node_id.clone(),
            script: self.clone(),
        }))
    }
}

#[async_trait]
impl LlmConversation for Conversation {
    async fn send(
        &mut self,
        _message: &str,
        events: &dyn LlmEventSink,
        _cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError> {
        let text = self
            .script
            .replies
            .lock()
            .unwrap()
            .get_mut(&self.node)
            .and_then(VecDeque::pop_front)
            .unwrap_or_else(|| r#"{"outcome": "success"}"#.to_string());
        events.emit(LlmEvent::TextDelta(text.clone()));
        Ok(LlmReply {
            text,
            model: "scripted".into(),
            ..LlmReply::default()
        })
    }
}

/// A clean git repository with one commit, for worktree checkpoints.
pub fn git_repo(path: &Path) -> PathBuf {
    use git2::{Repository, Signature};
    std::fs::create_dir_all(path).unwrap();
    let repo = Repository::init(path).unwrap();
    std::fs::write(path.join("README.md"), "hello\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("README.md")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let sig = Signature::now("Test", "test@localhost").unwrap();
    repo.commit(Some("HEAD"), &sig, &sig, "initial\n", &tree, &[])
        .unwrap();
    path.to_path_buf()
}

/// A manifest for a synthetic run `id` started at `start`.
pub fn manifest(id: &str, workflow: &str, start: &str, labels: &[(&str, &str)]) -> Manifest {
    Manifest {
        run_id: id.to_string(),
        workflow_name: workflow.to_string(),
        workflow_path: format!("/workflows/{workflow}.dot"),
        goal: Some("test the index".into()),
        start_time: start.to_string(),
        node_count: 4,
        edge_count: 3,
        base_sha: None,
        run_branch: None,
        labels: labels
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect(),
        inputs: Default::default(),
        checkpoint_mode: "none".into(),
        work_dir: "/work".into(),
        workspace: None,
        dry_run: false,
        parent_run_id: None,
        heddle_version: "0.1.0".into(),
    }
}

/// Writes a synthetic run folder under `runs` (manifest only); its folder.
pub fn synthetic_run(runs: &Path, manifest: &Manifest) -> PathBuf {
    let folder = runs.join(RunDir::folder_name(&manifest.start_time, &manifest.run_id));
    let dir = RunDir::create(&folder).unwrap();
    heddle_engine::rundir::write_json(&dir.manifest(), manifest, false).unwrap();
    folder
}

/// Writes conclusion.json with `status` (`success`, `fail`, `cancelled`).
pub fn conclude(folder: &Path, id: &str, status: &str, end: &str) {
    let conclusion: Conclusion = serde_json::from_value(json!({
        "run_id": id, "status": status, "duration_ms": 1234,
        "failure_reason": if status == "success" { Json::Null } else { json!("it broke") },
        "final_git_commit_sha": null, "completed_at": end, "stages": 2, "artifact_count": 0
    }))
    .unwrap();
    heddle_engine::rundir::write_json(&folder.join("conclusion.json"), &conclusion, false).unwrap();
}

/// An event line in the real envelope format.
pub fn line(run_id: &str, seq: u64, node: Option<&str>, event: Event) -> String {
    let envelope = Envelope {
        id: format!("01EV{seq:022}"),
        ts: format!(
            "2026-01-01T00:00:{:02}.{:03}Z",
            (seq / 1000) % 60,
            seq % 1000
        ),
        run_id: run_id.to_string(),
        seq,
        node_id: node.map(str::to_string),
        event,
    };
    let mut text = serde_json::to_string(&envelope).unwrap();
    text.push('\n');
    text
}

/// Appends `text` to the folder's progress.jsonl.
pub fn append(folder: &Path, text: &str) {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(folder.join("progress.jsonl"))
        .unwrap();
    file.write_all(text.as_bytes()).unwrap();
}

/// Everything the index answers about every run, as JSON (keys that differ between two
/// databases by construction are left out).
pub async fn dump(store: &Store) -> Json {
    let filter = RunFilter {
        include_children: true,
        ..RunFilter::default()
    };
    let page = store
        .list_runs(
            &filter,
            &PageRequest {
                limit: 1000,
                after: None,
            },
        )
        .await
        .unwrap();
    let mut runs = Vec::new();
    for run in &page.items {
        runs.push(json!({
            "run": store.run(&run.id).await.unwrap(),
            "timeline": store.timeline(&run.id).await.unwrap(),
            "checkpoints": store.checkpoints(&run.id).await.unwrap(),
            "artifacts": store.artifacts(&run.id).await.unwrap(),
            "events": store.events(&run.id, 0, 10_000).await.unwrap(),
        }));
    }
    json!({ "list": page, "runs": runs })
}

/// Waits until `check` holds, polling, or fails after `seconds`.
pub async fn eventually<F, Fut>(seconds: u64, what: &str, mut check: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(seconds);
    while !check().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The real checkpoint and artifact readers, as heddle-api wires them.
pub fn readers() -> RunReaders {
    RunReaders {
        checkpoints: Arc::new(heddle_checkpoint::GitHistory),
        artifacts: Arc::new(heddle_artifacts::ArtifactManifests),
    }
}
