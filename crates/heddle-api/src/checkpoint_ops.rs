//! Reading and rewinding a run's history: its checkpoints across every timeline, the files
//! and one file at a checkpoint, the diff between two, its captured artifacts, and
//! rollback. Blocking (git work): the doors call these off their async threads.

use heddle_artifacts::ListedArtifact;
use heddle_checkpoint::RunHistory;
use heddle_checkpoint::diff::CheckpointDiff;
use heddle_checkpoint::history::{CheckpointEntry, TreeFile};
use heddle_checkpoint::rollback::RollbackReport;

use crate::error::{ApiError, ErrorCode};
use crate::run_library::RunLibrary;
use crate::run_types::{
    CheckpointFile, CheckpointFileRequest, CheckpointRef, CheckpointState, DiffRequest,
    RollbackRequest, RunRef,
};

impl RunLibrary {
    fn history(&self, run: &str) -> Result<RunHistory, ApiError> {
        Ok(RunHistory::open(&self.find(run)?)?)
    }

    /// The run's checkpoints across every timeline.
    pub fn checkpoints(&self, request: &RunRef) -> Result<Vec<CheckpointEntry>, ApiError> {
        Ok(self.history(&request.run_id)?.list()?)
    }

    /// Every file at a checkpoint.
    pub fn checkpoint_files(&self, request: &CheckpointRef) -> Result<Vec<TreeFile>, ApiError> {
        Ok(self.history(&request.run_id)?.files_at(&request.at)?)
    }

    /// One file's content at a checkpoint (text, or `None` when binary).
    pub fn checkpoint_file(
        &self,
        request: &CheckpointFileRequest,
    ) -> Result<CheckpointFile, ApiError> {
        let bytes = self
            .history(&request.run_id)?
            .read_at(&request.at, &request.path)?;
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        let text = if bytes.contains(&0) {
            None
        } else {
            String::from_utf8(bytes).ok()
        };
        Ok(CheckpointFile {
            path: request.path.clone(),
            text,
            size,
        })
    }

    /// The run's saved state at a checkpoint: next node, nodes completed, the context.
    pub fn checkpoint_state(&self, request: &CheckpointRef) -> Result<CheckpointState, ApiError> {
        let (at, checkpoint) = self.history(&request.run_id)?.checkpoint_at(&request.at)?;
        let checkpoint = checkpoint.ok_or_else(|| {
            ApiError::new(
                ErrorCode::NotFound,
                format!(
                    "checkpoint {at} of run {} names no saved state (its commit has no \
                     Heddle-Checkpoint trailer)",
                    request.run_id
                ),
            )
        })?;
        Ok(CheckpointState {
            sha: at,
            current_node: checkpoint.current_node,
            next_node_id: checkpoint.next_node_id,
            completed_nodes: checkpoint.completed_nodes,
            node_visits: checkpoint.node_visits,
            node_retries: checkpoint.node_retries,
            context_values: checkpoint.context_values,
            logs: checkpoint.logs,
        })
    }

    /// The diff between two checkpoints (to the run's latest when `to` is absent).
    pub fn diff(&self, request: &DiffRequest) -> Result<CheckpointDiff, ApiError> {
        Ok(self
            .history(&request.run_id)?
            .diff(&request.from, request.to.as_deref())?)
    }

    /// The same difference as patch text, as `git diff` prints it (what `heddle diff`
    /// shows; the UI renders [`RunLibrary::diff`]'s hunks).
    pub fn diff_patch(&self, request: &DiffRequest) -> Result<String, ApiError> {
        Ok(self
            .history(&request.run_id)?
            .patch(&request.from, request.to.as_deref())?)
    }

    /// Rolls a stopped run back to a checkpoint; resume it to continue on the new timeline.
    /// The run index is brought up to date before this returns: the rollback holds the run's
    /// lock while it works, so an index scan during it would list the run as running.
    pub async fn rollback(&self, request: RollbackRequest) -> Result<RollbackReport, ApiError> {
        let run_dir = self.find(&request.run_id)?;
        let folder = run_dir.root().to_path_buf();
        let now = heddle_engine::clock::rfc3339(std::time::SystemTime::now());
        let report = crate::run_host::blocking(move || {
            Ok(heddle_checkpoint::rollback::rollback(
                &run_dir,
                &request.to,
                request.force,
                &now,
            )?)
        })
        .await?;
        // The rollback itself succeeded; a failed re-index only leaves the listing stale
        // until the watcher catches up.
        let _ = self.index().ingest_run(&folder).await;
        Ok(report)
    }

    /// The run's captured artifacts; for a run another machine ran, from the copy fetched
    /// from the shared store (brought up to date first, so its files can be opened next).
    pub async fn artifacts(&self, request: RunRef) -> Result<Vec<ListedArtifact>, ApiError> {
        let run_dir = self.readable(&request.run_id).await?;
        crate::run_host::blocking(move || Ok(heddle_artifacts::list_artifacts(&run_dir))).await
    }
}
