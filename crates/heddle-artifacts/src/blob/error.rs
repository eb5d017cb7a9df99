//! `BlobError`: what can go wrong storing or reading a blob. Every variant names the path.

use std::io;
use std::path::{Path, PathBuf};

use super::BlobRef;

/// A blob store error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobError {
    /// The blob is not in the store.
    #[error("blob {blob} not found (expected at {})", path.display())]
    NotFound {
        /// The blob asked for.
        blob: BlobRef,
        /// Where it would be.
        path: PathBuf,
    },
    /// The file's content does not hash to its name: it was changed or damaged on disk.
    #[error("blob {blob} at {} is corrupt: its content hashes to sha256 {actual}", path.display())]
    Corrupt {
        /// The blob asked for.
        blob: BlobRef,
        /// The damaged file.
        path: PathBuf,
        /// The hex SHA-256 of what is actually in the file.
        actual: String,
    },
    /// A storage error (permissions, disk full, a missing input file, …) at `path`.
    #[error("blob store I/O error at {}: {message}", path.display())]
    Io {
        /// The file or folder the operation failed on.
        path: PathBuf,
        /// What failed and the OS error.
        message: String,
    },
    /// Reading the caller's input stream (`put_reader`) failed; nothing was stored.
    #[error("reading blob input failed: {message}")]
    Input {
        /// The reader's error.
        message: String,
    },
}

impl BlobError {
    /// An [`BlobError::Io`] for `what` failing on `path`.
    pub(crate) fn io(path: &Path, what: &str, err: &io::Error) -> Self {
        BlobError::Io {
            path: path.to_path_buf(),
            message: format!("{what}: {err}"),
        }
    }

    /// The path this error is about, when it has one.
    pub fn path(&self) -> Option<&Path> {
        match self {
            BlobError::NotFound { path, .. }
            | BlobError::Corrupt { path, .. }
            | BlobError::Io { path, .. } => Some(path),
            BlobError::Input { .. } => None,
        }
    }
}
