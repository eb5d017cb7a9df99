//! Putting a checkpoint's files back into a work tree. Only the paths that differ between
//! the recovery snapshot just taken (`now`) and the target are touched: files the snapshot
//! holds that the target lacks are deleted, the target's files are written. Whatever else
//! stands where a file must go (an ignored or oversized file, a nested repository, a link,
//! a folder holding any of them) is not the run's: it is moved into the recovery area
//! ([`SetAside`]), never deleted. Nothing is "cleaned".
//!
//! No write or delete goes through a symlink: every parent folder of a path is checked
//! with `symlink_metadata`, as git's checkout does; a link in the way is moved aside as a
//! link, and a file the run owns that became a link is replaced, never written through.
//! A plain file of the run with no other name is rewritten where it is.
//! Nested repositories recorded as gitlinks are left as they are.

use std::ffi::OsStr;
use std::io::Write as _;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use git2::{FileMode, IndexEntry, IndexTime, Oid, Repository};

use crate::error::{CheckpointError, Result};
use crate::index_tree;
use crate::restore_index::RestoreIndex;
use crate::set_aside::SetAside;
use crate::tree_diff::{Change, changed_entries};

/// What a restore changed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Restored {
    /// Files written (added or changed).
    pub written: Vec<String>,
    /// Files deleted (the snapshot had them, the target does not).
    pub deleted: Vec<String>,
    /// Entries in the way that were not the run's, moved into the recovery area.
    pub moved_aside: Vec<String>,
    /// The tree the index now names, when it names the target exactly (gitlinks, left as
    /// they are, can make it differ).
    pub index_tree: Option<Oid>,
}

/// One file of the target to write.
struct Write {
    relative: PathBuf,
    id: Oid,
    mode: u32,
    /// The snapshot holds a file or link at this path (it may be replaced).
    owned: bool,
}

/// Makes the files of `work_tree` that the run owns go from tree `now` (the snapshot of
/// the work tree just taken) to tree `target`, and `index` follow (written); entries in
/// the way that the run does not own go to `aside`.
pub fn restore_tree(
    repo: &Repository,
    index: &mut impl RestoreIndex,
    work_tree: &Path,
    now: Oid,
    target: Oid,
    aside: &mut SetAside,
) -> Result<Restored> {
    let restored = restore_files(repo, index, work_tree, now, target, aside)?;
    save_restored_index(repo, index, &restored)?;
    Ok(restored)
}

/// Writes `index` as [`restore_files`] left it; when it names the target tree exactly,
/// stamps it with that tree so the next scan need not rebuild it.
pub fn save_restored_index(
    repo: &Repository,
    index: &mut impl RestoreIndex,
    restored: &Restored,
) -> Result<()> {
    let path = index.save_file(repo.path())?;
    if let Some(tree) = restored.index_tree
        && let Some(path) = path
    {
        // Only spares the next scan a tree rebuild: a stamp that cannot be written is
        // simply not used.
        let _ = index_tree::stamp(path, tree);
    }
    Ok(())
}

/// [`restore_tree`] without writing the index: the caller saves it
/// ([`save_restored_index`]), possibly while it does other work.
pub fn restore_files(
    repo: &Repository,
    index: &mut impl RestoreIndex,
    work_tree: &Path,
    now: Oid,
    target: Oid,
    aside: &mut SetAside,
) -> Result<Restored> {
    let changes = changes_between(repo, now, target)?;
    restore_changes(repo, index, work_tree, changes, target, aside)
}

/// What differs between tree `now` and tree `target`: what [`restore_changes`] carries
/// out. It reads only trees, so it can be found on another handle on the repository
/// while the work tree is still being scanned.
pub fn changes_between(repo: &Repository, now: Oid, target: Oid) -> Result<Vec<Change>> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let old = repo.find_tree(now).map_err(|e| git("current tree", &e))?;
    let new = repo.find_tree(target).map_err(|e| git("target tree", &e))?;
    changed_entries(repo, Some(&old), Some(&new)).map_err(|e| git("compare the trees", &e))
}

