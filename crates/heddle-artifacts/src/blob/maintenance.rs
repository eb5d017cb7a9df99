//! Store maintenance: `verify` (re-hash every blob) and `gc` (remove what nothing references).

use std::collections::HashSet;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use super::{BLOB_DIR, BlobError, BlobRef, BlobStore, TEMP_GRACE, hash_file};

/// What [`BlobStore::verify`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerifyReport {
    /// Well-named blob files checked.
    pub blobs: u64,
    /// Bytes re-hashed.
    pub bytes: u64,
    /// Blobs whose content matches their name.
    pub ok: u64,
    /// Blobs whose content does not match their name.
    pub corrupt: Vec<CorruptBlob>,
    /// Files or folders that could not be read.
    pub unreadable: Vec<UnreadableEntry>,
    /// Entries under `sha256/` that are not `ab/{62 hex}` regular files (left alone).
    pub misnamed: Vec<PathBuf>,
    /// Files in `tmp/`: writes in progress, or left by a crash (gc removes them after
    /// [`TEMP_GRACE`]).
    pub temp_files: Vec<PathBuf>,
}

impl VerifyReport {
    /// No corrupt blobs and nothing unreadable. (Misnamed and temp files are only listed.)
    pub fn is_ok(&self) -> bool {
        self.corrupt.is_empty() && self.unreadable.is_empty()
    }
}

/// A blob whose content does not hash to its name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorruptBlob {
    /// The blob's name.
    pub blob: BlobRef,
    /// Its file.
    pub path: PathBuf,
    /// The hex SHA-256 of what is actually in the file.
    pub actual: String,
}

/// A file or folder that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnreadableEntry {
    /// Where it is, under the blob store or a run folder.
    pub path: PathBuf,
    /// What failed.
    pub message: String,
}

/// What [`BlobStore::gc`] removed (or, in a dry run, would remove).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GcReport {
    /// Nothing was deleted; the lists say what would be.
    pub dry_run: bool,
    /// Unreferenced blobs removed (or to remove), in path order.
    pub removed: Vec<GcEntry>,
    /// Bytes freed (or to free): the removed blobs plus the stale temp files.
    pub bytes_freed: u64,
    /// Referenced blobs present and kept.
    pub kept: u64,
    /// Bytes in kept blobs.
    pub kept_bytes: u64,
    /// Referenced blobs that are not in the store.
    #[cfg_attr(feature = "ts", ts(type = "Array<string>"))]
    pub missing: Vec<BlobRef>,
    /// Temp files older than [`TEMP_GRACE`], removed (or to remove).
    pub temp_removed: Vec<PathBuf>,
    /// Temp files younger than [`TEMP_GRACE`], left alone (writes in progress).
    pub temp_kept: Vec<PathBuf>,
    /// Empty fan-out folders removed (or to remove).
    pub dirs_removed: Vec<PathBuf>,
    /// Misnamed entries under `sha256/`, left alone.
    pub ignored: Vec<PathBuf>,
}

/// One unreferenced blob.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct GcEntry {
    /// Its `blob://sha256/…` reference, which no run names any more.
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub blob: BlobRef,
    /// Its file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
}

/// A listing of the store (no content read).
#[derive(Default)]
struct Scan {
    /// Fan-out folders in name order.
    dirs: Vec<ScannedDir>,
    misnamed: Vec<PathBuf>,
    unreadable: Vec<UnreadableEntry>,
}

struct ScannedDir {
    path: PathBuf,
    /// Well-named blob files: (ref, path, size), in name order.
    blobs: Vec<(BlobRef, PathBuf, u64)>,
    /// Misnamed entries inside this folder.
    others: usize,
}

/// A temp file and its age (None when its mtime is unreadable or in the future).
struct TempEntry {
    path: PathBuf,
    size: u64,
    modified: Option<SystemTime>,
}

impl BlobStore {
    /// Re-hashes every blob and lists what is wrong: corrupt blobs (with paths), unreadable
    /// entries, misnamed files, and temp files. A missing store is an empty, clean report.
    pub fn verify(&self) -> VerifyReport {
        let scan = self.scan();
        let mut report = VerifyReport {
            misnamed: scan.misnamed,
            unreadable: scan.unreadable,
            ..VerifyReport::default()
        };
        for (blob, path, _) in scan.dirs.into_iter().flat_map(|dir| dir.blobs) {
            report.blobs += 1;
            match hash_file(&path) {
                Ok((actual, len)) => {
                    report.bytes += len;
                    if actual == blob.hex() {
                        report.ok += 1;
                    } else {
                        report.corrupt.push(CorruptBlob { blob, path, actual });
                    }
                }
                Err(err) => report.unreadable.push(UnreadableEntry {
                    path,
                    message: format!("reading blob: {err}"),
                }),
            }
        }
        match self.temp_files() {
            Ok(temps) => report.temp_files = temps.into_iter().map(|t| t.path).collect(),
            Err(entry) => report.unreadable.push(entry),
        }
        report
    }

