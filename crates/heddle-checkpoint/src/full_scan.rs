//! Bringing the run's private index up to date with the whole work tree in one pass, as
//! `git status` would see it: each folder is read once and merged with the index entries
//! under it (both in git's order), each file is stat-checked against its entry, and only
//! files whose stat data changed (or that are new) are hashed. Untracked folders that are
//! ignored, nested repositories, excluded paths and Heddle's own folders are not entered.
//! The folders holding tracked files are read ahead on several threads
//! ([`read_ahead`]); the merge itself is one pass.
//!
//! An entry is trusted from its stat data only when the file was last modified before the
//! index was written (git's "racily clean" rule); otherwise the file is hashed again, and
//! only a file whose bytes no longer hash to the entry's blob is hashed into the index.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use git2::{FileMode, Index, IndexEntry, Repository};

use crate::changing_file::{Added, add_settled};
use crate::error::{CheckpointError, Result};
use crate::filters::{Filters, Verdict};
use crate::folder_listing::{Listing, ReadAhead, read_ahead, read_folder};
use crate::index_file::{RunIndex, stage};

/// What a full scan found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scanned {
    /// Warnings about skipped files.
    pub warnings: Vec<String>,
    /// Whether the index now names another tree: an entry left, came, or got another
    /// blob or mode (a file only re-read, with the same content, changes nothing).
    pub tree_changed: bool,
}

/// What a scan found to change in an index: files to hash (with the blob and mode their
/// entry had; `None`: new), entries to drop, and warnings about skipped files.
struct ScanPlan {
    add: Vec<(PathBuf, Option<(git2::Oid, u32)>)>,
    remove: Vec<PathBuf>,
    warnings: Vec<String>,
}

impl ScanPlan {
    /// Carries the plan out on `index`: `remove` drops a path's entries, `add` hashes a file
    /// into it and gives the blob and mode of its entry (`None`: no entry came of it), or
    /// says it kept changing ([`crate::changing_file`]; its entry stays as it was).
    fn apply<I>(
        self,
        repo: &Repository,
        index: &mut I,
        remove: impl Fn(&mut I, &Path) -> std::result::Result<(), git2::Error>,
        mut add: impl FnMut(&mut I, &Path) -> std::result::Result<ScanAdd, git2::Error>,
    ) -> Result<Scanned> {
        let git = |path: &Path, e: &git2::Error| {
            CheckpointError::git(repo.path(), &format!("scan {}", path.display()), e)
        };
        let mut tree_changed = !self.remove.is_empty();
        let mut warnings = self.warnings;
        for path in &self.remove {
            remove(index, path).map_err(|e| git(path, &e))?;
        }
        for (path, was) in &self.add {
            match add(index, path).map_err(|e| git(path, &e))? {
                ScanAdd::Entry(now) => tree_changed |= now.is_none() || now != *was,
                ScanAdd::KeptChanging(warning) => warnings.push(warning),
            }
        }
        Ok(Scanned {
            warnings,
            tree_changed,
        })
    }
}

/// What adding one file of a scan's plan came to.
enum ScanAdd {
    /// The blob and mode of the file's entry now (`None`: no entry came of it).
    Entry(Option<(git2::Oid, u32)>),
    /// It kept changing while it was read: the warning.
    KeptChanging(String),
}

/// Adds `path` to `index` (attached to `repo`), reading it again while it changes.
fn add_to(
    repo: &Repository,
    index: &mut Index,
    path: &Path,
) -> std::result::Result<(ScanAdd, Option<IndexEntry>), git2::Error> {
    let root = repo.workdir().unwrap_or(Path::new("."));
    Ok(match add_settled(index, root, path)? {
        Added::Stored => {
            let entry = index.get_path(path, 0);
            (
                ScanAdd::Entry(entry.as_ref().map(|e| (e.id, e.mode))),
                entry,
            )
        }
        Added::KeptChanging(warning) => (ScanAdd::KeptChanging(warning), None),
    })
}

/// Scans the work tree of `repo` into `index`.
pub fn full_scan(repo: &Repository, index: &mut Index, filters: &mut Filters) -> Result<Scanned> {
    let written_at = index
        .path()
        .and_then(|p| std::fs::metadata(p).ok())
        .map_or((i64::MIN, 0), |m| (m.mtime(), m.mtime_nsec()));
    let entries: Vec<IndexEntry> = index.iter().filter(|e| stage(e) == 0).collect();
    let plan = plan(repo, entries.iter().collect(), written_at, filters)?;
    plan.apply(
        repo,
        index,
        |index, path| index.remove_path(path),
        |index, path| add_to(repo, index, path).map(|(added, _)| added),
    )
}

