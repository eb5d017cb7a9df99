//! The engine's hooks into this crate: a snapshot of the artifact places before each command
//! stage and the capture after it (the JUnit files among the captured ones summarised), and
//! the blob store as the sink for large context values.

use std::any::Any;
use std::path::Path;

use heddle_engine::hooks::{ArtifactHook, BlobSink, CapturedArtifact, CapturedArtifacts};

use crate::blob::BlobStore;
use crate::capture::{ArtifactKind, CaptureLimits, Snapshot, capture, snapshot};
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
        work_dir: &Path,
        before: Box<dyn Any + Send>,
        dest: &Path,
        run_dir: &Path,
    ) -> CapturedArtifacts {
        let before = before
            .downcast::<Snapshot>()
            .map(|b| *b)
            .unwrap_or_default();
        let report = capture(work_dir, &before, dest, self.limits);
        let relative = dest.strip_prefix(run_dir).unwrap_or(dest);
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
        CapturedArtifacts {
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
        }
    }
}

/// Large context values go to the blob store; the context keeps the `blob://` ref.
impl BlobSink for BlobStore {
    fn put(&self, bytes: &[u8]) -> Result<String, String> {
        self.put_bytes(bytes)
            .map(|blob| blob.to_string())
            .map_err(|e| e.to_string())
    }

    fn put_file(&self, path: &Path) -> Result<String, String> {
        BlobStore::put_file(self, path)
            .map(|blob| blob.to_string())
            .map_err(|e| e.to_string())
    }

    fn copy_to(&self, blob: &str, dest: &Path) -> Result<u64, String> {
        let blob: crate::blob::BlobRef = blob.parse().map_err(|e| format!("{e}"))?;
        BlobStore::copy_to(self, &blob, dest).map_err(|e| e.to_string())
    }
}
