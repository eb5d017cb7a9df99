//! Comparing two trees at the cost of what changed: the paths whose entries differ
//! (descending only into subtrees whose ids differ, where libgit2's tree-to-tree diff walks
//! every file of both trees), a diff limited to those paths, and its patch text.

use std::collections::BTreeMap;

use git2::{Diff, DiffFormat, DiffOptions, FileMode, Oid, Repository, Tree};

/// The diff from `old` to `new` over just the paths that differ, configured by `options`
/// (pathspecs are set here); `None` when the trees are the same.
pub fn diff_trees<'r>(
    repo: &'r Repository,
    old: &Tree<'_>,
    new: &Tree<'_>,
    options: &mut DiffOptions,
) -> Result<Option<Diff<'r>>, git2::Error> {
    let changed = changed_paths(repo, Some(old), Some(new))?;
    if changed.is_empty() {
        return Ok(None);
    }
    options.disable_pathspec_match(true);
    for path in changed {
        options.pathspec(path);
    }
    repo.diff_tree_to_tree(Some(old), Some(new), Some(options))
        .map(Some)
}

/// The patch text of `diff`, stopping once it passed `limit` bytes; whether it was cut.
pub fn patch_bytes(diff: &Diff<'_>, limit: usize) -> Result<(Vec<u8>, bool), git2::Error> {
    let mut patch = Vec::new();
    let mut cut = false;
    let printed = diff.print(DiffFormat::Patch, |_, _, line| {
        if patch.len() > limit {
            cut = true;
            return false;
        }
        if matches!(line.origin(), '+' | '-' | ' ') {
            patch.push(line.origin() as u8);
        }
        patch.extend_from_slice(line.content());
        true
    });
    match printed {
        Err(_) if cut => Ok((patch, true)),
        Err(e) => Err(e),
        Ok(()) => Ok((patch, false)),
    }
}

/// The paths (files, links, submodules) whose entries differ between trees `old` and
/// `new` (`None`: empty), descending only into subtrees whose ids differ: the paths a
/// tree-to-tree diff reports, at a cost that follows the change rather than the tree size.
pub fn changed_paths(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
) -> Result<Vec<Vec<u8>>, git2::Error> {
    Ok(changed_entries(repo, old, new)?
        .into_iter()
        .map(|change| change.path)
        .collect())
}

/// An entry's id and mode.
pub type Entry = (Oid, i32);

/// One path (a file, link or submodule, never a folder) whose entry differs between two
/// trees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// Its path from the trees' root, `/`-separated.
    pub path: Vec<u8>,
    /// Its entry in the old tree (`None`: absent there, or a folder).
    pub old: Option<Entry>,
    /// Its entry in the new tree (`None`: absent there, or a folder).
    pub new: Option<Entry>,
}

/// The entries that differ between trees `old` and `new`, as [`changed_paths`] finds them,
/// sorted by path: what a tree-to-tree diff reports as added, deleted and modified (a
/// file that became a folder, or the reverse, is the file's deletion or addition plus the
/// folder's files), without walking the subtrees both trees share.
pub fn changed_entries(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
) -> Result<Vec<Change>, git2::Error> {
    let mut changes = Vec::new();
    compare_trees(repo, old, new, b"", &mut changes)?;
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(changes)
}

fn compare_trees(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: Option<&Tree<'_>>,
    prefix: &[u8],
    changes: &mut Vec<Change>,
) -> Result<(), git2::Error> {
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
            was => compare_entries(repo, prefix, &name, was, Some(after), changes)?,
        }
    }
    for (name, was) in before {
        compare_entries(repo, prefix, &name, Some(was), None, changes)?;
    }
    Ok(())
}

fn compare_entries(
    repo: &Repository,
    prefix: &[u8],
    name: &[u8],
    old: Option<Entry>,
    new: Option<Entry>,
    changes: &mut Vec<Change>,
) -> Result<(), git2::Error> {
    let path = [prefix, name].concat();
    let is_tree = |e: &Entry| e.1 == i32::from(FileMode::Tree);
    let subtree = |e: Option<Entry>| -> Result<Option<Tree<'_>>, git2::Error> {
        e.filter(is_tree).map(|e| repo.find_tree(e.0)).transpose()
    };
    let (old_file, new_file) = (old.filter(|e| !is_tree(e)), new.filter(|e| !is_tree(e)));
    if old_file.is_some() || new_file.is_some() {
        changes.push(Change {
            path: path.clone(),
            old: old_file,
            new: new_file,
        });
    }
    let (old_tree, new_tree) = (subtree(old)?, subtree(new)?);
    if old_tree.is_some() || new_tree.is_some() {
        let prefix = [path.as_slice(), b"/"].concat();
        compare_trees(repo, old_tree.as_ref(), new_tree.as_ref(), &prefix, changes)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use git2::Index;

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

    #[test]
    fn changed_entries_carry_the_ids_and_modes_a_full_diff_reports() {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        let old = tree(
            &repo,
            &[
                ("a", "file a"),
                ("b/x", "becomes a folder"),
                ("gone/one", "1"),
                ("link", ">a"),
                ("run.sh", "echo"),
                ("same", "same"),
            ],
        );
        let new = tree(
            &repo,
            &[
                ("a", "file a changed"),
                ("b/x/inside", "now a folder"),
                ("link", ">a.txt"),
                ("new/file", "added"),
                ("run.sh", "@echo"),
                ("same", "same"),
            ],
        );
        // Each path's old and new entry as libgit2's full diff has them (a file that
        // became a folder is one deletion and one addition there too).
        let diff = repo
            .diff_tree_to_tree(Some(&old), Some(&new), None)
            .unwrap();
        let side = |file: git2::DiffFile<'_>| {
            (!file.id().is_zero()).then(|| (file.id(), i32::from(file.mode())))
        };
        let mut expected: BTreeMap<Vec<u8>, Change> = BTreeMap::new();
        for delta in diff.deltas() {
            let path = delta
                .new_file()
                .path_bytes()
                .or_else(|| delta.old_file().path_bytes())
                .unwrap()
                .to_vec();
            let change = expected.entry(path.clone()).or_insert(Change {
                path,
                old: None,
                new: None,
            });
            change.old = change.old.or(side(delta.old_file()));
            change.new = change.new.or(side(delta.new_file()));
        }
        let found = changed_entries(&repo, Some(&old), Some(&new)).unwrap();
        assert_eq!(found, expected.into_values().collect::<Vec<_>>());
        assert_eq!(found.len(), 7);
        let x = found.iter().find(|c| c.path == b"b/x").unwrap();
        assert!(x.old.is_some() && x.new.is_none(), "{x:?}");
    }
}
