//! The blob store. (stub; being written)

use std::path::PathBuf;

/// A reference to a blob: `blob://sha256/{64 hex}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlobRef {
    hex: String,
}

/// Blob store errors.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// Placeholder.
    #[error("{0}")]
    Io(String),
}

/// Content-addressed files under a root.
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
}

/// What `verify` found.
#[derive(Debug, Clone, Default)]
pub struct VerifyReport;

/// What `gc` removed (or would remove).
#[derive(Debug, Clone, Default)]
pub struct GcReport;

impl BlobStore {
    /// A store rooted at `root` (`$HEDDLE_HOME/blobs`).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        BlobStore { root: root.into() }
    }

    /// The root.
    pub fn root(&self) -> &std::path::Path {
        &self.root
    }
}

impl BlobRef {
    /// The hex digest.
    pub fn hex(&self) -> &str {
        &self.hex
    }
}
