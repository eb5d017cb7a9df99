//! `git.json` in a run directory: where the run's checkpoints live (repository, work tree,
//! private index, branches), so every later command finds them without guessing.

use std::path::{Path, PathBuf};

use heddle_engine::RunDir;
use heddle_engine::rundir::{atomic_write, read_json};
use serde::{Deserialize, Serialize};

use crate::error::{CheckpointError, Result};

/// Default cap on the size of a file a checkpoint stores (50 MB).
pub const DEFAULT_SIZE_CAP: u64 = 50 * 1024 * 1024;

/// How the run's checkpoints are kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A branch and a worktree in the user's (clean) repository.
    Worktree,
    /// A shadow repository under `$HEDDLE_HOME/shadow/`, work tree = the workspace.
    Shadow,
}

impl Mode {
    /// `worktree` or `shadow`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Worktree => "worktree",
            Mode::Shadow => "shadow",
        }
    }
}

/// The run's git setup, as saved in `git.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GitState {
    /// The run's id (a ULID).
    pub run_id: String,
    /// Worktree or shadow.
    pub mode: Mode,
    /// The repository (its git dir: the user's `.git`, or the shadow folder).
    pub git_dir: PathBuf,
    /// The files checkpoints cover: the run's worktree, or the workspace.
    pub work_tree: PathBuf,
    /// The run's private index.
    pub index: PathBuf,
    /// The worktree's name in the repository (worktree mode).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub worktree_name: Option<String>,
    /// The commit the run started from.
    pub base_sha: String,
    /// The branch the run commits to now (full ref name).
    pub branch: String,
    /// Every timeline branch of the run, oldest first (full ref names).
    pub timelines: Vec<String>,
    /// The orphan metadata history (`refs/heddle/{run_id}`).
    pub metadata_ref: String,
    /// Paths kept out of checkpoints (the workflow's `checkpoint_exclude`).
    #[serde(default)]
    pub exclude: Vec<String>,
    /// Files larger than this are skipped with a warning.
    pub size_cap: u64,
    /// Folders of the work tree Heddle keeps its own data in (never checkpointed).
    #[serde(default)]
    pub skip_prefixes: Vec<PathBuf>,
}

impl GitState {
    /// Where the state lives in `run_dir`.
    pub fn path(run_dir: &RunDir) -> PathBuf {
        run_dir.git_state()
    }

    /// Reads the run's state; `None` when the run has no git checkpoints.
    pub fn load(run_dir: &RunDir) -> Result<Option<GitState>> {
        let path = Self::path(run_dir);
        if !path.exists() {
            return Ok(None);
        }
        Ok(Some(read_json(&path)?))
    }

    /// Reads the run's state, or says that it has none.
    pub fn require(run_dir: &RunDir) -> Result<GitState> {
        match Self::load(run_dir)? {
            Some(state) => Ok(state),
            None => {
                let manifest = run_dir.read_manifest()?;
                Err(CheckpointError::NoGit {
                    run_id: manifest.run_id,
                    mode: manifest.checkpoint_mode,
                })
            }
        }
    }

    /// Writes the state atomically.
    pub fn save(&self, run_dir: &RunDir) -> Result<()> {
        atomic_write(&Self::path(run_dir), &self.to_json()?, true)?;
        Ok(())
    }

    /// The content of git.json for this state.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        serde_json::to_vec_pretty(self).map_err(|e| CheckpointError::Io {
            path: PathBuf::from("git.json"),
            message: e.to_string(),
        })
    }

    /// The short branch name (`heddle/run/{id}`) of a full ref name.
    pub fn short(reference: &str) -> &str {
        reference.strip_prefix("refs/heads/").unwrap_or(reference)
    }

    /// The ref that holds recovery snapshot `n` of the run.
    pub fn recovery_ref(&self, n: usize) -> String {
        format!("refs/heddle/recovery/{}/{n}", self.run_id)
    }

    /// Where the work tree's file `relative` is.
    pub fn file(&self, relative: &Path) -> PathBuf {
        self.work_tree.join(relative)
    }
}

/// The run branch of timeline `n` (1 is the first).
pub fn timeline_branch(run_id: &str, n: usize) -> String {
    if n <= 1 {
        format!("refs/heads/heddle/run/{run_id}")
    } else {
        format!("refs/heads/heddle/run/{run_id}-t{n}")
    }
}

/// The metadata ref of a run.
pub fn metadata_ref(run_id: &str) -> String {
    format!("refs/heddle/{run_id}")
}
