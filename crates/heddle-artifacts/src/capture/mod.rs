//! Test-artifact capture around a command node.
//!
//! Before the command, [`snapshot`] fingerprints (size, mtime) every candidate file in the
//! work tree: files under a `playwright-report/`, `test-results/`, `cypress/videos/` or
//! `cypress/screenshots/` folder, and files named `junit*.xml` or `*.trace.zip` anywhere.
//! `node_modules`, `.git`, `target`, `.heddle`, `.cache/ms-playwright` and `.yarn/cache` are
//! never entered. After it, [`capture`] rescans and copies what is new or changed into the
//! stage's artifact folder, keeping relative paths, within [`CaptureLimits`], and writes a
//! `manifest.json` there. Whatever is not copied is listed in [`CaptureReport::skipped`]
//! with a reason: too large, over the stage budget, a symlink leading out of the work tree,
//! a name that is not UTF-8 or is otherwise unsafe to store.

mod copy;
mod kind;
mod scan;

use std::collections::HashMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use copy::stored_path;
pub use kind::{ArtifactKind, classify, looks_like_junit, media_type};
pub use scan::Fingerprint;

use copy::{CopyError, copy_hashed};
use scan::{Entry, Scan};

/// The manifest [`capture`] writes in its destination folder.
pub const MANIFEST_FILE: &str = "manifest.json";

/// One captured file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Artifact {
    /// Path relative to the work tree and to the destination, `/`-separated.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Lower-case hex SHA-256 of the content.
    pub sha256: String,
    /// Media type from the extension, `application/octet-stream` if unknown.
    pub media_type: String,
    /// What kind of artifact it is.
    pub kind: ArtifactKind,
}

/// Why a candidate file was not captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Larger than [`CaptureLimits::max_file_bytes`].
    FileTooLarge,
    /// Copying it would take the stage past [`CaptureLimits::max_stage_bytes`].
    StageLimit,
    /// A symlink whose target is outside the work tree.
    SymlinkOutside,
    /// A symlink whose target does not exist.
    SymlinkBroken,
    /// A symlink to something other than a regular file (a folder, say).
    NotAFile,
    /// A name that is not valid UTF-8.
    NonUtf8Name,
    /// A path that cannot be stored safely: `..`, absolute, a `\` or a control character.
    UnsafePath,
    /// The file changed identity between the scan and the copy.
    Changed,
    /// Reading or writing failed.
    Io,
}

impl SkipReason {
    /// The snake_case name used in manifests and events.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FileTooLarge => "file_too_large",
            Self::StageLimit => "stage_limit",
            Self::SymlinkOutside => "symlink_outside",
            Self::SymlinkBroken => "symlink_broken",
            Self::NotAFile => "not_a_file",
            Self::NonUtf8Name => "non_utf8_name",
            Self::UnsafePath => "unsafe_path",
            Self::Changed => "changed",
            Self::Io => "io",
        }
    }
}

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A candidate file not captured, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// Path relative to the work tree, `/`-separated; lossy (U+FFFD) if not UTF-8.
    pub path: String,
    /// Why it was skipped.
    pub reason: SkipReason,
    /// Its size in bytes, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// A sentence for people: the limit, the symlink target, the error.
    pub detail: String,
}

impl fmt::Display for Skipped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.path, self.detail, self.reason)
    }
}

/// Byte limits for one capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureLimits {
    /// Files larger than this are skipped. Default 10 MiB.
    pub max_file_bytes: u64,
    /// Total bytes copied per capture (per stage visit). Default 50 MiB.
    pub max_stage_bytes: u64,
}

impl Default for CaptureLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: 10 * 1024 * 1024,
            max_stage_bytes: 50 * 1024 * 1024,
        }
    }
}

/// Why a capture stored nothing: its destination cannot be written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CaptureError {
    /// Creating the destination folder or writing a file into it failed.
    #[error("{}: {cause}", path.display())]
    Destination {
        /// The folder or file that could not be written.
        path: PathBuf,
        /// The operating system's reason.
        cause: String,
    },
}

impl CaptureError {
    fn destination(path: &Path, err: &std::io::Error) -> Self {
        CaptureError::Destination {
            path: path.to_path_buf(),
            cause: heddle_engine::describe_io(err),
        }
    }
}

/// Fingerprints of the candidate files before a stage: relative path → (size, mtime).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snapshot {
    files: HashMap<String, Fingerprint>,
}

impl Snapshot {
    /// How many candidate files were fingerprinted.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether no candidate file was found.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The fingerprint of a relative (`/`-separated) path, if it was a candidate.
    pub fn get(&self, path: &str) -> Option<Fingerprint> {
        self.files.get(path).copied()
    }

    /// The fingerprinted relative paths, in no particular order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }
}

/// What a capture did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaptureReport {
    /// The files copied, sorted by path.
    pub artifacts: Vec<Artifact>,
    /// The new or changed candidates not copied, sorted by path.
    pub skipped: Vec<Skipped>,
    /// Total bytes copied.
    pub bytes: u64,
}

