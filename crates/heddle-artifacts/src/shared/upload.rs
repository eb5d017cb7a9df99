//! The machine running a run copies it to the store: the files of its folder that are new or
//! changed since the last upload (by size and modification time; symlinks, hidden files,
//! lock files and the control channel stay behind), then the blobs it names that the store
//! does not have yet.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use object_store::{Error as StoreError, PutPayload};

use crate::blob::{BlobRef, BlobStore};
use crate::references::run_blobs;

use super::{Result, SharedFiles, SharedFilesError};

/// What earlier uploads of one run sent, so the next sends only what changed.
#[derive(Debug, Default)]
pub struct UploadMarks {
    files: HashMap<PathBuf, (u64, SystemTime)>,
    blobs: HashSet<BlobRef>,
}

/// What one upload sent.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct UploadReport {
    /// Run files sent.
    pub files: usize,
    /// Blobs sent (blobs the store had already are not counted).
    pub blobs: usize,
    /// Bytes sent.
    pub bytes: u64,
}

/// A file of a run folder: its path in the folder (`/`-separated), where it is, its size
/// and modification time.
struct RunFile {
    relative: String,
    path: PathBuf,
    len: u64,
    modified: SystemTime,
}

impl SharedFiles {
    /// Copies what changed in the folder of run `run_id` since `marks` was last updated,
    /// and the blobs of `blobs` it names, to the store.
    pub async fn upload_run(
        &self,
        run_id: &str,
        folder: &Path,
        blobs: &BlobStore,
        marks: &mut UploadMarks,
    ) -> Result<UploadReport> {
        let mut report = UploadReport::default();
        let mut files = Vec::new();
        collect_files(folder, "", &mut files)?;
        for file in files {
            let mark = (file.len, file.modified);
            if marks.files.get(&file.path) == Some(&mark) {
                continue;
            }
            let bytes = tokio::fs::read(&file.path)
                .await
                .map_err(|e| io_error(&file.path, &e))?;
            report.bytes += bytes.len() as u64;
            let key = self.run_file_key(run_id, &file.relative);
            self.store
                .put(&key, PutPayload::from(bytes))
                .await
                .map_err(|e| self.store_error(e))?;
            report.files += 1;
            marks.files.insert(file.path, mark);
        }
        for blob in run_blobs(folder) {
            if marks.blobs.contains(&blob) {
                continue;
            }
            let key = self.blob_key(&blob);
            match self.store.head(&key).await {
                Ok(_) => {}
                Err(StoreError::NotFound { .. }) => {
                    let path = blobs.path(&blob);
                    let bytes = match tokio::fs::read(&path).await {
                        Ok(bytes) => bytes,
                        // Named but gone here (collected, or never written): nothing to share.
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                        Err(e) => return Err(io_error(&path, &e)),
                    };
                    report.bytes += bytes.len() as u64;
                    self.store
                        .put(&key, PutPayload::from(bytes))
                        .await
                        .map_err(|e| self.store_error(e))?;
                    report.blobs += 1;
                }
                Err(error) => return Err(self.store_error(error)),
            }
            marks.blobs.insert(blob);
        }
        Ok(report)
    }
}

/// The regular files under `dir` (`prefix` is its path in the run folder), leaving out
/// symlinks, hidden names, `*.lock` and the top-level `control/` folder.
fn collect_files(dir: &Path, prefix: &str, into: &mut Vec<RunFile>) -> Result<()> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(io_error(dir, &e)),
    };
    for entry in entries.filter_map(std::result::Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.')
            || name.ends_with(".lock")
            || (prefix.is_empty() && name == "control")
        {
            continue;
        }
        let path = entry.path();
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        let relative = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        if meta.is_dir() {
            collect_files(&path, &relative, into)?;
        } else if meta.is_file() {
            into.push(RunFile {
                relative,
                path,
                len: meta.len(),
                modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            });
        }
    }
    Ok(())
}

pub(super) fn io_error(path: &Path, error: &std::io::Error) -> SharedFilesError {
    SharedFilesError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}
