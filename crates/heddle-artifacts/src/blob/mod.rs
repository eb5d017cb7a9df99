//! The content-addressed blob store.
//!
//! Layout under the root (`$HEDDLE_HOME/blobs`):
//!
//! ```text
//! blobs/
//!   sha256/ab/cdef…   one file per blob: the first two hex characters of its SHA-256 name the
//!                     folder, the remaining 62 the file
//!   tmp/              writes in progress ({pid}-{counter}-{nanos}.tmp)
//! ```
//!
//! Blobs are written once. A put streams its input through SHA-256 into a uniquely named temp
//! file on the same filesystem, fsyncs it, and renames it into place; if the blob is already
//! there the temp file is dropped and the existing file kept. Writers of the same content from
//! several threads or processes therefore all succeed with the same ref and leave one file.
//! Inputs are never read whole into memory (a [`BUFFER_SIZE`] buffer is reused).
//!
//! Reads re-hash what they read: [`BlobStore::read`] and [`BlobStore::copy_to`] return
//! [`BlobError::Corrupt`] when a file no longer matches its name, and [`BlobStore::verify`]
//! checks the whole store. [`BlobStore::gc`] removes blobs nothing references.

mod blob_ref;
mod error;
mod maintenance;

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sha2::{Digest, Sha256};

pub use blob_ref::{BlobRef, BlobRefError};
pub use error::BlobError;
pub use maintenance::{CorruptBlob, GcEntry, GcReport, UnreadableEntry, VerifyReport};

/// The copy buffer: inputs are hashed and written in one pass, this many bytes at a time.
pub const BUFFER_SIZE: usize = 1024 * 1024;

/// Temp files younger than this are left alone by [`BlobStore::gc`]: they may be writes in
/// progress.
pub const TEMP_GRACE: Duration = Duration::from_secs(60 * 60);

/// The folder (under the root) holding SHA-256 blobs.
const BLOB_DIR: &str = "sha256";
/// The folder (under the root) holding writes in progress.
const TEMP_DIR: &str = "tmp";
/// The suffix of every temp file this module creates.
const TEMP_SUFFIX: &str = ".tmp";
/// Smallest buffer used when the input's size is known to be small.
const MIN_BUFFER: usize = 8 * 1024;

/// Content-addressed files under a root (`$HEDDLE_HOME/blobs`).
///
/// Cheap to clone; holds only the root path. Every method takes `&self` and is safe to call
/// from many threads and processes at once.
#[derive(Debug, Clone)]
pub struct BlobStore {
    root: PathBuf,
}

