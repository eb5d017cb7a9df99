//! Reading and rewinding a run's history: its checkpoints across every timeline, the files
//! and one file at a checkpoint, the diff between two, its captured artifacts, and
//! rollback. Blocking (git work): the doors call these off their async threads.

use heddle_artifacts::ListedArtifact;
use heddle_checkpoint::diff::CheckpointDiff;
use heddle_checkpoint::history::{CheckpointEntry, TreeFile};
use heddle_checkpoint::rollback::RollbackReport;
use heddle_checkpoint::{GitState, diff, history, integrity, repo};
use heddle_engine::RunDir;

use crate::error::{ApiError, ErrorCode};
use crate::run_host::RunHost;
use crate::run_types::{
    CheckpointFile, CheckpointFileRequest, CheckpointRef, DiffRequest, RollbackRequest, RunRef,
};

impl RunHost {
    fn open_git(
        &self,
        run: &str,
    ) -> Result<(RunDir, GitState, heddle_checkpoint::git2::Repository), ApiError> {
        let run_dir = self.find(run)?;
        let state = GitState::require(&run_dir)?;
        let repo = integrity::open_verified(&run_dir, &state)?;
        Ok((run_dir, state, repo))
    }

    /// The run's checkpoints across every timeline.
    pub fn checkpoints(&self, request: &RunRef) -> Result<Vec<CheckpointEntry>, ApiError> {
        let (_, state, repo) = self.open_git(&request.run_id)?;
        Ok(history::list(&repo, &state)?)
    }

    /// Every file at a checkpoint.
    pub fn checkpoint_files(&self, request: &CheckpointRef) -> Result<Vec<TreeFile>, ApiError> {
        let (_, state, repo) = self.open_git(&request.run_id)?;
        let at = history::resolve(&repo, &state, &request.at)?;
        Ok(history::files_at(&repo, at)?)
    }

    /// One file's content at a checkpoint (text, or `None` when binary).
    pub fn checkpoint_file(
        &self,
        request: &CheckpointFileRequest,
    ) -> Result<CheckpointFile, ApiError> {
        let (_, state, repo) = self.open_git(&request.run_id)?;
        let at = history::resolve(&repo, &state, &request.at)?;
        let bytes = history::read_at(&repo, at, &request.path)?;
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

    /// The diff between two checkpoints (to the run's latest when `to` is absent).
    pub fn diff(&self, request: &DiffRequest) -> Result<CheckpointDiff, ApiError> {
        let (_, state, repo) = self.open_git(&request.run_id)?;
        let from = history::resolve(&repo, &state, &request.from)?;
        let to = match &request.to {
            Some(target) => history::resolve(&repo, &state, target)?,
            None => repo::tip(&repo, &state.branch)?.ok_or_else(|| {
                ApiError::new(ErrorCode::NotFound, "the run has no checkpoints yet")
            })?,
        };
        Ok(diff::diff(&repo, from, to)?)
    }

    /// Rolls a stopped run back to a checkpoint; resume it to continue on the new timeline.
    pub fn rollback(&self, request: &RollbackRequest) -> Result<RollbackReport, ApiError> {
        let run_dir = self.find(&request.run_id)?;
        let now = heddle_engine::clock::rfc3339(std::time::SystemTime::now());
        Ok(heddle_checkpoint::rollback::rollback(
            &run_dir,
            &request.to,
            request.force,
            &now,
        )?)
    }

    /// The run's captured artifacts.
    pub fn artifacts(&self, request: &RunRef) -> Result<Vec<ListedArtifact>, ApiError> {
        let run_dir = self.find(&request.run_id)?;
        Ok(heddle_artifacts::list_artifacts(&run_dir))
    }
}
