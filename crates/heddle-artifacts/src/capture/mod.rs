//! Test-artifact capture. (stub; being written)

use std::path::{Path, PathBuf};

/// What kind of artifact a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtifactKind {
    /// Other.
    Other,
}

/// One captured file.
#[derive(Debug, Clone)]
pub struct Artifact;

/// A file not captured, and why.
#[derive(Debug, Clone)]
pub struct Skipped;

/// Limits.
#[derive(Debug, Clone, Copy)]
pub struct CaptureLimits;

/// Fingerprints of the artifact places before a stage.
#[derive(Debug, Clone, Default)]
pub struct Snapshot;

/// What a capture did.
#[derive(Debug, Clone, Default)]
pub struct CaptureReport;

/// Fingerprints the known artifact places under `work_dir`.
pub fn snapshot(work_dir: &Path) -> Snapshot {
    let _ = work_dir;
    Snapshot
}

/// Copies what is new or changed since `before` into `dest`.
pub fn capture(
    work_dir: &Path,
    before: &Snapshot,
    dest: &Path,
    limits: CaptureLimits,
) -> CaptureReport {
    let _ = (work_dir, before, dest, limits, PathBuf::new());
    CaptureReport
}