/// [`full_scan`] into Heddle's own reading of the run's index. Files are hashed through
/// a scratch libgit2 index attached to `repo` (it stays attached), so they get the same
/// filters and stat data as a checkpoint's.
pub fn full_scan_run_index(
    repo: &Repository,
    index: &mut RunIndex,
    filters: &mut Filters,
) -> Result<Scanned> {
    let entries = index
        .entries_as_read()
        .iter()
        .filter(|e| stage(e) == 0)
        .collect();
    // The scratch index goes in before the walk: the filters' attribute lookups would
    // otherwise have libgit2 load the repository's own index, whole, for its
    // .gitattributes entries (the work tree's are the ones that count here).
    let mut scratch = Index::new().map_err(|e| git_error(repo, &e))?;
    repo.set_index(&mut scratch)
        .map_err(|e| git_error(repo, &e))?;
    let plan = plan(repo, entries, index.written_at(), filters)?;
    plan.apply(
        repo,
        index,
        |index, path| {
            index.remove(path.as_os_str().as_bytes());
            Ok(())
        },
        |index, path| {
            let (added, entry) = add_to(repo, &mut scratch, path)?;
            if let Some(entry) = entry {
                index.put(entry);
            }
            Ok(added)
        },
    )
}

fn git_error(repo: &Repository, e: &git2::Error) -> CheckpointError {
    CheckpointError::git(repo.path(), "make a scratch index for the scan", e)
}

/// Walks the work tree against `entries` (stage 0, in index order) of an index last
/// written at `written_at`.
fn plan(
    repo: &Repository,
    entries: Vec<&IndexEntry>,
    written_at: (i64, i64),
    filters: &mut Filters,
) -> Result<ScanPlan> {
    let work_tree =
        repo.workdir()
            .map(Path::to_path_buf)
            .ok_or_else(|| CheckpointError::Inconsistent {
                path: repo.path().to_path_buf(),
                message: "the run's repository has no work tree".into(),
            })?;
    let ahead = read_ahead(&work_tree, entries.iter().map(|e| e.path.as_slice()));
    let mut scan = Scan {
        ahead,
        repo,
        filters,
        work_tree,
        entries,
        racy_from: written_at,
        add: Vec::new(),
        remove: Vec::new(),
        warnings: Vec::new(),
    };
    let count = scan.entries.len();
    scan.walk(&[], 0, count)?;
    Ok(ScanPlan {
        add: scan.add,
        remove: scan.remove,
        warnings: scan.warnings,
    })
}

struct Scan<'a> {
    /// Folders read ahead (taken as the walk reaches them).
    ahead: ReadAhead,
    repo: &'a Repository,
    filters: &'a mut Filters,
    work_tree: PathBuf,
    /// The index entries (stage 0), in index order.
    entries: Vec<&'a IndexEntry>,
    /// When the index was written (seconds, nanoseconds).
    racy_from: (i64, i64),
    /// Files to hash, with the blob and mode their entry had (`None`: new).
    add: Vec<(PathBuf, Option<(git2::Oid, u32)>)>,
    remove: Vec<PathBuf>,
    warnings: Vec<String>,
}

