//! Extension points the engine calls out through around each node: git checkpoints
//! (heddle-checkpoint), test-artifact capture and the blob store (heddle-artifacts). Without
//! them, checkpoints live in checkpoint.json only, nothing is captured and large values stay
//! inline.

use async_trait::async_trait;

use std::path::{Path, PathBuf};

use crate::checkpoint::Checkpoint;
use crate::rundir::{Manifest, RunDir};

mod service_errors;

pub use service_errors::{ArtifactError, BlobSinkError};

/// A new run, as the checkpoint store sees it at setup.
#[derive(Debug, Clone, Copy)]
pub struct RunStart<'a> {
    /// The new run's id, as in its manifest and its branch names.
    pub run_id: &'a str,
    /// Its run directory (created, still empty but for run.pid).
    pub run_dir: &'a RunDir,
    /// The folder the run was asked to work in (the user's workspace).
    pub workspace: &'a Path,
    /// The workflow (its `checkpoint_exclude` attribute, for one).
    pub workflow: &'a heddle_workflow::Workflow,
    /// The supervising run, for a manager loop's child (whose files its parent's
    /// checkpoints already cover).
    pub parent_run_id: Option<&'a str>,
}

/// How a run's checkpoints are kept, decided at setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointSetup {
    /// `none`, `worktree` or `shadow` (written to the manifest).
    pub mode: String,
    /// Where stages run: the workspace, or the run's git worktree.
    pub work_dir: PathBuf,
    /// The commit the run started from.
    pub base_sha: Option<String>,
    /// The run's branch.
    pub run_branch: Option<String>,
    /// Things the user should know (why shadow mode was chosen, what was skipped).
    pub warnings: Vec<String>,
}

/// The checkpoint mode (manifest.json's `checkpoint_mode`) of a run without git.
pub const NO_GIT_CHECKPOINTS: &str = "none";

impl CheckpointSetup {
    /// No git: stages run in `workspace` and checkpoints live in checkpoint.json only.
    pub fn none(workspace: &Path) -> Self {
        CheckpointSetup {
            mode: NO_GIT_CHECKPOINTS.into(),
            work_dir: workspace.to_path_buf(),
            base_sha: None,
            run_branch: None,
            warnings: Vec::new(),
        }
    }
}

/// What one git checkpoint recorded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GitCheckpoint {
    /// The commit on the run's branch.
    pub sha: String,
    /// Files the stage changed, added or deleted (relative to the work tree).
    pub files_touched: Vec<String>,
    /// Things skipped or worth knowing (large files, nested repositories).
    pub warnings: Vec<String>,
}

/// What reopening a stopped run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reopened {
    /// Things the user should know (locks removed, a worktree re-attached).
    pub warnings: Vec<String>,
    /// The work tree put back to the last checkpoint, if it had to be.
    pub recovered: Option<WorkTreeRecovery>,
}

/// The work tree of an interrupted run, saved and put back to its last checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkTreeRecovery {
    /// The checkpoint commit restored.
    pub checkpoint: String,
    /// The recovery snapshot's ref.
    pub recovery_ref: String,
    /// Its commit (the work tree as the interrupted stage left it).
    pub recovery_sha: String,
    /// Files written back.
    pub written: Vec<String>,
    /// Files deleted.
    pub deleted: Vec<String>,
    /// Entries in the way the run does not own, moved into `moved_aside_to`.
    pub moved_aside: Vec<String>,
    /// Where they went, when any did.
    pub moved_aside_to: Option<String>,
}

/// What kind of failure a hook reports; it decides how the doors answer (a refused
/// workspace is the request's fault, a damaged repository is storage).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookFailure {
    /// The request or the workspace is refused: fix it and try again.
    Refused,
    /// Something the hook needs is missing (a repository, a checkpoint).
    NotFound,
    /// Another process holds what the hook needs.
    Busy,
    /// Stored data is damaged or inconsistent.
    Storage,
    /// Reading or writing files failed.
    Io,
}

/// A hook's error: what kind of failure, and a message saying what to fix.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct HookError {
    /// What kind of failure.
    pub kind: HookFailure,
    /// What went wrong, naming the path or repository.
    pub message: String,
}

impl HookError {
    /// A failure of `kind`.
    pub fn new(kind: HookFailure, message: impl Into<String>) -> Self {
        HookError {
            kind,
            message: message.into(),
        }
    }
}

/// Records a checkpoint somewhere durable besides checkpoint.json (git).
#[async_trait]
pub trait CheckpointHook: Send + Sync {
    /// Sets a new run up (branch, worktree, shadow repository) and says where its stages
    /// run. Blocking: called while the run is prepared, before anything executes.
    fn start(&self, run: RunStart<'_>) -> Result<CheckpointSetup, HookError> {
        Ok(CheckpointSetup::none(run.workspace))
    }

    /// Finishes what a killed process left half done on the run's files (a rollback
    /// between its renames) before a resume reads any of them; warnings saying what was
    /// done. The caller holds the run's lock. Blocking.
    fn settle(&self, run_dir: &RunDir) -> Result<Vec<String>, HookError> {
        let _ = run_dir;
        Ok(Vec::new())
    }

