//! The checkpoint history as the run index reads it: [`GitHistory`] opens a run's repository
//! from its git.json and lists every checkpoint, through the engine's
//! [`CheckpointHistory`] trait.

use heddle_engine::RunDir;
use heddle_engine::run_records::{CheckpointEntry, CheckpointHistory, HistoryReadError};

use crate::history;
use crate::repo;
use crate::state::GitState;

/// Reads checkpoint histories from the runs' git repositories.
#[derive(Debug, Clone, Copy, Default)]
pub struct GitHistory;

impl CheckpointHistory for GitHistory {
    fn list(&self, run: &RunDir) -> Result<Vec<CheckpointEntry>, HistoryReadError> {
        let Some(state) = GitState::load(run)? else {
            return Ok(Vec::new());
        };
        let repo = repo::open(&state)?;
        Ok(history::list(&repo, &state)?)
    }
}