/// [`restore_files`] with the differences between the snapshot and tree `target` found
/// already ([`changes_between`]).
pub fn restore_changes(
    repo: &Repository,
    index: &mut impl RestoreIndex,
    work_tree: &Path,
    changes: Vec<Change>,
    target: Oid,
    aside: &mut SetAside,
) -> Result<Restored> {
    let git = |what: &str, e: &git2::Error| CheckpointError::git(repo.path(), what, e);
    let gitlink = i32::from(FileMode::Commit);
    // Whether the index ends up naming `target` exactly (gitlinks are left as they are).
    let mut exact = true;
    let mut deletions = Vec::new();
    let mut writes = Vec::new();
    for change in changes {
        let relative = relative_path(&change.path);
        let old_mode = change.old.map(|(_, mode)| mode);
        if old_mode == Some(gitlink) {
            exact = false;
        }
        match change.new {
            None if old_mode == Some(gitlink) => {}
            None => deletions.push(relative),
            // A submodule where the run's file was: the file goes, the submodule is left
            // for its owner to check out.
            Some((_, mode)) if mode == gitlink => {
                exact = false;
                if old_mode.is_some_and(|mode| mode != gitlink) {
                    deletions.push(relative);
                }
            }
            Some((id, mode)) => writes.push(Write {
                relative,
                id,
                mode: u32::try_from(mode).unwrap_or(0),
                owned: old_mode.is_some_and(|mode| mode != gitlink),
            }),
        }
    }
    let mut restored = Restored::default();
    // Deletions first: a folder the target replaces by a file is then empty of the run's
    // files, and what is left in it is not the run's.
    for relative in deletions {
        let shown = relative.to_string_lossy().into_owned();
        delete(work_tree, &relative)?;
        if index.holds(&relative) {
            index.drop_path(&relative).map_err(|e| git(&shown, &e))?;
        }
        restored.deleted.push(shown);
    }
    for write in writes {
        let shown = write.relative.to_string_lossy().into_owned();
        let blob = repo.find_blob(write.id).map_err(|e| git(&shown, &e))?;
        let meta = write_entry(work_tree, &write, blob.content(), aside)?;
        index
            .set(index_entry(&meta, &write))
            .map_err(|e| git(&shown, &e))?;
        restored.written.push(shown);
    }
    restored.index_tree = exact.then_some(target);
    restored.moved_aside = aside.moved().to_vec();
    Ok(restored)
}

fn relative_path(bytes: &[u8]) -> PathBuf {
    PathBuf::from(OsStr::from_bytes(bytes))
}

/// Whether every parent folder of `relative` is a real folder (not a link, not missing).
fn real_parents(work_tree: &Path, relative: &Path) -> Result<bool> {
    let mut current = work_tree.to_path_buf();
    let Some(parent) = relative.parent() else {
        return Ok(true);
    };
    for component in parent.components() {
        current.push(component);
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => return Ok(false),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(CheckpointError::io(&current, &e)),
        }
    }
    Ok(true)
}

/// Deletes the run's file (or link) at `relative` when it is there, reached through real
/// folders only, then the folders it leaves empty.
fn delete(work_tree: &Path, relative: &Path) -> Result<()> {
    if !real_parents(work_tree, relative)? {
        return Ok(());
    }
    let full = work_tree.join(relative);
    match std::fs::symlink_metadata(&full) {
        Ok(meta) if meta.is_dir() => return Ok(()),
        Ok(_) => std::fs::remove_file(&full).map_err(|e| CheckpointError::io(&full, &e))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(CheckpointError::io(&full, &e)),
    }
    prune_empty_parents(work_tree, &full);
    Ok(())
}

fn prune_empty_parents(root: &Path, path: &Path) {
    let mut dir: Option<PathBuf> = path.parent().map(Path::to_path_buf);
    while let Some(current) = dir {
        if current == root || !current.starts_with(root) || std::fs::remove_dir(&current).is_err() {
            break;
        }
        dir = current.parent().map(Path::to_path_buf);
    }
}

/// Makes every parent folder of `relative` a real folder: a missing one is created, a
/// file or link in the way is moved aside (the link itself) and replaced by a folder.
fn make_parents(work_tree: &Path, relative: &Path, aside: &mut SetAside) -> Result<()> {
    let Some(parent) = relative.parent() else {
        return Ok(());
    };
    let mut current = PathBuf::new();
    for component in parent.components() {
        current.push(component);
        let full = work_tree.join(&current);
        match std::fs::symlink_metadata(&full) {
            Ok(meta) if meta.is_dir() => continue,
            Ok(_) => aside.move_aside(&current)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(CheckpointError::io(&full, &e)),
        }
        std::fs::create_dir(&full).map_err(|e| CheckpointError::io(&full, &e))?;
    }
    Ok(())
}

