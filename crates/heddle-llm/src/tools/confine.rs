//! Confinement of the paths the model gives to the work dir.
//!
//! A path is resolved the way the operating system would follow it, one component at a
//! time from `/`: `..` climbs, and every symbolic link met on the way (parent folders and
//! the last component alike) is followed. The part of a path that does not exist yet (a
//! file about to be written) is taken as written below its deepest existing ancestor. The
//! path is allowed only when the result lies inside the work dir, itself resolved first
//! (it may sit under a linked temporary folder).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// The most symbolic links followed while resolving one path.
const MAX_LINKS: usize = 40;

/// A path that cannot be used.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfineError {
    /// The work dir itself does not exist or cannot be resolved.
    #[error("the work dir {} cannot be used: {reason}", dir.display())]
    WorkDir {
        /// The work dir as configured.
        dir: PathBuf,
        /// What went wrong.
        reason: String,
    },
    /// The path leads outside the work dir.
    #[error(
        "path `{path}` is outside the work dir ({}){via}; only paths inside the work dir \
         can be used: give a path relative to it, such as `src/main.rs`",
        root.display()
    )]
    Outside {
        /// The path as given.
        path: String,
        /// The resolved work dir.
        root: PathBuf,
        /// How it got out (through a symbolic link), or empty.
        via: String,
    },
    /// The path could not be resolved.
    #[error("path `{path}` cannot be resolved: {reason}")]
    Unresolvable {
        /// The path as given.
        path: String,
        /// What stopped it, e.g. `too many levels of symbolic links`.
        reason: String,
    },
}

/// A path inside the work dir.
#[derive(Debug, Clone)]
pub(crate) struct Confined {
    /// The resolved path (symbolic links followed).
    pub(crate) path: PathBuf,
    /// `path` relative to the work dir, `/`-separated; `.` for the work dir itself.
    pub(crate) relative: String,
}

/// The work dir, resolved (symbolic links followed); it must be an existing folder.
pub(crate) fn work_root(work_dir: &Path) -> Result<PathBuf, ConfineError> {
    let root = std::fs::canonicalize(work_dir).map_err(|e| ConfineError::WorkDir {
        dir: work_dir.to_path_buf(),
        reason: e.to_string(),
    })?;
    if root.is_dir() {
        Ok(root)
    } else {
        Err(ConfineError::WorkDir {
            dir: work_dir.to_path_buf(),
            reason: "it is not a folder".to_string(),
        })
    }
}

/// Resolves `given` (relative to `root`, or absolute) and checks it is inside `root`, the
/// resolved work dir from [`work_root`].
pub(crate) fn confine(root: &Path, given: &str) -> Result<Confined, ConfineError> {
    confine_path(root, Path::new(given), given)
}

/// [`confine`] for a path that may not be UTF-8; `shown` names it in errors.
pub(crate) fn confine_path(
    root: &Path,
    given: &Path,
    shown: &str,
) -> Result<Confined, ConfineError> {
    let (path, via_link) = resolve(&root.join(given), shown)?;
    match relative_to(root, &path) {
        Some(relative) => Ok(Confined { path, relative }),
        None => Err(ConfineError::Outside {
            path: shown.to_string(),
            root: root.to_path_buf(),
            via: if via_link {
                format!(": through a symbolic link it leads to {}", path.display())
            } else {
                String::new()
            },
        }),
    }
}

/// `path` relative to `root`, `/`-separated (`.` for `root` itself), if it is inside.
pub(crate) fn relative_to(root: &Path, path: &Path) -> Option<String> {
    let rest = path.strip_prefix(root).ok()?;
    let parts: Vec<String> = rest
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
}

/// One step of a path still to resolve.
enum Step {
    Up,
    Name(OsString),
}

fn steps(path: &Path) -> impl DoubleEndedIterator<Item = Step> + '_ {
    path.components().filter_map(|component| match component {
        Component::ParentDir => Some(Step::Up),
        Component::Normal(name) => Some(Step::Name(name.to_os_string())),
        Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
    })
}

/// The absolute `path` with `..` applied and every existing symbolic link on it followed;
/// also whether a link was followed.
fn resolve(path: &Path, shown: &str) -> Result<(PathBuf, bool), ConfineError> {
    let mut pending: VecDeque<Step> = steps(path).collect();
    let mut resolved = PathBuf::from("/");
    let mut links = 0;
    while let Some(step) = pending.pop_front() {
        let name = match step {
            Step::Up => {
                resolved.pop();
                continue;
            }
            Step::Name(name) => name,
        };
        let next = resolved.join(&name);
        let is_link = std::fs::symlink_metadata(&next).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            // An existing file or folder, or a part that does not exist (yet).
            resolved = next;
            continue;
        }
        links += 1;
        if links > MAX_LINKS {
            return Err(ConfineError::Unresolvable {
                path: shown.to_string(),
                reason: "too many levels of symbolic links".to_string(),
            });
        }
        let target = std::fs::read_link(&next).map_err(|e| ConfineError::Unresolvable {
            path: shown.to_string(),
            reason: format!("symbolic link {} cannot be read: {e}", next.display()),
        })?;
        if target.is_absolute() {
            resolved = PathBuf::from("/");
        }
        for step in steps(&target).rev() {
            pending.push_front(step);
        }
    }
    Ok((resolved, links > 0))
}
