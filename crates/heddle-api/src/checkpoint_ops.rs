//! Reading and rewinding a run's history: its checkpoints across every timeline, the files
//! and one file at a checkpoint, the diff between two, its captured artifacts, and
//! rollback. The git work runs off the async threads. A run a queue worker executed on
//! another machine is read from the team's remote (`team_history`).

use heddle_artifacts::ListedArtifact;
use heddle_checkpoint::RunHistory;
use heddle_checkpoint::diff::CheckpointDiff;
use heddle_checkpoint::history::{CheckpointEntry, TreeFile};
use heddle_checkpoint::rollback::RollbackReport;

use crate::error::{ApiError, ErrorCode};
use crate::run_elsewhere::Located;
use crate::run_host::blocking;
use crate::run_library::RunLibrary;
use crate::run_types::{
    CheckpointFile, CheckpointFileRequest, CheckpointRef, CheckpointState, DiffRequest,
    RollbackRequest, RunRef,
};

impl RunLibrary {
    /// The checkpoint history of run `run`: its own repository when it ran here, else the
    /// team's remote ([`RunLibrary::history_elsewhere`]).
    async fn history(&self, run: &str) -> Result<RunHistory, ApiError> {
        match self.locate(run).await? {
            Located::Here(run_dir) => blocking(move || Ok(RunHistory::open(&run_dir)?)).await,
            Located::Elsewhere(record) => self.history_elsewhere(&record).await,
        }
    }

    /// Reads `read` from run `run`'s history, off the async threads.
    async fn read_history<T: Send + 'static>(
        &self,
        run: &str,
        read: impl FnOnce(&RunHistory) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let history = self.history(run).await?;
        blocking(move || read(&history)).await
    }

    /// The run's checkpoints across every timeline.
    pub async fn checkpoints(&self, request: RunRef) -> Result<Vec<CheckpointEntry>, ApiError> {
        self.read_history(&request.run_id, |h| Ok(h.list()?)).await
    }

    /// Every file at a checkpoint.
    pub async fn checkpoint_files(
        &self,
        request: CheckpointRef,
    ) -> Result<Vec<TreeFile>, ApiError> {
        self.read_history(&request.run_id, move |h| Ok(h.files_at(&request.at)?))
            .await
    }

    /// One file's content at a checkpoint (text, or `None` when binary).
    pub async fn checkpoint_file(
        &self,
        request: CheckpointFileRequest,
    ) -> Result<CheckpointFile, ApiError> {
        let (at, path) = (request.at.clone(), request.path.clone());
        let bytes = self
            .read_history(&request.run_id, move |h| Ok(h.read_at(&at, &path)?))
            .await?;
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        let text = if bytes.contains(&0) {
            None
        } else {
            String::from_utf8(bytes).ok()
        };
        Ok(CheckpointFile {
            path: request.path,
            text,
            size,
        })
    }

    /// The run's saved state at a checkpoint: next node, nodes completed, the context.
    pub async fn checkpoint_state(
        &self,
        request: CheckpointRef,
    ) -> Result<CheckpointState, ApiError> {
        let at = request.at.clone();
        let (at, checkpoint) = self
            .read_history(&request.run_id, move |h| Ok(h.checkpoint_at(&at)?))
            .await?;
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
    pub async fn diff(&self, request: DiffRequest) -> Result<CheckpointDiff, ApiError> {
        let run = request.run_id.clone();
        self.read_history(&run, move |h| {
            Ok(h.diff(&request.from, request.to.as_deref())?)
        })
        .await
    }

    /// The same difference as patch text, as `git diff` prints it (what `heddle diff`
    /// shows; the UI renders [`RunLibrary::diff`]'s hunks).
    pub async fn diff_patch(&self, request: DiffRequest) -> Result<String, ApiError> {
        let run = request.run_id.clone();
        self.read_history(&run, move |h| {
            Ok(h.patch(&request.from, request.to.as_deref())?)
        })
        .await
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
