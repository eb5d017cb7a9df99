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
) -> Result<(), git2::Error> {
    let path = [prefix, name].concat();
    let is_tree = |e: &Entry| e.1 == i32::from(FileMode::Tree);
    let subtree = |e: Option<Entry>| -> Result<Option<Tree<'_>>, git2::Error> {
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
}
