//! The checkpoint history as the run index reads it: [`GitHistory`] opens a run's repository
//! from its git.json and lists every checkpoint, or only those made since an earlier
//! listing, through the engine's [`CheckpointHistory`] trait.

use heddle_engine::RunDir;
use heddle_engine::run_records::{
    CheckpointHistory, HistoryAfter, HistoryMark, HistoryReadError, ListedHistory,
};

use crate::history;
use crate::history_after;
use crate::repo;
use crate::state::GitState;

/// Reads checkpoint histories from the runs' git repositories.
#[derive(Debug, Clone, Copy, Default)]
pub struct GitHistory;

impl CheckpointHistory for GitHistory {
    fn list(&self, run: &RunDir) -> Result<ListedHistory, HistoryReadError> {
        let Some(state) = GitState::load(run)? else {
            return Ok(ListedHistory::default());
        };
        let repo = repo::open(&state)?;
        Ok(history::list_marked(&repo, &state)?)
    }

    fn list_after(
        &self,
        run: &RunDir,
        known: &HistoryMark,
    ) -> Result<HistoryAfter, HistoryReadError> {
        let Some(state) = GitState::load(run)? else {
            return Ok(HistoryAfter::Relist);
        };
        let repo = repo::open(&state)?;
        Ok(match history_after::list_after(&repo, &state, known)? {
            Some((entries, mark, tip_moved)) => HistoryAfter::Appended {
                entries,
                mark,
                tip_moved,
            },
            None => HistoryAfter::Relist,
        })
    }
}
