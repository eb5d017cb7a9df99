//! [`PushingCheckpoints`]: git checkpoints that are also on the team's remote before the next
//! stage starts. A worker runs with it, so a worker that dies leaves every checkpoint it made
//! on the remote, and the worker that takes the run over resumes after the last finished
//! stage instead of running it again.

use std::path::PathBuf;

use async_trait::async_trait;
use heddle_engine::hooks::{
    CheckpointHook, CheckpointSetup, GitCheckpoint, HookError, HookFailure, Reopened, RunStart,
};
use heddle_engine::{Checkpoint, Manifest, RunDir};

use crate::grouping::Grouping;
use crate::hook::GitCheckpoints;
use crate::team_remote::push_with_retries;

/// [`GitCheckpoints`] that push each run's refs from `repository` to `remote` after every
/// checkpoint, and at the run's end, with the credentials an unattended worker has.
pub struct PushingCheckpoints {
    inner: GitCheckpoints,
    repository: PathBuf,
    remote: String,
}

impl PushingCheckpoints {
    /// `inner`'s checkpoints, pushed from the clone `repository` to `remote`. Each is
    /// published before it is pushed ([`Grouping::OFF`]): a push sends what is on disk.
    pub fn new(inner: GitCheckpoints, repository: PathBuf, remote: String) -> Self {
        PushingCheckpoints {
            inner: inner.with_grouping(Grouping::OFF),
            repository,
            remote,
        }
    }

    async fn push(&self, run_id: &str) -> Result<(), HookError> {
        let (repository, remote, run) = (
            self.repository.clone(),
            self.remote.clone(),
            run_id.to_string(),
        );
        tokio::task::spawn_blocking(move || push_with_retries(&repository, &remote, &run))
            .await
            .map_err(|e| {
                HookError::new(
                    HookFailure::Io,
                    format!("pushing run {run_id} stopped: {e}"),
                )
            })?
            .map_err(HookError::from)?;
        Ok(())
    }
}

#[async_trait]
impl CheckpointHook for PushingCheckpoints {
    fn start(&self, run: RunStart<'_>) -> Result<CheckpointSetup, HookError> {
        self.inner.start(run)
    }

    fn settle(&self, run_dir: &RunDir) -> Result<Vec<String>, HookError> {
        self.inner.settle(run_dir)
    }

    fn reopen(
        &self,
        run_dir: &RunDir,
        manifest: &Manifest,
        interrupted: bool,
    ) -> Result<Reopened, HookError> {
        self.inner.reopen(run_dir, manifest, interrupted)
    }

    async fn after_node(
        &self,
        run_dir: &RunDir,
        checkpoint: &Checkpoint,
    ) -> Result<Option<GitCheckpoint>, HookError> {
        let made = self.inner.after_node(run_dir, checkpoint).await?;
        if made.is_some() {
            self.push(&checkpoint.run_id).await?;
        }
        Ok(made)
    }

    async fn finish(&self, run_dir: &RunDir, run_id: &str) -> Result<(), HookError> {
        self.inner.finish(run_dir, run_id).await?;
        self.push(run_id).await
    }
}
