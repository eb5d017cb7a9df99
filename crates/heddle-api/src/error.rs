//! Errors every door reports the same way: a stable code the UI switches on, and a message
//! a person can act on.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A stable, machine-readable error code. Clients switch on this, never on the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The path does not exist.
    NotFound,
    /// The path exists but is not what the operation needs (a folder instead of a file…).
    WrongKind,
    /// The file is larger than Heddle will open.
    TooLarge,
    /// The file is not UTF-8 text.
    NotText,
    /// Reading or writing failed for another reason (permissions, disk…).
    Io,
    /// The request itself is malformed.
    InvalidRequest,
    /// The request lacks the server's access token.
    Unauthorized,
    /// The workflow has errors, so the run did not start (the message lists them).
    InvalidWorkflow,
    /// No process executes the run (it ended, or its process stopped): nothing to cancel or answer.
    NotRunning,
    /// The run is executing, so it cannot be rolled back or resumed now.
    Busy,
    /// Files changed outside the run since its last checkpoint (rollback needs `force`).
    ChangedOutside,
    /// A run id or sha prefix matches several; the message lists them.
    Ambiguous,
    /// A repository or run folder is damaged or unreadable; nothing was changed.
    Storage,
    /// The file changed on disk since it was opened; nothing was written.
    ChangedOnDisk,
    /// The file to create is already there; nothing was written.
    AlreadyExists,
    /// The workflow has not been trusted to run on this machine yet (or changed since it
    /// was); `workflow_trust` says what it will do, and `start_run` with `trust` records it.
    UntrustedWorkflow,
}

impl ErrorCode {
    /// The HTTP status every door that speaks HTTP answers this code with (the server's
    /// routes, the desktop window's `heddle-run://` scheme); docs/api.md lists them.
    pub fn http_status(self) -> u16 {
        match self {
            ErrorCode::NotFound => 404,
            ErrorCode::WrongKind
            | ErrorCode::NotText
            | ErrorCode::InvalidRequest
            | ErrorCode::InvalidWorkflow
            | ErrorCode::Ambiguous => 422,
            ErrorCode::TooLarge => 413,
            ErrorCode::Unauthorized => 401,
            ErrorCode::UntrustedWorkflow => 403,
            ErrorCode::NotRunning
            | ErrorCode::Busy
            | ErrorCode::ChangedOutside
            | ErrorCode::ChangedOnDisk
            | ErrorCode::AlreadyExists => 409,
            ErrorCode::Io | ErrorCode::Storage => 500,
        }
    }
}

/// An API failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// The failure's kind; it decides the status code the HTTP door answers with.
    pub code: ErrorCode,
    /// What went wrong and what to do about it, naming the path concerned.
    pub message: String,
}

impl ApiError {
    /// Builds an error.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    /// Maps an I/O error on `path` to an API error with the right code.
    pub fn from_io(path: &std::path::Path, err: &std::io::Error) -> Self {
        let shown = path.display();
        match err.kind() {
            std::io::ErrorKind::NotFound => Self::new(
                ErrorCode::NotFound,
                format!("{shown}: no such file or folder"),
            ),
            std::io::ErrorKind::InvalidData => Self::new(
                ErrorCode::NotText,
                format!("{shown}: not UTF-8 text; a workflow must be a UTF-8 DOT file"),
            ),
            _ => Self::new(ErrorCode::Io, format!("{shown}: {err}")),
        }
    }
}

/// The code of a failure a hook reported (checkpoints, artifact capture, the blob store).
fn hook_code(kind: heddle_engine::hooks::HookFailure) -> ErrorCode {
    use heddle_engine::hooks::HookFailure;
    match kind {
        HookFailure::Refused => ErrorCode::InvalidRequest,
        HookFailure::NotFound => ErrorCode::NotFound,
        HookFailure::Busy => ErrorCode::Busy,
        HookFailure::Storage => ErrorCode::Storage,
        HookFailure::Io => ErrorCode::Io,
    }
}

/// The code of an engine error.
fn engine_code(error: &heddle_engine::EngineError) -> ErrorCode {
    use heddle_engine::EngineError as E;
    match error {
        E::InvalidWorkflow { .. } | E::NoStartNode | E::UnknownNode { .. } => {
            ErrorCode::InvalidWorkflow
        }
        E::CorruptCheckpoint { .. } => ErrorCode::Storage,
        E::RunAmbiguous(_) => ErrorCode::Ambiguous,
        E::RunLookup(_) => ErrorCode::NotFound,
        E::NotResumable { .. } => ErrorCode::Busy,
        E::LlmSetup(_) => ErrorCode::InvalidRequest,
        E::CheckpointSetup(hook) => hook_code(hook.kind),
        E::Io { .. } => ErrorCode::Io,
    }
}

impl From<heddle_engine::EngineError> for ApiError {
    fn from(error: heddle_engine::EngineError) -> Self {
        ApiError::new(engine_code(&error), error.to_string())
    }
}

impl From<heddle_engine::hooks::ArtifactError> for ApiError {
    fn from(error: heddle_engine::hooks::ArtifactError) -> Self {
        ApiError::new(hook_code(error.kind()), error.to_string())
    }
}

