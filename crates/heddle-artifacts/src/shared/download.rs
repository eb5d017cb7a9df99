//! Any machine showing a run copies it back from the store into a folder of its own: the
//! run's files it lacks or that changed there since it last looked (each path checked to
//! stay inside the folder, each file written by Heddle's one safe writer: whole, never
//! through a link), then the blobs they name that its blob store lacks (each checked to hash
//! to its name).

use std::collections::HashMap;
use std::path::Path;

use futures_util::TryStreamExt;
use object_store::ObjectMeta;

use crate::blob::BlobStore;
use crate::references::run_blobs;

use heddle_engine::atomic_file::{create_dirs_within, replace_file};

use super::keys::local_path;
use super::upload::io_error;
use super::{Result, SharedFiles, SharedFilesError};

/// What earlier downloads of one run fetched (each file's size and version in the store),
/// so the next fetches only what changed there.
#[derive(Debug, Default)]
pub struct DownloadMarks {
    files: HashMap<String, (u64, String)>,
}

/// What one download fetched.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DownloadReport {
    /// Run files the store holds for the run.
    pub listed: usize,
    /// Run files fetched (the others were up to date here).
    pub files: usize,
    /// Blobs fetched.
    pub blobs: usize,
    /// Bytes fetched.
    pub bytes: u64,
}

impl SharedFiles {
    /// Brings `into` up to date with the files of run `run_id` in the store (those changed
    /// there since `marks` was last updated, or missing here), and `blobs` with the blobs
    /// they name. A run the store does not hold lists no files.
    pub async fn download_run(
        &self,
        run_id: &str,
        into: &Path,
        blobs: &BlobStore,
        marks: &mut DownloadMarks,
    ) -> Result<DownloadReport> {
        let prefix = self.run_prefix(run_id);
        let listed: Vec<ObjectMeta> = self
            .store
            .list(Some(&prefix))
            .try_collect()
            .await
            .map_err(|e| self.store_error(e))?;
        let mut report = DownloadReport {
            listed: listed.len(),
            ..DownloadReport::default()
        };
        for meta in listed {
            let key = meta.location.to_string();
            let Some(parts) = meta.location.prefix_match(&prefix) else {
                continue;
            };
            let relative = parts
                .map(|p| p.as_ref().to_string())
                .collect::<Vec<_>>()
                .join("/");
            let local = local_path(into, &key, &relative)?;
            let mark = (meta.size, version(&meta));
            let here = std::fs::symlink_metadata(&local)
                .is_ok_and(|file| file.is_file() && file.len() == meta.size);
            if here && marks.files.get(&key) == Some(&mark) {
                continue;
            }
            let bytes = self
                .store
                .get(&meta.location)
                .await
                .map_err(|e| self.store_error(e))?
                .bytes()
                .await
                .map_err(|e| self.store_error(e))?;
            write_whole(into, &relative, &bytes)?;
            marks.files.insert(key, mark);
            report.files += 1;
            report.bytes += bytes.len() as u64;
        }
        for blob in run_blobs(into) {
            if blobs.contains(&blob) {
                continue;
            }
            let key = self.blob_key(&blob);
            let bytes = match self.store.get(&key).await {
                Ok(got) => got.bytes().await.map_err(|e| self.store_error(e))?,
                Err(object_store::Error::NotFound { .. }) => continue,
                Err(error) => return Err(self.store_error(error)),
            };
            let stored = blobs.put_bytes(&bytes).map_err(|e| SharedFilesError::Io {
                path: blobs.root().to_path_buf(),
                message: e.to_string(),
            })?;
            if stored != blob {
                return Err(SharedFilesError::Refused {
                    key: key.to_string(),
                    why: format!("its content hashes to {}", stored.hex()),
                });
            }
            report.blobs += 1;
            report.bytes += bytes.len() as u64;
        }
        Ok(report)
    }
}

/// Which version of an object the store holds: its entity tag, else when it was written.
fn version(meta: &ObjectMeta) -> String {
    meta.e_tag
        .clone()
        .unwrap_or_else(|| meta.last_modified.to_rfc3339())
}

/// Writes `bytes` as the file `relative` under `into`, with Heddle's one safe writer: the
/// folders on the way are made without going through a symbolic link, and the file is
/// replaced whole (a reader never sees a part of it; a link at its place is refused).
fn write_whole(into: &Path, relative: &str, bytes: &[u8]) -> Result<()> {
    let relative = Path::new(relative);
    let parent = relative.parent().unwrap_or(Path::new(""));
    // The copy's own folder is this machine's (under its Heddle home); below it, links are
    // refused.
    std::fs::create_dir_all(into).map_err(|e| io_error(into, &e))?;
    let dir = create_dirs_within(into, parent).map_err(|e| io_error(&into.join(parent), &e))?;
    let path = match relative.file_name() {
        Some(name) => dir.join(name),
        None => {
            return Err(io_error(
                &into.join(relative),
                &std::io::ErrorKind::InvalidInput.into(),
            ));
        }
    };
    replace_file(&path, bytes, false).map_err(|e| io_error(&path, &e))
}
