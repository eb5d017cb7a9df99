//! The metadata history `refs/heddle/{run_id}`: an orphan line of commits written straight
//! into the object database (no index, no work tree) holding manifest.json, graph.dot,
//! checkpoint.json, the run's timeline.jsonl in chunks ([`crate::history_chunks`]) and the
//! trace files of each stage under 512 KB, so a run can be inspected and resumed from git
//! alone.
//!
//! Where a stage's trace files and the timeline's chunks go in the tree is the history's
//! [`MetadataLayout`]: sharded so that no tree a stage rewrites grows with the run. Every
//! layout Heddle has written is read by [`read_trace_file`].

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use git2::build::TreeUpdateBuilder;
use git2::{FileMode, Oid, Repository, Signature};
use heddle_engine::timeline_file::History;
use heddle_engine::{Checkpoint, RunDir};

use crate::error::{CheckpointError, Result};
use crate::history_chunks;
use crate::metadata_layout::{MetadataLayout, trace_paths};
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
pub const ROOT_FILES: &[&str] = &["manifest.json", "graph.dot", CHECKPOINT_FILE];

/// The root file holding the run's checkpoint.
const CHECKPOINT_FILE: &str = "checkpoint.json";

/// The blobs of the run's root files as last stored, with each file's length and
/// modification time then: a file whose length and time did not change is not read again
/// (graph.dot, which can be large, does not change during a run). As git does with its
/// index, a file changed less than [`SETTLED`] before it was read is read again next time:
/// a rewrite within the file system's time granularity keeps the time.
#[derive(Debug, Default)]
pub struct RootBlobs {
    known: HashMap<&'static str, (u64, SystemTime, Oid)>,
}

/// How long before it was read a file must have last changed for its blob to be reused.
pub const SETTLED: Duration = Duration::from_secs(2);

/// Trace file `name` of stage folder `stage` in metadata commit `commit`, in whichever
/// layout the history was written ([`trace_paths`]).
pub fn read_trace_file(repo: &Repository, commit: Oid, stage: &str, name: &str) -> Result<Vec<u8>> {
    let [newest, older, flat] = trace_paths(stage, name);
    read_file(repo, commit, &newest)
        .or_else(|_| read_file(repo, commit, &older))
        .or_else(|_| read_file(repo, commit, &flat))
}

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
    let mut blobs = RootBlobs::default();
    commit_metadata_with(
        repo, run_dir, reference, stage_dirs, message, signature, &mut blobs,
    )
}

/// [`commit_metadata`], reusing the root files' blobs `blobs` knows (a session keeps one
/// for all its checkpoints).
pub fn commit_metadata_with(
    repo: &Repository,
    run_dir: &RunDir,
    reference: &str,
    stage_dirs: &[String],
    message: &str,
    signature: &Signature<'_>,
    blobs: &mut RootBlobs,
) -> Result<Oid> {
    let parts = MetadataParts {
        parent: tip(repo, reference)?,
        stage_dirs,
        message,
        signature,
        head: None,
    };
    let made = metadata_commit(repo, run_dir, parts, blobs)?;
    made.move_ref(repo, reference)?;
    Ok(made.commit)
}

/// A metadata commit written but not yet on its ref.
#[derive(Debug, Clone, Copy)]
pub struct MetadataCommit {
    /// The commit.
    pub commit: Oid,
    /// The ref's commit it builds on (`None`: the ref does not exist yet).
    pub parent: Option<Oid>,
    /// The commit's tree.
    pub tree: Oid,
    /// The parent's tree (the empty tree without a parent).
    pub parent_tree: Oid,
}

impl MetadataCommit {
    /// Moves `reference` from the parent to the commit, failing if another writer moved it
    /// in between.
    pub fn move_ref(&self, repo: &Repository, reference: &str) -> Result<()> {
        move_metadata_ref(repo, reference, self.parent, self.commit)
    }
}

/// Moves the metadata ref `reference` from `from` (`None`: it must not exist yet) to `to`,
/// failing if another writer moved it in between.
pub fn move_metadata_ref(
    repo: &Repository,
    reference: &str,
    from: Option<Oid>,
    to: Oid,
) -> Result<()> {
    compare_and_swap(repo, reference, from, to, "heddle: checkpoint metadata")
}

