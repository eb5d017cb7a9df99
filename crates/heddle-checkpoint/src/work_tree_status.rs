//! [`GitStatusWatch`]: which files an external agent changed, from git's status of its work
//! folder before and after a turn: the changed paths (against HEAD, the index included, plus
//! untracked files that are not ignored) with the blob id of their content. Outside a git
//! repository there are no snapshots and no files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid, Repository, StatusOptions};
use heddle_engine::work_tree::{WorkTreeSnapshot, WorkTreeWatch};

/// Snapshots work folders with git status.
#[derive(Debug, Clone, Copy, Default)]
pub struct GitStatusWatch;

impl WorkTreeWatch for GitStatusWatch {
    fn snapshot(&self, work_dir: &Path) -> Option<WorkTreeSnapshot> {
        let repo = Repository::discover(work_dir).ok()?;
        let root = repo.workdir()?.canonicalize().ok()?;
        let dir = work_dir.canonicalize().ok()?;
        if !dir.starts_with(&root) {
            return None;
        }
        let mut options = StatusOptions::new();
        options
            .include_untracked(true)
            .recurse_untracked_dirs(true)
            .include_ignored(false)
            .exclude_submodules(true);
        let statuses = repo.statuses(Some(&mut options)).ok()?;
        let mut files = BTreeMap::new();
        for entry in statuses.iter() {
            let Ok(path) = entry.path() else {
                continue;
            };
            let full = root.join(path);
            if let Some(relative) = relative_to(&full, &dir) {
                files.insert(relative, content_hash(&full));
            }
        }
        Some(WorkTreeSnapshot { files })
    }

    fn touched_since(&self, before: Option<&WorkTreeSnapshot>, work_dir: &Path) -> Vec<String> {
        let Some(after) = self.snapshot(work_dir) else {
            return Vec::new();
        };
        touched(
            &after,
            before.unwrap_or(&WorkTreeSnapshot::default()),
            work_dir,
        )
    }
}

/// The paths of `after` touched since `before`, sorted.
fn touched(after: &WorkTreeSnapshot, before: &WorkTreeSnapshot, work_dir: &Path) -> Vec<String> {
    let mut touched = BTreeSet::new();
    for (path, hash) in &after.files {
        if before.files.get(path) != Some(hash) {
            touched.insert(path.clone());
        }
    }
    for (path, hash) in &before.files {
        if !after.files.contains_key(path) && content_hash(&work_dir.join(path)) != *hash {
            touched.insert(path.clone());
        }
    }
    touched.into_iter().collect()
}

/// `path` relative to `dir`, `/`-separated; `None` outside `dir`.
fn relative_to(path: &Path, dir: &Path) -> Option<String> {
    let relative: PathBuf = path.strip_prefix(dir).ok()?.to_path_buf();
    let parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The git blob id (hex) of the file at `path` (of a symlink's target path); `None` when
/// there is no such file.
fn content_hash(path: &Path) -> Option<String> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let oid = if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path).ok()?;
        Oid::hash_object(ObjectType::Blob, target.as_os_str().as_encoded_bytes()).ok()?
    } else if meta.is_file() {
        Oid::hash_file(ObjectType::Blob, path).ok()?
    } else {
        return None;
    };
    Some(oid.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(entries: &[(&str, Option<&str>)]) -> WorkTreeSnapshot {
        WorkTreeSnapshot {
            files: entries
                .iter()
                .map(|(path, text)| {
                    let hash = text.and_then(|t| {
                        Oid::hash_object(ObjectType::Blob, t.as_bytes())
                            .ok()
                            .map(|oid| oid.to_string())
                    });
                    (path.to_string(), hash)
                })
                .collect(),
        }
    }

    #[test]
    fn new_and_changed_paths_are_touched() {
        let before = snapshot(&[("same.txt", Some("a")), ("edited.txt", Some("a"))]);
        let after = snapshot(&[
            ("same.txt", Some("a")),
            ("edited.txt", Some("b")),
            ("new.txt", Some("c")),
            ("gone.txt", None),
        ]);
        let dir = Path::new("/nonexistent-heddle-test-dir");
        assert_eq!(
            touched(&after, &before, dir),
            vec!["edited.txt", "gone.txt", "new.txt"]
        );
    }

    #[test]
    fn a_path_that_left_the_set_counts_when_its_content_changed() {
        let before = snapshot(&[("reverted.txt", Some("dirty"))]);
        let after = WorkTreeSnapshot::default();
        // The file no longer exists at all, so its content differs.
        let dir = Path::new("/nonexistent-heddle-test-dir");
        assert_eq!(touched(&after, &before, dir), vec!["reverted.txt"]);
    }

    #[test]
    fn relative_paths_use_slashes_and_stay_inside() {
        let dir = Path::new("/repo/sub");
        assert_eq!(
            relative_to(Path::new("/repo/sub/a/b.txt"), dir).as_deref(),
            Some("a/b.txt")
        );
        assert_eq!(relative_to(Path::new("/repo/other.txt"), dir), None);
        assert_eq!(relative_to(dir, dir), None);
    }
}