impl BlobStore {
    /// A store rooted at `root` (`$HEDDLE_HOME/blobs`). Nothing is created until the first
    /// put.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        BlobStore { root: root.into() }
    }

    /// The root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The folder holding writes in progress (`root/tmp`).
    pub fn temp_dir(&self) -> PathBuf {
        self.root.join(TEMP_DIR)
    }

    /// Where `blob` lives (or would live): `root/sha256/ab/cdef…`.
    pub fn path(&self, blob: &BlobRef) -> PathBuf {
        let (fanout, rest) = blob.hex().split_at(2);
        self.root.join(BLOB_DIR).join(fanout).join(rest)
    }

    /// Whether `blob` is in the store (its file exists; the content is not checked).
    pub fn contains(&self, blob: &BlobRef) -> bool {
        self.path(blob).is_file()
    }

    /// The size of `blob` in bytes (from the file system; the content is not checked).
    pub fn size(&self, blob: &BlobRef) -> Result<u64, BlobError> {
        let path = self.path(blob);
        match fs::metadata(&path) {
            Ok(meta) => Ok(meta.len()),
            Err(err) => Err(not_found_or_io(blob, path, "reading metadata", &err)),
        }
    }

    /// Stores `bytes` and returns their ref. A no-op when the blob is already present.
    pub fn put_bytes(&self, bytes: &[u8]) -> Result<BlobRef, BlobError> {
        let blob = BlobRef::for_bytes(bytes);
        let len = bytes.len() as u64;
        if existing_len(&self.path(&blob)) == Some(len) {
            return Ok(blob);
        }
        let (mut file, temp) = self.create_temp()?;
        file.write_all(bytes)
            .map_err(|err| BlobError::io(&temp.path, "writing temp file", &err))?;
        file.sync_all()
            .map_err(|err| BlobError::io(&temp.path, "syncing temp file", &err))?;
        drop(file);
        self.commit(temp, &blob, len)?;
        Ok(blob)
    }

    /// Stores the file at `source`, streaming it (never read whole into memory).
    ///
    /// Errors reading `source` are [`BlobError::Io`] naming `source`.
    pub fn put_file(&self, source: &Path) -> Result<BlobRef, BlobError> {
        let mut input =
            File::open(source).map_err(|err| BlobError::io(source, "opening input file", &err))?;
        let hint = input
            .metadata()
            .map_err(|err| BlobError::io(source, "reading input metadata", &err))?
            .len();
        self.ingest(&mut input, Some(hint), &|err| {
            BlobError::io(source, "reading input file", &err)
        })
    }

    /// Stores everything `reader` yields, streaming it (never read whole into memory).
    ///
    /// Errors from the reader are [`BlobError::Input`]; nothing is stored then.
    pub fn put_reader(&self, mut reader: impl Read) -> Result<BlobRef, BlobError> {
        self.ingest(&mut reader, None, &|err| BlobError::Input {
            message: err.to_string(),
        })
    }

    /// The content of `blob`, re-hashed: [`BlobError::Corrupt`] when it does not match.
    pub fn read(&self, blob: &BlobRef) -> Result<Vec<u8>, BlobError> {
        let path = self.path(blob);
        let mut file = open_blob(blob, &path)?;
        let hint = file.metadata().map(|m| m.len()).unwrap_or(0);
        let mut data = Vec::with_capacity(usize::try_from(hint).unwrap_or(0));
        file.read_to_end(&mut data)
            .map_err(|err| BlobError::io(&path, "reading blob", &err))?;
        let actual = hex::encode(Sha256::digest(&data));
        if actual != blob.hex() {
            return Err(BlobError::Corrupt {
                blob: blob.clone(),
                path,
                actual,
            });
        }
        Ok(data)
    }

    /// Materialises `blob` at `dest` (a run-local file), re-hashing while copying; returns the
    /// bytes copied.
    ///
    /// The copy goes to a temp file beside `dest` and is renamed over it only when the content
    /// matches, so `dest` never holds corrupt data: on a mismatch the temp file is removed and
    /// [`BlobError::Corrupt`] (naming the blob's path) is returned. Missing parent folders of
    /// `dest` are created.
    pub fn copy_to(&self, blob: &BlobRef, dest: &Path) -> Result<u64, BlobError> {
        let path = self.path(blob);
        let mut input = open_blob(blob, &path)?;
        let hint = input.metadata().map(|m| m.len()).ok();
        let dir = match dest.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .ok_or_else(|| BlobError::Io {
                path: dest.to_path_buf(),
                message: "the destination has no file name".to_owned(),
            })?;
        let (mut out, temp) = create_temp_in(&dir, &format!(".{name}."))?;
        let mut buf = vec![0; buffer_len(hint)];
        let (digest, len) = hash_copy(&mut input, &mut out, &mut buf).map_err(|err| match err {
            CopyError::Read(err) => BlobError::io(&path, "reading blob", &err),
            CopyError::Write(err) => BlobError::io(&temp.path, "writing destination", &err),
        })?;
        drop(out);
        let actual = hex::encode(digest);
        if actual != blob.hex() {
            return Err(BlobError::Corrupt {
                blob: blob.clone(),
                path,
                actual,
            });
        }
        fs::rename(&temp.path, dest)
            .map_err(|err| BlobError::io(dest, "moving the copy into place", &err))?;
        temp.disarm();
        Ok(len)
    }

    /// The streaming put: hash while copying into a temp file, fsync, commit.
    fn ingest(
        &self,
        reader: &mut dyn Read,
        size_hint: Option<u64>,
        read_error: &dyn Fn(io::Error) -> BlobError,
    ) -> Result<BlobRef, BlobError> {
        let (mut file, temp) = self.create_temp()?;
        let mut buf = vec![0; buffer_len(size_hint)];
        let (digest, len) = hash_copy(reader, &mut file, &mut buf).map_err(|err| match err {
            CopyError::Read(err) => read_error(err),
            CopyError::Write(err) => BlobError::io(&temp.path, "writing temp file", &err),
        })?;
        if std::env::var_os("NOSYNC").is_none() {
            file.sync_all()
                .map_err(|err| BlobError::io(&temp.path, "syncing temp file", &err))?;
        }
        drop(file);
        let blob = BlobRef::from_digest(digest);
        self.commit(temp, &blob, len)?;
        Ok(blob)
    }

    /// A new, uniquely named temp file in `root/tmp`.
    fn create_temp(&self) -> Result<(File, TempFile), BlobError> {
        create_temp_in(&self.temp_dir(), "")
    }

    /// Moves a complete, synced temp file into place as `blob`, unless the blob is already
    /// there (then the temp file is dropped and the existing file kept).
    ///
    /// An existing file of the wrong size is damaged (a blob's size is fixed by its content), so
    /// it is replaced. A rename that loses a race against a writer of the same content is fine:
    /// both files hold the same bytes.
    fn commit(&self, temp: TempFile, blob: &BlobRef, len: u64) -> Result<(), BlobError> {
        let dest = self.path(blob);
        if existing_len(&dest) == Some(len) {
            return Ok(());
        }
        let dir = dest
            .parent()
            .map_or_else(|| self.root.clone(), Path::to_path_buf);
        // A concurrent gc may remove an empty fan-out folder between our create and rename;
        // retry a few times.
        let mut attempts = 0;
        loop {
            match fs::rename(&temp.path, &dest) {
                Ok(()) => {
                    temp.disarm();
                    if std::env::var_os("NODIRSYNC").is_some() {
                        return Ok(());
                    }
                    return sync_dir(&dir);
                }
                Err(err) => {
                    if existing_len(&dest) == Some(len) {
                        return Ok(());
                    }
                    attempts += 1;
                    if err.kind() == io::ErrorKind::NotFound && attempts < 4 {
                        fs::create_dir_all(&dir)
                            .map_err(|err| BlobError::io(&dir, "creating blob folder", &err))?;
                        // Make the new fan-out folder's own entry durable.
                        if let Some(parent) = dir.parent() {
                            sync_dir(parent)?;
                        }
                        continue;
                    }
                    return Err(BlobError::io(&dest, "moving the blob into place", &err));
                }
            }
        }
    }
}

