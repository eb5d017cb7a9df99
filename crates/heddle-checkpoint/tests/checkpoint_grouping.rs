//! Group commit on a real shadow repository with real checkpoints (`set_up` and a session
//! thread): checkpoints followed by a quiet node wait in memory, and are published (their
//! objects on disk, then the refs) before a node that can change files, when the group is
//! full, when its time is up and when the session closes. A run killed while some were held
//! resumes from the work tree as the last of them recorded it.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::{Path, PathBuf};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use git2::{Oid, Repository};
use heddle_checkpoint::actor::SessionHandle;
use heddle_checkpoint::grouping::Grouping;
use heddle_checkpoint::session::SessionOptions;
use heddle_checkpoint::state::GitState;
use heddle_engine::{Checkpoint, RunDir};
use support::{NOW, checkpoint, write};

const RUN: &str = "01JGROUPING000000000000000";

/// `work` is a command (it may change files); `c1`, `c2`, `c3` route only.
const GRAPH: &str = "digraph g {\n  start [shape=Mdiamond];\n  work [shape=parallelogram, \
                     script=\"true\"];\n  c1 [shape=diamond];\n  c2 [shape=diamond];\n  c3 \
                     [shape=diamond];\n  exit [shape=Msquare];\n  start -> work -> c1 -> c2 \
                     -> c3 -> exit;\n}\n";

/// Holds up to 16 checkpoints for an hour: in these tests only what they call publishes.
const HOLD: Grouping = Grouping {
    max_checkpoints: 16,
    max_delay: Duration::from_secs(3600),
};

/// A shadow run over [`GRAPH`], with the checkpoint its engine would keep.
struct ShadowRun {
    _dir: tempfile::TempDir,
    run_dir: RunDir,
    work: PathBuf,
    state: GitState,
    checkpoint: Checkpoint,
}

fn shadow_run() -> ShadowRun {
    let support::ShadowRun {
        dir,
        run_dir,
        work,
        state,
    } = support::shadow_run(RUN);
    std::fs::write(run_dir.graph(), GRAPH).unwrap();
    let mut checkpoint = checkpoint();
    checkpoint.run_id = RUN.into();
    ShadowRun {
        _dir: dir,
        run_dir,
        work,
        state,
        checkpoint,
    }
}

impl ShadowRun {
    fn session(&self, grouping: Grouping) -> (SessionHandle, JoinHandle<()>) {
        let options = SessionOptions {
            watch: false,
            grouping,
        };
        SessionHandle::spawn_joinable(&self.run_dir, self.state.clone(), options).unwrap()
    }

    /// What the engine does after node `node` (the next one `next`): saves checkpoint.json,
    /// records the checkpoint, saves checkpoint.json naming it; the commit.
    fn after_node(&mut self, session: &SessionHandle, node: &str, next: &str) -> Oid {
        let state = &mut self.checkpoint;
        state.current_node = Some(node.into());
        state.next_node_id = Some(next.into());
        state.completed_nodes.push(node.into());
        state.git_commit_sha = None;
        state.save_with(&self.run_dir.checkpoint(), false).unwrap();
        let saved = state.clone();
        let made = session
            .run_blocking(move |session| session.checkpoint(&saved))
            .unwrap();
        state.git_commit_sha = Some(made.sha.clone());
        state.save_with(&self.run_dir.checkpoint(), false).unwrap();
        Oid::from_str(&made.sha).unwrap()
    }

    /// Where `reference` is on disk, read through a handle of its own.
    fn on_disk(&self, reference: &str) -> Option<Oid> {
        let repo = Repository::open_bare(&self.state.git_dir).unwrap();
        repo.refname_to_id(reference).ok()
    }

    fn branch_on_disk(&self) -> Oid {
        self.on_disk(&self.state.branch).unwrap()
    }

    fn base(&self) -> Oid {
        Oid::from_str(&self.state.base_sha).unwrap()
    }
}

/// The first-parent line from `tip` back to (without) `base`, newest first, every commit
/// and tree read through a fresh handle.
fn line(git_dir: &Path, tip: Oid, base: Oid) -> Vec<Oid> {
    let repo = Repository::open_bare(git_dir).unwrap();
    let mut found = Vec::new();
    let mut at = tip;
    while at != base {
        let commit = repo.find_commit(at).unwrap();
        commit.tree().unwrap();
        found.push(at);
        at = commit.parent_id(0).unwrap();
    }
    found
}

#[test]
fn checkpoints_before_quiet_nodes_wait_and_the_next_busy_one_publishes_them_all() {
    let mut run = shadow_run();
    let (session, thread) = run.session(HOLD);
    write(&run.work.join("file.txt"), "changed by work\n");
    let work = run.after_node(&session, "work", "c1");
    let c1 = run.after_node(&session, "c1", "c2");
    // Both wait: nothing on disk names them yet.
    assert_eq!(run.branch_on_disk(), run.base());
    assert_eq!(run.on_disk(&run.state.metadata_ref), None);
    let repo = Repository::open_bare(&run.state.git_dir).unwrap();
    assert!(!repo.odb().unwrap().exists(work));

    // c2 is followed by c3 (quiet) too; c3 by the exit, which is not.
    let c2 = run.after_node(&session, "c2", "c3");
    let c3 = run.after_node(&session, "c3", "exit");
    assert_eq!(run.branch_on_disk(), c3);
    assert_eq!(
        line(&run.state.git_dir, c3, run.base()),
        vec![c3, c2, c1, work]
    );
    let metadata = run.on_disk(&run.state.metadata_ref).unwrap();
    let repo = Repository::open_bare(&run.state.git_dir).unwrap();
    let mut walk = repo.revwalk().unwrap();
    walk.push(metadata).unwrap();
    assert_eq!(walk.count(), 4, "one metadata commit a checkpoint");
    let tree = repo.find_commit(work).unwrap().tree().unwrap();
    let blob = tree.get_name("file.txt").unwrap().to_object(&repo).unwrap();
    assert_eq!(blob.as_blob().unwrap().content(), b"changed by work\n");
    drop(session);
    thread.join().unwrap();
}

