//! File-system helpers for the blob store: temp files, the hashing copy loop, folder syncs.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

use super::{BUFFER_SIZE, BlobError, BlobRef, MIN_BUFFER, TEMP_SUFFIX};

/// A temp file that is removed when dropped, unless disarmed after a successful rename.
pub(super) struct TempFile {
    pub(super) path: PathBuf,
}

impl TempFile {
    /// Keeps the file: it has been renamed away.
    pub(super) fn disarm(self) {
        std::mem::forget(self);
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Creates `dir/{prefix}{pid}-{counter}-{nanos}.tmp` exclusively (creating `dir` if needed).
pub(super) fn create_temp_in(dir: &Path, prefix: &str) -> Result<(File, TempFile), BlobError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let pid = std::process::id();
    let mut created_dir = false;
    let mut attempts = 0;
    loop {
        let counter = COUNTER.fetch_add(1, Ordering::Relaxed);
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path = dir.join(format!("{prefix}{pid}-{counter}-{nanos}{TEMP_SUFFIX}"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(file) => return Ok((file, TempFile { path })),
            Err(err) => {
                attempts += 1;
                match err.kind() {
                    io::ErrorKind::NotFound if !created_dir => {
                        fs::create_dir_all(dir)
                            .map_err(|err| BlobError::io(dir, "creating temp folder", &err))?;
                        created_dir = true;
                    }
                    // A name left by an earlier process with the same pid; take the next one.
                    io::ErrorKind::AlreadyExists if attempts < 100 => {}
                    _ => return Err(BlobError::io(&path, "creating temp file", &err)),
                }
            }
        }
    }
}

/// The size of the regular file at `path`, if there is one.
pub(super) fn existing_len(path: &Path) -> Option<u64> {
    fs::metadata(path)
        .ok()
        .filter(|meta| meta.is_file())
        .map(|meta| meta.len())
}

/// Opens a blob's file, mapping a missing file to [`BlobError::NotFound`].
pub(super) fn open_blob(blob: &BlobRef, path: &Path) -> Result<File, BlobError> {
    File::open(path).map_err(|err| not_found_or_io(blob, path.to_path_buf(), "opening blob", &err))
}

pub(super) fn not_found_or_io(
    blob: &BlobRef,
    path: PathBuf,
    what: &str,
    err: &io::Error,
) -> BlobError {
    if err.kind() == io::ErrorKind::NotFound {
        BlobError::NotFound {
            blob: blob.clone(),
            path,
        }
    } else {
        BlobError::io(&path, what, err)
    }
}

/// A buffer big enough for the input (one read plus the EOF read), capped at [`BUFFER_SIZE`].
pub(super) fn buffer_len(size_hint: Option<u64>) -> usize {
    match size_hint {
        Some(size) => usize::try_from(size.saturating_add(1))
            .unwrap_or(BUFFER_SIZE)
            .clamp(MIN_BUFFER, BUFFER_SIZE),
        None => BUFFER_SIZE,
    }
}

/// Which side of a copy failed.
pub(super) enum CopyError {
    /// Reading the input failed.
    Read(io::Error),
    /// Writing the output failed.
    Write(io::Error),
}

/// Copies `reader` into `writer` through `buf`, hashing on the way; one pass.
pub(super) fn hash_copy(
    reader: &mut dyn Read,
    writer: &mut dyn Write,
    buf: &mut [u8],
) -> Result<([u8; 32], u64), CopyError> {
    let mut hasher = Sha256::new();
    let mut len = 0u64;
    loop {
        let n = match reader.read(buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(CopyError::Read(err)),
        };
        let chunk = buf.get(..n).unwrap_or_default();
        hasher.update(chunk);
        writer.write_all(chunk).map_err(CopyError::Write)?;
        len += n as u64;
    }
    Ok((hasher.finalize().into(), len))
}

/// Hashes the file at `path` in one streaming pass: (hex digest, bytes).
pub(super) fn hash_file(path: &Path) -> io::Result<(String, u64)> {
    let mut file = File::open(path)?;
    let hint = file.metadata().map(|m| m.len()).ok();
    let mut buf = vec![0; buffer_len(hint)];
    let (digest, len) =
        hash_copy(&mut file, &mut io::sink(), &mut buf).map_err(|err| match err {
            CopyError::Read(err) | CopyError::Write(err) => err,
        })?;
    Ok((hex::encode(digest), len))
}

/// Makes a rename in `dir` durable (Unix). Filesystems that cannot sync folders are tolerated.
pub(super) fn sync_dir(dir: &Path) -> Result<(), BlobError> {
    #[cfg(unix)]
    {
        let result = File::open(dir).and_then(|d| d.sync_all());
        if let Err(err) = result
            && !matches!(
                err.kind(),
                io::ErrorKind::InvalidInput | io::ErrorKind::Unsupported
            )
        {
            return Err(BlobError::io(dir, "syncing folder", &err));
        }
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}
