//! Finding a checkpoint by a partial sha on a real repository: a prefix two checkpoints
//! share lists both, a longer one finds one, and every other form still works. The history
//! is built deterministically (fixed times and messages), so the same commits, and the same
//! shared prefix, come out on every run.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeMap;

use git2::{Oid, Repository, Signature, Time};
use heddle_checkpoint::message::{CommitFacts, worktree_message};
use heddle_checkpoint::state::{GitState, Mode, metadata_ref, timeline_branch};
use heddle_checkpoint::{CheckpointError, history};

const RUN: &str = "01TESTRUN";

fn signature(n: i64) -> Signature<'static> {
    Signature::new(
        "Heddle",
        "heddle@localhost",
        &Time::new(1_700_000_000 + n, 0),
    )
    .unwrap()
}

/// A repository whose run branch holds checkpoints until two of them share a 4-character
/// prefix: the repository, its state, the checkpoints in order and the shared prefix.
fn history_with_a_shared_prefix() -> (tempfile::TempDir, Repository, GitState, Vec<Oid>, String) {
    let dir = tempfile::tempdir().unwrap();
    let repo = Repository::init_bare(dir.path().join("repo.git")).unwrap();
    let empty = repo.treebuilder(None).unwrap().write().unwrap();
    let tree = repo.find_tree(empty).unwrap();
    let base = repo
        .commit(None, &signature(0), &signature(0), "base\n", &tree, &[])
        .unwrap();
    let metadata = repo
        .commit(None, &signature(0), &signature(0), "meta\n", &tree, &[])
        .unwrap();
    let mut parent = base;
    let mut seen: BTreeMap<String, Oid> = BTreeMap::new();
    let mut checkpoints = Vec::new();
    let shared = loop {
        let n = checkpoints.len();
        let facts = CommitFacts {
            run_id: RUN.into(),
            node_id: format!("node{n}"),
            status: "success".into(),
            completed: n + 1,
            metadata_sha: metadata.to_string(),
        };
        let sig = signature(i64::try_from(n).unwrap() + 1);
        let parent_commit = repo.find_commit(parent).unwrap();
        let oid = repo
            .commit(
                None,
                &sig,
                &sig,
                &worktree_message(&facts),
                &tree,
                &[&parent_commit],
            )
            .unwrap();
        checkpoints.push(oid);
        parent = oid;
        let prefix = oid.to_string()[..4].to_string();
        if seen.insert(prefix.clone(), oid).is_some() {
            break prefix;
        }
        assert!(n < 5000, "no shared prefix in 5000 commits");
    };
    drop(tree);
    let branch = timeline_branch(RUN, 1);
    repo.reference(&branch, parent, false, "test").unwrap();
    repo.reference(&metadata_ref(RUN), metadata, false, "test")
        .unwrap();
    let state = GitState {
        run_id: RUN.into(),
        mode: Mode::Shadow,
        git_dir: repo.path().to_path_buf(),
        work_tree: dir.path().join("work"),
        index: dir.path().join("index"),
        worktree_name: None,
        base_sha: base.to_string(),
        branch: branch.clone(),
        timelines: vec![branch],
        metadata_ref: metadata_ref(RUN),
        exclude: Vec::new(),
        size_cap: 1024,
        skip_prefixes: Vec::new(),
    };
    (dir, repo, state, checkpoints, shared)
}

#[test]
fn a_shared_prefix_lists_every_candidate_and_a_longer_one_finds_one() {
    let (_dir, repo, state, checkpoints, shared) = history_with_a_shared_prefix();
    let sharing: Vec<Oid> = checkpoints
        .iter()
        .copied()
        .filter(|o| o.to_string().starts_with(&shared))
        .collect();
    assert_eq!(sharing.len(), 2, "{sharing:?}");

    let error = history::resolve(&repo, &state, &shared).unwrap_err();
    let CheckpointError::Ambiguous { prefix, candidates } = &error else {
        panic!("expected an ambiguous prefix, got {error}");
    };
    assert_eq!(prefix, &shared);
    assert_eq!(candidates.len(), 2, "{candidates:?}");
    for oid in &sharing {
        let short = &oid.to_string()[..12];
        assert!(
            candidates.iter().any(|c| c.starts_with(short)),
            "{short} missing from {candidates:?}"
        );
    }
    let message = error.to_string();
    assert!(message.contains("give more characters"), "{message}");

    // Characters enough to tell them apart find each one, upper case too.
    for oid in &sharing {
        let full = oid.to_string();
        let other = sharing.iter().find(|o| *o != oid).unwrap().to_string();
        let common = full
            .chars()
            .zip(other.chars())
            .take_while(|(a, b)| a == b)
            .count();
        let unique = &full[..=common.max(4)];
        assert_eq!(history::resolve(&repo, &state, unique).unwrap(), *oid);
        assert_eq!(
            history::resolve(&repo, &state, &unique.to_ascii_uppercase()).unwrap(),
            *oid
        );
        assert_eq!(history::resolve(&repo, &state, &full).unwrap(), *oid);
    }
}

#[test]
fn nodes_visits_and_unknown_targets_resolve_as_documented() {
    let (_dir, repo, state, checkpoints, _) = history_with_a_shared_prefix();
    let last = *checkpoints.last().unwrap();
    assert_eq!(
        history::resolve(&repo, &state, "last-success").unwrap(),
        last
    );
    assert_eq!(
        history::resolve(&repo, &state, "node1").unwrap(),
        checkpoints[1]
    );
    assert_eq!(
        history::resolve(&repo, &state, "node1:start").unwrap(),
        checkpoints[0]
    );
    assert_eq!(
        history::resolve(&repo, &state, "node0:start")
            .unwrap()
            .to_string(),
        state.base_sha
    );
    assert_eq!(
        history::resolve(&repo, &state, "node2@1").unwrap(),
        checkpoints[2]
    );
    let error = history::resolve(&repo, &state, "nosuch").unwrap_err();
    assert!(
        matches!(error, CheckpointError::NoSuchCheckpoint { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("node0"), "{error}");
    let error = history::resolve(&repo, &state, "node1:middle").unwrap_err();
    assert!(
        error.to_string().contains("not `start` or `end`"),
        "{error}"
    );
}
