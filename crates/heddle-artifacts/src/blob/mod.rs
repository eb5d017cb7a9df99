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
//! Inputs are never read whole into memory: each put streams through one buffer of at most
//! [`BUFFER_SIZE`] bytes.
//!
//! Reads re-hash what they read: [`BlobStore::read`] and [`BlobStore::copy_to`] return
//! [`BlobError::Corrupt`] when a file no longer matches its name, and [`BlobStore::verify`]
//! checks the whole store. [`BlobStore::gc`] removes blobs nothing references.

mod batch;
mod blob_ref;
mod error;
mod files;
mod maintenance;

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use files::{
    CopyError, TempFile, buffer_len, create_temp_in, existing_len, hash_copy, hash_file,
    not_found_or_io, open_blob, sync_dir,
};

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
        let staged = Staged {
            file,
            temp,
            blob: blob.clone(),
            len,
        };
        for dir in self.finish(staged)? {
            sync_dir(&dir)?;
        }
        Ok(blob)
    }

    /// Stores the file at `source`, streaming it (never read whole into memory).
    ///
    /// Errors reading `source` are [`BlobError::Io`] naming `source`. To store many files, use
    /// [`BlobStore::put_files`]: it overlaps the fsyncs with reading the next file.
    pub fn put_file(&self, source: &Path) -> Result<BlobRef, BlobError> {
        let staged = self.stage_file(source)?;
        let blob = staged.blob.clone();
        for dir in self.finish(staged)? {
            sync_dir(&dir)?;
        }
        Ok(blob)
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

    /// The streaming put: stage (hash while copying into a temp file), then finish (fsync,
    /// rename) and sync the folders.
    fn ingest(
        &self,
        reader: &mut dyn Read,
        size_hint: Option<u64>,
        read_error: &dyn Fn(io::Error) -> BlobError,
    ) -> Result<BlobRef, BlobError> {
        let staged = self.stage(reader, size_hint, read_error)?;
        let blob = staged.blob.clone();
        for dir in self.finish(staged)? {
            sync_dir(&dir)?;
        }
        Ok(blob)
    }

    /// Opens `source` and stages it.
    fn stage_file(&self, source: &Path) -> Result<Staged, BlobError> {
        let mut input =
            File::open(source).map_err(|err| BlobError::io(source, "opening input file", &err))?;
        let hint = input
            .metadata()
            .map_err(|err| BlobError::io(source, "reading input metadata", &err))?
            .len();
        self.stage(&mut input, Some(hint), &|err| {
            BlobError::io(source, "reading input file", &err)
        })
    }

    /// Copies `reader` into a new temp file, hashing on the way (one pass, one buffer).
    fn stage(
        &self,
        reader: &mut dyn Read,
        size_hint: Option<u64>,
        read_error: &dyn Fn(io::Error) -> BlobError,
    ) -> Result<Staged, BlobError> {
        let (mut file, temp) = self.create_temp()?;
        let mut buf = vec![0; buffer_len(size_hint)];
        let (digest, len) = hash_copy(reader, &mut file, &mut buf).map_err(|err| match err {
            CopyError::Read(err) => read_error(err),
            CopyError::Write(err) => BlobError::io(&temp.path, "writing temp file", &err),
        })?;
        Ok(Staged {
            file,
            temp,
            blob: BlobRef::from_digest(digest),
            len,
        })
    }

    /// A new, uniquely named temp file in `root/tmp`.
    fn create_temp(&self) -> Result<(File, TempFile), BlobError> {
        create_temp_in(&self.temp_dir(), "")
    }

    /// Makes a staged blob permanent: unless the blob is already there (then the temp file is
    /// dropped and the existing file kept), fsyncs the temp file and renames it into place.
    /// Returns the folders that must be synced for the rename to be durable (none when the
    /// existing file was kept).
    ///
    /// An existing file of the wrong size is damaged (a blob's size is fixed by its content), so
    /// it is replaced. A rename that loses a race against a writer of the same content is fine:
    /// both files hold the same bytes.
    fn finish(&self, staged: Staged) -> Result<Vec<PathBuf>, BlobError> {
        let Staged {
            file,
            temp,
            blob,
            len,
        } = staged;
        let dest = self.path(&blob);
        if existing_len(&dest) == Some(len) {
            return Ok(Vec::new());
        }
        file.sync_all()
            .map_err(|err| BlobError::io(&temp.path, "syncing temp file", &err))?;
        drop(file);
        let dir = dest
            .parent()
            .map_or_else(|| self.root.clone(), Path::to_path_buf);
        let mut dirs = vec![dir.clone()];
        // A concurrent gc may remove an empty fan-out folder between our create and rename;
        // retry a few times.
        let mut attempts = 0;
        loop {
            match fs::rename(&temp.path, &dest) {
                Ok(()) => {
                    temp.disarm();
                    return Ok(dirs);
                }
                Err(err) => {
                    if existing_len(&dest) == Some(len) {
                        return Ok(Vec::new());
                    }
                    attempts += 1;
                    if err.kind() == io::ErrorKind::NotFound && attempts < 4 {
                        fs::create_dir_all(&dir)
                            .map_err(|err| BlobError::io(&dir, "creating blob folder", &err))?;
                        // The new folders' own entries must be durable too: the fan-out
                        // folder in `sha256/`, and `sha256/` in the root on a first put.
                        for parent in dir.ancestors().skip(1).take(2) {
                            if !dirs.iter().any(|d| d == parent) {
                                dirs.push(parent.to_path_buf());
                            }
                        }
                        continue;
                    }
                    return Err(BlobError::io(&dest, "moving the blob into place", &err));
                }
            }
        }
    }
}

/// A blob hashed and written to its temp file, not yet synced or in place.
struct Staged {
    file: File,
    temp: TempFile,
    blob: BlobRef,
    len: u64,
}
