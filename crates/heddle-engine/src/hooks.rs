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
