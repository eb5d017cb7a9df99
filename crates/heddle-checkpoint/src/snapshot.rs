//! Bringing the run's private index up to date with its work tree: a full scan (every
//! file stat-checked, changed ones hashed) or an update of just the paths a watcher saw
//! change. Either way the index then names the tree a checkpoint commits.

use std::path::{Path, PathBuf};

use git2::{Index, Oid, Repository};

use crate::changing_file::{Added, add_settled};
use crate::error::{CheckpointError, Result};
use crate::filters::{Filters, Verdict};
use crate::tracker::Changes;

/// Scans or updates `index` against the work tree; the warnings about skipped files.
pub fn refresh(
    repo: &Repository,
    index: &mut Index,
    filters: &mut Filters,
    changes: &Changes,
) -> Result<Vec<String>> {
    filters.new_scan();
    match changes {
        Changes::Everything => {
            crate::full_scan::full_scan(repo, index, filters).map(|scanned| scanned.warnings)
        }
        Changes::Paths { paths, dirs } => {
            let mut warnings = Vec::new();
            for path in paths {
                update_path(repo, index, filters, path, &mut warnings)?;
            }
            for dir in dirs {
                update_path(repo, index, filters, dir, &mut warnings)?;
            }
            Ok(warnings)
        }
    }
}

/// Rescans the whole work tree of the run `state` describes into its private index; the
/// index, the tree it names, and warnings about skipped files.
pub fn scan_work_tree(
    repo: &Repository,
    state: &crate::state::GitState,
) -> Result<(Index, Oid, Vec<String>)> {
    let mut index = crate::repo::open_index(repo, state)?;
    let mut filters = Filters::for_state(state);
    let warnings = refresh(repo, &mut index, &mut filters, &Changes::Everything)?;
    let tree = write_tree(repo, &mut index)?;
    Ok((index, tree, warnings))
}

/// Writes the index's tree (reusing the subtrees it has cached) and the index itself.
pub fn write_tree(repo: &Repository, index: &mut Index) -> Result<Oid> {
    let tree = tree_of(repo, index)?;
    index
        .write()
        .map_err(|e| CheckpointError::git(repo.path(), "save the run's index", &e))?;
    Ok(tree)
}

/// Updates the entries of `relative` (a file, link or folder, present or gone).
fn update_path(
    repo: &Repository,
    index: &mut Index,
    filters: &mut Filters,
    relative: &Path,
    warnings: &mut Vec<String>,
) -> Result<()> {
    if filters.is_private(relative) || relative.as_os_str().is_empty() {
        return Ok(());
    }
    let full = filters_path(repo, relative);
    let git = |e: git2::Error| CheckpointError::git(repo.path(), &relative.to_string_lossy(), &e);
    match std::fs::symlink_metadata(&full) {
        Err(_) => {
            // Gone: drop it, or everything under it if it was a folder.
            if index.get_path(relative, 0).is_some() {
                index.remove_path(relative).map_err(git)?;
            }
            index.remove_dir(relative, 0).map_err(git)?;
        }
        Ok(meta) if meta.is_dir() => update_dir(repo, index, filters, relative, warnings)?,
        Ok(_) => {
            let tracked = index.get_path(relative, 0).is_some();
            match filters.verdict(repo, relative, tracked) {
                Verdict::Store => {
                    let root = filters_path(repo, Path::new(""));
                    if let Added::KeptChanging(w) =
                        add_settled(index, &root, relative).map_err(git)?
                    {
                        warnings.push(w);
                    }
                }
                Verdict::Leave => {}
                Verdict::Skip(w) => {
                    warnings.push(w);
                    // No longer the run's (grew over the cap, became LFS).
                    if tracked {
                        index.remove_path(relative).map_err(git)?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// Rescans a folder: everything in it, and entries under it whose files are gone.
fn update_dir(
    repo: &Repository,
    index: &mut Index,
    filters: &mut Filters,
    relative: &Path,
    warnings: &mut Vec<String>,
) -> Result<()> {
    if filters.is_excluded(relative) {
        return Ok(());
    }
    if let Some(nested) = filters.nested_repo(relative) {
        if let Verdict::Skip(w) = filters.nested(&nested) {
            warnings.push(w);
        }
        return Ok(());
    }
    let has_tracked = index_entries_under(index, relative).next().is_some();
    let slash = PathBuf::from(format!("{}/", relative.to_string_lossy()));
    if !has_tracked && repo.is_path_ignored(&slash).unwrap_or(false) {
        return Ok(());
    }
    let full = filters_path(repo, relative);
    let entries = std::fs::read_dir(&full).map_err(|e| CheckpointError::io(&full, &e))?;
    for entry in entries.filter_map(std::result::Result::ok) {
        let child = relative.join(entry.file_name());
        update_path(repo, index, filters, &child, warnings)?;
    }
    let gone: Vec<PathBuf> = index_entries_under(index, relative)
        .filter(|p| std::fs::symlink_metadata(filters_path(repo, p)).is_err())
        .collect();
    for path in gone {
        index
            .remove_path(&path)
            .map_err(|e| CheckpointError::git(repo.path(), &path.to_string_lossy(), &e))?;
    }
    Ok(())
}

/// Writes the index's tree (reusing the subtrees it has cached), not the index.
pub fn tree_of(repo: &Repository, index: &mut Index) -> Result<Oid> {
    index
        .write_tree()
        .map_err(|e| CheckpointError::git(repo.path(), "write the checkpoint tree", &e))
}

/// Paths of the index entries under folder `relative`.
fn index_entries_under<'i>(
    index: &'i Index,
    relative: &Path,
) -> impl Iterator<Item = PathBuf> + 'i {
    let prefix = format!("{}/", relative.to_string_lossy());
    let start = index.find_prefix(&prefix).ok();
    let prefix_bytes = prefix.into_bytes();
    let count = index.len();
    (start.unwrap_or(count)..count).map_while(move |i| {
        let entry = index.get(i)?;
        entry
            .path
            .starts_with(&prefix_bytes)
            .then(|| PathBuf::from(String::from_utf8_lossy(&entry.path).into_owned()))
    })
}

fn filters_path(repo: &Repository, relative: &Path) -> PathBuf {
    repo.workdir().unwrap_or(Path::new(".")).join(relative)
}
