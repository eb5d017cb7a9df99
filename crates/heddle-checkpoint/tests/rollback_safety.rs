//! Rollback never deletes what the run does not own, and never writes or deletes through a
//! symlink. Each test builds a real git repository with the git CLI, runs a worktree-mode
//! run over it with real checkpoints (`Session::checkpoint`), changes the work tree as a
//! user or a tool would, and rolls back with `rollback::rollback` (what `heddle rollback`
//! and the API call).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

use heddle_checkpoint::rollback::{RollbackReport, rollback};
use heddle_checkpoint::session::Session;
use heddle_checkpoint::setup::{ModeChoice, SetupContext, set_up};
use heddle_engine::checkpoint::CHECKPOINT_VERSION;
use heddle_engine::{Checkpoint, Manifest, RunDir};

const NOW: &str = "2026-01-02T03:04:05Z";
/// The size cap of the test runs: bigger files are not checkpointed.
const CAP: u64 = 1024;

fn git(dir: &Path, args: &[&str]) {
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
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn write(path: &Path, content: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, content).unwrap();
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A worktree-mode run over a repository whose first commit holds `files`.
struct Run {
    dir: tempfile::TempDir,
    run_dir: RunDir,
    work: PathBuf,
    session: Option<Session>,
    checkpoint: Checkpoint,
}

impl Run {
    fn new(files: &[(&str, &str)]) -> Run {
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

    /// A checkpoint after node `node`; its sha.
    fn checkpoint(&mut self, node: &str) -> String {
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
    fn outside(&self) -> PathBuf {
        let path = self.dir.path().join("outside");
        std::fs::create_dir_all(&path).unwrap();
        path
    }

    /// Stops the run (closes its session) and rolls it back to `sha`.
    fn rollback(&mut self, sha: &str, force: bool) -> RollbackReport {
        self.session = None;
        rollback(&self.run_dir, sha, force, NOW).unwrap()
    }

    /// The tree of commit `sha` in the run's repository, as (path, mode) pairs.
    fn tree_of(&self, sha: &str) -> Vec<(String, i32)> {
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
    let manifest = Manifest {
        run_id: "r1".into(),
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
        checkpoint_mode: "worktree".into(),
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

fn checkpoint() -> Checkpoint {
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

#[test]
fn a_recovery_ref_lock_left_by_a_killed_rollback_does_not_block_the_next() {
    let mut run = Run::new(&[("a.txt", "one\n")]);
    let first = run.checkpoint("first");
    write(&run.work.join("a.txt"), "two\n");
    run.checkpoint("second");
    // What a rollback killed while creating its recovery ref leaves behind.
    let lock = run
        .dir
        .path()
        .join("repo/.git/refs/heddle/recovery/r1/1.lock");
    write(&lock, "");
    let report = run.rollback(&first, false);
    assert_eq!(report.recovery_ref, "refs/heddle/recovery/r1/1");
    assert!(!lock.exists());
    assert_eq!(read(&run.work.join("a.txt")), "one\n");
}

#[test]
fn a_folder_where_the_target_has_a_file_is_moved_aside_with_all_it_holds() {
    let mut run = Run::new(&[(".gitignore", "*.log\n"), ("out", "file v1\n")]);
    let first = run.checkpoint("one");
    // The next stage makes `out` a folder of the run's.
    std::fs::remove_file(run.work.join("out")).unwrap();
    write(&run.work.join("out/owned.txt"), "the run's\n");
    run.checkpoint("two");
    // Then tools put things in it that checkpoints do not own.
    let work = run.work.clone();
    write(&work.join("out/cache.log"), "ignored\n");
    write(&work.join("out/deep/er/trace.log"), "ignored too\n");
    write(&work.join("out/big.bin"), &"x".repeat(4096));
    let nested = work.join("out/nested");
    std::fs::create_dir_all(&nested).unwrap();
    git(&nested, &["init", "-q"]);
    write(&nested.join("lib.rs"), "nested history\n");
    git(&nested, &["add", "-A"]);
    git(&nested, &["commit", "-qm", "nested"]);

    let report = run.rollback(&first, false);

    assert_eq!(read(&work.join("out")), "file v1\n");
    let area = run.run_dir.root().join("recovery/1");
    assert_eq!(report.moved_aside, ["out"]);
    assert_eq!(
        report.moved_aside_to.as_deref(),
        Some(area.to_str().unwrap())
    );
    assert_eq!(read(&area.join("out/cache.log")), "ignored\n");
    assert_eq!(read(&area.join("out/deep/er/trace.log")), "ignored too\n");
    assert_eq!(read(&area.join("out/big.bin")).len(), 4096);
    assert_eq!(read(&area.join("out/nested/lib.rs")), "nested history\n");
    git(&area.join("out/nested"), &["log", "-1", "--format=%s"]);
    // The run's own file is in the recovery snapshot, not in the area.
    assert!(!area.join("out/owned.txt").exists());
    assert!(
        run.tree_of(&report.recovery_sha)
            .contains(&("out/owned.txt".into(), 0o100644))
    );
    let progress = read(&run.run_dir.progress());
    let warning = progress
        .lines()
        .find(|l| l.contains("\"warning\"") && l.contains("recovery/1"))
        .unwrap_or_else(|| panic!("no warning naming the area in {progress}"));
    assert!(warning.contains("out"), "{warning}");
}

#[test]
fn an_ignored_file_where_the_target_has_a_folder_is_moved_aside() {
    let mut run = Run::new(&[("notes/a.txt", "a\n")]);
    let first = run.checkpoint("one");
    std::fs::remove_dir_all(run.work.join("notes")).unwrap();
    write(&run.work.join(".gitignore"), "notes\n");
    run.checkpoint("two");
    write(&run.work.join("notes"), "a file of the user's, ignored\n");

    let report = run.rollback(&first, false);

    assert_eq!(read(&run.work.join("notes/a.txt")), "a\n");
    assert_eq!(report.moved_aside, ["notes"]);
    let area = run.run_dir.root().join("recovery/1");
    assert_eq!(read(&area.join("notes")), "a file of the user's, ignored\n");
}

#[test]
fn a_symlinked_parent_is_replaced_and_the_outside_file_is_untouched() {
    let mut run = Run::new(&[("data/file.txt", "v1\n")]);
    let first = run.checkpoint("one");
    // The run drops `data/` and ignores it from now on.
    std::fs::remove_dir_all(run.work.join("data")).unwrap();
    write(&run.work.join(".gitignore"), "data\n");
    run.checkpoint("two");
    // Something then links `data` to a folder outside the work tree.
    let outside = run.outside();
    write(&outside.join("file.txt"), "precious\n");
    std::os::unix::fs::symlink(&outside, run.work.join("data")).unwrap();

    let report = run.rollback(&first, false);

    assert_eq!(read(&outside.join("file.txt")), "precious\n");
    let data = std::fs::symlink_metadata(run.work.join("data")).unwrap();
    assert!(data.is_dir(), "data is a real folder again");
    assert_eq!(read(&run.work.join("data/file.txt")), "v1\n");
    assert_eq!(report.moved_aside, ["data"]);
    let moved = run.run_dir.root().join("recovery/1/data");
    assert_eq!(std::fs::read_link(&moved).unwrap(), outside);
}

#[test]
fn nothing_is_deleted_through_a_symlinked_parent() {
    let mut run = Run::new(&[("README", "r\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("gen/out.txt"), "generated\n");
    run.checkpoint("two");
    // `gen/out.txt` stays tracked while `gen` becomes ignored, as in git.
    write(&run.work.join(".gitignore"), "gen\n");
    run.checkpoint("three");
    std::fs::remove_dir_all(run.work.join("gen")).unwrap();
    let outside = run.outside();
    write(&outside.join("out.txt"), "precious\n");
    std::os::unix::fs::symlink(&outside, run.work.join("gen")).unwrap();

    let report = run.rollback(&first, true);

    assert_eq!(read(&outside.join("out.txt")), "precious\n");
    assert!(!run.work.join(".gitignore").exists());
    // The link was not the run's and nothing of the target's needs its place.
    assert!(
        std::fs::symlink_metadata(run.work.join("gen"))
            .unwrap()
            .is_symlink()
    );
    assert!(
        !run.tree_of(&report.recovery_sha)
            .iter()
            .any(|(p, _)| p.starts_with("gen")),
        "the snapshot never looks through the link"
    );
}

#[test]
fn a_file_the_run_owns_that_became_a_link_is_replaced_as_a_link() {
    let mut run = Run::new(&[("conf.txt", "v1\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("conf.txt"), "v2\n");
    run.checkpoint("two");
    let outside = run.outside();
    write(&outside.join("secret.txt"), "secret\n");
    std::fs::remove_file(run.work.join("conf.txt")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), run.work.join("conf.txt")).unwrap();

    let report = run.rollback(&first, true);

    assert_eq!(read(&outside.join("secret.txt")), "secret\n");
    let conf = std::fs::symlink_metadata(run.work.join("conf.txt")).unwrap();
    assert!(conf.is_file());
    assert_eq!(read(&run.work.join("conf.txt")), "v1\n");
    assert!(
        run.tree_of(&report.recovery_sha)
            .contains(&("conf.txt".into(), 0o120000))
    );
    assert!(report.moved_aside.is_empty());
    assert_eq!(report.moved_aside_to, None);
}

#[test]
fn a_tracked_file_that_grew_over_the_cap_is_moved_aside_not_replaced() {
    let mut run = Run::new(&[("model.bin", "small\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("model.bin"), &"y".repeat(8192));

    let report = run.rollback(&first, true);

    assert_eq!(read(&run.work.join("model.bin")), "small\n");
    assert_eq!(report.moved_aside, ["model.bin"]);
    let moved = run.run_dir.root().join("recovery/1/model.bin");
    assert_eq!(read(&moved).len(), 8192);
}

#[test]
fn back_and_forth_rollbacks_snapshot_the_tree_as_it_is_and_stop_at_changes() {
    let mut run = Run::new(&[("a.txt", "a1\n"), ("dir/b.txt", "b1\n")]);
    let first = run.checkpoint("one");
    write(&run.work.join("a.txt"), "a2\n");
    write(&run.work.join("dir/c.txt"), "c2\n");
    let second = run.checkpoint("two");

    let back = run.rollback(&first, false);
    assert_eq!(read(&run.work.join("a.txt")), "a1\n");
    assert!(!run.work.join("dir/c.txt").exists());
    assert_eq!(run.tree_of(&back.recovery_sha), run.tree_of(&second));
    // Nothing changed since: the next snapshot is the first checkpoint's tree, which the
    // restore left the run's index naming.
    let state = heddle_checkpoint::GitState::load(&run.run_dir)
        .unwrap()
        .unwrap();
    let repo = git2::Repository::open(&run.work).unwrap();
    let first_tree = repo
        .find_commit(git2::Oid::from_str(&first).unwrap())
        .unwrap()
        .tree_id();
    assert_eq!(
        heddle_checkpoint::index_tree::stamped(&state.index),
        Some(first_tree)
    );
    let forth = run.rollback(&second, false);
    assert_eq!(run.tree_of(&forth.recovery_sha), run.tree_of(&first));
    assert_eq!(read(&run.work.join("dir/c.txt")), "c2\n");

    // A change made after that rollback is seen, and stops the next one.
    std::thread::sleep(std::time::Duration::from_millis(20));
    write(&run.work.join("dir/b.txt"), "edited by hand\n");
    let refused = rollback(&run.run_dir, &first, false, NOW).unwrap_err();
    assert!(refused.to_string().contains("dir/b.txt"), "{refused}");
    let forced = run.rollback(&first, true);
    assert!(
        run.tree_of(&forced.recovery_sha)
            .contains(&("dir/b.txt".into(), 0o100644))
    );
    assert_eq!(read(&run.work.join("dir/b.txt")), "b1\n");
    let repo = git2::Repository::open(&run.work).unwrap();
    let blob = repo
        .find_commit(git2::Oid::from_str(&forced.recovery_sha).unwrap())
        .unwrap()
        .tree()
        .unwrap()
        .get_path(Path::new("dir/b.txt"))
        .unwrap()
        .id();
    assert_eq!(repo.find_blob(blob).unwrap().content(), b"edited by hand\n");
}