/// checkpoint.json's content for a metadata commit, and how much of timeline.jsonl it covers
/// (`None`: a format 1 checkpoint, its history inline).
#[derive(Debug, Clone, Copy)]
pub struct CheckpointHead<'a> {
    /// checkpoint.json as the run stands after the stage.
    pub json: &'a [u8],
    /// The length of timeline.jsonl it covers.
    pub history_bytes: Option<u64>,
}

/// What a metadata commit records besides the run's root files.
#[derive(Clone, Copy)]
pub struct MetadataParts<'a> {
    /// The commit it builds on: the metadata ref's tip, or the newest metadata commit a
    /// session holds unpublished (`None`: the history starts with it).
    pub parent: Option<Oid>,
    /// Stage folders (names under `nodes/`) whose trace files it adds.
    pub stage_dirs: &'a [String],
    /// Its message.
    pub message: &'a str,
    /// Its author and committer.
    pub signature: &'a Signature<'a>,
    /// checkpoint.json, when the caller has it; `None` reads it as the run stands.
    pub head: Option<CheckpointHead<'a>>,
}

/// Writes the metadata commit [`commit_metadata_with`] makes on `parent`, without moving
/// the ref (a checkpoint session moves it once the commit's objects are on disk). checkpoint.json
/// is `head` when given (the session has it in memory), else read as the run stands.
pub fn metadata_commit(
    repo: &Repository,
    run_dir: &RunDir,
    commit: MetadataParts<'_>,
    blobs: &mut RootBlobs,
) -> Result<MetadataCommit> {
    let MetadataParts {
        parent,
        stage_dirs,
        message,
        signature,
        head,
    } = commit;
    let base = base_tree(repo, parent)?;
    let mut update = TreeUpdateBuilder::new();
    for name in ROOT_FILES.iter().filter(|name| **name != CHECKPOINT_FILE) {
        if let Some(blob) = blobs.blob(repo, run_dir, name)? {
            update.upsert(*name, blob, FileMode::Blob);
        }
    }
    let on_disk;
    let head = match head {
        Some(head) => Some(head),
        None => {
            on_disk = checkpoint_now(run_dir)?;
            on_disk.as_ref().map(|(json, bytes)| CheckpointHead {
                json,
                history_bytes: *bytes,
            })
        }
    };
    if let Some(head) = head {
        let id = repo
            .blob(head.json)
            .map_err(|e| CheckpointError::git(repo.path(), CHECKPOINT_FILE, &e))?;
        update.upsert(CHECKPOINT_FILE, id, FileMode::Blob);
        if let Some(bytes) = head.history_bytes {
            let history = history_chunks::local_file(run_dir.root());
            history_chunks::update_chunks(repo, &mut update, &base, &history, bytes)?;
        }
    }
    let layout = MetadataLayout::of(&base);
    for stage in stage_dirs {
        let dir = run_dir.nodes_dir().join(stage);
        for name in TRACE_FILES {
            if let Some(blob) = blob_of(repo, &dir.join(name), TRACE_LIMIT)? {
                update.upsert(layout.trace_path(stage, name), blob, FileMode::Blob);
            }
        }
    }
    write_commit(repo, &base, update, parent, message, signature)
}

/// Root files of a metadata commit given as bytes rather than read from the run folder.
#[derive(Debug, Clone, Copy)]
pub struct RootFileBytes<'a> {
    /// manifest.json.
    pub manifest: &'a [u8],
    /// checkpoint.json and the whole timeline.jsonl it covers; `None` leaves both as
    /// the parent commit has them (a run at its base has no checkpoint).
    pub checkpoint: Option<(&'a [u8], &'a [u8])>,
}

