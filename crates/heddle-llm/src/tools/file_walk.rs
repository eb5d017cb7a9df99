//! Walking the files under a folder of the work dir for `grep` and `glob`, with the `ignore`
//! crate's walker, in the order of their paths.
//!
//! What is skipped, deliberately:
//! - files and folders ignored by the `.gitignore` and `.ignore` files of the work dir and its
//!   folders, and by `.git/info/exclude`, whether or not the work dir is a git repository.
//!   Only rules inside the work dir count: nothing above it, and not the user's global git
//!   excludes (which depend on the machine, not on the work dir). A folder given explicitly
//!   as the start is walked even when ignored (the model asked for it), with the rules of its
//!   parent folders still applied to what is inside;
//! - `.git` itself; other hidden files and folders are walked (`.github/`, `.env.example`);
//! - symbolic links that lead outside the work dir, and links to folders (which could loop):
//!   only links to regular files inside the work dir are read, through their target;
//! - devices, sockets and pipes.

use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{DirEntry, WalkBuilder};
use tokio_util::sync::CancellationToken;

use super::confine::{Confined, confine_path, relative_to};

/// A file met by the walk.
pub(crate) struct WalkedFile<'a> {
    /// Where to read it (symbolic links followed).
    pub(crate) path: &'a Path,
    /// Its path relative to the work dir, `/`-separated.
    pub(crate) relative: &'a str,
    /// Its path relative to the folder walked (its name when a single file was walked).
    pub(crate) within: &'a str,
}

/// A file found, to be visited once all are sorted.
struct Found {
    path: PathBuf,
    relative: String,
    within: String,
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
    let Some(mut found) = collect(root, start, max_depth, cancel) else {
        return false;
    };
    found.sort_by(|a, b| a.relative.as_bytes().cmp(b.relative.as_bytes()));
    for file in &found {
        if cancel.is_cancelled() {
            return false;
        }
        let walked = WalkedFile {
            path: &file.path,
            relative: &file.relative,
            within: &file.within,
        };
        if !visit(walked) {
            break;
        }
    }
    true
}

/// Every file of the walk, unsorted; `None` when cancelled.
fn collect(
    root: &Path,
    start: &Confined,
    max_depth: Option<usize>,
    cancel: &CancellationToken,
) -> Option<Vec<Found>> {
    let parent_rules = ParentRules::between(root, &start.path);
    let mut builder = WalkBuilder::new(&start.path);
    builder
        .standard_filters(false)
        .hidden(false)
        .parents(false)
        .ignore(true)
        .git_ignore(true)
        .git_exclude(true)
        .git_global(false)
        .require_git(false)
        .follow_links(false)
        .max_depth(max_depth)
        .filter_entry(move |entry| entry.file_name() != ".git" && !parent_rules.ignores(entry));
    let mut found = Vec::new();
    for entry in builder.build() {
        if cancel.is_cancelled() {
            return None;
        }
        // Unreadable folders and vanished files are skipped, as `ls -R` would.
        let Ok(entry) = entry else {
            continue;
        };
        if let Some(file) = found_file(root, start, &entry) {
            found.push(file);
        }
    }
    Some(found)
}

/// `entry` as a file to visit, if it is a regular file or a link to one inside the work dir.
fn found_file(root: &Path, start: &Confined, entry: &DirEntry) -> Option<Found> {
    let kind = entry.file_type()?;
    let within = if entry.depth() == 0 {
        start
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    } else {
        relative_to(&start.path, entry.path())?
    };
    let relative = if entry.depth() == 0 {
        start.relative.clone()
    } else if start.relative == "." {
        within.clone()
    } else {
        format!("{}/{within}", start.relative)
    };
    let path = if kind.is_file() {
        entry.path().to_path_buf()
    } else if kind.is_symlink() {
        let target = confine_path(root, entry.path(), &relative).ok()?;
        target.path.is_file().then_some(target.path)?
    } else {
        return None;
    };
    Some(Found {
        path,
        relative,
        within,
    })
}

/// The ignore rules of the folders from the work dir down to the parent of the folder
/// walked, which the walker does not read itself (it reads those of the folder walked and
/// below); the deepest folder's rules first.
struct ParentRules(Vec<Gitignore>);

impl ParentRules {
    fn between(root: &Path, start: &Path) -> Self {
        if !start.is_dir() {
            return ParentRules(Vec::new());
        }
        let rules = start
            .ancestors()
            .skip(1)
            .take_while(|folder| folder.starts_with(root))
            .filter_map(folder_rules)
            .collect();
        ParentRules(rules)
    }

    /// Whether the deepest rule that speaks about `entry` ignores it.
    fn ignores(&self, entry: &DirEntry) -> bool {
        let is_dir = entry.file_type().is_some_and(|k| k.is_dir());
        self.0
            .iter()
            .map(|rules| rules.matched(entry.path(), is_dir))
            .find(|m| !m.is_none())
            .is_some_and(|m| m.is_ignore())
    }
}

/// The rules of one folder: `.git/info/exclude`, `.gitignore` then `.ignore`, later files
/// winning over earlier ones as they do for the walker. `None` when it has none.
fn folder_rules(folder: &Path) -> Option<Gitignore> {
    let mut builder = GitignoreBuilder::new(folder);
    let mut any = false;
    for file in [".git/info/exclude", ".gitignore", ".ignore"] {
        let path = folder.join(file);
        // A rule file that cannot be read or parsed is skipped, as the walker does.
        if path.is_file() && builder.add(&path).is_none() {
            any = true;
        }
    }
    let rules = builder.build().ok()?;
    (any && !rules.is_empty()).then_some(rules)
}
