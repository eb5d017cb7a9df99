//! Replacing a file's whole content safely: the one writer behind every file Heddle replaces
//! (workflows, layout sidecars, templates, checkpoint.json, manifests, index files, files an
//! agent edits).
//!
//! The new content goes to a temporary file created with `O_CREAT | O_EXCL` under an
//! unpredictable name in the target's folder (so a link planted in a repository cannot catch
//! the write), is written, gets the old file's permissions through its own handle, is
//! optionally flushed to disk, and is renamed over the target; the folder is then flushed
//! too. A reader, or a crash, sees the old content or the new, never a mix. A target that is
//! a symbolic link is refused (or, where asked, the link itself is replaced); it is never
//! written through.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};

/// How many unpredictable names are tried before giving up (each clash is a file someone
/// else created under a 64-bit random name: in practice never more than one).
const NAME_ATTEMPTS: usize = 16;

/// The longest prefix of the target's name kept in the temporary name, so the temporary
/// name stays under the usual 255-byte limit.
const NAME_PREFIX_BYTES: usize = 200;

/// What to do when the target is a symbolic link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtLink {
    /// Fail with an error that names the link and where it points.
    Refuse,
    /// Replace the link itself with a regular file (its target is left alone).
    ReplaceLink,
}

/// How [`replace_file_with`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplaceOptions {
    /// Flush the content (and then the folder) to disk before returning.
    pub sync: bool,
    /// What a symbolic link at the target gets.
    pub at_link: AtLink,
}

/// Writes `bytes` to `path` as described in the module docs, refusing a symbolic link at
/// `path`. With `sync`, the data and the folder entry are on disk when it returns. On error
/// the temporary file is removed and `path` is as it was.
pub fn replace_file(path: &Path, bytes: &[u8], sync: bool) -> std::io::Result<()> {
    replace_file_with(
        path,
        bytes,
        ReplaceOptions {
            sync,
            at_link: AtLink::Refuse,
        },
    )
}

/// [`replace_file`] with every option spelled out.
pub fn replace_file_with(
    path: &Path,
    bytes: &[u8],
    options: ReplaceOptions,
) -> std::io::Result<()> {
    let (dir, name) = split_target(path)?;
    let permissions = kept_permissions(path, options.at_link)?;
    let (temp, mut file) = create_temp(dir, &name.to_string_lossy())?;
    let written = (|| {
        file.write_all(bytes)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions)?;
        }
        if options.sync {
            file.sync_all()?;
        }
        drop(file);
        std::fs::rename(&temp, path)
    })();
    if let Err(error) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(error);
    }
    if options.sync {
        sync_folder(dir)?;
    }
    Ok(())
}

/// Replaces several files as [`replace_file`] does with `sync` (a link at a target is
/// refused), flushing them together: every new content goes to its temporary file, the
/// flushes run side by side (one wait for the disk rather than one per file), then the
/// temporary files are renamed over their targets in the order given and each folder is
/// flushed once. Each target is, after a crash, its old content or its new one; when this
/// returns, all are on disk. On error the temporary files not yet renamed are removed.
/// [`stage_files`] and [`StagedFiles::put_in_place`] are its two halves, for a caller with
/// other work to do while the disk flushes.
pub fn replace_files(files: &[(&Path, &[u8])]) -> std::io::Result<()> {
    stage_files(files)?.put_in_place()
}

/// Files written to temporary names beside their targets and flushed to disk by
/// [`stage_files`], not yet in place: [`StagedFiles::put_in_place`] renames them over
/// their targets; dropped before that, the temporary files are removed and every target
/// is left as it was.
#[derive(Debug)]
pub struct StagedFiles<'a> {
    /// Temporary file and target, in the order they are to be renamed.
    staged: Vec<(PathBuf, &'a Path)>,
}

