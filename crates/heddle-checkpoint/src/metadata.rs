//! The metadata history `refs/heddle/{run_id}`: an orphan line of commits written straight
//! into the object database (no index, no work tree) holding manifest.json, graph.dot,
//! checkpoint.json, the run's timeline.jsonl in chunks ([`crate::history_chunks`]) and the
//! trace files of each stage under 512 KB, so a run can be inspected and resumed from git
//! alone.

use std::path::Path;

use git2::build::TreeUpdateBuilder;
use git2::{FileMode, Oid, Repository, Signature};
use heddle_engine::{Checkpoint, RunDir};

use crate::error::{CheckpointError, Result};
use crate::history_chunks;
use crate::repo::{compare_and_swap, tip};

/// Trace files larger than this stay out of the metadata history.
pub const TRACE_LIMIT: u64 = 512 * 1024;

/// The stage files the metadata history keeps.
pub const TRACE_FILES: &[&str] = &[
    "prompt.md",
    "response.md",
    "status.json",
    "stdout.log",
    "stderr.log",
    "script_invocation.json",
    "script_timing.json",
    "diff.patch",
];

/// Run files the metadata history keeps at its root.
pub const ROOT_FILES: &[&str] = &["manifest.json", "graph.dot", "checkpoint.json"];

/// Commits the run's current root files and the trace files of `stage_dirs` (names under
/// `nodes/`) onto `reference`; the new metadata commit.
pub fn commit_metadata(
    repo: &Repository,
    run_dir: &RunDir,
    reference: &str,
    stage_dirs: &[String],
    message: &str,
    signature: &Signature<'_>,
) -> Result<Oid> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let parent = tip(repo, reference)?;
    let base = match parent {
        Some(oid) => repo
            .find_commit(oid)
            .and_then(|c| c.tree())
            .map_err(|e| git("metadata tree", &e))?,
        None => {
            let empty = repo
                .treebuilder(None)
                .and_then(|b| b.write())
                .map_err(|e| git("empty tree", &e))?;
            repo.find_tree(empty).map_err(|e| git("empty tree", &e))?
        }
    };
    let mut update = TreeUpdateBuilder::new();
    for name in ROOT_FILES {
        let path = run_dir.root().join(name);
        if let Some(blob) = blob_of(repo, &path, u64::MAX)? {
            update.upsert(*name, blob, FileMode::Blob);
        }
    }
    let checkpoint_path = run_dir.checkpoint();
    if let Some(bytes) = local_history_bytes(&checkpoint_path)? {
        let history = history_chunks::local_file(run_dir.root());
        history_chunks::update_chunks(repo, &mut update, &base, &history, bytes)?;
    }
    for stage in stage_dirs {
        let dir = run_dir.nodes_dir().join(stage);
        for name in TRACE_FILES {
            if let Some(blob) = blob_of(repo, &dir.join(name), TRACE_LIMIT)? {
                update.upsert(format!("nodes/{stage}/{name}"), blob, FileMode::Blob);
            }
        }
    }
    let tree_id = update
        .create_updated(repo, &base)
        .map_err(|e| git("metadata tree", &e))?;
    let tree = repo
        .find_tree(tree_id)
        .map_err(|e| git("metadata tree", &e))?;
    let parents = match parent {
        Some(oid) => vec![
            repo.find_commit(oid)
                .map_err(|e| git("metadata commit", &e))?,
        ],
        None => Vec::new(),
    };
    let parent_refs: Vec<&git2::Commit<'_>> = parents.iter().collect();
    let commit = repo
        .commit(None, signature, signature, message, &tree, &parent_refs)
        .map_err(|e| git("metadata commit", &e))?;
    compare_and_swap(
        repo,
        reference,
        parent,
        commit,
        "heddle: checkpoint metadata",
    )?;
    Ok(commit)
}

/// Writes the file at `path` as a blob when it exists and is at most `limit` bytes.
fn blob_of(repo: &Repository, path: &Path, limit: u64) -> Result<Option<Oid>> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() && meta.len() <= limit => repo
            .blob_path(path)
            .map(Some)
            .map_err(|e| CheckpointError::git(repo.path(), &path.to_string_lossy(), &e)),
        _ => Ok(None),
    }
}

/// Reads file `name` of metadata commit `commit`.
pub fn read_file(repo: &Repository, commit: Oid, name: &str) -> Result<Vec<u8>> {
    let git = |e: &git2::Error| {
        CheckpointError::git(
            repo.path(),
            &format!("{name} in metadata commit {commit}"),
            e,
        )
    };
    let tree = repo
        .find_commit(commit)
        .and_then(|c| c.tree())
        .map_err(|e| git(&e))?;
    let entry = tree.get_path(Path::new(name)).map_err(|e| git(&e))?;
    let blob = repo.find_blob(entry.id()).map_err(|e| git(&e))?;
    Ok(blob.content().to_vec())
}

/// How many bytes of timeline.jsonl the run's checkpoint.json at `path` covers; `None`
/// without a checkpoint or for a format 1 one (history inline).
fn local_history_bytes(path: &Path) -> Result<Option<u64>> {
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CheckpointError::io(path, &e)),
    };
    Ok(Checkpoint::parse_head(path, &text)?.history_bytes)
}

/// The checkpoint metadata commit `commit` holds, with its history, and the raw
/// timeline.jsonl text it covers (`None` for a format 1 checkpoint, history inline).
pub fn read_checkpoint(repo: &Repository, commit: Oid) -> Result<(Checkpoint, Option<Vec<u8>>)> {
    let bytes = read_file(repo, commit, "checkpoint.json")?;
    let name = format!("checkpoint.json of metadata commit {commit}");
    let head = Checkpoint::parse_head(Path::new(&name), &bytes)?;
    let Some(covered) = head.history_bytes else {
        let mut inline = head;
        inline.stages = inline.timeline.len();
        return Ok((inline, None));
    };
    let tree = repo
        .find_commit(commit)
        .and_then(|c| c.tree())
        .map_err(|e| CheckpointError::git(repo.path(), &name, &e))?;
    let text = history_chunks::read_chunks(repo, &tree, covered)?;
    let history = heddle_engine::timeline_file::History::parse(&text, covered);
    Ok((head.with_history(history), Some(text)))
}
