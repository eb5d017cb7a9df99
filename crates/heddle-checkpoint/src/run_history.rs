//! [`RunHistory`]: one run's checkpoints as the API reads them, by the names people use
//! (`last-success`, `NODE[:start|end]`, `NODE@VISIT`, a partial sha). It opens and verifies
//! the run's repository once and answers in plain types, so callers never handle git
//! objects.

use heddle_engine::{Checkpoint, RunDir};

use crate::diff::{self, CheckpointDiff};
use crate::error::Result;
use crate::history::{self, CheckpointEntry, TreeFile};
use crate::integrity;
use crate::state::GitState;

/// A run's verified checkpoint repository.
pub struct RunHistory {
    state: GitState,
    repo: git2::Repository,
}

impl std::fmt::Debug for RunHistory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunHistory")
            .field("git_dir", &self.state.git_dir)
            .finish_non_exhaustive()
    }
}

impl RunHistory {
    /// Opens the checkpoints of the run in `run_dir`; an error when it keeps none or its
    /// repository does not match what the run recorded.
    pub fn open(run_dir: &RunDir) -> Result<Self> {
        let (state, repo) = integrity::open_run(run_dir)?;
        Ok(RunHistory { state, repo })
    }

    /// Opens the checkpoints of the run in `run_dir` (a copy of a run that executed on
    /// another machine) from `repo`, a repository holding its refs and commits that is not
    /// the one it ran in (a mirror of the team's remote). Verified as [`RunHistory::open`]
    /// does, except for the commit checkpoint.json names: the copy of the run folder and the
    /// remote are brought up to date at different moments, so it may name a commit its
    /// worker is still pushing.
    pub fn open_in(run_dir: &RunDir, repo: git2::Repository) -> Result<Self> {
        let state = GitState::require(run_dir)?;
        integrity::verify(&repo, &state, None)?;
        Ok(RunHistory { state, repo })
    }

    /// Every checkpoint across every timeline.
    pub fn list(&self) -> Result<Vec<CheckpointEntry>> {
        history::list(&self.repo, &self.state)
    }

    /// The full sha of the checkpoint `target` names.
    pub fn resolve(&self, target: &str) -> Result<String> {
        Ok(history::resolve(&self.repo, &self.state, target)?.to_string())
    }

    /// Every file at the checkpoint `target` names.
    pub fn files_at(&self, target: &str) -> Result<Vec<TreeFile>> {
        let at = history::resolve(&self.repo, &self.state, target)?;
        history::files_at(&self.repo, at)
    }

    /// The content of `path` at the checkpoint `target` names.
    pub fn read_at(&self, target: &str, path: &str) -> Result<Vec<u8>> {
        let at = history::resolve(&self.repo, &self.state, target)?;
        history::read_at(&self.repo, at, path)
    }

    /// The full sha of the checkpoint `target` names and the run state it saved (`None`
    /// for the run's base commit, which saved none).
    pub fn checkpoint_at(&self, target: &str) -> Result<(String, Option<Checkpoint>)> {
        let at = history::resolve(&self.repo, &self.state, target)?;
        Ok((at.to_string(), history::checkpoint_at(&self.repo, at)?))
    }

    /// The diff between the checkpoints `from` and `to` name (to the tip of the timeline
    /// the run continues on when `to` is absent).
    pub fn diff(&self, from: &str, to: Option<&str>) -> Result<CheckpointDiff> {
        diff::diff_targets(&self.repo, &self.state, from, to)
    }

    /// The same difference as patch text, as `git diff` prints it.
    pub fn patch(&self, from: &str, to: Option<&str>) -> Result<String> {
        diff::patch_targets(&self.repo, &self.state, from, to)
    }
}
