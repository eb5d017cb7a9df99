//! The metadata history's layout for long runs: each stage's trace files go under a shard
//! of `nodes/` (no tree holds more than 256 entries, however many stages ran), the older
//! flat layout still reads, and a root file that did not change is not stored again.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use git2::{Oid, Repository, Signature, Tree};
use heddle_checkpoint::metadata::{
    RootBlobs, commit_metadata, commit_metadata_with, read_trace_file, trace_path,
};
use heddle_engine::RunDir;

fn largest_tree(repo: &Repository, tree: &Tree<'_>) -> usize {
    let mut largest = tree.len();
    for entry in tree.iter() {
        if let Ok(sub) = repo.find_tree(entry.id()) {
            largest = largest.max(largest_tree(repo, &sub));
        }
    }
    largest
}

fn setup() -> (tempfile::TempDir, Repository, RunDir) {
    let dir = tempfile::tempdir().unwrap();
    let repo = Repository::init_bare(dir.path().join("repo.git")).unwrap();
    let run_dir = RunDir::create(dir.path().join("run")).unwrap();
    std::fs::write(run_dir.root().join("manifest.json"), "{}").unwrap();
    std::fs::write(run_dir.graph(), "digraph G {}").unwrap();
    (dir, repo, run_dir)
}

fn add_stage(run_dir: &RunDir, stage: &str) {
    let folder = run_dir.nodes_dir().join(stage);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("status.json"),
        format!("{{\"stage\":\"{stage}\"}}"),
    )
    .unwrap();
}

#[test]
fn trace_files_are_sharded_so_no_tree_grows_with_the_stages() {
    let (_dir, repo, run_dir) = setup();
    let signature = Signature::now("t", "t@t").unwrap();
    let mut blobs = RootBlobs::default();
    let mut last = None;
    for i in 0..600 {
        let stage = format!("n{i}");
        add_stage(&run_dir, &stage);
        last = Some(
            commit_metadata_with(
                &repo,
                &run_dir,
                "refs/heddle/run",
                &[stage],
                "m",
                &signature,
                &mut blobs,
            )
            .unwrap(),
        );
    }
    let tip = repo.find_commit(last.unwrap()).unwrap();
    let tree = tip.tree().unwrap();
    assert!(
        largest_tree(&repo, &tree) <= 256,
        "a tree grew past 256 entries"
    );
    let path = trace_path("n599", "status.json");
    assert!(path.starts_with("nodes/") && path.ends_with("/n599/status.json"));
    assert_eq!(path.split('/').nth(1).unwrap().len(), 2, "{path}");
    assert_eq!(
        read_trace_file(&repo, tip.id(), "n599", "status.json").unwrap(),
        b"{\"stage\":\"n599\"}"
    );
    assert_eq!(
        read_trace_file(&repo, tip.id(), "n0", "status.json").unwrap(),
        b"{\"stage\":\"n0\"}"
    );
}

#[test]
fn trace_files_of_the_older_flat_layout_still_read() {
    let (_dir, repo, _run_dir) = setup();
    let blob = repo.blob(b"old").unwrap();
    let mut stage = repo.treebuilder(None).unwrap();
    stage.insert("status.json", blob, 0o100644).unwrap();
    let stage = stage.write().unwrap();
    let mut nodes = repo.treebuilder(None).unwrap();
    nodes.insert("test", stage, 0o040000).unwrap();
    let nodes = nodes.write().unwrap();
    let mut root = repo.treebuilder(None).unwrap();
    root.insert("nodes", nodes, 0o040000).unwrap();
    let root = repo.find_tree(root.write().unwrap()).unwrap();
    let signature = Signature::now("t", "t@t").unwrap();
    let commit: Oid = repo
        .commit(None, &signature, &signature, "old", &root, &[])
        .unwrap();
    assert_eq!(
        read_trace_file(&repo, commit, "test", "status.json").unwrap(),
        b"old"
    );
}

#[test]
fn a_root_file_is_stored_again_when_it_changes() {
    let (_dir, repo, run_dir) = setup();
    let signature = Signature::now("t", "t@t").unwrap();
    let graph = |commit: Oid| {
        let tree = repo.find_commit(commit).unwrap().tree().unwrap();
        let id = tree.get_name("graph.dot").unwrap().id();
        repo.find_blob(id).unwrap().content().to_vec()
    };
    let mut blobs = RootBlobs::default();
    let reference = "refs/heddle/run";
    let first =
        commit_metadata_with(&repo, &run_dir, reference, &[], "m", &signature, &mut blobs).unwrap();
    assert_eq!(graph(first), b"digraph G {}");
    // Same length, written at once: still seen.
    std::fs::write(run_dir.graph(), "digraph H {}").unwrap();
    let second =
        commit_metadata_with(&repo, &run_dir, reference, &[], "m", &signature, &mut blobs).unwrap();
    assert_eq!(graph(second), b"digraph H {}");
    let third = commit_metadata(&repo, &run_dir, reference, &[], "m", &signature).unwrap();
    assert_eq!(graph(third), b"digraph H {}");
}
