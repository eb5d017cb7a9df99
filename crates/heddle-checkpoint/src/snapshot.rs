//! Bringing the run's private index up to date with its work tree: a full scan (every
//! file stat-checked, changed ones hashed) or an update of just the paths a watcher saw
//! change. Either way the index then names the tree a checkpoint commits.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use git2::{FileMode, Index, IndexAddOption, Oid, Repository, Tree};

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
        Changes::Everything => full_scan(repo, index, filters),
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

/// Writes the index's tree (reusing the subtrees it has cached) and the index itself.
pub fn write_tree(repo: &Repository, index: &mut Index) -> Result<Oid> {
    let tree = index
        .write_tree()
        .map_err(|e| CheckpointError::git(repo.path(), "write the checkpoint tree", &e))?;
    index
        .write()
        .map_err(|e| CheckpointError::git(repo.path(), "save the run's index", &e))?;
    Ok(tree)
}

fn full_scan(repo: &Repository, index: &mut Index, filters: &mut Filters) -> Result<Vec<String>> {
    let mut warnings = Vec::new();
    let workdir = repo.workdir().map(Path::to_path_buf).unwrap_or_default();
    let mut failure = None;
    let mut judge = |path: &Path, _spec: &[u8]| -> i32 {
        let relative = path.to_path_buf();
        // A nested repository arrives as its folder (`sub/`).
        if workdir.join(&relative).join(".git").exists() {
            if let Verdict::Skip(w) = filters.nested(&relative) {
                warnings.push(w);
            }
            return 1;
        }
        match filters.verdict(repo, &relative, false) {
            Verdict::Store => 0,
            Verdict::Leave => 1,
            Verdict::Skip(w) => {
                warnings.push(w);
                1
            }
        }
    };
    if let Err(e) = index.add_all(["*"], IndexAddOption::DEFAULT, Some(&mut judge)) {
        failure = Some(e);
    }
    if let Some(e) = failure {
        return Err(CheckpointError::git(repo.path(), "scan the work tree", &e));
    }
    index
        .update_all(["*"], None)
        .map_err(|e| CheckpointError::git(repo.path(), "scan the work tree", &e))?;
    Ok(warnings)
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
                Verdict::Store => index.add_path(relative).map_err(git)?,
                Verdict::Leave => {}
                Verdict::Skip(w) => warnings.push(w),
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

/// The paths (files, links, submodules) whose entries differ between trees `old` and
/// `new` (`None`: empty), descending only into subtrees whose ids differ: the paths a
/// tree-to-tree diff reports, at a cost that follows the change rather than the tree size.
pub fn changed_paths(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
) -> std::result::Result<Vec<Vec<u8>>, git2::Error> {
    let mut paths = Vec::new();
    compare_trees(repo, old, new, b"", &mut paths)?;
    Ok(paths)
}

/// An entry's id and mode.
type Entry = (Oid, i32);

fn compare_trees(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
    prefix: &[u8],
    paths: &mut Vec<Vec<u8>>,
) -> std::result::Result<(), git2::Error> {
    let entries = |tree: Option<&Tree<'_>>| -> BTreeMap<Vec<u8>, Entry> {
        tree.iter()
            .flat_map(|t| t.iter())
            .map(|e| (e.name_bytes().to_vec(), (e.id(), e.filemode())))
            .collect()
    };
    let mut before = entries(old);
    for (name, after) in entries(new) {
        match before.remove(&name) {
            Some(was) if was == after => {}
            was => compare_entries(repo, prefix, &name, was, Some(after), paths)?,
        }
    }
    for (name, was) in before {
        compare_entries(repo, prefix, &name, Some(was), None, paths)?;
    }
    Ok(())
}

fn compare_entries(
    repo: &Repository,
    prefix: &[u8],
    name: &[u8],
    old: Option<Entry>,
    new: Option<Entry>,
    paths: &mut Vec<Vec<u8>>,
) -> std::result::Result<(), git2::Error> {
    let path = [prefix, name].concat();
    let is_tree = |e: &Entry| e.1 == i32::from(FileMode::Tree);
    let subtree = |e: Option<Entry>| -> std::result::Result<Option<Tree<'_>>, git2::Error> {
        e.filter(is_tree).map(|e| repo.find_tree(e.0)).transpose()
    };
    if old.iter().chain(new.iter()).any(|e| !is_tree(e)) {
        paths.push(path.clone());
    }
    let (old_tree, new_tree) = (subtree(old)?, subtree(new)?);
    if old_tree.is_some() || new_tree.is_some() {
        let prefix = [path.as_slice(), b"/"].concat();
        compare_trees(repo, old_tree.as_ref(), new_tree.as_ref(), &prefix, paths)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A tree of `files` (path, content; content `@` makes an executable, `>` a link).
    fn tree<'r>(repo: &'r Repository, files: &[(&str, &str)]) -> Tree<'r> {
        let mut index = Index::new().unwrap();
        for (path, content) in files {
            let (mode, data) = match content.split_at(1) {
                ("@", rest) => (0o100755, rest),
                (">", rest) => (0o120000, rest),
                _ => (0o100644, *content),
            };
            let entry = git2::IndexEntry {
                ctime: git2::IndexTime::new(0, 0),
                mtime: git2::IndexTime::new(0, 0),
                dev: 0,
                ino: 0,
                mode,
                uid: 0,
                gid: 0,
                file_size: 0,
                id: repo.blob(data.as_bytes()).unwrap(),
                flags: 0,
                flags_extended: 0,
                path: path.as_bytes().to_vec(),
            };
            index.add(&entry).unwrap();
        }
        let id = index.write_tree_to(repo).unwrap();
        repo.find_tree(id).unwrap()
    }

    fn full_diff(repo: &Repository, old: &Tree<'_>, new: &Tree<'_>) -> Vec<Vec<u8>> {
        let diff = repo.diff_tree_to_tree(Some(old), Some(new), None).unwrap();
        let mut paths: Vec<Vec<u8>> = diff
            .deltas()
            .filter_map(|d| {
                d.new_file()
                    .path_bytes()
                    .or_else(|| d.old_file().path_bytes())
            })
            .map(<[u8]>::to_vec)
            .collect();
        paths.sort();
        paths.dedup();
        paths
    }

    #[test]
    fn changed_paths_are_the_paths_a_full_diff_reports() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        let old = tree(
            &repo,
            &[
                ("a", "file a"),
                ("a.txt", "same"),
                ("b/c/d.txt", "deep"),
                ("b/c/e.txt", "kept"),
                ("b/x", "becomes a folder"),
                ("gone/one", "1"),
                ("gone/two/three", "3"),
                ("run.sh", "echo"),
                ("link", ">a"),
                ("stay/s", "s"),
            ],
        );
        let new = tree(
            &repo,
            &[
                ("a", "file a changed"),
                ("a.txt", "same"),
                ("b/c/d.txt", "deep changed"),
                ("b/c/e.txt", "kept"),
                ("b/x/inside", "now a folder"),
                ("new/dir/file", "added"),
                ("run.sh", "@echo"),
                ("link", ">a.txt"),
                ("stay/s", "s"),
            ],
        );
        let mut found = changed_paths(&repo, Some(&old), Some(&new)).unwrap();
        found.sort();
        assert_eq!(found, full_diff(&repo, &old, &new));
        assert_eq!(found.len(), 9);
        assert!(
            changed_paths(&repo, Some(&old), Some(&old))
                .unwrap()
                .is_empty()
        );
        let mut everything = changed_paths(&repo, None, Some(&new)).unwrap();
        everything.sort();
        assert_eq!(everything.len(), 9);
    }
}
