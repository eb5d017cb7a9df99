//! The engine's hooks into this crate: a snapshot of the artifact places before each command
//! stage and the capture after it (the JUnit files among the captured ones summarised), and
//! the blob store as the sink for large context values.

use std::any::Any;
use std::path::Path;

use heddle_engine::hooks::{
    ArtifactError, ArtifactHook, ArtifactStage, BlobSink, BlobSinkError, CapturedArtifact,
    CapturedArtifacts,
};

use crate::blob::{BlobError, BlobRef, BlobStore};
use crate::capture::{ArtifactKind, CaptureError, CaptureLimits, Snapshot, capture, snapshot};
use crate::junit::{JUnitError, JUnitReport};

/// Captures test artifacts around command stages, within `limits`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CaptureHook {
    /// Per-file and per-stage size limits.
    pub limits: CaptureLimits,
}

impl ArtifactHook for CaptureHook {
    fn before_stage(&self, work_dir: &Path) -> Box<dyn Any + Send> {
        Box::new(snapshot(work_dir))
    }

    fn after_stage(
        &self,
        stage: &ArtifactStage<'_>,
        before: Box<dyn Any + Send>,
    ) -> Result<CapturedArtifacts, ArtifactError> {
        let before = before
            .downcast::<Snapshot>()
            .map(|b| *b)
            .unwrap_or_default();
        let dest = stage.dest;
        let report = capture(stage.work_dir, &before, dest, self.limits).map_err(|error| {
            let CaptureError::Destination { path, cause } = error;
            ArtifactError::Store {
                node: stage.node_id.to_string(),
                path,
                cause,
            }
        })?;
        let relative = dest.strip_prefix(stage.run_dir).unwrap_or(dest);
        let mut skipped: Vec<String> = report.skipped.iter().map(ToString::to_string).collect();
        let mut junit = Vec::new();
        for artifact in &report.artifacts {
            if artifact.kind != ArtifactKind::Junit {
                continue;
            }
            match JUnitReport::parse_file(&dest.join(&artifact.path)) {
                Ok(parsed) => junit.push(parsed),
                // A file named junit*.xml that is not a JUnit report is simply not one.
                Err(JUnitError::NotJUnit { .. }) => {}
                Err(error) => skipped.push(format!("{}: not summarised: {error}", artifact.path)),
            }
        }
        let junit_summary = (!junit.is_empty()).then(|| JUnitReport::combine(junit).summary());
        Ok(CapturedArtifacts {
            artifacts: report
                .artifacts
                .iter()
                .map(|a| CapturedArtifact {
                    path: relative.join(&a.path).to_string_lossy().into_owned(),
                    kind: a.kind.as_str().to_string(),
                    media_type: a.media_type.clone(),
                    size: a.size,
                })
                .collect(),
            skipped,
            junit_summary,
        })
    }
}

/// Large context values go to the blob store; the context keeps the `blob://` ref.
impl BlobSink for BlobStore {
    fn put(&self, bytes: &[u8]) -> Result<String, BlobSinkError> {
        Ok(self.put_bytes(bytes)?.to_string())
    }

    fn put_file(&self, path: &Path) -> Result<String, BlobSinkError> {
        Ok(BlobStore::put_file(self, path)?.to_string())
    }

    fn copy_to(&self, blob: &str, dest: &Path) -> Result<u64, BlobSinkError> {
        let parsed: BlobRef = blob.parse().map_err(|e| BlobSinkError::BadRef {
            blob: blob.to_string(),
            cause: format!("{e}"),
        })?;
        Ok(BlobStore::copy_to(self, &parsed, dest)?)
    }
}

impl From<BlobError> for BlobSinkError {
    fn from(error: BlobError) -> Self {
        match error {
            BlobError::NotFound { blob, path } => BlobSinkError::NotFound {
                blob: blob.to_string(),
                path,
            },
            BlobError::Corrupt { blob, path, actual } => BlobSinkError::Corrupt {
                blob: blob.to_string(),
                path,
                cause: format!("its content hashes to sha256 {actual}"),
            },
            BlobError::Io { path, message } => BlobSinkError::Io {
                path,
                cause: message,
            },
            BlobError::Input { message } => BlobSinkError::Input { cause: message },
        }
    }
}
