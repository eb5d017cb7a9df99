//! The run's private index, read and written by Heddle itself rather than through libgit2,
//! for the work that touches every entry: a rollback's recovery snapshot and restore.
//! libgit2 verifies a SHA-1DC checksum over the whole file and allocates and validates
//! each entry on read; that is most of a rollback's time in a large work tree. Here the
//! file is read as git reads it ([`parse`]) and written with a plain SHA-1
//! ([`serialize`]), in the same format, so git, libgit2 and the checkpoint session read
//! what was written. Edits are kept aside and merged in one pass when the index is saved,
//! and each one marks the folders above it invalid in the tree cache ([`tree_cache`]).
//!
//! An index this reader does not handle (a split or sparse index, another version) is
//! read through libgit2 instead, without its tree cache.

pub mod parse;
pub mod serialize;
pub mod tree_cache;

use std::collections::BTreeMap;
use std::io::{Read as _, Write as _};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use git2::{Index, IndexEntry, Oid};

use crate::error::{CheckpointError, Result};
use parse::{ParseFailure, parse};
use tree_cache::CachedTree;

/// An index file in memory, with the edits made to it since it was read.
#[derive(Debug)]
pub struct RunIndex {
    path: PathBuf,
    /// The entries as read, sorted by path, then stage.
    entries: Vec<IndexEntry>,
    /// Edits by path: the stage-0 entry it now has, or `None` when removed.
    edits: BTreeMap<Vec<u8>, Option<IndexEntry>>,
    tree: Option<CachedTree>,
    /// When the file was last written (seconds, nanoseconds), as read.
    written_at: (i64, i64),
}

impl RunIndex {
    /// Reads the index file at `path` (an absent file is an empty index).
    pub fn open(path: &Path) -> Result<RunIndex> {
        let unreadable = |message: String| CheckpointError::Storage {
            path: path.to_path_buf(),
            message: format!(
                "the run's index cannot be read ({message}); delete it and resume: the \
                 next checkpoint rescans the work tree"
            ),
        };
        // The time comes from the handle read, so it is that file's even if the index is
        // replaced meanwhile.
        let read = std::fs::File::open(path).and_then(|mut file| {
            let meta = file.metadata()?;
            let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
            file.read_to_end(&mut bytes)?;
            Ok((bytes, (meta.mtime(), meta.mtime_nsec())))
        });
        let (bytes, written_at) = match read {
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), (i64::MIN, 0)),
            Err(e) => return Err(CheckpointError::io(path, &e)),
        };
        let (entries, tree) = if bytes.is_empty() {
            (Vec::new(), None)
        } else {
            match parse(&bytes) {
                Ok(parsed) => (parsed.entries, parsed.tree),
                Err(ParseFailure::Unsupported(_)) => {
                    let index = Index::open(path).map_err(|e| unreadable(e.message().into()))?;
                    (index.iter().collect(), None)
                }
                Err(ParseFailure::Damaged(what)) => return Err(unreadable(what)),
            }
        };
        Ok(RunIndex {
            path: path.to_path_buf(),
            entries,
            edits: BTreeMap::new(),
            tree,
            written_at,
        })
    }

    /// The file it was read from and is saved to.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// When the file was last written before it was read (seconds, nanoseconds): a file
    /// modified since then may hold changes its stat data does not show.
    pub fn written_at(&self) -> (i64, i64) {
        self.written_at
    }

    /// The entries as read (edits not applied).
    pub fn entries_as_read(&self) -> &[IndexEntry] {
        &self.entries
    }

    /// The tree its entries make, when the tree cache knows it and nothing was edited.
    pub fn cached_tree(&self) -> Option<Oid> {
        if self.edits.is_empty() {
            self.tree.as_ref().and_then(CachedTree::root_id)
        } else {
            None
        }
    }

    /// The stage-0 entry of `path`.
    pub fn get(&self, path: &[u8]) -> Option<&IndexEntry> {
        if let Some(edit) = self.edits.get(path) {
            return edit.as_ref();
        }
        let at = self.entries.partition_point(|e| e.path.as_slice() < path);
        self.entries
            .get(at)
            .filter(|e| e.path == path && stage(e) == 0)
    }

    /// Sets the stage-0 entry of its path (any other stage of it goes).
    pub fn put(&mut self, entry: IndexEntry) {
        self.invalidate(&entry.path);
        self.edits.insert(entry.path.clone(), Some(entry));
    }

    /// Removes every entry of `path`.
    pub fn remove(&mut self, path: &[u8]) {
        self.invalidate(path);
        self.edits.insert(path.to_vec(), None);
    }

    fn invalidate(&mut self, path: &[u8]) {
        if let Some(tree) = &mut self.tree {
            tree.invalidate(path);
        }
    }

    /// Every entry with the edits applied, sorted by path, then stage: one merge pass.
    pub fn merged(&self) -> Vec<&IndexEntry> {
        let mut out = Vec::with_capacity(self.entries.len() + self.edits.len());
        let mut edits = self.edits.iter().peekable();
        let mut at = 0;
        while let Some(entry) = self.entries.get(at) {
            let path = entry.path.as_slice();
            while let Some((_, edit)) = edits.next_if(|(edited, _)| edited.as_slice() < path) {
                out.extend(edit.as_ref());
            }
            let stages = self.entries[at..]
                .iter()
                .take_while(|e| e.path.as_slice() == path)
                .count();
            match edits.next_if(|(edited, _)| edited.as_slice() == path) {
                // The edit stands for every stage of its path.
                Some((_, edit)) => out.extend(edit.as_ref()),
                None => out.extend(&self.entries[at..at + stages]),
            }
            at += stages;
        }
        out.extend(edits.filter_map(|(_, edit)| edit.as_ref()));
        out
    }

    /// Writes the index with its edits, as git does: to `{path}.lock`, created only if
    /// absent (another writer holding it makes this fail rather than both write), then
    /// renamed over the file. Not flushed: the index is a cache, and a lost one is rebuilt
    /// by the next scan.
    pub fn save(&mut self) -> Result<()> {
        let bytes = serialize::serialize(&self.merged(), self.tree.as_ref());
        let mut lock_name = self.path.as_os_str().to_os_string();
        lock_name.push(".lock");
        let lock = PathBuf::from(lock_name);
        let io = |e: std::io::Error| CheckpointError::io(&lock, &e);
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&lock)
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => CheckpointError::Storage {
                    path: lock.clone(),
                    message: "the run's index is locked by another process; if none is \
                              running, delete the lock file"
                        .into(),
                },
                _ => io(e),
            })?;
        let written = file
            .write_all(&bytes)
            .and_then(|()| std::fs::rename(&lock, &self.path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&lock);
            return Err(io(e));
        }
        Ok(())
    }
}

/// The merge stage of an entry (0 outside a conflict).
pub fn stage(entry: &IndexEntry) -> u16 {
    (entry.flags >> 12) & 0x3
}
