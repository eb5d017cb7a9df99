//! The recovery area of a restore: what stands where a checkpoint's file must go but is not
//! the run's (ignored or oversized files, nested repositories, a symlink, a folder holding
//! any of them) is moved, never deleted, into `{run_dir}/recovery/{n}/` at its own relative
//! path; `n` is the number of the recovery snapshot taken just before. Moving is a rename
//! (the link itself, never what it points at); across file systems the entry is copied
//! (links as links, modes kept) and then removed.

use std::path::{Path, PathBuf};

use crate::error::{CheckpointError, Result};

/// Where entries in the way go, and which ones went.
#[derive(Debug, Clone)]
pub struct SetAside {
    work_tree: PathBuf,
    root: PathBuf,
    moved: Vec<String>,
}

impl SetAside {
    /// Entries of `work_tree` go under `root` (created on the first move).
    pub fn new(work_tree: &Path, root: &Path) -> Self {
        SetAside {
            work_tree: work_tree.to_path_buf(),
            root: root.to_path_buf(),
            moved: Vec::new(),
        }
    }

    /// The recovery area of recovery snapshot `n` of the run in `run_dir`.
    pub fn area(run_dir: &heddle_engine::RunDir, n: usize) -> PathBuf {
        run_dir.root().join("recovery").join(n.to_string())
    }

    /// The folder entries are moved into.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The relative paths moved so far, in order.
    pub fn moved(&self) -> &[String] {
        &self.moved
    }

    /// Moves the entry at `relative` (a file, a link or a whole folder; its parents are
    /// real folders, checked by the caller) out of the work tree.
    pub fn move_aside(&mut self, relative: &Path) -> Result<()> {
        let from = self.work_tree.join(relative);
        let to = self.root.join(relative);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| CheckpointError::io(parent, &e))?;
        }
        match std::fs::rename(&from, &to) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::CrossesDevices => {
                copy_entry(&from, &to)?;
                remove_entry(&from)?;
            }
            Err(e) => return Err(CheckpointError::io(&from, &e)),
        }
        self.moved.push(relative.to_string_lossy().into_owned());
        Ok(())
    }
}

/// Copies `from` to `to` without following links: folders recursively, links as links,
/// files with their permissions.
fn copy_entry(from: &Path, to: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(from).map_err(|e| CheckpointError::io(from, &e))?;
    if meta.is_symlink() {
        let target = std::fs::read_link(from).map_err(|e| CheckpointError::io(from, &e))?;
        std::os::unix::fs::symlink(&target, to).map_err(|e| CheckpointError::io(to, &e))
    } else if meta.is_dir() {
        std::fs::create_dir(to).map_err(|e| CheckpointError::io(to, &e))?;
        let entries = std::fs::read_dir(from).map_err(|e| CheckpointError::io(from, &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| CheckpointError::io(from, &e))?;
            copy_entry(&entry.path(), &to.join(entry.file_name()))?;
        }
        std::fs::set_permissions(to, meta.permissions()).map_err(|e| CheckpointError::io(to, &e))
    } else {
        std::fs::copy(from, to)
            .map(|_| ())
            .map_err(|e| CheckpointError::io(to, &e))
    }
}

fn remove_entry(path: &Path) -> Result<()> {
    let meta = std::fs::symlink_metadata(path).map_err(|e| CheckpointError::io(path, &e))?;
    if meta.is_dir() {
        // remove_dir_all never follows links inside the folder.
        std::fs::remove_dir_all(path)
    } else {
        std::fs::remove_file(path)
    }
    .map_err(|e| CheckpointError::io(path, &e))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_folder_moves_whole_and_a_link_moves_as_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let outside = dir.path().join("outside");
        std::fs::create_dir_all(work.join("a/b/deep")).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(work.join("a/b/deep/x.log"), "x").unwrap();
        std::fs::write(outside.join("keep.txt"), "outside").unwrap();
        std::os::unix::fs::symlink(&outside, work.join("link")).unwrap();
        let mut aside = SetAside::new(&work, &dir.path().join("recovery/1"));
        aside.move_aside(Path::new("a/b")).unwrap();
        aside.move_aside(Path::new("link")).unwrap();
        let root = aside.root().to_path_buf();
        assert_eq!(aside.moved(), ["a/b", "link"]);
        assert!(!work.join("a/b").exists());
        assert_eq!(
            std::fs::read_to_string(root.join("a/b/deep/x.log")).unwrap(),
            "x"
        );
        assert!(
            std::fs::symlink_metadata(root.join("link"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(outside.join("keep.txt")).unwrap(),
            "outside"
        );
    }

    #[test]
    fn copying_keeps_links_and_modes() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let from = dir.path().join("from");
        std::fs::create_dir_all(from.join("sub")).unwrap();
        std::fs::write(from.join("sub/run.sh"), "echo").unwrap();
        std::fs::set_permissions(
            from.join("sub/run.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        std::os::unix::fs::symlink("/etc/hostname", from.join("l")).unwrap();
        let to = dir.path().join("to");
        copy_entry(&from, &to).unwrap();
        remove_entry(&from).unwrap();
        assert!(!from.exists());
        let mode = std::fs::metadata(to.join("sub/run.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o755);
        assert_eq!(
            std::fs::read_link(to.join("l")).unwrap(),
            Path::new("/etc/hostname")
        );
    }
}