    /// Removes every blob not in `referenced` (with `dry_run`, only lists them), temp files
    /// older than [`TEMP_GRACE`], and fan-out folders left empty. Temp files younger than that
    /// are never touched, so a write in progress survives.
    ///
    /// `referenced` must include the blobs of runs still in progress: a blob written but not
    /// yet referenced by a checkpoint is indistinguishable from garbage.
    ///
    /// Fails, deleting nothing, when part of the store cannot be listed; fails on the first
    /// removal error (a blob that another gc already removed is not an error).
    pub fn gc(&self, referenced: &HashSet<BlobRef>, dry_run: bool) -> Result<GcReport, BlobError> {
        let scan = self.scan();
        if let Some(entry) = scan.unreadable.into_iter().next() {
            return Err(BlobError::Io {
                path: entry.path,
                message: entry.message,
            });
        }
        let temps = self.temp_files().map_err(|entry| BlobError::Io {
            path: entry.path,
            message: entry.message,
        })?;
        let mut report = GcReport {
            dry_run,
            ignored: scan.misnamed,
            ..GcReport::default()
        };
        let mut present = HashSet::new();
        for dir in scan.dirs {
            let mut left = dir.others;
            for (blob, path, size) in dir.blobs {
                if referenced.contains(&blob) {
                    report.kept += 1;
                    report.kept_bytes += size;
                    present.insert(blob);
                    left += 1;
                    continue;
                }
                if !dry_run && !remove_file(&path)? {
                    continue;
                }
                report.bytes_freed += size;
                report.removed.push(GcEntry { blob, path, size });
            }
            if left == 0 && (dry_run || fs::remove_dir(&dir.path).is_ok()) {
                // A failed remove_dir means a writer just added a blob; leave the folder.
                report.dirs_removed.push(dir.path);
            }
        }
        let now = SystemTime::now();
        for temp in temps {
            let stale = temp
                .modified
                .and_then(|modified| now.duration_since(modified).ok())
                .is_some_and(|age| age >= TEMP_GRACE);
            if !stale {
                report.temp_kept.push(temp.path);
                continue;
            }
            if !dry_run && !remove_file(&temp.path)? {
                continue;
            }
            report.bytes_freed += temp.size;
            report.temp_removed.push(temp.path);
        }
        let mut missing: Vec<BlobRef> = referenced
            .iter()
            .filter(|blob| !present.contains(*blob))
            .cloned()
            .collect();
        missing.sort();
        report.missing = missing;
        Ok(report)
    }

    /// Lists `sha256/`: fan-out folders and their blob files, without reading content.
    fn scan(&self) -> Scan {
        let mut scan = Scan::default();
        let top = self.root.join(BLOB_DIR);
        let Some(fanouts) = list_dir(&top, &mut scan.unreadable) else {
            return scan;
        };
        for (name, path, file_type) in fanouts {
            if !file_type.is_dir() || !is_lower_hex(&name, 2) {
                scan.misnamed.push(path);
                continue;
            }
            let mut dir = ScannedDir {
                path,
                blobs: Vec::new(),
                others: 0,
            };
            let Some(entries) = list_dir(&dir.path, &mut scan.unreadable) else {
                // Unreadable: count it as non-empty so gc never removes it.
                dir.others = 1;
                scan.dirs.push(dir);
                continue;
            };
            for (file_name, file_path, file_type) in entries {
                let blob = BlobRef::from_hex(&format!("{name}{file_name}"))
                    .ok()
                    .filter(|_| file_type.is_file() && file_name.len() == 62);
                let Some(blob) = blob else {
                    dir.others += 1;
                    scan.misnamed.push(file_path);
                    continue;
                };
                match fs::symlink_metadata(&file_path) {
                    Ok(meta) => dir.blobs.push((blob, file_path, meta.len())),
                    // Removed since the listing (a concurrent gc): nothing to report.
                    Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                    Err(err) => {
                        dir.others += 1;
                        scan.unreadable.push(UnreadableEntry {
                            path: file_path,
                            message: format!("reading metadata: {err}"),
                        });
                    }
                }
            }
            scan.dirs.push(dir);
        }
        scan
    }

    /// Files in `tmp/`, in name order. A missing folder has none.
    fn temp_files(&self) -> Result<Vec<TempEntry>, UnreadableEntry> {
        let mut errors = Vec::new();
        let Some(entries) = list_dir(&self.temp_dir(), &mut errors) else {
            return match errors.into_iter().next() {
                Some(entry) => Err(entry),
                None => Ok(Vec::new()),
            };
        };
        let mut temps = Vec::new();
        for (_, path, _) in entries {
            match fs::symlink_metadata(&path) {
                Ok(meta) => temps.push(TempEntry {
                    path,
                    size: meta.len(),
                    modified: meta.modified().ok(),
                }),
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(UnreadableEntry {
                        path,
                        message: format!("reading metadata: {err}"),
                    });
                }
            }
        }
        Ok(temps)
    }
}

/// The entries of `dir` sorted by name: (name, path, type). `None` when the folder is missing
/// (no error) or unreadable (error pushed to `errors`). Entries whose names are not UTF-8 are
/// reported with a lossy name, which never passes the hex checks.
fn list_dir(
    dir: &Path,
    errors: &mut Vec<UnreadableEntry>,
) -> Option<Vec<(String, PathBuf, fs::FileType)>> {
    let read = match fs::read_dir(dir) {
        Ok(read) => read,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return None,
        Err(err) => {
            errors.push(UnreadableEntry {
                path: dir.to_path_buf(),
                message: format!("listing folder: {err}"),
            });
            return None;
        }
    };
    let mut entries = Vec::new();
    for entry in read {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                errors.push(UnreadableEntry {
                    path: dir.to_path_buf(),
                    message: format!("listing folder: {err}"),
                });
                continue;
            }
        };
        let path = entry.path();
        match entry.file_type() {
            Ok(file_type) => {
                let name = entry.file_name().to_string_lossy().into_owned();
                entries.push((name, path, file_type));
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => {}
            Err(err) => errors.push(UnreadableEntry {
                path,
                message: format!("reading file type: {err}"),
            }),
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Some(entries)
}

/// Whether `s` is exactly `len` lowercase hex characters.
fn is_lower_hex(s: &str, len: usize) -> bool {
    s.len() == len
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Removes a file: `Ok(true)` if removed, `Ok(false)` if already gone.
fn remove_file(path: &Path) -> Result<bool, BlobError> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(err) => Err(BlobError::io(path, "removing", &err)),
    }
}
