//! The work-tree traversal behind [`snapshot`](super::snapshot) and [`capture`](super::capture).
//!
//! It visits directories only: entries are typed from `readdir` (no `stat`), excluded folders
//! are never opened, and only candidate files (those under an artifact folder, or named
//! `junit*.xml` / `*.trace.zip`) are `stat`ed. Symlinks are never followed; a link that is a
//! candidate is resolved, and its target captured only if it is a regular file inside the
//! work tree.

use std::ffi::OsStr;
use std::fs::{self, Metadata};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::SkipReason;
use super::kind::is_loose_candidate;

/// The (size, mtime) fingerprint of a candidate file, compared before and after a stage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Fingerprint {
    /// Size in bytes.
    pub size: u64,
    /// Modification time, whole seconds since the Unix epoch (negative before it).
    pub mtime_secs: i64,
    /// Nanoseconds part of the modification time.
    pub mtime_nanos: u32,
}

impl Fingerprint {
    pub(crate) fn of(meta: &Metadata) -> Self {
        let (mtime_secs, mtime_nanos) = match meta.modified() {
            Ok(t) => match t.duration_since(UNIX_EPOCH) {
                Ok(d) => (
                    i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                    d.subsec_nanos(),
                ),
                Err(e) => {
                    let d = e.duration();
                    let secs = i64::try_from(d.as_secs()).unwrap_or(i64::MAX);
                    match d.subsec_nanos() {
                        0 => (-secs, 0),
                        n => (-secs - 1, 1_000_000_000 - n),
                    }
                }
            },
            Err(_) => (0, 0),
        };
        Self {
            size: meta.len(),
            mtime_secs,
            mtime_nanos,
        }
    }
}

/// A candidate found by the scan.
#[derive(Debug)]
pub(crate) struct Found {
    /// Path relative to the work dir, `/`-separated (lossy if not UTF-8).
    pub rel: String,
    /// Its fingerprint: of the file, of a symlink's target when it is captured, else of the
    /// link itself.
    pub fp: Fingerprint,
    /// What to do with it.
    pub what: Entry,
}

/// How a candidate can be captured.
#[derive(Debug)]
pub(crate) enum Entry {
    /// A regular file (or a symlink resolved to one inside the tree) to copy from `source`.
    File {
        /// Where to read the content.
        source: PathBuf,
        /// The file's identity at scan time, checked again once opened (0: unknown).
        id: (u64, u64),
    },
    /// Not capturable; reported when new or changed.
    Refused(SkipReason, String),
}

/// The parent folder's name, where it matters for a two-segment rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DirName {
    Cypress,
    DotCache,
    DotYarn,
    Other,
}

impl DirName {
    fn of(name: &[u8]) -> Self {
        match name {
            b"cypress" => Self::Cypress,
            b".cache" => Self::DotCache,
            b".yarn" => Self::DotYarn,
            _ => Self::Other,
        }
    }
}

struct Frame {
    path: PathBuf,
    /// Inside an artifact folder: every file below is a candidate.
    area: bool,
    name: DirName,
}

/// Whether a directory named `name` inside a folder named `parent` is never entered.
fn pruned(name: &[u8], parent: DirName) -> bool {
    matches!(name, b"node_modules" | b".git" | b"target" | b".heddle")
        || (parent == DirName::DotCache && name == b"ms-playwright")
        || (parent == DirName::DotYarn && name == b"cache")
}

/// Whether a directory named `name` inside `parent` is an artifact folder.
fn is_area(name: &[u8], parent: DirName) -> bool {
    matches!(name, b"playwright-report" | b"test-results")
        || (parent == DirName::Cypress && matches!(name, b"videos" | b"screenshots"))
}

/// The scan's settings.
pub(crate) struct Scan<'a> {
    root: &'a Path,
    /// The canonical root, for symlink containment; `None` if it cannot be resolved.
    canonical_root: Option<PathBuf>,
    /// A directory never entered (the capture destination when it lies inside the tree).
    skip_dir: Option<PathBuf>,
}

impl<'a> Scan<'a> {
    pub(crate) fn new(root: &'a Path, skip_dir: Option<&Path>) -> Self {
        let skip_dir = skip_dir
            .and_then(|d| d.strip_prefix(root).ok())
            .filter(|rel| !rel.as_os_str().is_empty())
            .map(|rel| root.join(rel));
        Self {
            root,
            canonical_root: fs::canonicalize(root).ok(),
            skip_dir,
        }
    }

