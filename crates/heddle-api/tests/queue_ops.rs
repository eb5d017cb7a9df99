#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The run queue through the API: `enqueue_run` takes `start_run`'s request, refuses an
//! untrusted workflow as `start_run` does, names the workflow by its path in its repository
//! (a run config's workflow, with the config's goal and inputs under the caller's), and
//! `run_queue` shows the entry with what it asks for and the workers as they report
//! themselves.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use heddle_api::index::QueueState;
use heddle_api::run_queue::Worker;
use heddle_api::runs::HeddleHome;
use heddle_api::{
    ErrorCode, QueuedRun, RunLibrary, RunQueueRequest, StartRunRequest, WorkflowTrustRequest,
};
use heddle_engine::SystemClock;

const FLOW: &str = r#"digraph Queued {
    start [shape=Mdiamond];
    exit  [shape=Msquare];
    write [shape=parallelogram, script="echo {{ inputs.word }} > word.txt"];
    start -> write -> exit;
}
"#;

const CONFIG: &str = "[workflow]\ngraph = \"queued.dot\"\n[run]\ngoal = \"from the config\"\n\
                      [run.inputs]\nword = \"config\"\nother = \"kept\"\n";

/// A repository with `flows/queued.dot` and `flows/run.toml` committed, and a library.
async fn setup() -> (tempfile::TempDir, PathBuf, RunLibrary) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let repo_dir = root.join("repo");
    std::fs::create_dir_all(repo_dir.join("flows")).unwrap();
    std::fs::write(repo_dir.join("flows/queued.dot"), FLOW).unwrap();
    std::fs::write(repo_dir.join("flows/run.toml"), CONFIG).unwrap();
    commit_all(&repo_dir);
    let library = RunLibrary::open(HeddleHome::at(root.join("home")))
        .await
        .unwrap();
    (dir, repo_dir, library)
}

fn commit_all(dir: &Path) {
    let repo = git2::Repository::init(dir).unwrap();
    let mut index = repo.index().unwrap();
    index
        .add_all(["*"], git2::IndexAddOption::DEFAULT, None)
        .unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let who = git2::Signature::now("Test", "test@example.com").unwrap();
    repo.commit(Some("HEAD"), &who, &who, "flows", &tree, &[])
        .unwrap();
}

fn request(path: &Path, trust: bool) -> StartRunRequest {
    StartRunRequest {
        workflow_path: path.display().to_string(),
        trust,
        labels: BTreeMap::from([("team".to_string(), "a".to_string())]),
        inputs: BTreeMap::from([("word".to_string(), "caller".to_string())]),
        ..StartRunRequest::default()
    }
}

#[tokio::test]
async fn a_queued_run_is_listed_with_what_it_asks_for_and_the_workers() {
    let (_dir, repo, library) = setup().await;
    let flow = repo.join("flows/queued.dot");

    let refused = library.enqueue(request(&flow, false)).await.unwrap_err();
    assert_eq!(refused.code, ErrorCode::UntrustedWorkflow, "{refused:?}");
    assert!(
        library
            .run_queue(RunQueueRequest { finished: 20 })
            .await
            .unwrap()
            .entries
            .is_empty(),
        "a refused run is not queued"
    );

    // Through its run config: the workflow it names, its goal and inputs under the caller's.
    let entry = library
        .enqueue(request(&repo.join("flows/run.toml"), true))
        .await
        .unwrap();
    assert_eq!(entry.state, QueueState::Queued);

    let worker = Worker {
        name: "w1".into(),
        remote: "/srv/team.git".into(),
        clones: repo.join("clones"),
        lease: Duration::from_secs(30),
        env: Vec::new(),
        clock: Arc::new(SystemClock::new()),
        started: SystemTime::now(),
    };
    library.worker_seen(&worker, None).await;

    let queue = library
        .run_queue(RunQueueRequest { finished: 20 })
        .await
        .unwrap();
    assert_eq!(queue.entries.len(), 1);
    let listed = &queue.entries[0];
    assert_eq!(listed.entry.id, entry.id);
    assert_eq!(
        listed.run,
        Some(QueuedRun {
            workflow: "flows/queued.dot".into(),
            goal: Some("from the config".into()),
            inputs: BTreeMap::from([
                ("other".to_string(), "kept".to_string()),
                ("word".to_string(), "caller".to_string()),
            ]),
            labels: BTreeMap::from([("team".to_string(), "a".to_string())]),
            ..QueuedRun::default()
        })
    );
    assert_eq!(queue.workers.len(), 1);
    assert_eq!(queue.workers[0].name, "w1");
    assert_eq!(queue.workers[0].entry, None);
    assert!(queue.now_ms >= queue.workers[0].seen_ms);

    // The entry's JSON, as HTTP and the window get it: the entry's fields beside `run`.
    let json = serde_json::to_value(listed).unwrap();
    assert_eq!(json["id"], entry.id.as_str());
    assert_eq!(json["state"], "queued");
    assert_eq!(json["run"]["workflow"], "flows/queued.dot");
}

#[tokio::test]
async fn a_workflow_outside_a_repository_is_not_queued() {
    let (dir, _repo, library) = setup().await;
    let loose = dir.path().join("loose.dot");
    std::fs::write(&loose, FLOW).unwrap();
    let refused = library.enqueue(request(&loose, true)).await.unwrap_err();
    assert!(refused.message.contains("loose.dot"), "{refused:?}");
    // Refused before trust is asked: the workflow is not remembered as trusted.
    let verdict = library
        .workflow_trust(&WorkflowTrustRequest {
            workflow_path: loose.display().to_string(),
            work_dir: None,
        })
        .unwrap();
    assert!(!verdict.trusted, "{verdict:?}");
}