/// The first half of [`replace_files`]: each content written to a temporary file beside
/// its target and all of them flushed side by side. Nothing is replaced yet.
pub fn stage_files<'a>(files: &[(&'a Path, &[u8])]) -> std::io::Result<StagedFiles<'a>> {
    let mut staged = StagedFiles {
        staged: Vec::with_capacity(files.len()),
    };
    let mut handles = Vec::with_capacity(files.len());
    for &(path, bytes) in files {
        let at = naming(path);
        let (dir, name) = split_target(path).map_err(at)?;
        let permissions = kept_permissions(path, AtLink::Refuse).map_err(at)?;
        let (temp, mut file) = create_temp(dir, &name.to_string_lossy()).map_err(at)?;
        staged.staged.push((temp, path));
        file.write_all(bytes).map_err(at)?;
        if let Some(permissions) = permissions {
            file.set_permissions(permissions).map_err(at)?;
        }
        handles.push((path, file));
    }
    std::thread::scope(|scope| {
        let flushes: Vec<_> = handles
            .iter()
            .map(|(path, file)| scope.spawn(|| file.sync_all().map_err(naming(path))))
            .collect();
        flushes.into_iter().try_for_each(|flush| {
            flush
                .join()
                .unwrap_or_else(|_| Err(std::io::Error::other("a flush thread panicked")))
        })
    })?;
    Ok(staged)
}

impl StagedFiles<'_> {
    /// The second half of [`replace_files`]: the temporary files renamed over their
    /// targets in the order given, then each folder flushed once. On error the ones not
    /// yet renamed are removed.
    pub fn put_in_place(mut self) -> std::io::Result<()> {
        let mut folders: Vec<&Path> = Vec::new();
        let mut pending = std::mem::take(&mut self.staged).into_iter();
        while let Some((temp, path)) = pending.next() {
            if let Err(error) = std::fs::rename(&temp, path) {
                self.staged.push((temp, path));
                self.staged.extend(pending);
                return Err(naming(path)(error));
            }
            let (dir, _) = split_target(path)?;
            if !folders.contains(&dir) {
                folders.push(dir);
            }
        }
        folders
            .into_iter()
            .try_for_each(|dir| sync_folder(dir).map_err(naming(dir)))
    }
}

impl Drop for StagedFiles<'_> {
    fn drop(&mut self) {
        for (temp, _) in &self.staged {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Prefixes an error with the path it is about.
fn naming(path: &Path) -> impl Fn(std::io::Error) -> std::io::Error + Copy + '_ {
    move |error| std::io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}

/// The folder and file name of a target.
fn split_target(path: &Path) -> std::io::Result<(&Path, &std::ffi::OsStr)> {
    let name = path.file_name().ok_or_else(|| {
        std::io::Error::new(
            ErrorKind::InvalidInput,
            "the path names no file (it ends in `..` or is a root)",
        )
    })?;
    let dir = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    Ok((dir, name))
}

/// Fails, with the reason, if a new file cannot be created in `dir`. The probe file has an
/// unpredictable name and is removed again.
pub fn check_writable(dir: &Path) -> std::io::Result<()> {
    let (temp, file) = create_temp(dir, "write-test")?;
    drop(file);
    std::fs::remove_file(temp)
}

/// Creates the folders of `relative` inside `root` one by one (as `mkdir -p` would) and
/// returns the full path, refusing to go through a symbolic link or a file on the way: a
/// write below the result cannot land outside `root`. `relative` must be relative and must
/// not climb with `..`.
pub fn create_dirs_within(root: &Path, relative: &Path) -> std::io::Result<PathBuf> {
    let mut path = root.to_path_buf();
    for component in relative.components() {
        let name = match component {
            std::path::Component::Normal(name) => name,
            std::path::Component::CurDir => continue,
            _ => {
                return Err(std::io::Error::new(
                    ErrorKind::InvalidInput,
                    format!("{} must stay inside its folder", relative.display()),
                ));
            }
        };
        path.push(name);
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                return Err(std::io::Error::new(
                    ErrorKind::InvalidInput,
                    format!(
                        "{} is a symbolic link; Heddle does not write through links",
                        path.display()
                    ),
                ));
            }
            Ok(meta) if meta.is_dir() => {}
            Ok(_) => {
                return Err(std::io::Error::new(
                    ErrorKind::AlreadyExists,
                    format!("{} is a file where a folder is needed", path.display()),
                ));
            }
            Err(e) if e.kind() == ErrorKind::NotFound => match std::fs::create_dir(&path) {
                Err(e) if e.kind() != ErrorKind::AlreadyExists => return Err(e),
                _ => {}
            },
            Err(e) => return Err(e),
        }
    }
    Ok(path)
}

