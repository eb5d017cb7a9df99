//! Extension points the engine calls after each node: git checkpoints (heddle-checkpoint)
//! plug in here. Without one, checkpoints live in checkpoint.json only.

use async_trait::async_trait;

use crate::checkpoint::Checkpoint;
use crate::rundir::RunDir;

/// Records a checkpoint somewhere durable besides checkpoint.json (git).
#[async_trait]
pub trait CheckpointHook: Send + Sync {
    /// `none`, `worktree` or `shadow` (written to the manifest).
    fn mode(&self) -> &'static str;

    /// Called after checkpoint.json was saved for `checkpoint.current_node`; returns the
    /// commit recorded, if any.
    async fn after_node(
        &self,
        run_dir: &RunDir,
        checkpoint: &Checkpoint,
    ) -> Result<Option<String>, String>;
}

/// No git checkpoints.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoCheckpoints;

#[async_trait]
impl CheckpointHook for NoCheckpoints {
    fn mode(&self) -> &'static str {
        "none"
    }

    async fn after_node(
        &self,
        _run_dir: &RunDir,
        _checkpoint: &Checkpoint,
    ) -> Result<Option<String>, String> {
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
    /// Its media type.
    pub media_type: String,
    /// Its size in bytes.
    pub size: u64,
}

/// Fingerprints the work tree before a command stage and captures the test artifacts it
/// produced afterwards (heddle-artifacts). Both calls block; the engine runs them off the
/// async workers.
pub trait ArtifactHook: Send + Sync {
    /// Remembers what the artifact places under `work_dir` hold now.
    fn before_stage(&self, work_dir: &std::path::Path) -> Box<dyn std::any::Any + Send>;

    /// Copies what is new or changed since `before` into `dest` (a folder of the run
    /// directory); `run_dir` makes the reported paths relative.
    fn after_stage(
        &self,
        work_dir: &std::path::Path,
        before: Box<dyn std::any::Any + Send>,
        dest: &std::path::Path,
        run_dir: &std::path::Path,
    ) -> CapturedArtifacts;
}

/// No artifact capture.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoArtifacts;

impl ArtifactHook for NoArtifacts {
    fn before_stage(&self, _work_dir: &std::path::Path) -> Box<dyn std::any::Any + Send> {
        Box::new(())
    }

    fn after_stage(
        &self,
        _work_dir: &std::path::Path,
        _before: Box<dyn std::any::Any + Send>,
        _dest: &std::path::Path,
        _run_dir: &std::path::Path,
    ) -> CapturedArtifacts {
        CapturedArtifacts::default()
    }
}

/// Stores large values content-addressed (heddle-artifacts' blob store) and returns their
/// `blob://sha256/{hex}` ref, so checkpoints carry refs instead of the values.
pub trait BlobSink: Send + Sync {
    /// Stores `bytes`; the ref, or why it could not be stored.
    fn put(&self, bytes: &[u8]) -> Result<String, String>;

    /// Stores the file at `path` (a stage's log) without reading it whole, where the store
    /// can; the ref, or why it could not be stored.
    fn put_file(&self, path: &std::path::Path) -> Result<String, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        self.put(&bytes)
    }

    /// Writes the content of blob `blob` (a `blob://` ref) to `dest`, checking it on the way;
    /// the bytes written.
    fn copy_to(&self, blob: &str, dest: &std::path::Path) -> Result<u64, String> {
        let _ = dest;
        Err(format!("no blob store to read {blob} from"))
    }
}

/// No blob store: large values stay inline.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoBlobs;

impl BlobSink for NoBlobs {
    fn put(&self, _bytes: &[u8]) -> Result<String, String> {
        Err("no blob store".into())
    }
}