/// Fingerprints the candidate artifact files under `work_dir`. Never fails: what cannot be
/// read is fingerprinted as empty, and reported by [`capture`] if it changes.
pub fn snapshot(work_dir: &Path) -> Snapshot {
    let mut files = HashMap::new();
    Scan::new(work_dir, None).run(|found| {
        files.insert(found.rel, found.fp);
    });
    Snapshot { files }
}

/// Rescans `work_dir` and copies every candidate that is new or whose (size, mtime) differs
/// from `before` into `dest`, under its relative path, within `limits`. Writes
/// `dest/manifest.json` (the report, pretty JSON) when anything was captured or skipped;
/// creates nothing otherwise. If `dest` lies inside `work_dir` it is not scanned. A failure
/// to write the manifest is added to the returned report's `skipped`; failing to create
/// `dest` or to write a file into it is a [`CaptureError`] (the files already copied stay).
pub fn capture(
    work_dir: &Path,
    before: &Snapshot,
    dest: &Path,
    limits: CaptureLimits,
) -> Result<CaptureReport, CaptureError> {
    let mut found = Vec::new();
    Scan::new(work_dir, Some(dest)).run(|f| {
        if before.files.get(&f.rel) != Some(&f.fp) {
            found.push(f);
        }
    });
    found.sort_unstable_by(|a, b| a.rel.cmp(&b.rel));
    if !found.is_empty() {
        fs::create_dir_all(dest).map_err(|err| CaptureError::destination(dest, &err))?;
    }

    let mut report = CaptureReport::default();
    for f in found {
        let size = Some(f.fp.size);
        let skip = |reason, detail| Skipped {
            path: f.rel.clone(),
            reason,
            size,
            detail,
        };
        let (source, id) = match f.what {
            Entry::Refused(reason, detail) => {
                report.skipped.push(skip(reason, detail));
                continue;
            }
            Entry::File { source, id } => (source, id),
        };
        let stored = match stored_path(Path::new(&f.rel)) {
            Ok(stored) => stored,
            Err(why) => {
                report.skipped.push(skip(SkipReason::UnsafePath, why));
                continue;
            }
        };
        let remaining = limits.max_stage_bytes.saturating_sub(report.bytes);
        if f.fp.size > limits.max_file_bytes {
            let detail = format!("larger than the {} byte file limit", limits.max_file_bytes);
            report.skipped.push(skip(SkipReason::FileTooLarge, detail));
            continue;
        }
        if f.fp.size > remaining {
            let detail = stage_detail(limits, remaining);
            report.skipped.push(skip(SkipReason::StageLimit, detail));
            continue;
        }
        let limit = limits.max_file_bytes.min(remaining);
        match copy_hashed(&source, id, &dest.join(&stored), limit) {
            Ok(copied) => {
                report.bytes += copied.size;
                report.artifacts.push(Artifact {
                    kind: classify(&stored, &copied.head),
                    media_type: media_type(&stored).to_owned(),
                    path: stored,
                    size: copied.size,
                    sha256: copied.sha256,
                });
            }
            Err(CopyError::OverLimit) if limit == limits.max_file_bytes => {
                let detail = format!(
                    "grew past the {} byte file limit while being copied",
                    limits.max_file_bytes
                );
                report.skipped.push(skip(SkipReason::FileTooLarge, detail));
            }
            Err(CopyError::OverLimit) => {
                let detail = stage_detail(limits, remaining);
                report.skipped.push(skip(SkipReason::StageLimit, detail));
            }
            Err(CopyError::Changed) => {
                let detail = "the file was replaced while being captured".to_owned();
                report.skipped.push(skip(SkipReason::Changed, detail));
            }
            Err(CopyError::Read(err)) => {
                report.skipped.push(skip(SkipReason::Io, err.to_string()));
            }
            Err(CopyError::Write(err)) => {
                return Err(CaptureError::destination(&dest.join(&stored), &err));
            }
        }
    }

    if !(report.artifacts.is_empty() && report.skipped.is_empty())
        && let Err(err) = write_manifest(dest, &report)
    {
        report.skipped.push(Skipped {
            path: MANIFEST_FILE.to_owned(),
            reason: SkipReason::Io,
            size: None,
            detail: format!("writing the manifest failed: {err}"),
        });
    }
    Ok(report)
}

fn stage_detail(limits: CaptureLimits, remaining: u64) -> String {
    format!(
        "would exceed the {} byte stage limit ({remaining} bytes left)",
        limits.max_stage_bytes
    )
}

fn write_manifest(dest: &Path, report: &CaptureReport) -> std::io::Result<()> {
    fs::create_dir_all(dest)?;
    let json = serde_json::to_vec_pretty(report).map_err(std::io::Error::other)?;
    heddle_engine::atomic_file::replace_file(&dest.join(MANIFEST_FILE), &json, false)
}
