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
}

/// An API failure.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// What kind of failure.
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
