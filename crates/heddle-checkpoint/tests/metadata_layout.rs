//! The metadata history's layout for long runs: each stage's trace files go under three
//! levels of shards of `stages/` and the timeline's chunks under three levels of `timeline/`
//! (no tree a stage rewrites holds more than 16 entries, however many stages ran); a
//! history begun in an older layout goes on in it; every older layout still reads; a root
//! file that did not change is not stored again.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use git2::build::TreeUpdateBuilder;
use git2::{Oid, Repository, Signature, Tree};
use heddle_checkpoint::history_chunks::{CHUNK_BYTES, read_chunks, update_chunks_from_text};
use heddle_checkpoint::metadata::{
    RootBlobs, commit_metadata, commit_metadata_with, read_trace_file,
};
use heddle_checkpoint::metadata_layout::MetadataLayout;
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
fn trace_files_are_sharded_so_no_tree_a_stage_rewrites_grows_with_the_stages() {
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
    // 600 stages: the innermost shards hold a stage or two; every tree above, 16 at most.
    assert!(
        largest_tree(&repo, &tree) <= 16,
        "a tree grew past 16 entries"
    );
    assert!(tree.get_name("nodes").is_none());
    let path = MetadataLayout::Fanout16.trace_path("n599", "status.json");
    assert_holds(&tree, &path);
    assert!(path.starts_with("stages/") && path.ends_with("/n599/status.json"));
    assert!(
        path.split('/')
            .skip(1)
            .take(3)
            .all(|shard| shard.len() == 1),
        "{path}"
    );
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
    let root = tree_of(&repo, &[("nodes/test/status.json", blob)]);
    let signature = Signature::now("t", "t@t").unwrap();
    let commit: Oid = repo
        .commit(None, &signature, &signature, "old", &root, &[])
        .unwrap();
    assert_eq!(
        read_trace_file(&repo, commit, "test", "status.json").unwrap(),
        b"old"
    );
}

/// A tree of `files` (path, blob) alone.
fn tree_of<'r>(repo: &'r Repository, files: &[(&str, Oid)]) -> Tree<'r> {
    let empty = repo
        .find_tree(repo.treebuilder(None).unwrap().write().unwrap())
        .unwrap();
    let mut update = TreeUpdateBuilder::new();
    for (path, blob) in files {
        update.upsert(*path, *blob, git2::FileMode::Blob);
    }
    repo.find_tree(update.create_updated(repo, &empty).unwrap())
        .unwrap()
}

/// Asserts that `tree` holds `path`.
fn assert_holds(tree: &Tree<'_>, path: &str) {
    assert!(
        tree.get_path(std::path::Path::new(path)).is_ok(),
        "no {path}"
    );
}

#[test]
fn a_history_begun_in_the_older_layout_goes_on_in_it() {
    let (_dir, repo, run_dir) = setup();
    // An older Heddle's history: n0's files in a two-digit shard of `nodes/`.
    let blob = repo.blob(b"{\"stage\":\"n0\"}").unwrap();
    let old = MetadataLayout::Fanout256.trace_path("n0", "status.json");
    let root = tree_of(&repo, &[(&old, blob)]);
    let reference = "refs/heddle/run";
    let signature = Signature::now("t", "t@t").unwrap();
    repo.commit(Some(reference), &signature, &signature, "old", &root, &[])
        .unwrap();

    add_stage(&run_dir, "n1");
    let tip = commit_metadata(&repo, &run_dir, reference, &["n1".into()], "m", &signature).unwrap();
    let tree = repo.find_commit(tip).unwrap().tree().unwrap();
    assert_eq!(MetadataLayout::of(&tree), MetadataLayout::Fanout256);
    assert_holds(
        &tree,
        &MetadataLayout::Fanout256.trace_path("n1", "status.json"),
    );
    assert!(
        tree.get_name("stages").is_none(),
        "a second layout was begun"
    );
    for stage in ["n0", "n1"] {
        assert_eq!(
            read_trace_file(&repo, tip, stage, "status.json").unwrap(),
            format!("{{\"stage\":\"{stage}\"}}").into_bytes()
        );
    }
}

#[test]
fn timeline_chunks_stay_in_the_layout_their_history_began_with() {
    let (_dir, repo, _run_dir) = setup();
    let empty = tree_of(&repo, &[]);
    let chunk = usize::try_from(CHUNK_BYTES).unwrap();
    let text: Vec<u8> = (0..chunk * 2 + 10).map(|i| b'a' + (i % 26) as u8).collect();

    // A new history: chunks under `timeline/{x}/{x}/{x}.jsonl`.
    let mut update = TreeUpdateBuilder::new();
    update_chunks_from_text(&repo, &mut update, &empty, &text).unwrap();
    let fresh = repo
        .find_tree(update.create_updated(&repo, &empty).unwrap())
        .unwrap();
    assert_eq!(MetadataLayout::of(&fresh), MetadataLayout::Fanout16);
    for k in 0..3 {
        assert_holds(&fresh, &MetadataLayout::Fanout16.chunk_path(k));
    }
    assert_eq!(read_chunks(&repo, &fresh, text.len() as u64).unwrap(), text);

    // An older history holding the first chunk as `timeline/000/000.jsonl` grows in its layout.
    let first = repo.blob(&text[..chunk]).unwrap();
    let older = tree_of(&repo, &[(&MetadataLayout::Fanout256.chunk_path(0), first)]);
    assert_eq!(MetadataLayout::of(&older), MetadataLayout::Fanout256);
    let mut update = TreeUpdateBuilder::new();
    update_chunks_from_text(&repo, &mut update, &older, &text).unwrap();
    let grown = repo
        .find_tree(update.create_updated(&repo, &older).unwrap())
        .unwrap();
    for k in 0..3 {
        assert_holds(&grown, &MetadataLayout::Fanout256.chunk_path(k));
    }
    assert!(grown.get_path(std::path::Path::new("timeline/0")).is_err());
    assert_eq!(read_chunks(&repo, &grown, text.len() as u64).unwrap(), text);
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
