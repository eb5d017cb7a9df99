//! The errors of the artifact hook and the blob sink: what failed, on which path (and for
//! which node), and why, plus the [`HookFailure`] kind the doors turn into an error code.

use std::path::PathBuf;

use super::HookFailure;

/// Why the test artifacts a command stage left could not be captured.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArtifactError {
    /// The stage's artifact folder could not be created (a read-only run folder, a file in
    /// the way, a full disk); nothing was captured.
    #[error("node `{node}`: test artifacts could not be stored in {}: {cause}", path.display())]
    Store {
        /// The command stage.
        node: String,
        /// The artifact folder.
        path: PathBuf,
        /// The operating system's reason.
        cause: String,
    },
}

impl ArtifactError {
    /// What kind of failure it is.
    pub fn kind(&self) -> HookFailure {
        match self {
            ArtifactError::Store { .. } => HookFailure::Io,
        }
    }
}

/// Why a value could not be stored as a blob, or a blob not copied out of the store.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BlobSinkError {
    /// No blob store is configured: large values stay inline.
    #[error("no blob store is configured")]
    NoStore,
    /// The text is not a `blob://sha256/{hex}` ref.
    #[error("`{blob}` is not a blob ref: {cause}")]
    BadRef {
        /// The text given.
        blob: String,
        /// What is wrong with it.
        cause: String,
    },
    /// The blob is not in the store.
    #[error("blob {blob} not found (expected at {})", path.display())]
    NotFound {
        /// The ref.
        blob: String,
        /// Where it would be.
        path: PathBuf,
    },
    /// The stored file's content does not match its name: it was changed or damaged.
    #[error("blob {blob} at {} is corrupt: {cause}", path.display())]
    Corrupt {
        /// The ref.
        blob: String,
        /// The damaged file.
        path: PathBuf,
        /// What was found instead.
        cause: String,
    },
    /// Reading the value to store failed; nothing was stored.
    #[error("reading the value to store failed: {cause}")]
    Input {
        /// The reader's error.
        cause: String,
    },
    /// Reading or writing a file failed (permissions, a full disk, a file in the way).
    #[error("{}: {cause}", path.display())]
    Io {
        /// The file or folder the operation failed on.
        path: PathBuf,
        /// What failed and the operating system's reason.
        cause: String,
    },
}

impl BlobSinkError {
    /// What kind of failure it is.
    pub fn kind(&self) -> HookFailure {
        match self {
            BlobSinkError::NoStore | BlobSinkError::NotFound { .. } => HookFailure::NotFound,
            BlobSinkError::BadRef { .. } => HookFailure::Refused,
            BlobSinkError::Corrupt { .. } => HookFailure::Storage,
            BlobSinkError::Input { .. } | BlobSinkError::Io { .. } => HookFailure::Io,
        }
    }
}