    /// Makes a stopped run's checkpoints usable again before it resumes (a worktree that
    /// went missing, locks a killed process left). When the run was `interrupted` (its
    /// process died: no conclusion), the work tree is also saved as a recovery snapshot and
    /// the files the run owns are put back to the last checkpoint, so the stage that was
    /// running starts again from where it first started. Blocking.
    fn reopen(
        &self,
        run_dir: &RunDir,
        manifest: &Manifest,
        interrupted: bool,
    ) -> Result<Reopened, HookError> {
        let _ = (run_dir, manifest, interrupted);
        Ok(Reopened::default())
    }

    /// Called after checkpoint.json was saved for `checkpoint.current_node`; returns the
    /// commit recorded, if any.
    async fn after_node(
        &self,
        run_dir: &RunDir,
        checkpoint: &Checkpoint,
    ) -> Result<Option<GitCheckpoint>, HookError>;

    /// Called once the run ended (whatever its status): final.patch, watchers released.
    async fn finish(&self, run_dir: &RunDir, run_id: &str) -> Result<(), HookError> {
        let _ = (run_dir, run_id);
        Ok(())
    }
}

/// No git checkpoints.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoCheckpoints;

#[async_trait]
impl CheckpointHook for NoCheckpoints {
    async fn after_node(
        &self,
        _run_dir: &RunDir,
        _checkpoint: &Checkpoint,
    ) -> Result<Option<GitCheckpoint>, HookError> {
        Ok(None)
    }
}

/// What the artifact hook found after a stage.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CapturedArtifacts {
    /// Files kept, relative to the run directory (`artifacts/test/retry_0/junit.xml`).
    pub artifacts: Vec<CapturedArtifact>,
    /// Files left out, each with the reason (limits, unsafe paths).
    pub skipped: Vec<String>,
    /// A summary of the JUnit reports among them ("41 passed, 1 failed: ...").
    pub junit_summary: Option<String>,
}

/// One captured file.
#[derive(Debug, Clone, PartialEq)]
pub struct CapturedArtifact {
    /// Where it is stored, relative to the run directory.
    pub path: String,
    /// `screenshot`, `video`, `junit`, `playwright_report`, `trace` or `other`.
    pub kind: String,
    /// From the file's extension (`image/png`); `application/octet-stream` when unknown.
    pub media_type: String,
    /// Its size in bytes.
    pub size: u64,
}

/// The command stage an artifact capture is for.
#[derive(Debug, Clone, Copy)]
pub struct ArtifactStage<'a> {
    /// The node that ran.
    pub node_id: &'a str,
    /// Where it ran.
    pub work_dir: &'a Path,
    /// The folder of the run directory its artifacts go to.
    pub dest: &'a Path,
    /// The run directory, which the reported paths are relative to.
    pub run_dir: &'a Path,
}

/// Fingerprints the work tree before a command stage and captures the test artifacts it
/// produced afterwards (heddle-artifacts). Both calls block; the engine runs them off the
/// async workers.
pub trait ArtifactHook: Send + Sync {
    /// Remembers what the artifact places under `work_dir` hold now.
    fn before_stage(&self, work_dir: &Path) -> Box<dyn std::any::Any + Send>;

    /// Copies what is new or changed since `before` into `stage.dest`. Files it leaves out
    /// are listed in [`CapturedArtifacts::skipped`]; an error means nothing could be stored.
    fn after_stage(
        &self,
        stage: &ArtifactStage<'_>,
        before: Box<dyn std::any::Any + Send>,
    ) -> Result<CapturedArtifacts, ArtifactError>;
}

/// No artifact capture.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoArtifacts;

impl ArtifactHook for NoArtifacts {
    fn before_stage(&self, _work_dir: &Path) -> Box<dyn std::any::Any + Send> {
        Box::new(())
    }

    fn after_stage(
        &self,
        _stage: &ArtifactStage<'_>,
        _before: Box<dyn std::any::Any + Send>,
    ) -> Result<CapturedArtifacts, ArtifactError> {
        Ok(CapturedArtifacts::default())
    }
}

/// Stores large values content-addressed (heddle-artifacts' blob store) and returns their
/// `blob://sha256/{hex}` ref, so checkpoints carry refs instead of the values.
pub trait BlobSink: Send + Sync {
    /// Stores `bytes`; the ref.
    fn put(&self, bytes: &[u8]) -> Result<String, BlobSinkError>;

    /// Stores the file at `path` (a stage's log) without reading it whole, where the store
    /// can; the ref.
    fn put_file(&self, path: &Path) -> Result<String, BlobSinkError> {
        let bytes = std::fs::read(path).map_err(|e| BlobSinkError::Io {
            path: path.to_path_buf(),
            cause: crate::error::describe_io(&e),
        })?;
        self.put(&bytes)
    }

    /// Writes the content of blob `blob` (a `blob://` ref) to `dest`, checking it on the way;
    /// the bytes written.
    fn copy_to(&self, blob: &str, dest: &Path) -> Result<u64, BlobSinkError> {
        let _ = (blob, dest);
        Err(BlobSinkError::NoStore)
    }
}

/// No blob store: large values stay inline.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoBlobs;

impl BlobSink for NoBlobs {
    fn put(&self, _bytes: &[u8]) -> Result<String, BlobSinkError> {
        Err(BlobSinkError::NoStore)
    }
}
