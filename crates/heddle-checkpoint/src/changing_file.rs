//! Adding a work-tree file to an index while something may still be writing it: a log a
//! dev server appends to, or `heddle run flow.dot > run.log` started in the workspace.
//! libgit2 fails the whole add when a file's length moves while it reads it ("failed to
//! read file into stream"), which used to fail the checkpoint and with it the run. A file
//! whose length or modification time changed across a failed add is read again, up to
//! [`ATTEMPTS`] times; one that keeps changing keeps the entry it had (or stays out) for
//! this checkpoint, with a warning, and the next checkpoint tries again. Any other failure
//! is reported as before.

use std::os::unix::fs::MetadataExt;
use std::path::Path;

use git2::Index;

/// How many times a changing file is read before the checkpoint goes on without it.
pub const ATTEMPTS: usize = 3;

/// What adding a file came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Added {
    /// The index holds the file as it was read.
    Stored,
    /// The file changed during every read; the index keeps what it had. The warning.
    KeptChanging(String),
}

/// Adds `relative` (a path under `work_tree`) to `index` as [`Index::add_path`] does,
/// reading it again while it changes under the read (module docs).
pub fn add_settled(
    index: &mut Index,
    work_tree: &Path,
    relative: &Path,
) -> Result<Added, git2::Error> {
    let full = work_tree.join(relative);
    for _ in 0..ATTEMPTS {
        let before = stamp(&full);
        match index.add_path(relative) {
            Ok(()) => return Ok(Added::Stored),
            Err(error) => {
                if before.is_none() || stamp(&full) == before {
                    return Err(error);
                }
            }
        }
    }
    Ok(Added::KeptChanging(format!(
        "{}: not in this checkpoint, it changed while it was read ({ATTEMPTS} times); the \
         next checkpoint tries again",
        relative.display()
    )))
}

/// The length and modification time of the file at `path` (`None`: it cannot be read).
fn stamp(path: &Path) -> Option<(u64, i64, i64)> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some((meta.len(), meta.mtime(), meta.mtime_nsec()))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::io::Write;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    use super::*;

    fn repo_with_index() -> (tempfile::TempDir, git2::Repository, Index) {
        let dir = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(dir.path()).unwrap();
        let index = repo.index().unwrap();
        (dir, repo, index)
    }

    #[test]
    fn a_file_appended_to_while_it_is_read_never_fails_the_add() {
        let (dir, _repo, mut index) = repo_with_index();
        let path = dir.path().join("run.log");
        std::fs::write(&path, vec![b'x'; 4 << 20]).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let writer = {
            let (path, stop) = (path.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut file = std::fs::OpenOptions::new()
                    .append(true)
                    .open(&path)
                    .unwrap();
                // A busy log: a line every 100 µs, so every read of the 4 MB file sees
                // it grow (and the reads, far faster, still reach its end).
                while !stop.load(Ordering::Relaxed) {
                    file.write_all(b"another line of the log\n").unwrap();
                    std::thread::sleep(std::time::Duration::from_micros(100));
                }
            })
        };
        let mut outcomes = Vec::new();
        for _ in 0..20 {
            outcomes.push(add_settled(&mut index, dir.path(), Path::new("run.log")));
        }
        stop.store(true, Ordering::Relaxed);
        writer.join().unwrap();
        for outcome in outcomes {
            match outcome.unwrap() {
                Added::Stored => {}
                Added::KeptChanging(warning) => {
                    assert!(warning.starts_with("run.log: "), "{warning}")
                }
            }
        }
    }

    #[test]
    fn a_file_at_rest_is_stored_and_other_failures_are_reported() {
        let (dir, repo, mut index) = repo_with_index();
        std::fs::write(dir.path().join("a.txt"), "a\n").unwrap();
        assert_eq!(
            add_settled(&mut index, dir.path(), Path::new("a.txt")).unwrap(),
            Added::Stored
        );
        let entry = index.get_path(Path::new("a.txt"), 0).unwrap();
        assert_eq!(repo.find_blob(entry.id).unwrap().content(), b"a\n");
        assert!(add_settled(&mut index, dir.path(), Path::new("missing.txt")).is_err());
    }
}