    /// Walks the tree depth-first, calling `visit` for each candidate in no particular order.
    pub(crate) fn run(&self, mut visit: impl FnMut(Found)) {
        let mut stack = vec![Frame {
            path: self.root.to_path_buf(),
            area: false,
            name: DirName::Other,
        }];
        let mut root = true;
        while let Some(frame) = stack.pop() {
            let dir = match fs::read_dir(&frame.path) {
                Ok(dir) => dir,
                Err(err) => {
                    if frame.area || root {
                        visit(self.refused(&frame.path, SkipReason::Io, err.to_string()));
                    }
                    root = false;
                    continue;
                }
            };
            root = false;
            for entry in dir {
                let Ok(entry) = entry else { continue };
                let Ok(ft) = entry.file_type() else { continue };
                let name = entry.file_name();
                let bytes = name.as_encoded_bytes();
                if ft.is_dir() {
                    if pruned(bytes, frame.name) {
                        continue;
                    }
                    let path = entry.path();
                    if self.skip_dir.as_ref() == Some(&path) {
                        continue;
                    }
                    stack.push(Frame {
                        path,
                        area: frame.area || is_area(bytes, frame.name),
                        name: DirName::of(bytes),
                    });
                } else if (frame.area || is_loose_candidate(bytes))
                    && (ft.is_file() || ft.is_symlink())
                {
                    visit(self.candidate(&entry, ft.is_symlink()));
                }
            }
        }
    }

    /// `path` relative to the root, lossily as text, and whether that was exact.
    fn rel(&self, path: &Path) -> (String, bool) {
        let rel = path.strip_prefix(self.root).unwrap_or(path);
        match rel.to_str() {
            Some(s) => (s.to_owned(), true),
            None => (rel.to_string_lossy().into_owned(), false),
        }
    }

    fn refused(&self, path: &Path, reason: SkipReason, detail: String) -> Found {
        Found {
            rel: self.rel(path).0,
            fp: Fingerprint::default(),
            what: Entry::Refused(reason, detail),
        }
    }

    fn candidate(&self, entry: &fs::DirEntry, symlink: bool) -> Found {
        let path = entry.path();
        let (rel, utf8) = self.rel(&path);
        // `DirEntry::metadata` does not follow symlinks.
        let meta = match entry.metadata() {
            Ok(meta) => meta,
            Err(err) => {
                return Found {
                    rel,
                    fp: Fingerprint::default(),
                    what: Entry::Refused(SkipReason::Io, err.to_string()),
                };
            }
        };
        let link_fp = Fingerprint::of(&meta);
        let what = if !utf8 {
            Entry::Refused(
                SkipReason::NonUtf8Name,
                "the file name is not valid UTF-8".to_owned(),
            )
        } else if symlink {
            self.resolve_link(&path)
        } else {
            Entry::File {
                id: file_id(&meta),
                source: path,
            }
        };
        let fp = match &what {
            Entry::File { source, .. } if symlink => {
                fs::metadata(source).map_or(link_fp, |m| Fingerprint::of(&m))
            }
            _ => link_fp,
        };
        Found { rel, fp, what }
    }

    fn resolve_link(&self, link: &Path) -> Entry {
        let target = match fs::canonicalize(link) {
            Ok(target) => target,
            Err(err) => {
                let shown = fs::read_link(link).map_or_else(|_| err.to_string(), show);
                return Entry::Refused(
                    SkipReason::SymlinkBroken,
                    format!("symlink to {shown} does not resolve"),
                );
            }
        };
        let inside = self
            .canonical_root
            .as_ref()
            .is_some_and(|root| target.starts_with(root));
        if !inside {
            return Entry::Refused(
                SkipReason::SymlinkOutside,
                format!("symlink points outside the work tree, to {}", show(&target)),
            );
        }
        match fs::metadata(&target) {
            Ok(meta) if meta.is_file() => Entry::File {
                id: file_id(&meta),
                source: target,
            },
            Ok(_) => Entry::Refused(
                SkipReason::NotAFile,
                format!("symlink to {} is not a regular file", show(&target)),
            ),
            Err(err) => Entry::Refused(SkipReason::Io, err.to_string()),
        }
    }
}

fn show(path: impl AsRef<OsStr>) -> String {
    Path::new(path.as_ref()).display().to_string()
}

/// The (device, inode) of a file, to detect a swap between the scan and the copy.
#[cfg(unix)]
pub(crate) fn file_id(meta: &Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// Unknown on this platform.
#[cfg(not(unix))]
pub(crate) fn file_id(_meta: &Metadata) -> (u64, u64) {
    (0, 0)
}
