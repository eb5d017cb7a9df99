//! Putting a checkpoint's files back into a work tree: only the paths that differ between
//! what is there now and the target are written, and the only files deleted are ones the
//! run's checkpoints own (they are in the snapshot just taken) that the target lacks.
//! Ignored and untracked-by-the-run files are never touched; nothing is "cleaned".

use std::path::{Path, PathBuf};

use git2::{Delta, Index, Oid, Repository};

use crate::error::{CheckpointError, Result};
use crate::tree_diff::diff_trees;

/// What a restore changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restored {
    /// Files written (added or changed).
    pub written: Vec<String>,
    /// Files deleted.
    pub deleted: Vec<String>,
}

/// Makes the files of `work_tree` that the run owns go from tree `now` to tree `target`,
/// and the index follow.
pub fn restore_tree(
    repo: &Repository,
    index: &mut Index,
    work_tree: &Path,
    now: Oid,
    target: Oid,
) -> Result<Restored> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let old = repo.find_tree(now).map_err(|e| git("current tree", &e))?;
    let new = repo.find_tree(target).map_err(|e| git("target tree", &e))?;
    let diff = diff_trees(repo, &old, &new, &mut git2::DiffOptions::new())
        .map_err(|e| git("restore diff", &e))?;
    let Some(diff) = diff else {
        return Ok(Restored::default());
    };
    let mut restored = Restored::default();
    for delta in diff.deltas() {
        let file = match delta.status() {
            Delta::Deleted => delta.old_file(),
            _ => delta.new_file(),
        };
        let Some(relative) = file.path().map(Path::to_path_buf) else {
            continue;
        };
        let shown = relative.to_string_lossy().into_owned();
        let full = work_tree.join(&relative);
        match delta.status() {
            Delta::Deleted => {
                remove(&full)?;
                prune_empty_parents(work_tree, &full);
                if index.get_path(&relative, 0).is_some() {
                    index.remove_path(&relative).map_err(|e| git(&shown, &e))?;
                }
                restored.deleted.push(shown);
            }
            _ => {
                let blob = repo.find_blob(file.id()).map_err(|e| git(&shown, &e))?;
                write_entry(&full, blob.content(), u32::from(file.mode()))?;
                index.add_path(&relative).map_err(|e| git(&shown, &e))?;
                restored.written.push(shown);
            }
        }
    }
    index.write().map_err(|e| git("save the run's index", &e))?;
    Ok(restored)
}

fn remove(path: &Path) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => std::fs::remove_file(path).map_err(|e| CheckpointError::io(path, &e)),
        Err(_) => Ok(()),
    }
}

fn prune_empty_parents(root: &Path, path: &Path) {
    let mut dir: Option<PathBuf> = path.parent().map(Path::to_path_buf);
    while let Some(current) = dir {
        if current == root || !current.starts_with(root) || std::fs::remove_dir(&current).is_err() {
            break;
        }
        dir = current.parent().map(Path::to_path_buf);
    }
}

/// Writes one tree entry: a link, an executable or a plain file.
fn write_entry(path: &Path, content: &[u8], mode: u32) -> Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| CheckpointError::io(parent, &e))?;
    }
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if meta.is_dir() {
            std::fs::remove_dir_all(path).map_err(|e| CheckpointError::io(path, &e))?;
        } else {
            std::fs::remove_file(path).map_err(|e| CheckpointError::io(path, &e))?;
        }
    }
    if mode == 0o120000 {
        let target = PathBuf::from(String::from_utf8_lossy(content).into_owned());
        return std::os::unix::fs::symlink(&target, path)
            .map_err(|e| CheckpointError::io(path, &e));
    }
    std::fs::write(path, content).map_err(|e| CheckpointError::io(path, &e))?;
    if mode == 0o100755 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| CheckpointError::io(path, &e))?;
    }
    Ok(())
}
