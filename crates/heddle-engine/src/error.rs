//! Errors that stop a run from starting or continuing. Each names the file or node to fix.

use std::path::{Path, PathBuf};

/// Why the engine could not start, resume or finish a run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The workflow has validation errors (already rendered for a terminal).
    #[error("{path}: the workflow has {count} error(s) and cannot run\n{rendered}")]
    InvalidWorkflow {
        /// The workflow file.
        path: PathBuf,
        /// How many errors.
        count: usize,
        /// The diagnostics, rendered.
        rendered: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// checkpoint.json does not parse.
    #[error(
        "{path}:{line}:{column}: checkpoint is corrupt: {message}\n  the run cannot resume from it; its other files are untouched"
    )]
    CorruptCheckpoint {
        /// The file.
        path: PathBuf,
        /// Line of the problem.
        line: usize,
        /// Column of the problem.
        column: usize,
        /// The parser's message.
        message: String,
    },
    /// The checkpoint or workflow names a node the workflow does not have.
    #[error("node `{node}` is not in the workflow ({context})")]
    UnknownNode {
        /// The node id.
        node: String,
        /// Where it was named.
        context: String,
    },
    /// The workflow has no start node.
    #[error("the workflow has no start node (shape=Mdiamond or id `start`)")]
    NoStartNode,
    /// No run matches an id or prefix, or several do.
    #[error("{0}")]
    RunLookup(String),
    /// A run id prefix matches several runs (the message lists them).
    #[error("{0}")]
    RunAmbiguous(String),
    /// The run cannot resume (it already finished, or is still running).
    #[error("run {run_id} cannot resume: {reason}")]
    NotResumable {
        /// The full id of the run asked to resume.
        run_id: String,
        /// What stops it, in words ("it already finished", "process 42 runs it").
        reason: String,
    },
    /// An LLM backend cannot serve the workflow (no key, no provider).
    #[error("{0}")]
    LlmSetup(String),
    /// Git checkpoints could not be set up for the run (refused workspace, damaged repo).
    #[error("checkpoints: {0}")]
    CheckpointSetup(crate::hooks::HookError),
}

impl EngineError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, error: &std::io::Error) -> Self {
        EngineError::Io {
            path: path.to_path_buf(),
            message: describe_io(error),
        }
    }
}

/// A sentence for an I/O error that says what to do about the common cases.
pub fn describe_io(error: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match error.kind() {
        ErrorKind::PermissionDenied => format!("{error} (check the folder's permissions)"),
        ErrorKind::StorageFull => format!("{error} (free some disk space, then resume the run)"),
        ErrorKind::ReadOnlyFilesystem => format!("{error} (choose a writable --run-dir)"),
        _ => error.to_string(),
    }
}
