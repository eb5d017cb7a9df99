//! Shadow repositories keep no reflogs: a checkpoint's ref updates write no `logs/` file,
//! and a shadow repository made before this (reflogs on) is switched off when a run opens
//! it, its old reflogs left as they are.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::{Path, PathBuf};

use git2::Repository;
use heddle_checkpoint::session::Session;
use heddle_checkpoint::setup::{ModeChoice, Setup, SetupContext, set_up};
use heddle_engine::RunDir;
use support::{CAP, NOW, checkpoint, write, write_run_files_for};

const FIRST: &str = "01JREFLOGS0000000000000001";
const SECOND: &str = "01JREFLOGS0000000000000002";

/// A temporary folder (kept while it is alive) holding HEDDLE_HOME and a workspace of one
/// file.
fn home_and_workspace() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let (home, workspace) = (dir.path().join("home"), dir.path().join("workspace"));
    write(&workspace.join("file.txt"), "one file\n");
    (dir, home, workspace)
}

/// Sets up run `run` in shadow mode over `workspace`, its folder under `home`.
fn shadow_run(home: &Path, workspace: &Path, run: &str) -> (RunDir, Setup) {
    let run_dir = RunDir::create(home.join("runs").join(format!("20260102-{run}"))).unwrap();
    write_run_files_for(&run_dir, run, "shadow");
    let context = SetupContext {
        heddle_home: home,
        user_home: None,
        choice: ModeChoice::Shadow,
        size_cap: CAP,
        now: NOW,
    };
    let setup = set_up(&context, run, &run_dir, workspace, "t", Vec::new()).unwrap();
    (run_dir, setup)
}

/// Records `stages` checkpoints of run `run`, each changing the workspace's file.
fn run_stages(run_dir: &RunDir, setup: &Setup, run: &str, stages: usize) {
    let mut session = Session::open(run_dir, setup.state.clone(), false).unwrap();
    let mut state = checkpoint();
    state.run_id = run.into();
    for stage in 1..=stages {
        write(
            &setup.work_dir.join("file.txt"),
            &format!("{run} {stage}\n"),
        );
        state.current_node = Some(format!("n{stage}"));
        state.save_with(&run_dir.checkpoint(), false).unwrap();
        session.checkpoint(&state).unwrap();
    }
    session.finish().unwrap();
}

fn reflog_of(git_dir: &Path, reference: &str) -> PathBuf {
    git_dir.join("logs").join(reference)
}

fn logs_ref_updates(git_dir: &Path) -> Option<bool> {
    let repo = Repository::open_bare(git_dir).unwrap();
    let config = repo
        .config()
        .unwrap()
        .open_level(git2::ConfigLevel::Local)
        .unwrap();
    config.get_bool("core.logAllRefUpdates").ok()
}

#[test]
fn a_shadow_run_s_checkpoints_write_no_reflog() {
    let (_dir, home, workspace) = home_and_workspace();
    let (run_dir, setup) = shadow_run(&home, &workspace, FIRST);
    run_stages(&run_dir, &setup, FIRST, 3);
    let git_dir = &setup.state.git_dir;
    let repo = Repository::open_bare(git_dir).unwrap();
    // Three checkpoints on the run branch, and no reflog of it or of the metadata ref.
    let mut walk = repo.revwalk().unwrap();
    walk.push(repo.refname_to_id(&setup.state.branch).unwrap())
        .unwrap();
    assert_eq!(walk.count(), 4, "the base and three checkpoints");
    assert_eq!(logs_ref_updates(git_dir), Some(false));
    for reference in [&setup.state.branch, &setup.state.metadata_ref] {
        assert!(
            !reflog_of(git_dir, reference).exists(),
            "{reference} has a reflog"
        );
    }
}

#[test]
fn a_shadow_repository_made_with_reflogs_stops_writing_them() {
    let (_dir, home, workspace) = home_and_workspace();
    let (first_dir, first) = shadow_run(&home, &workspace, FIRST);
    let git_dir = first.state.git_dir.clone();
    // The repository as older versions made it: reflogs on (git's default).
    let repo = Repository::open_bare(&git_dir).unwrap();
    repo.config()
        .unwrap()
        .remove("core.logAllRefUpdates")
        .unwrap();
    drop(repo);
    run_stages(&first_dir, &first, FIRST, 2);
    let old_log = std::fs::read_to_string(reflog_of(&git_dir, &first.state.branch)).unwrap();
    assert_eq!(
        old_log.lines().count(),
        2,
        "the two checkpoints logged:\n{old_log}"
    );

    // The next run opens the repository: reflogs go off, and stay off for its refs.
    let (second_dir, second) = shadow_run(&home, &workspace, SECOND);
    assert_eq!(second.state.git_dir, git_dir);
    assert_eq!(logs_ref_updates(&git_dir), Some(false));
    run_stages(&second_dir, &second, SECOND, 2);
    assert!(!reflog_of(&git_dir, &second.state.branch).exists());
    // The first run's reflog is kept as it was.
    let kept = std::fs::read_to_string(reflog_of(&git_dir, &first.state.branch)).unwrap();
    assert_eq!(kept, old_log);
}
