//! Walking the files under a folder of the work dir for `grep` and `glob`, in the order of
//! their paths: `.git` is skipped, and so are symbolic links that lead outside the work dir
//! or to folders (which could loop), devices, sockets and pipes.

use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use tokio_util::sync::CancellationToken;

use super::confine::{Confined, confine_path};

/// A file met by the walk.
pub(crate) struct WalkedFile<'a> {
    /// Where to read it (symbolic links followed).
    pub(crate) path: &'a Path,
    /// Its path relative to the work dir, `/`-separated.
    pub(crate) relative: &'a str,
    /// Its path relative to the folder walked (its name when a single file was walked).
    pub(crate) within: &'a str,
}

/// What is still to visit.
enum Pending {
    Folder {
        path: PathBuf,
        relative: String,
        within: String,
        depth: usize,
    },
    File {
        path: PathBuf,
        relative: String,
        within: String,
    },
}

/// Calls `visit` for each file under `start` (or for `start`, when a file), in the order of
/// their `/`-separated paths, at most `max_depth` folders down (1: only the files directly
/// in `start`), until `visit` returns false. Returns false when `cancel` stopped the walk.
pub(crate) fn walk_files(
    root: &Path,
    start: &Confined,
    max_depth: Option<usize>,
    cancel: &CancellationToken,
    visit: &mut dyn FnMut(WalkedFile<'_>) -> bool,
) -> bool {
    let mut stack = vec![if start.path.is_dir() {
        Pending::Folder {
            path: start.path.clone(),
            relative: start.relative.clone(),
            within: String::new(),
            depth: 0,
        }
    } else {
        let name = start
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Pending::File {
            path: start.path.clone(),
            relative: start.relative.clone(),
            within: name,
        }
    }];
    while let Some(item) = stack.pop() {
        if cancel.is_cancelled() {
            return false;
        }
        match item {
            Pending::File {
                path,
                relative,
                within,
            } => {
                let file = WalkedFile {
                    path: &path,
                    relative: &relative,
                    within: &within,
                };
                if !visit(file) {
                    return true;
                }
            }
            Pending::Folder {
                path,
                relative,
                within,
                depth,
            } => {
                if max_depth.is_none_or(|max| depth < max) {
                    let mut children = children(root, &path, &relative, &within, depth + 1);
                    children.reverse();
                    stack.extend(children);
                }
            }
        }
    }
    true
}

/// The entries of `folder` to visit, sorted so that the walk follows path order (a folder
/// sorts as its name followed by `/`).
fn children(
    root: &Path,
    folder: &Path,
    relative: &str,
    within: &str,
    depth: usize,
) -> Vec<Pending> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let join = |base: &str, name: &str| {
        if base.is_empty() || base == "." {
            name.to_string()
        } else {
            format!("{base}/{name}")
        }
    };
    let mut found: Vec<(Vec<u8>, Pending)> = Vec::new();
    for entry in entries.flatten() {
        let name_os = entry.file_name();
        if name_os == ".git" {
            continue;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let name = name_os.to_string_lossy();
        let entry_path = entry.path();
        let mut key = name_os.as_bytes().to_vec();
        let child_relative = join(relative, &name);
        let child_within = join(within, &name);
        if kind.is_dir() {
            key.push(b'/');
            let pending = Pending::Folder {
                path: entry_path,
                relative: child_relative,
                within: child_within,
                depth,
            };
            found.push((key, pending));
        } else if kind.is_file() {
            let pending = Pending::File {
                path: entry_path,
                relative: child_relative,
                within: child_within,
            };
            found.push((key, pending));
        } else if kind.is_symlink() {
            // Only links to regular files inside the work dir.
            let Ok(target) = confine_path(root, &entry_path, &child_relative) else {
                continue;
            };
            if target.path.is_file() {
                let pending = Pending::File {
                    path: target.path,
                    relative: child_relative,
                    within: child_within,
                };
                found.push((key, pending));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    found.into_iter().map(|(_, pending)| pending).collect()
}