#[test]
fn a_full_group_is_published_at_once() {
    let mut run = shadow_run();
    let (session, thread) = run.session(Grouping {
        max_checkpoints: 3,
        ..HOLD
    });
    run.after_node(&session, "c1", "c2");
    run.after_node(&session, "c2", "c3");
    assert_eq!(run.branch_on_disk(), run.base());
    let third = run.after_node(&session, "c3", "c1");
    assert_eq!(run.branch_on_disk(), third);
    // The next group starts empty.
    run.after_node(&session, "c1", "c2");
    assert_eq!(run.branch_on_disk(), third);
    drop(session);
    thread.join().unwrap();
}

#[test]
fn held_checkpoints_are_published_when_their_time_is_up_without_another_call() {
    let mut run = shadow_run();
    let (session, thread) = run.session(Grouping {
        max_checkpoints: 16,
        max_delay: Duration::from_millis(20),
    });
    let held = run.after_node(&session, "c1", "c2");
    let deadline = Instant::now() + Duration::from_secs(20);
    while run.branch_on_disk() != held {
        assert!(
            Instant::now() < deadline,
            "the held checkpoint was never published"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(line(&run.state.git_dir, held, run.base()), vec![held]);
    drop(session);
    thread.join().unwrap();
}

#[test]
fn closing_the_session_publishes_what_it_holds() {
    let mut run = shadow_run();
    let (session, thread) = run.session(HOLD);
    let first = run.after_node(&session, "c1", "c2");
    let second = run.after_node(&session, "c2", "c3");
    assert_eq!(run.branch_on_disk(), run.base());
    drop(session);
    thread.join().unwrap();
    assert_eq!(run.branch_on_disk(), second);
    assert_eq!(
        line(&run.state.git_dir, second, run.base()),
        vec![second, first]
    );
    assert!(run.on_disk(&run.state.metadata_ref).is_some());
}

/// Kills a run (its session never publishes again) after `work` and `c1` were held; with a
/// published checkpoint of `start` before them when `published_before`. Then resumes it as
/// `heddle resume` does: the checkpoint checkpoint.json names is recorded again from the
/// work tree, on top of what was published.
fn killed_while_holding(published_before: bool) {
    let mut run = shadow_run();
    let (session, thread) = run.session(HOLD);
    let published = published_before.then(|| run.after_node(&session, "start", "work"));
    let on_disk = published.unwrap_or(run.base());
    write(&run.work.join("file.txt"), "changed by work\n");
    run.after_node(&session, "work", "c1");
    let lost = run.after_node(&session, "c1", "c2");
    // The process dies: the session thread never publishes (it would in an hour).
    std::mem::forget(session);
    std::mem::forget(thread);
    assert_eq!(run.branch_on_disk(), on_disk);

    let repo = heddle_checkpoint::repo::open(&run.state).unwrap();
    heddle_checkpoint::integrity::verify_run(&repo, &run.run_dir, &run.state).unwrap();
    let restored = heddle_checkpoint::resume_restore::restore_interrupted(
        &run.run_dir,
        &run.state,
        &repo,
        NOW,
    )
    .unwrap();
    // The work tree already is what the lost checkpoints recorded: nothing to put back.
    assert!(restored.is_none(), "{restored:?}");
    let saved = Checkpoint::load(&run.run_dir.checkpoint()).unwrap();
    let recorded = Oid::from_str(saved.git_commit_sha.as_deref().unwrap()).unwrap();
    assert_ne!(recorded, lost);
    assert_eq!(saved.current_node.as_deref(), Some("c1"));
    assert_eq!(run.branch_on_disk(), recorded);
    let mut expected = vec![recorded];
    expected.extend(published);
    assert_eq!(line(&run.state.git_dir, recorded, run.base()), expected);
    let repo = Repository::open_bare(&run.state.git_dir).unwrap();
    let tree = repo.find_commit(recorded).unwrap().tree().unwrap();
    let blob = tree.get_name("file.txt").unwrap().to_object(&repo).unwrap();
    assert_eq!(blob.as_blob().unwrap().content(), b"changed by work\n");
    heddle_checkpoint::integrity::verify_run(&repo, &run.run_dir, &run.state).unwrap();
}

#[test]
fn a_run_killed_while_its_first_checkpoints_were_held_resumes_from_its_work_tree() {
    killed_while_holding(false);
}

#[test]
fn a_run_killed_while_later_checkpoints_were_held_resumes_on_the_published_ones() {
    killed_while_holding(true);
}
