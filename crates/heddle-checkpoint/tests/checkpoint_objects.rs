//! How a checkpoint session stores its objects, on a real shadow repository with real
//! checkpoints (`set_up` and `Session::checkpoint`): each checkpoint adds one pack and its
//! index to the repository and no loose objects; everything a checkpoint's refs name is
//! readable through a separate handle as soon as the checkpoint returns (what a killed
//! run leaves is what is on disk); and when the run ends its packs are merged into one
//! and nothing is left loose.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod support;

use std::path::{Path, PathBuf};

use git2::{Oid, Repository, TreeWalkMode, TreeWalkResult};
use heddle_checkpoint::pack::{loose_objects, pack_index_ids};
use heddle_checkpoint::session::Session;
use support::{ShadowRun, checkpoint, write};

const RUN: &str = "01JOBJECTS0000000000000000";

/// The files under `objects/` of the repository at `git_dir`.
fn object_files(git_dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().map(Result::unwrap) {
            if entry.file_type().unwrap().is_dir() {
                walk(&entry.path(), found);
            } else {
                found.push(entry.path());
            }
        }
    }
    let mut found = Vec::new();
    walk(&git_dir.join("objects"), &mut found);
    found
}

fn idx_files(git_dir: &Path) -> Vec<PathBuf> {
    object_files(git_dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "idx"))
        .collect()
}

fn packs(git_dir: &Path) -> usize {
    object_files(git_dir)
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pack"))
        .count()
}

/// Reads every object reachable from `commit` (its parents included) in a fresh handle on
/// the repository; how many commits.
fn read_all(git_dir: &Path, commit: Oid) -> usize {
    let repo = Repository::open_bare(git_dir).unwrap();
    let mut walk = repo.revwalk().unwrap();
    walk.push(commit).unwrap();
    let mut commits = 0;
    for oid in walk {
        let commit = repo.find_commit(oid.unwrap()).unwrap();
        commit
            .tree()
            .unwrap()
            .walk(TreeWalkMode::PreOrder, |_, entry| {
                entry.to_object(&repo).unwrap();
                TreeWalkResult::Ok
            })
            .unwrap();
        commits += 1;
    }
    commits
}

fn shadow_run() -> ShadowRun {
    support::shadow_run(RUN)
}

