//! Stored-name normalisation and the copy itself: one pass that streams a file into the
//! destination while hashing it, bounded by the remaining byte budget.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Component, Path};

use sha2::{Digest, Sha256};

use super::scan::file_id;

/// How many leading bytes of each copied file are kept for content sniffing.
const HEAD_BYTES: usize = 1024;

/// Normalises a path relative to the work tree into the `/`-separated form it is stored
/// under. `.` segments are dropped; an empty path, `..`, an absolute path, a segment that is
/// not UTF-8, or a segment containing `\` or a control character is refused, with why.
pub fn stored_path(rel: &Path) -> Result<String, String> {
    let mut out = String::with_capacity(rel.as_os_str().len());
    for component in rel.components() {
        let segment = match component {
            Component::CurDir => continue,
            Component::ParentDir => return Err("the path contains `..`".to_owned()),
            Component::RootDir | Component::Prefix(_) => {
                return Err("the path is absolute".to_owned());
            }
            Component::Normal(s) => s
                .to_str()
                .ok_or_else(|| "the path is not valid UTF-8".to_owned())?,
        };
        if let Some(c) = segment.chars().find(|&c| c == '\\' || c.is_control()) {
            return Err(format!("the name contains {c:?}"));
        }
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(segment);
    }
    if out.is_empty() {
        return Err("the path is empty".to_owned());
    }
    Ok(out)
}

/// A finished copy.
#[derive(Debug)]
pub(crate) struct Copied {
    /// Bytes copied.
    pub size: u64,
    /// Lower-case hex SHA-256 of the content.
    pub sha256: String,
    /// The first bytes of the content, for sniffing.
    pub head: Vec<u8>,
}

/// Why a copy did not happen; the partial destination file is removed.
#[derive(Debug)]
pub(crate) enum CopyError {
    /// The content ran past `limit` bytes (it grew since the scan).
    OverLimit,
    /// The file at the path is not the one the scan saw.
    Changed,
    /// Reading the source failed.
    Read(io::Error),
    /// Writing the destination failed (a read-only folder, a file in the way, a full disk).
    Write(io::Error),
}

/// Copies `source` to `dest` (creating its parent folders), hashing as it goes. Fails without
/// leaving `dest` behind if more than `limit` bytes are read, or if the file opened is not
/// the one identified by `id` at scan time (a swap for a symlink, say).
pub(crate) fn copy_hashed(
    source: &Path,
    id: (u64, u64),
    dest: &Path,
    limit: u64,
) -> Result<Copied, CopyError> {
    let file = File::open(source).map_err(CopyError::Read)?;
    let meta = file.metadata().map_err(CopyError::Read)?;
    if !meta.is_file() || (id != (0, 0) && file_id(&meta) != id) {
        return Err(CopyError::Changed);
    }
    if let Some(parent) = dest.parent() {
        fs::create_dir_all(parent).map_err(CopyError::Write)?;
    }
    let out = File::create(dest).map_err(CopyError::Write)?;
    let result = stream(file, out, limit);
    if result.is_err() {
        let _ = fs::remove_file(dest);
    }
    result
}

fn stream(file: File, mut out: File, limit: u64) -> Result<Copied, CopyError> {
    let mut reader = file.take(limit.saturating_add(1));
    let mut hasher = Sha256::new();
    let mut head = Vec::new();
    let mut size: u64 = 0;
    let mut buf = vec![0u8; 128 * 1024];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(CopyError::Read(err)),
        };
        let chunk = &buf[..n];
        size += n as u64;
        if size > limit {
            return Err(CopyError::OverLimit);
        }
        if head.len() < HEAD_BYTES {
            let take = (HEAD_BYTES - head.len()).min(n);
            head.extend_from_slice(&chunk[..take]);
        }
        hasher.update(chunk);
        out.write_all(chunk).map_err(CopyError::Write)?;
    }
    out.flush().map_err(CopyError::Write)?;
    Ok(Copied {
        size,
        sha256: hex::encode(hasher.finalize()),
        head,
    })
}
