//! Saving a copy of one of a run's files for the person: the desktop window's Download. The
//! copy goes into a folder the door names (the user's Downloads), under the file's own name;
//! a file already there is never replaced ("home (1).png" is chosen instead), and a copy cut
//! short (a full disk) is removed rather than left half-written.

use std::fs::{File, OpenOptions};
use std::io::{self, ErrorKind};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ApiError, ErrorCode};
use crate::run_files::RunFileRequest;
use crate::run_library::RunLibrary;

/// Where a saved copy went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SavedRunFile {
    /// The copy's full path.
    pub path: String,
    /// Bytes written.
    pub size: u64,
}

/// How many numbered names ("name (n).ext") are tried before giving up.
const MAX_NUMBERED: u32 = 9_999;

/// `name` with ` (n)` before its extension: `home.png` → `home (2).png`,
/// `trace.tar.gz` → `trace (2).tar.gz`, `.env` → `.env (2)`.
fn numbered(name: &str, n: u32) -> String {
    let mut stem_end = name.rfind('.').filter(|&i| i > 0).unwrap_or(name.len());
    if name[..stem_end].ends_with(".tar") && stem_end > ".tar".len() {
        stem_end -= ".tar".len();
    }
    let (stem, ext) = name.split_at(stem_end);
    format!("{stem} ({n}){ext}")
}

/// Creates a new file in `folder` named `name`, or the first free numbered name.
fn create_free(folder: &Path, name: &str) -> Result<(PathBuf, File), ApiError> {
    for n in 0..=MAX_NUMBERED {
        let candidate = folder.join(if n == 0 {
            name.to_owned()
        } else {
            numbered(name, n)
        });
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(file) => return Ok((candidate, file)),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(ApiError::from_io(&candidate, &e)),
        }
    }
    Err(ApiError::new(
        ErrorCode::AlreadyExists,
        format!(
            "{}: `{name}` and {MAX_NUMBERED} numbered copies of it already exist; clear some out",
            folder.display()
        ),
    ))
}

/// Copies `source` into a new file in `folder` named `name` (see [`create_free`]).
pub fn save_copy(source: &Path, name: &str, folder: &Path) -> Result<SavedRunFile, ApiError> {
    if name.is_empty() || name.contains(['/', '\\']) || name == "." || name == ".." {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            format!("`{name}` is not a file name to save a copy under"),
        ));
    }
    std::fs::create_dir_all(folder).map_err(|e| ApiError::from_io(folder, &e))?;
    let mut from = File::open(source).map_err(|e| ApiError::from_io(source, &e))?;
    // The file opened is checked too, not only the path checked before it.
    let is_file = from
        .metadata()
        .map_err(|e| ApiError::from_io(source, &e))?
        .is_file();
    if !is_file {
        return Err(ApiError::new(
            ErrorCode::WrongKind,
            format!("{}: is not a regular file", source.display()),
        ));
    }
    let (path, mut to) = create_free(folder, name)?;
    let copied = io::copy(&mut from, &mut to).and_then(|size| to.sync_all().map(|()| size));
    match copied {
        Ok(size) => Ok(SavedRunFile {
            path: path.display().to_string(),
            size,
        }),
        Err(e) => {
            drop(to);
            // Best effort: the error below is what the person needs to see.
            let _ = std::fs::remove_file(&path);
            Err(ApiError::from_io(&path, &e))
        }
    }
}

impl RunLibrary {
    /// Saves a copy of the run file `req` names into `folder` (the door's Downloads folder),
    /// under the name the run shows it by (not a symlink's target).
    pub fn save_run_file(
        &self,
        req: &RunFileRequest,
        folder: &Path,
    ) -> Result<SavedRunFile, ApiError> {
        let served = self.run_file(req)?;
        let name = req.path.rsplit('/').next().unwrap_or(&req.path);
        save_copy(&served.path, name, folder)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_number_goes_before_the_extension() {
        assert_eq!(numbered("home.png", 1), "home (1).png");
        assert_eq!(numbered("trace.tar.gz", 2), "trace (2).tar.gz");
        assert_eq!(numbered("README", 3), "README (3)");
        assert_eq!(numbered(".env", 4), ".env (4)");
        assert_eq!(numbered("my.report.html", 5), "my.report (5).html");
    }

    #[test]
    fn a_copy_never_replaces_a_file_already_there() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("home.png");
        std::fs::write(&source, b"new picture").unwrap();
        let downloads = dir.path().join("Downloads");
        std::fs::create_dir_all(&downloads).unwrap();
        std::fs::write(downloads.join("home.png"), b"the person's own file").unwrap();

        let first = save_copy(&source, "home.png", &downloads).unwrap();
        let second = save_copy(&source, "home.png", &downloads).unwrap();

        assert_eq!(
            first.path,
            downloads.join("home (1).png").display().to_string()
        );
        assert_eq!(
            second.path,
            downloads.join("home (2).png").display().to_string()
        );
        assert_eq!(first.size, 11);
        assert_eq!(std::fs::read(&first.path).unwrap(), b"new picture");
        assert_eq!(
            std::fs::read(downloads.join("home.png")).unwrap(),
            b"the person's own file"
        );
    }

    #[test]
    fn a_missing_folder_is_made_and_a_missing_source_named() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("report.html");
        std::fs::write(&source, b"<html></html>").unwrap();
        let downloads = dir.path().join("home/Downloads");
        let saved = save_copy(&source, "report.html", &downloads).unwrap();
        assert_eq!(
            saved.path,
            downloads.join("report.html").display().to_string()
        );

        let err = save_copy(&dir.path().join("gone.png"), "gone.png", &downloads).unwrap_err();
        assert_eq!(err.code, ErrorCode::NotFound);
        assert!(err.message.contains("gone.png"), "{}", err.message);
    }

    #[test]
    fn only_a_plain_name_and_a_regular_file_are_saved() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("a.txt");
        std::fs::write(&source, b"a").unwrap();
        let downloads = dir.path().join("Downloads");
        for bad in ["", "..", "../a.txt", "sub/a.txt", "a\\b"] {
            let err = save_copy(&source, bad, &downloads).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidRequest, "{bad}");
        }
        let err = save_copy(dir.path(), "folder", &downloads).unwrap_err();
        assert_eq!(err.code, ErrorCode::WrongKind, "{}", err.message);
        assert!(!downloads.join("folder").exists());
    }
}
