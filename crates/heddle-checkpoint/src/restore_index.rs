//! What a restore needs of the index it keeps in step with the files it writes, for
//! libgit2's index (resume) and Heddle's own reading of it ([`RunIndex`], rollback and
//! fork), so one restore serves both.

use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use git2::{Index, IndexEntry};

use crate::error::{CheckpointError, Result};
use crate::index_file::RunIndex;

/// An index a restore edits and saves.
pub trait RestoreIndex {
    /// Whether it has a stage-0 entry for `path` (relative to the work tree).
    fn holds(&self, path: &Path) -> bool;
    /// Drops the entries of `path`.
    fn drop_path(&mut self, path: &Path) -> std::result::Result<(), git2::Error>;
    /// Sets the entry of `entry.path`.
    fn set(&mut self, entry: IndexEntry) -> std::result::Result<(), git2::Error>;
    /// Writes it to its file; the file.
    fn save_file(&mut self, repo: &Path) -> Result<Option<&Path>>;
}

impl RestoreIndex for Index {
    fn holds(&self, path: &Path) -> bool {
        self.get_path(path, 0).is_some()
    }

    fn drop_path(&mut self, path: &Path) -> std::result::Result<(), git2::Error> {
        self.remove_path(path)
    }

    fn set(&mut self, entry: IndexEntry) -> std::result::Result<(), git2::Error> {
        self.add(&entry)
    }

    fn save_file(&mut self, repo: &Path) -> Result<Option<&Path>> {
        self.write()
            .map_err(|e| CheckpointError::git(repo, "save the run's index", &e))?;
        Ok(self.path())
    }
}

impl RestoreIndex for RunIndex {
    fn holds(&self, path: &Path) -> bool {
        self.get(path.as_os_str().as_bytes()).is_some()
    }

    fn drop_path(&mut self, path: &Path) -> std::result::Result<(), git2::Error> {
        self.remove(path.as_os_str().as_bytes());
        Ok(())
    }

    fn set(&mut self, entry: IndexEntry) -> std::result::Result<(), git2::Error> {
        self.put(entry);
        Ok(())
    }

    fn save_file(&mut self, _repo: &Path) -> Result<Option<&Path>> {
        self.save()?;
        Ok(Some(self.path()))
    }
}