impl Scan<'_> {
    /// Scans folder `dir` (`""` or `a/b/`), whose index entries are `entries[lo..hi]`.
    fn walk(&mut self, dir: &[u8], lo: usize, hi: usize) -> Result<()> {
        let full = self.work_tree.join(OsStr::from_bytes(dir));
        let listing = match self.ahead.remove(dir) {
            Some(listing) => listing,
            None => read_folder(&full, dir.is_empty()),
        };
        let children = match listing {
            Ok(Listing::Children(children)) => children,
            Ok(Listing::Nested) => {
                // A nested repository: left exactly as it is, entries and all.
                let nested = PathBuf::from(OsStr::from_bytes(&dir[..dir.len() - 1]));
                if let Verdict::Skip(w) = self.filters.nested(&nested) {
                    self.warnings.push(w);
                }
                return Ok(());
            }
            // Gone (or made a file) since its parent was read: its entries are gone.
            Err(e) if !dir.is_empty() && e.kind() == std::io::ErrorKind::NotFound => {
                self.gone(lo, hi);
                return Ok(());
            }
            Err(e) => return Err(CheckpointError::io(&full, &e)),
        };
        let mut cursor = lo;
        for child in children {
            let path = [dir, child.key.as_slice()].concat();
            while cursor < hi && self.entries[cursor].path < path {
                self.gone(cursor, cursor + 1);
                cursor += 1;
            }
            match child.file {
                None => {
                    let end = cursor
                        + self.entries[cursor..hi].partition_point(|e| e.path.starts_with(&path));
                    self.enter(&path, cursor, end)?;
                    cursor = end;
                }
                Some(meta) if cursor < hi && self.entries[cursor].path == path => {
                    self.tracked(cursor, &meta);
                    cursor += 1;
                }
                Some(_) => self.untracked(&path),
            }
        }
        self.gone(cursor, hi);
        Ok(())
    }

    /// Folder `dir` (`a/b/`), whose index entries are `entries[lo..hi]`.
    fn enter(&mut self, dir: &[u8], lo: usize, hi: usize) -> Result<()> {
        let relative = Path::new(OsStr::from_bytes(&dir[..dir.len() - 1]));
        if self.filters.is_private(relative) || self.filters.is_excluded(relative) {
            return Ok(());
        }
        let ignored = || {
            self.repo
                .is_path_ignored(Path::new(OsStr::from_bytes(dir)))
                .unwrap_or(false)
        };
        if lo == hi && ignored() {
            return Ok(());
        }
        self.walk(dir, lo, hi)
    }

    /// Entries `lo..hi` have no file: they leave the index (gitlinks and Heddle's own
    /// paths stay).
    fn gone(&mut self, lo: usize, hi: usize) {
        for entry in &self.entries[lo..hi] {
            let relative = PathBuf::from(OsStr::from_bytes(&entry.path));
            if entry.mode != u32::from(FileMode::Commit) && !self.filters.is_private(&relative) {
                self.remove.push(relative);
            }
        }
    }

    /// A file the index holds, as `meta` describes it now: kept when its stat data says
    /// it is unchanged.
    fn tracked(&mut self, i: usize, meta: &std::fs::Metadata) {
        let entry = &self.entries[i];
        if same_stat(entry, meta)
            && (modified_before(entry, self.racy_from) || self.same_content(entry, meta))
        {
            return;
        }
        let relative = PathBuf::from(OsStr::from_bytes(&entry.path));
        let was = Some((entry.id, entry.mode));
        match self.filters.verdict(self.repo, &relative, true) {
            Verdict::Store => self.add.push((relative, was)),
            Verdict::Leave => {}
            // No longer the run's (grew over the cap, became LFS): out of the snapshot,
            // so a restore moves it aside instead of replacing it.
            Verdict::Skip(w) => {
                self.warnings.push(w);
                self.remove.push(relative);
            }
        }
    }

    /// Whether the plain file of racily clean `entry` (its stat data the same, but
    /// modified in the clock tick the index was written in) still holds the entry's blob:
    /// its bytes hashed, nothing written, as git compares a racily clean file. A file
    /// that differs, or a link, is hashed into the index instead.
    fn same_content(&self, entry: &IndexEntry, meta: &std::fs::Metadata) -> bool {
        if !meta.is_file() {
            return false;
        }
        let full = self.work_tree.join(OsStr::from_bytes(&entry.path));
        git2::Oid::hash_file(git2::ObjectType::Blob, &full).is_ok_and(|id| id == entry.id)
    }

    /// A file the index does not hold.
    fn untracked(&mut self, path: &[u8]) {
        let relative = PathBuf::from(OsStr::from_bytes(path));
        match self.filters.verdict(self.repo, &relative, false) {
            Verdict::Store => self.add.push((relative, None)),
            Verdict::Leave => {}
            Verdict::Skip(w) => self.warnings.push(w),
        }
    }
}

/// Whether the file `meta` describes is the one `entry` recorded: same type, executable
/// bit, size, inode and change times.
fn same_stat(entry: &IndexEntry, meta: &std::fs::Metadata) -> bool {
    let link = meta.file_type().is_symlink();
    let mode = if link {
        u32::from(FileMode::Link)
    } else if meta.mode() & 0o111 != 0 {
        u32::from(FileMode::BlobExecutable)
    } else {
        u32::from(FileMode::Blob)
    };
    let same_time = |time: git2::IndexTime, seconds: i64, nanos: i64| {
        i64::from(time.seconds()) == seconds && i64::from(time.nanoseconds()) == nanos
    };
    entry.mode == mode
        && entry.file_size == meta.size() as u32
        && entry.ino == meta.ino() as u32
        && same_time(entry.mtime, meta.mtime(), meta.mtime_nsec())
        && same_time(entry.ctime, meta.ctime(), meta.ctime_nsec())
}

