//! What can go wrong with checkpoints, with what the user needs to fix it.

use std::path::PathBuf;

/// A checkpoint error.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// A commit, ref or file the run names is not in the repository.
    #[error("{what} was not found in {repo}")]
    NotFound {
        /// What was looked for (`commit 3f2a…`, `ref refs/heddle/…`).
        what: String,
        /// The repository searched.
        repo: PathBuf,
    },
    /// Git storage failed (unreadable objects, locked or damaged repository, full disk).
    #[error("git storage error in {path}: {message}")]
    Storage {
        /// The repository or file.
        path: PathBuf,
        /// What git said.
        message: String,
    },
    /// The run's saved state and its repository disagree (a ref moved outside Heddle).
    #[error("{path}: {message}")]
    Inconsistent {
        /// The repository's git dir.
        path: PathBuf,
        /// What disagrees, and what to do.
        message: String,
    },
    /// A file of the run directory could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file of the run folder that failed.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A sha prefix matches more than one checkpoint.
    #[error("`{prefix}` matches {} checkpoints: {}; give more characters", .candidates.len(), .candidates.join(", "))]
    Ambiguous {
        /// The prefix given.
        prefix: String,
        /// The matching commits, with their subjects.
        candidates: Vec<String>,
    },
    /// A rollback or fork target that names nothing.
    #[error("no checkpoint matches `{target}`{hint}")]
    NoSuchCheckpoint {
        /// The target as given.
        target: String,
        /// What is available, as a hint (starts with "; ").
        hint: String,
    },
    /// The folder cannot be checkpointed.
    #[error("{path}: {reason}")]
    Refused {
        /// The workspace folder refused.
        path: PathBuf,
        /// Why, and what to do instead.
        reason: String,
    },
    /// Files changed outside the run since its last checkpoint.
    #[error(
        "files changed outside the run since its last checkpoint: {}; \
         commit or move them, or pass --force (a recovery snapshot is still taken first)",
        .files.join(", ")
    )]
    ChangedOutside {
        /// `/`-separated paths, relative to the work tree, that differ from the last checkpoint.
        files: Vec<String>,
    },
    /// The run is executing a stage.
    #[error("run {run_id} is running (pid {pid}); cancel it before rolling back")]
    Busy {
        /// The run's id (a ULID).
        run_id: String,
        /// Process id of the process executing it (0 when its pid file is unreadable).
        pid: i32,
    },
    /// A ref moved under us (another process wrote it).
    #[error(
        "{reference} moved while checkpointing (expected {expected}); another process is writing this run"
    )]
    RefMoved {
        /// Full name of the ref that moved (a run branch, or `refs/heddle/{run}`).
        reference: String,
        /// What it was expected to point at.
        expected: String,
    },
    /// The run has no git checkpoints.
    #[error("run {run_id} has no git checkpoints (it ran with checkpoint mode `{mode}`)")]
    NoGit {
        /// The run's id (a ULID).
        run_id: String,
        /// The checkpoint mode it ran with, as saved (`none`).
        mode: String,
    },
    /// The team's remote could not be reached, or refused a clone, fetch or push.
    #[error("{what} {message}")]
    Remote {
        /// What was being done (`cloning`, `pushing run 01J… to`).
        what: String,
        /// The remote (its password hidden), what the transport said, and what to do.
        message: String,
    },
    /// The run directory could not be read (engine error).
    #[error(transparent)]
    Engine(#[from] heddle_engine::EngineError),
}

impl CheckpointError {
    /// A git error on `path`: "not found" when git says so, a storage error otherwise.
    pub fn git(path: impl Into<PathBuf>, what: &str, error: &git2::Error) -> Self {
        let path = path.into();
        if error.code() == git2::ErrorCode::NotFound {
            CheckpointError::NotFound {
                what: what.to_string(),
                repo: path,
            }
        } else {
            CheckpointError::Storage {
                path,
                message: format!("{what}: {}", error.message()),
            }
        }
    }

    /// A failure reaching `remote` while doing `what`.
    pub fn remote(what: &str, remote: &str, error: &git2::Error) -> Self {
        CheckpointError::Remote {
            what: what.to_string(),
            message: crate::remote_access::remote_failure(remote, error),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, error: &std::io::Error) -> Self {
        CheckpointError::Io {
            path: path.into(),
            message: heddle_engine::describe_io(error),
        }
    }
}

/// Results of this crate.
pub type Result<T, E = CheckpointError> = std::result::Result<T, E>;

impl From<CheckpointError> for heddle_engine::hooks::HookError {
    fn from(error: CheckpointError) -> Self {
        use heddle_engine::hooks::HookFailure as F;
        let kind = match &error {
            CheckpointError::NotFound { .. }
            | CheckpointError::NoSuchCheckpoint { .. }
            | CheckpointError::NoGit { .. } => F::NotFound,
            CheckpointError::Storage { .. } | CheckpointError::Inconsistent { .. } => F::Storage,
            CheckpointError::Refused { .. }
            | CheckpointError::Ambiguous { .. }
            | CheckpointError::ChangedOutside { .. } => F::Refused,
            CheckpointError::Busy { .. } | CheckpointError::RefMoved { .. } => F::Busy,
            CheckpointError::Io { .. }
            | CheckpointError::Remote { .. }
            | CheckpointError::Engine(_) => F::Io,
        };
        heddle_engine::hooks::HookError::new(kind, error.to_string())
    }
}
