//! Which files an external agent changed, from git snapshots of the work dir taken before
//! and after a turn: the changed paths (against HEAD, index included, plus untracked files
//! that are not ignored) with a hash of their content. A path is touched when it is new in
//! the after-set, when its content differs, or when it left the set with different content
//! (reverted, deleted). Outside a git repository there are no snapshots and no files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use git2::{ObjectType, Oid, Repository, StatusOptions};

/// The changed files under a work dir at one moment.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct WorkTreeSnapshot {
    /// Path relative to the work dir (`/`-separated) → content hash (`None`: no file).
    files: BTreeMap<String, Option<Oid>>,
}

impl WorkTreeSnapshot {
    /// Snapshots `work_dir` off the async threads; `None` outside a git repository.
    pub async fn take(work_dir: &Path) -> Option<Self> {
        let dir = work_dir.to_path_buf();
        tokio::task::spawn_blocking(move || Self::take_now(&dir))
            .await
            .ok()
            .flatten()
    }

    /// The files touched since `before` (a snapshot of the same work dir, or `None` when it
    /// could not be taken), sorted; empty outside a git repository.
    pub async fn touched_since(before: Option<Self>, work_dir: &Path) -> Vec<String> {
        let dir = work_dir.to_path_buf();
        tokio::task::spawn_blocking(move || {
            let Some(after) = Self::take_now(&dir) else {
                return Vec::new();
            };
            after.touched_after(&before.unwrap_or_default(), &dir)
        })
        .await
        .unwrap_or_default()
    }

    /// Snapshots `work_dir` now.
    fn take_now(work_dir: &Path) -> Option<Self> {
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

    /// The paths of this (later) snapshot touched since `before`, sorted.
    fn touched_after(&self, before: &Self, work_dir: &Path) -> Vec<String> {
        let mut touched = BTreeSet::new();
        for (path, hash) in &self.files {
            if before.files.get(path) != Some(hash) {
                touched.insert(path.clone());
            }
        }
        for (path, hash) in &before.files {
            if !self.files.contains_key(path) && content_hash(&work_dir.join(path)) != *hash {
                touched.insert(path.clone());
            }
        }
        touched.into_iter().collect()
    }
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

/// The git blob hash of the file at `path` (of a symlink's target path); `None` when there
/// is no such file.
fn content_hash(path: &Path) -> Option<Oid> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(path).ok()?;
        return Oid::hash_object(ObjectType::Blob, target.as_os_str().as_encoded_bytes()).ok();
    }
    if !meta.is_file() {
        return None;
    }
    Oid::hash_file(ObjectType::Blob, path).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(entries: &[(&str, Option<&str>)]) -> WorkTreeSnapshot {
        WorkTreeSnapshot {
            files: entries
                .iter()
                .map(|(path, text)| {
                    let hash =
                        text.and_then(|t| Oid::hash_object(ObjectType::Blob, t.as_bytes()).ok());
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
            after.touched_after(&before, dir),
            vec!["edited.txt", "gone.txt", "new.txt"]
        );
    }

    #[test]
    fn a_path_that_left_the_set_counts_when_its_content_changed() {
        let before = snapshot(&[("reverted.txt", Some("dirty"))]);
        let after = WorkTreeSnapshot::default();
        // The file no longer exists at all, so its content differs.
        let dir = Path::new("/nonexistent-heddle-test-dir");
        assert_eq!(after.touched_after(&before, dir), vec!["reverted.txt"]);
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