/// The permissions the new file takes over: a regular file's own, none for a new file or a
/// link being replaced. A link is an error under [`AtLink::Refuse`].
fn kept_permissions(path: &Path, at_link: AtLink) -> std::io::Result<Option<Permissions>> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        return match at_link {
            AtLink::ReplaceLink => Ok(None),
            AtLink::Refuse => Err(link_refused(path)),
        };
    }
    Ok(meta.is_file().then(|| meta.permissions()))
}

fn link_refused(path: &Path) -> std::io::Error {
    let target = std::fs::read_link(path)
        .map(|t| t.display().to_string())
        .unwrap_or_else(|_| "an unreadable target".to_owned());
    std::io::Error::new(
        ErrorKind::InvalidInput,
        format!(
            "it is a symbolic link (to {target}); Heddle does not write through links — \
             replace it with a regular file to save here"
        ),
    )
}

/// A new, empty temporary file in `dir` whose name starts with `.{name}.` and cannot be
/// guessed beforehand; never an existing file or a link.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, File)> {
    let mut rng = rand::rngs::StdRng::from_os_rng();
    let prefix = name_prefix(name);
    let mut last = None;
    for _ in 0..NAME_ATTEMPTS {
        let temp = dir.join(format!(".{prefix}.{:016x}.tmp", rng.random::<u64>()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((temp, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::from(ErrorKind::AlreadyExists)))
}

/// At most [`NAME_PREFIX_BYTES`] of `name`, cut on a character boundary.
fn name_prefix(name: &str) -> &str {
    if name.len() <= NAME_PREFIX_BYTES {
        return name;
    }
    let mut end = NAME_PREFIX_BYTES;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Flushes a folder's entries to disk. Filesystems that cannot flush a folder say so with
/// `EINVAL`; that is not an error.
fn sync_folder(dir: &Path) -> std::io::Result<()> {
    match File::open(dir).and_then(|folder| folder.sync_all()) {
        Err(e) if e.kind() == ErrorKind::InvalidInput => Ok(()),
        other => other,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use std::os::unix::fs::{PermissionsExt, symlink};

    fn leftovers(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect()
    }

    #[test]
    fn replaces_content_and_keeps_permissions() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("flow.dot");
        std::fs::write(&path, "old").unwrap();
        std::fs::set_permissions(&path, Permissions::from_mode(0o640)).unwrap();
        replace_file(&path, b"new", true).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
        assert!(leftovers(tmp.path()).is_empty());
    }

    #[test]
    fn a_link_planted_at_the_old_fixed_temp_name_catches_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim.txt");
        std::fs::write(&victim, "precious").unwrap();
        let repo = tmp.path().join("repo");
        std::fs::create_dir(&repo).unwrap();
        symlink(&victim, repo.join(".flow.dot.heddle-layout.json.tmp")).unwrap();
        let sidecar = repo.join("flow.dot.heddle-layout.json");
        replace_file(&sidecar, b"{\"nodes\":{}}", true).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        let meta = std::fs::symlink_metadata(&sidecar).unwrap();
        assert!(meta.is_file(), "the sidecar is a regular file");
    }

    #[test]
    fn a_link_at_the_target_is_refused_and_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("pre-commit");
        std::fs::write(&victim, "#!/bin/sh\n").unwrap();
        let sidecar = tmp.path().join("flow.dot.heddle-layout.json");
        symlink(&victim, &sidecar).unwrap();
        let err = replace_file(&sidecar, b"$(cmd)", true).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidInput);
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(err.to_string().contains("pre-commit"), "{err}");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "#!/bin/sh\n");
        assert!(std::fs::symlink_metadata(&sidecar).unwrap().is_symlink());
        assert!(leftovers(tmp.path()).is_empty());
    }

    #[test]
    fn replace_link_swaps_the_link_for_a_file_and_spares_its_target() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("outside.txt");
        std::fs::write(&victim, "untouched").unwrap();
        std::fs::set_permissions(&victim, Permissions::from_mode(0o777)).unwrap();
        let path = tmp.path().join("notes.md");
        symlink(&victim, &path).unwrap();
        let options = ReplaceOptions {
            sync: false,
            at_link: AtLink::ReplaceLink,
        };
        replace_file_with(&path, b"edited", options).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");
        let meta = std::fs::symlink_metadata(&path).unwrap();
        assert!(meta.is_file());
        assert_ne!(
            meta.permissions().mode() & 0o111,
            0o111,
            "no mode taken from the target"
        );
    }

    #[test]
    fn the_write_probe_never_follows_a_planted_link() {
        let tmp = tempfile::tempdir().unwrap();
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "kept").unwrap();
        let run = tmp.path().join("run");
        std::fs::create_dir(&run).unwrap();
        symlink(&victim, run.join(".write-test")).unwrap();
        check_writable(&run).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");
        assert!(leftovers(&run).is_empty());
    }

    #[test]
    fn folders_are_created_inside_and_never_through_a_link() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tmp.path().join("outside");
        std::fs::create_dir(&outside).unwrap();
        let root = tmp.path().join("repo");
        std::fs::create_dir(&root).unwrap();
        let made = create_dirs_within(&root, Path::new("prompts/deep")).unwrap();
        assert!(made.is_dir());
        assert_eq!(made, root.join("prompts/deep"));
        symlink(&outside, root.join("linked")).unwrap();
        let err = create_dirs_within(&root, Path::new("linked/sub")).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert!(!outside.join("sub").exists());
        assert!(create_dirs_within(&root, Path::new("../escape")).is_err());
        std::fs::write(root.join("file"), "x").unwrap();
        assert!(create_dirs_within(&root, Path::new("file/sub")).is_err());
    }

    #[test]
    fn several_files_are_replaced_together_and_a_link_stops_all_of_them() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a.json"), tmp.path().join("b.json"));
        std::fs::write(&a, "old a").unwrap();
        std::fs::set_permissions(&a, Permissions::from_mode(0o600)).unwrap();
        replace_files(&[(&a, b"new a"), (&b, b"new b")]).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b");
        let mode = std::fs::metadata(&a).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        let victim = tmp.path().join("victim");
        std::fs::write(&victim, "kept").unwrap();
        let link = tmp.path().join("c.json");
        symlink(&victim, &link).unwrap();
        let err = replace_files(&[(&a, b"newer a"), (&link, b"x")]).unwrap_err();
        assert!(err.to_string().contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "kept");
        assert!(leftovers(tmp.path()).is_empty());
    }

    #[test]
    fn staged_files_replace_nothing_until_put_in_place_and_vanish_when_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a.json"), tmp.path().join("b.json"));
        std::fs::write(&a, "old a").unwrap();
        let staged = stage_files(&[(&a, b"new a"), (&b, b"new b")]).unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert!(!b.exists());
        assert_eq!(leftovers(tmp.path()).len(), 2);
        drop(staged);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert!(!b.exists());
        assert!(leftovers(tmp.path()).is_empty());
        stage_files(&[(&a, b"new a"), (&b, b"new b")])
            .unwrap()
            .put_in_place()
            .unwrap();
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), "new b");
        assert!(leftovers(tmp.path()).is_empty());
    }

    #[test]
    fn temp_names_differ_between_writes() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, _fa) = create_temp(tmp.path(), "x").unwrap();
        let (b, _fb) = create_temp(tmp.path(), "x").unwrap();
        assert_ne!(a, b);
        assert!(a.file_name().unwrap().to_string_lossy().starts_with(".x."));
    }

    #[test]
    fn a_long_name_still_gets_a_temp_file() {
        let tmp = tempfile::tempdir().unwrap();
        let name = format!("{}.dot", "é".repeat(120));
        let path = tmp.path().join(&name);
        replace_file(&path, b"digraph G {}", false).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "digraph G {}");
    }

    #[test]
    fn a_failed_write_leaves_the_target_and_no_temp() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("folder");
        std::fs::create_dir(&path).unwrap();
        assert!(replace_file(&path, b"x", false).is_err());
        assert!(path.is_dir());
        assert!(leftovers(tmp.path()).is_empty());
    }
}