impl From<heddle_engine::hooks::BlobSinkError> for ApiError {
    fn from(error: heddle_engine::hooks::BlobSinkError) -> Self {
        ApiError::new(hook_code(error.kind()), error.to_string())
    }
}

impl From<heddle_artifacts::BlobError> for ApiError {
    fn from(error: heddle_artifacts::BlobError) -> Self {
        ApiError::from(heddle_engine::hooks::BlobSinkError::from(error))
    }
}

impl From<heddle_artifacts::DumpError> for ApiError {
    fn from(error: heddle_artifacts::DumpError) -> Self {
        use heddle_artifacts::DumpError as D;
        let code = match &error {
            D::NotEmpty { .. } => ErrorCode::AlreadyExists,
            D::NotAFolder { .. } => ErrorCode::WrongKind,
            D::Checkpoint(inner) => engine_code(inner),
            D::Io { .. } => ErrorCode::Io,
        };
        ApiError::new(code, error.to_string())
    }
}

impl From<heddle_artifacts::SharedFilesError> for ApiError {
    fn from(error: heddle_artifacts::SharedFilesError) -> Self {
        use heddle_artifacts::SharedFilesError as S;
        let code = match &error {
            S::Url { .. } => ErrorCode::InvalidRequest,
            S::Store { .. } => ErrorCode::Storage,
            S::Io { .. } => ErrorCode::Io,
            S::Refused { .. } => ErrorCode::InvalidRequest,
        };
        ApiError::new(code, error.to_string())
    }
}

impl From<heddle_checkpoint::CheckpointError> for ApiError {
    fn from(error: heddle_checkpoint::CheckpointError) -> Self {
        use heddle_checkpoint::CheckpointError as C;
        let code = match &error {
            C::NotFound { .. } | C::NoSuchCheckpoint { .. } | C::NoGit { .. } => {
                ErrorCode::NotFound
            }
            C::Storage { .. } | C::Inconsistent { .. } => ErrorCode::Storage,
            C::Ambiguous { .. } => ErrorCode::Ambiguous,
            C::ChangedOutside { .. } => ErrorCode::ChangedOutside,
            C::Busy { .. } | C::RefMoved { .. } => ErrorCode::Busy,
            C::Refused { .. } => ErrorCode::InvalidRequest,
            C::Engine(inner) => engine_code(inner),
            C::Io { .. } | C::Remote { .. } => ErrorCode::Io,
        };
        ApiError::new(code, error.to_string())
    }
}

#[cfg(test)]
mod tests {
    use heddle_checkpoint::CheckpointError;
    use heddle_engine::EngineError;
    use heddle_engine::hooks::HookError;

    use super::*;

    /// A checkpoint set-up failure answers with the code of what failed, not always
    /// `invalid_request`.
    #[test]
    fn checkpoint_setup_failures_keep_their_kind() {
        let cases = [
            (
                CheckpointError::Busy {
                    run_id: "R".into(),
                    pid: 7,
                },
                ErrorCode::Busy,
            ),
            (
                CheckpointError::Storage {
                    path: "/repo".into(),
                    message: "bad object".into(),
                },
                ErrorCode::Storage,
            ),
            (
                CheckpointError::Refused {
                    path: "/home/me".into(),
                    reason: "the workspace is your home folder".into(),
                },
                ErrorCode::InvalidRequest,
            ),
        ];
        for (error, code) in cases {
            let text = error.to_string();
            let api = ApiError::from(EngineError::CheckpointSetup(HookError::from(error)));
            assert_eq!(api.code, code, "{text}");
            assert!(api.message.contains(&text), "{}", api.message);
        }
    }
    /// A blob the store cannot write is an I/O failure and a damaged one is storage; neither
    /// is the request's fault. The message keeps the path.
    #[test]
    fn blob_and_artifact_failures_keep_their_kind() {
        use heddle_engine::hooks::{ArtifactError, BlobSinkError};
        let cases = [
            (
                ApiError::from(BlobSinkError::Io {
                    path: "/home/me/.heddle/blobs/sha256".into(),
                    cause: "No space left on device (os error 28)".into(),
                }),
                ErrorCode::Io,
            ),
            (
                ApiError::from(heddle_artifacts::BlobError::Corrupt {
                    blob: heddle_artifacts::BlobRef::for_bytes(b"x"),
                    path: "/home/me/.heddle/blobs/sha256/2d/71".into(),
                    actual: "00".into(),
                }),
                ErrorCode::Storage,
            ),
            (
                ApiError::from(BlobSinkError::BadRef {
                    blob: "blob://md5/1".into(),
                    cause: "unknown algorithm".into(),
                }),
                ErrorCode::InvalidRequest,
            ),
            (
                ApiError::from(ArtifactError::Store {
                    node: "test".into(),
                    path: "/runs/R/artifacts/test/retry_0".into(),
                    cause: "Not a directory (os error 20)".into(),
                }),
                ErrorCode::Io,
            ),
        ];
        for (api, code) in cases {
            assert_eq!(api.code, code, "{}", api.message);
            assert!(api.message.contains('/'), "no path: {}", api.message);
        }
    }
}