#[test]
fn each_checkpoint_adds_one_pack_and_no_loose_object_and_the_end_merges_them() {
    let run = shadow_run();
    let git_dir = run.state.git_dir.clone();
    let loose_before = loose_objects(&Repository::open_bare(&git_dir).unwrap())
        .unwrap()
        .len();
    let files_before = object_files(&git_dir).len();
    let packs_before = packs(&git_dir);
    let mut session = Session::open(&run.run_dir, run.state.clone(), false).unwrap();
    let mut state = checkpoint();
    state.run_id = RUN.into();
    let stages = 6;
    let mut tip = None;
    let mut indexes_before: Vec<PathBuf> = idx_files(&git_dir);
    for stage in 1..=stages {
        write(&run.work.join("file.txt"), &format!("version {stage}\n"));
        write(
            &run.run_dir
                .nodes_dir()
                .join(format!("n{stage}/status.json")),
            "{}",
        );
        state.current_node = Some(format!("n{stage}"));
        state.save_with(&run.run_dir.checkpoint(), false).unwrap();
        let made = session.checkpoint(&state).unwrap();
        let repo = Repository::open_bare(&git_dir).unwrap();
        assert_eq!(
            loose_objects(&repo).unwrap().len(),
            loose_before,
            "checkpoint {stage} left loose objects"
        );
        assert_eq!(
            object_files(&git_dir).len(),
            files_before + 2 * stage,
            "checkpoint {stage}: one pack and its index each"
        );
        // The new pack holds what the checkpoint added, not whole trees.
        let indexes = idx_files(&git_dir);
        let new: Vec<&PathBuf> = indexes
            .iter()
            .filter(|p| !indexes_before.contains(p))
            .collect();
        assert_eq!(new.len(), 1);
        let objects = pack_index_ids(new[0]).unwrap().len();
        assert!(
            (5..=16).contains(&objects),
            "checkpoint {stage}: {objects} objects"
        );
        indexes_before = indexes;
        // What the refs name is on disk already, readable by another process.
        let sha = Oid::from_str(&made.sha).unwrap();
        assert_eq!(repo.refname_to_id(&run.state.branch).unwrap(), sha);
        assert_eq!(read_all(&git_dir, sha), stage + 1);
        let metadata = repo.refname_to_id(&run.state.metadata_ref).unwrap();
        assert_eq!(read_all(&git_dir, metadata), stage);
        tip = Some(sha);
    }
    session.finish().unwrap();
    drop(session);
    // The run's packs merged into one; what the set-up left loose, packed.
    let repo = Repository::open_bare(&git_dir).unwrap();
    assert_eq!(loose_objects(&repo).unwrap().len(), 0);
    let expected = packs_before + 1 + usize::from(loose_before > 0);
    assert_eq!(packs(&git_dir), expected, "the run's packs merged");
    assert_eq!(read_all(&git_dir, tip.unwrap()), stages + 1);
    let out = std::process::Command::new("git")
        .args(["fsck", "--no-dangling"])
        .env("GIT_DIR", &git_dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git fsck: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The files under `git_dir` this process still holds open or mapped though they were
/// removed (Linux's `/proc/self`).
fn removed_but_held(git_dir: &Path) -> Vec<String> {
    let prefix = git_dir
        .canonicalize()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let mut held: Vec<String> = std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
        .map(|target| target.to_string_lossy().into_owned())
        .chain(
            std::fs::read_to_string("/proc/self/maps")
                .unwrap()
                .lines()
                .filter_map(|line| line.find('/').map(|at| line[at..].to_string()))
                .collect::<Vec<_>>(),
        )
        .filter(|path| path.starts_with(&prefix) && path.ends_with(" (deleted)"))
        .collect();
    held.sort();
    held.dedup();
    held
}

#[test]
fn after_merging_its_packs_a_session_lets_go_of_the_removed_ones() {
    // libgit2 keeps every pack it loaded in its object database's list, removed ones too,
    // and searches them all for each object a checkpoint writes: a session that kept its
    // repository would hold on to every merged pack (and slow down with every merge).
    let run = shadow_run();
    let (handle, thread) = heddle_checkpoint::actor::SessionHandle::spawn_joinable(
        &run.run_dir,
        run.state.clone(),
        heddle_checkpoint::session::SessionOptions {
            watch: false,
            grouping: heddle_checkpoint::grouping::Grouping::OFF,
        },
    )
    .unwrap();
    let mut state = checkpoint();
    state.run_id = RUN.into();
    let merge_after = heddle_checkpoint::pack::PACK_EVERY;
    for stage in 1..=merge_after + 1 {
        write(&run.work.join("file.txt"), &format!("version {stage}\n"));
        state.current_node = Some(format!("n{stage}"));
        state.save_with(&run.run_dir.checkpoint(), false).unwrap();
        let saved = state.clone();
        handle
            .run_blocking(move |session| session.checkpoint(&saved))
            .unwrap();
    }
    // The merge did happen: the run's packs are one, plus the checkpoint after it.
    let merged = idx_files(&run.state.git_dir)
        .iter()
        .map(|idx| pack_index_ids(idx).unwrap().len())
        .max()
        .unwrap();
    assert!(
        merged as u64 >= 5 * merge_after,
        "largest pack: {merged} objects"
    );
    let held = removed_but_held(&run.state.git_dir);
    assert!(held.is_empty(), "removed packs still held: {held:?}");
    drop(handle);
    thread.join().unwrap();
}