/// A temp file that is removed when dropped, unless disarmed after a successful rename.
struct TempFile {
    path: PathBuf,
}

impl TempFile {
    /// Keeps the file: it has been renamed away.
    fn disarm(self) {
        std::mem::forget(self);
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.path);
    }
}

/// Creates `dir/{prefix}{pid}-{counter}-{nanos}.tmp` exclusively (creating `dir` if needed).
fn create_temp_in(dir: &Path, prefix: &str) -> Result<(File, TempFile), BlobError> {
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
fn existing_len(path: &Path) -> Option<u64> {
    fs::metadata(path)
        .ok()
        .filter(|meta| meta.is_file())
        .map(|meta| meta.len())
}

/// Opens a blob's file, mapping a missing file to [`BlobError::NotFound`].
fn open_blob(blob: &BlobRef, path: &Path) -> Result<File, BlobError> {
    File::open(path).map_err(|err| not_found_or_io(blob, path.to_path_buf(), "opening blob", &err))
}

fn not_found_or_io(blob: &BlobRef, path: PathBuf, what: &str, err: &io::Error) -> BlobError {
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
fn buffer_len(size_hint: Option<u64>) -> usize {
    match size_hint {
        Some(size) => usize::try_from(size.saturating_add(1))
            .unwrap_or(BUFFER_SIZE)
            .clamp(MIN_BUFFER, BUFFER_SIZE),
        None => BUFFER_SIZE,
    }
}

/// Which side of a copy failed.
enum CopyError {
    Read(io::Error),
    Write(io::Error),
}

/// Copies `reader` into `writer` through `buf`, hashing on the way; one pass.
fn hash_copy(
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
pub(crate) fn hash_file(path: &Path) -> io::Result<(String, u64)> {
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
fn sync_dir(dir: &Path) -> Result<(), BlobError> {
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