/// Writes one entry of the target (a link, an executable or a plain file) where nothing
/// of the user's is lost; its metadata once written.
fn write_entry(
    work_tree: &Path,
    write: &Write,
    content: &[u8],
    aside: &mut SetAside,
) -> Result<std::fs::Metadata> {
    make_parents(work_tree, &write.relative, aside)?;
    let full = work_tree.join(&write.relative);
    let io = |e: std::io::Error| CheckpointError::io(&full, &e);
    let link = write.mode == u32::from(FileMode::Link);
    let executable = write.mode == u32::from(FileMode::BlobExecutable);
    match std::fs::symlink_metadata(&full) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(io(e)),
        // The run's own file: in the recovery snapshot, so its content may go. Rewritten
        // where it is when that is safe (a new file costs the file system far more).
        Ok(meta) if write.owned && !link && rewrite_in_place(&full, &meta, content, executable) => {
            return std::fs::symlink_metadata(&full).map_err(io);
        }
        // The run's own file or link: in the recovery snapshot, so it may go.
        Ok(meta) if write.owned && !meta.is_dir() => {
            std::fs::remove_file(&full).map_err(io)?;
        }
        Ok(_) => aside.move_aside(&write.relative)?,
    }
    if link {
        std::os::unix::fs::symlink(OsStr::from_bytes(content), &full).map_err(io)?;
    } else {
        let permissions = if executable { 0o755 } else { 0o644 };
        // create_new: fails rather than follow a link planted in between.
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(permissions)
            .open(&full)
            .map_err(io)?;
        file.write_all(content).map_err(io)?;
    }
    std::fs::symlink_metadata(&full).map_err(io)
}

/// Rewrites the run's file at `full` (`meta`: its metadata, not followed) with `content`
/// in place, executable or not: only a plain file with no other name (a hard link
/// elsewhere would be written through) and no set-id or sticky bit, opened without
/// following a link or waiting on a FIFO and checked to be the same file once open.
/// False when any of that does not hold or a write fails (a running program's file,
/// say): the caller replaces the file instead.
fn rewrite_in_place(
    full: &Path,
    meta: &std::fs::Metadata,
    content: &[u8],
    executable: bool,
) -> bool {
    use std::os::unix::fs::PermissionsExt;
    if !meta.is_file() || meta.nlink() != 1 {
        return false;
    }
    // O_NONBLOCK: a FIFO swapped in since `meta` was read fails to open instead of
    // waiting for a reader (the check below then refuses it).
    let flags = nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK;
    let Ok(mut file) = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(flags.bits())
        .open(full)
    else {
        return false;
    };
    // The open file's own metadata decides from here on: `meta` was read before it.
    let Ok(now) = file.metadata() else {
        return false;
    };
    let same =
        now.is_file() && now.nlink() == 1 && now.ino() == meta.ino() && now.dev() == meta.dev();
    // Set-id or sticky bits are not a checkout's: such a file is made afresh.
    if !same || now.mode() & 0o7000 != 0 {
        return false;
    }
    let mode = now.mode() & 0o777;
    let wanted = match (executable, mode & 0o111 != 0) {
        // Executable where it can be read, as git's 0755 under the user's umask.
        (true, false) => mode | ((mode & 0o444) >> 2),
        (false, true) => mode & !0o111,
        _ => mode,
    };
    let written = file.set_len(0).and_then(|()| file.write_all(content));
    let permitted = wanted == mode
        || file
            .set_permissions(std::fs::Permissions::from_mode(wanted))
            .is_ok();
    written.is_ok() && permitted
}

/// The index entry of a file just written: its stat data, so the next scan knows it is
/// unchanged without reading it again.
fn index_entry(meta: &std::fs::Metadata, write: &Write) -> IndexEntry {
    let time = |seconds: i64, nanos: i64| {
        IndexTime::new(
            i32::try_from(seconds).unwrap_or(i32::MAX),
            u32::try_from(nanos).unwrap_or(0),
        )
    };
    IndexEntry {
        ctime: time(meta.ctime(), meta.ctime_nsec()),
        mtime: time(meta.mtime(), meta.mtime_nsec()),
        // The index keeps the low 32 bits, as git does.
        dev: meta.dev() as u32,
        ino: meta.ino() as u32,
        mode: write.mode,
        uid: meta.uid(),
        gid: meta.gid(),
        file_size: meta.size() as u32,
        id: write.id,
        flags: 0,
        flags_extended: 0,
        path: write.relative.as_os_str().as_bytes().to_vec(),
    }
}