/// Whether `entry`'s file was last modified before the index was written (at
/// `racy_from`), so that stat data alone can vouch for it.
fn modified_before(entry: &IndexEntry, racy_from: (i64, i64)) -> bool {
    let recorded = (
        i64::from(entry.mtime.seconds()),
        i64::from(entry.mtime.nanoseconds()),
    );
    recorded < racy_from
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn write(root: &Path, relative: &str, content: &str) {
        let path = root.join(relative);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    fn paths(index: &Index) -> Vec<String> {
        index
            .iter()
            .map(|e| String::from_utf8(e.path).unwrap())
            .collect()
    }

    /// A racily clean file (its stat data as recorded, but modified in the tick the index
    /// was written in) is compared by content: kept when its bytes still hash to the
    /// entry's blob, hashed into the index when they do not.
    #[test]
    fn a_racily_clean_file_is_rehashed_only_when_its_bytes_differ() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let repo = Repository::init(&work).unwrap();
        write(&work, "same.txt", "same\n");
        write(&work, "sub/other.txt", "other\n");
        let mut index = Index::open(&dir.path().join("index")).unwrap();
        repo.set_index(&mut index).unwrap();
        let mut filters = Filters::new(&work, &[], Vec::new(), u64::MAX);
        full_scan(&repo, &mut index, &mut filters).unwrap();
        let mut entries: Vec<IndexEntry> = index.iter().collect();
        // Written "at the epoch": every entry is racily clean.
        let racy = (0, 0);

        let kept = plan(&repo, entries.iter().collect(), racy, &mut filters).unwrap();
        assert!(kept.add.is_empty(), "{:?}", kept.add);

        // The same stat data, other bytes recorded: what a same-size edit within the
        // tick looks like from the index.
        let other = entries
            .iter_mut()
            .find(|e| e.path == b"sub/other.txt")
            .unwrap();
        other.id = git2::Oid::hash_object(git2::ObjectType::Blob, b"before\n").unwrap();
        let rehashed = plan(&repo, entries.iter().collect(), racy, &mut filters).unwrap();
        let paths: Vec<&Path> = rehashed.add.iter().map(|(p, _)| p.as_path()).collect();
        assert_eq!(paths, [Path::new("sub/other.txt")]);
    }

    /// A tree large enough for the folders to be read ahead on several threads: the scan
    /// finds every change a single pass would, and enters no ignored or nested folder.
    #[test]
    fn a_large_tree_read_ahead_is_scanned_like_a_small_one() {
        let dir = tempfile::tempdir().unwrap();
        let work = dir.path().join("work");
        let repo = Repository::init(&work).unwrap();
        let files = crate::folder_listing::READ_AHEAD_FROM + 100;
        for i in 0..files {
            write(&work, &format!("d{}/e{}/f{i}.txt", i % 7, i % 5), "same\n");
        }
        write(&work, ".gitignore", "build/\n");
        let index_path = dir.path().join("index");
        let mut index = Index::open(&index_path).unwrap();
        repo.set_index(&mut index).unwrap();
        let mut filters = Filters::new(&work, &[], Vec::new(), u64::MAX);
        full_scan(&repo, &mut index, &mut filters).unwrap();
        assert_eq!(index.len(), files + 1);
        index.write().unwrap();
        // Changed after the index was written: one edited, one deleted, new files in a
        // tracked and a new folder, and files that are not the run's.
        std::thread::sleep(std::time::Duration::from_millis(20));
        write(&work, "d3/e3/f3.txt", "edited, longer\n");
        std::fs::remove_file(work.join("d4/e4/f4.txt")).unwrap();
        write(&work, "d1/e1/new.txt", "new\n");
        write(&work, "fresh/folder/file.txt", "fresh\n");
        write(&work, "build/out.o", "ignored\n");
        write(&work, "d2/nested/.git/HEAD", "ref: refs/heads/main\n");
        write(&work, "d2/nested/inner.txt", "not ours\n");
        let scanned = full_scan(&repo, &mut index, &mut filters).unwrap();
        assert!(scanned.tree_changed);
        index.write().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        // Rewritten with the same content: hashed again, the tree is the same.
        write(&work, "d0/e0/f0.txt", "same\n");
        let again = full_scan(&repo, &mut index, &mut filters).unwrap();
        assert!(!again.tree_changed);
        let warnings = scanned.warnings;
        let listed = paths(&index);
        assert_eq!(listed.len(), files + 1 - 1 + 2);
        assert!(listed.contains(&"d1/e1/new.txt".to_string()));
        assert!(listed.contains(&"fresh/folder/file.txt".to_string()));
        assert!(!listed.contains(&"d4/e4/f4.txt".to_string()));
        assert!(
            !listed
                .iter()
                .any(|p| p.starts_with("build/") || p.contains("nested"))
        );
        let edited = index.get_path(Path::new("d3/e3/f3.txt"), 0).unwrap();
        assert_eq!(
            edited.id,
            git2::Oid::hash_object(git2::ObjectType::Blob, b"edited, longer\n").unwrap()
        );
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(warnings[0].contains("d2/nested"), "{warnings:?}");
    }
}