/// The metadata commit on top of `parent` (the metadata ref's tip; `None`: the first)
/// holding `files` and, when `parent` has none, the run folder's graph.dot; written to
/// the object database only: the caller moves the ref ([`MetadataCommit::move_ref`]) once
/// the run folder holds the same files.
pub fn commit_metadata_bytes(
    repo: &Repository,
    run_dir: &RunDir,
    parent: Option<Oid>,
    files: RootFileBytes<'_>,
    message: &str,
    signature: &Signature<'_>,
) -> Result<MetadataCommit> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let base = base_tree(repo, parent)?;
    let mut update = TreeUpdateBuilder::new();
    let blob = |name: &str, bytes: &[u8]| repo.blob(bytes).map_err(|e| git(name, &e));
    update.upsert(
        "manifest.json",
        blob("manifest.json", files.manifest)?,
        FileMode::Blob,
    );
    if let Some((checkpoint, history)) = files.checkpoint {
        let id = blob("checkpoint.json", checkpoint)?;
        update.upsert("checkpoint.json", id, FileMode::Blob);
        history_chunks::update_chunks_from_text(repo, &mut update, &base, history)?;
    }
    if base.get_name("graph.dot").is_none()
        && let Some(id) = blob_of(repo, &run_dir.root().join("graph.dot"), u64::MAX)?
    {
        update.upsert("graph.dot", id, FileMode::Blob);
    }
    write_commit(repo, &base, update, parent, message, signature)
}

/// The tree of metadata commit `parent`, or the empty tree for the first commit.
fn base_tree(repo: &Repository, parent: Option<Oid>) -> Result<git2::Tree<'_>> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    match parent {
        Some(oid) => repo
            .find_commit(oid)
            .and_then(|c| c.tree())
            .map_err(|e| git("metadata tree", &e)),
        None => {
            let empty = repo
                .treebuilder(None)
                .and_then(|b| b.write())
                .map_err(|e| git("empty tree", &e))?;
            repo.find_tree(empty).map_err(|e| git("empty tree", &e))
        }
    }
}

/// Writes `base` with `update` applied as a tree, and a commit of it on `parent`.
fn write_commit(
    repo: &Repository,
    base: &git2::Tree<'_>,
    mut update: TreeUpdateBuilder,
    parent: Option<Oid>,
    message: &str,
    signature: &Signature<'_>,
) -> Result<MetadataCommit> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let tree_id = update
        .create_updated(repo, base)
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
    Ok(MetadataCommit {
        commit,
        parent,
        tree: tree_id,
        parent_tree: base.id(),
    })
}

impl RootBlobs {
    /// The blob of root file `name` of the run (stored when it changed); `None` when the
    /// file is missing.
    fn blob(
        &mut self,
        repo: &Repository,
        run_dir: &RunDir,
        name: &'static str,
    ) -> Result<Option<Oid>> {
        let path = run_dir.root().join(name);
        let Ok(meta) = std::fs::metadata(&path) else {
            return Ok(None);
        };
        let stamp = meta.modified().ok();
        if let (Some(stamp), Some((len, at, oid))) = (stamp, self.known.get(name))
            && *len == meta.len()
            && *at == stamp
        {
            return Ok(Some(*oid));
        }
        let blob = blob_of(repo, &path, u64::MAX)?;
        self.known.remove(name);
        // The file system's clock, not the run's: it is compared with file times.
        let settled = stamp.filter(|at| {
            SystemTime::now()
                .duration_since(*at)
                .is_ok_and(|age| age >= SETTLED)
        });
        if let (Some(oid), Some(stamp)) = (blob, settled) {
            self.known.insert(name, (meta.len(), stamp, oid));
        }
        Ok(blob)
    }
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

/// checkpoint.json as the run stands, with the length of timeline.jsonl it covers (`None`
/// for format 1, history inline): the file, or, when `head` lines of timeline.jsonl past
/// it closed later stages (the engine rewrites the file only now and then), the last such
/// head as the file would hold it. `None` without a checkpoint.
fn checkpoint_now(run_dir: &RunDir) -> Result<Option<(Vec<u8>, Option<u64>)>> {
    let path = run_dir.checkpoint();
    let text = match std::fs::read(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(CheckpointError::io(&path, &e)),
    };
    let Some(bytes) = Checkpoint::parse_head(&path, &text)?.history_bytes else {
        return Ok(Some((text, None)));
    };
    let timeline = run_dir.timeline();
    let history = match std::fs::read(&timeline) {
        Ok(history) => history,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(CheckpointError::io(&timeline, &e)),
    };
    match History::last_head(&history, bytes) {
        Some(journaled) => {
            let head = journaled.into_checkpoint();
            Ok(Some((head.head_bytes(&path)?, head.history_bytes)))
        }
        None => Ok(Some((text, Some(bytes)))),
    }
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
