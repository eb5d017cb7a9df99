//! The shared harness of the rollback tests: a real git repository made with the git CLI,
//! a worktree-mode run over it with real checkpoints (`Session::checkpoint`), and rollbacks
//! with `rollback::rollback` (what `heddle rollback` and the API call).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use heddle_checkpoint::rollback::{RollbackReport, rollback};
use heddle_checkpoint::session::Session;
use heddle_checkpoint::setup::{ModeChoice, SetupContext, set_up};
use heddle_checkpoint::state::GitState;
use heddle_engine::checkpoint::CHECKPOINT_VERSION;
use heddle_engine::{Checkpoint, Manifest, RunDir};

pub const NOW: &str = "2026-01-02T03:04:05Z";
/// The size cap of the test runs: bigger files are not checkpointed.
pub const CAP: u64 = 1024;

/// Runs git in `dir` (no user or system config); its output, trimmed.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@t"])
        .args(["-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

pub fn write(path: &Path, content: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A worktree-mode run over a repository whose first commit holds `files`.
pub struct Run {
    pub dir: tempfile::TempDir,
    pub run_dir: RunDir,
    pub work: PathBuf,
    pub session: Option<Session>,
    pub checkpoint: Checkpoint,
}

impl Run {
    pub fn new(files: &[(&str, &str)]) -> Run {
        let dir = tempfile::tempdir().unwrap();
        let repo = dir.path().join("repo");
        std::fs::create_dir(&repo).unwrap();
        git(&repo, &["init", "-q"]);
        for (path, content) in files {
            write(&repo.join(path), content);
        }
        git(&repo, &["add", "-A"]);
        git(&repo, &["commit", "-qm", "base"]);
        let run_dir = RunDir::create(dir.path().join("run")).unwrap();
        write_run_files(&run_dir);
        let context = SetupContext {
            heddle_home: &dir.path().join("home"),
            user_home: None,
            choice: ModeChoice::Worktree,
            size_cap: CAP,
            now: NOW,
        };
        let setup = set_up(&context, "r1", &run_dir, &repo, "t", Vec::new()).unwrap();
        let work = setup.state.work_tree.clone();
        let session = Session::open(&run_dir, setup.state, false).unwrap();
        Run {
            dir,
            run_dir,
            work,
            session: Some(session),
            checkpoint: checkpoint(),
        }
    }

    /// A run over one file, `a.txt`, checkpointed holding `one\n` (node `first`), then
    /// `second` (node `second`); with the first checkpoint's sha.
    pub fn a_txt_edited_once(second: &str) -> (Run, String) {
        let mut run = Run::new(&[("a.txt", "one\n")]);
        let first = run.checkpoint("first");
        write(&run.work.join("a.txt"), second);
        run.checkpoint("second");
        (run, first)
    }

    /// A checkpoint after node `node`; its sha.
    pub fn checkpoint(&mut self, node: &str) -> String {
        self.checkpoint.current_node = Some(node.into());
        self.checkpoint.completed_nodes.push(node.into());
        self.checkpoint
            .save_with(&self.run_dir.checkpoint(), false)
            .unwrap();
        let made = self
            .session
            .as_mut()
            .unwrap()
            .checkpoint(&self.checkpoint)
            .unwrap();
        self.checkpoint.git_commit_sha = Some(made.sha.clone());
        self.checkpoint
            .save_with(&self.run_dir.checkpoint(), false)
            .unwrap();
        made.sha
    }

    /// A folder outside the work tree.
    pub fn outside(&self) -> PathBuf {
        let path = self.dir.path().join("outside");
        std::fs::create_dir_all(&path).unwrap();
        path
    }

    /// Stops the run (closes its session) and rolls it back to `sha`.
    pub fn rollback(&mut self, sha: &str, force: bool) -> RollbackReport {
        self.session = None;
        rollback(&self.run_dir, sha, force, NOW).unwrap()
    }

    /// The tree of commit `sha` in the run's repository, as (path, mode) pairs.
    pub fn tree_of(&self, sha: &str) -> Vec<(String, i32)> {
        let repo = git2::Repository::open(&self.work).unwrap();
        let commit = repo.find_commit(git2::Oid::from_str(sha).unwrap()).unwrap();
        let mut paths = Vec::new();
        commit
            .tree()
            .unwrap()
            .walk(git2::TreeWalkMode::PreOrder, |root, entry| {
                if entry.kind() != Some(git2::ObjectType::Tree) {
                    paths.push((format!("{root}{}", entry.name().unwrap()), entry.filemode()));
                }
                git2::TreeWalkResult::Ok
            })
            .unwrap();
        paths
    }
}

fn write_run_files(run_dir: &RunDir) {
    write_run_files_for(run_dir, "r1", "worktree");
}

/// Writes the manifest and graph of run `run_id` (checkpoint mode `mode`) into `run_dir`.
pub fn write_run_files_for(run_dir: &RunDir, run_id: &str, mode: &str) {
    let manifest = Manifest {
        run_id: run_id.into(),
        workflow_name: "t".into(),
        workflow_path: "t.dot".into(),
        goal: None,
        start_time: NOW.into(),
        node_count: 3,
        edge_count: 2,
        base_sha: None,
        run_branch: None,
        labels: Default::default(),
        inputs: Default::default(),
        checkpoint_mode: mode.into(),
        work_dir: run_dir.worktree().to_string_lossy().into_owned(),
        workspace: None,
        dry_run: true,
        parent_run_id: None,
        heddle_version: "test".into(),
    };
    std::fs::write(
        run_dir.manifest(),
        serde_json::to_vec_pretty(&manifest).unwrap(),
    )
    .unwrap();
    std::fs::write(
        run_dir.graph(),
        "digraph t { start [shape=Mdiamond]; one; two; exit [shape=Msquare]; start -> one -> two -> exit }\n",
    )
    .unwrap();
}

/// The state of a run after its start node.
pub fn checkpoint() -> Checkpoint {
    Checkpoint {
        version: CHECKPOINT_VERSION,
        run_id: "r1".into(),
        timestamp: NOW.into(),
        current_node: Some("start".into()),
        next_node_id: None,
        completed_nodes: vec!["start".into()],
        node_retries: Default::default(),
        node_visits: Default::default(),
        node_outcomes: Default::default(),
        context_values: Default::default(),
        logs: Vec::new(),
        git_commit_sha: None,
        loop_failure_signatures: Default::default(),
        restart_failure_signatures: Default::default(),
        timeline: Vec::new(),
        restarts: 0,
        branches: Vec::new(),
        stages: 0,
        history_bytes: None,
    }
}

/// A shadow-mode run over a plain folder holding `file.txt`, set up as `heddle run` sets
/// one up (its run files written first).
pub struct ShadowRun {
    pub dir: tempfile::TempDir,
    pub run_dir: RunDir,
    pub work: PathBuf,
    pub state: GitState,
}

/// Sets up shadow-mode run `run_id` ([`ShadowRun`]).
pub fn shadow_run(run_id: &str) -> ShadowRun {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let workspace = dir.path().join("workspace");
    write(&workspace.join("file.txt"), "one file\n");
    let run_dir = RunDir::create(home.join("runs").join(format!("20260102-{run_id}"))).unwrap();
    write_run_files_for(&run_dir, run_id, "shadow");
    let context = SetupContext {
        heddle_home: &home,
        user_home: None,
        choice: ModeChoice::Shadow,
        size_cap: CAP,
        now: NOW,
    };
    let setup = set_up(&context, run_id, &run_dir, &workspace, "t", Vec::new()).unwrap();
    ShadowRun {
        dir,
        run_dir,
        work: setup.work_dir,
        state: setup.state,
    }
}
