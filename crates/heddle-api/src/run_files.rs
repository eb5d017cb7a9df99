//! Serving the files a run left for a person to look at: its captured artifacts
//! (`artifacts/`) and its stage folders (`nodes/`: prompts, responses, logs, diffs). Every
//! path is confined to the folder it names: no `..`, no absolute paths, no backslashes, and
//! no symlink that leads out of the folder. The doors stream the file at the returned path.

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ApiError, ErrorCode};
use crate::run_library::RunLibrary;

/// Which of a run's folders a file is served from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum RunFileArea {
    /// `artifacts/`: screenshots, videos, reports, JUnit files.
    Artifacts,
    /// `nodes/`: each stage's prompt, response, status, logs and diff.
    Nodes,
}

impl RunFileArea {
    /// The area as written in a URL.
    pub fn parse(text: &str) -> Option<RunFileArea> {
        match text {
            "artifacts" => Some(RunFileArea::Artifacts),
            "nodes" => Some(RunFileArea::Nodes),
            _ => None,
        }
    }

    /// The area as written in a URL (what [`RunFileArea::parse`] reads).
    pub fn name(self) -> &'static str {
        match self {
            RunFileArea::Artifacts => "artifacts",
            RunFileArea::Nodes => "nodes",
        }
    }
}

/// One file of a run to serve.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RunFileRequest {
    /// The run (id, unique prefix or folder).
    pub run_id: String,
    /// Which folder of the run `path` is in: `artifacts` or `nodes`.
    pub area: RunFileArea,
    /// The file, relative to that folder, with `/` separators.
    pub path: String,
}

/// A file that may be served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedFile {
    /// Where it is (symlinks resolved, inside the area's folder).
    pub path: PathBuf,
    /// Its media type, from its extension.
    pub media_type: &'static str,
    /// Its size in bytes.
    pub size: u64,
}

impl ServedFile {
    /// Whether a browser would run it as a page (served only in a sandbox).
    pub fn is_html(&self) -> bool {
        crate::run_file_policy::is_page(self.media_type)
    }

    /// The Content Security Policy it is served under (see `run_file_policy`); `folder` is
    /// the URL of the folder a page is in.
    pub fn policy(&self, folder: Option<&str>) -> String {
        crate::run_file_policy::run_file_policy(self.media_type, folder)
    }
}

impl RunLibrary {
    /// The file `req.path` inside the run's `req.area` folder, checked to stay inside it
    /// (for a run another machine ran, in the copy last fetched from the shared store).
    pub fn run_file(&self, req: &RunFileRequest) -> Result<ServedFile, ApiError> {
        let run = self.find_readable(&req.run_id)?;
        let root = match req.area {
            RunFileArea::Artifacts => run.artifacts(),
            RunFileArea::Nodes => run.nodes_dir(),
        };
        confined_file(&root, &req.path)
    }
}

fn refused(path: &str, why: &str) -> ApiError {
    ApiError::new(
        ErrorCode::InvalidRequest,
        format!("`{path}` is refused: {why}; give a path inside the run's folder"),
    )
}

/// The regular file `relative` names under `root`, after resolving symlinks, or an error if
/// it is not one or lies outside `root`.
pub fn confined_file(root: &Path, relative: &str) -> Result<ServedFile, ApiError> {
    if relative.is_empty() {
        return Err(refused(relative, "the path is empty"));
    }
    if relative.contains('\\') || relative.contains('\0') {
        return Err(refused(relative, "it contains a backslash or a NUL"));
    }
    let rel = Path::new(relative);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(refused(relative, "it is absolute or contains `.` or `..`"));
    }
    let root = root
        .canonicalize()
        .map_err(|e| ApiError::from_io(root, &e))?;
    let joined = root.join(rel);
    let resolved = joined
        .canonicalize()
        .map_err(|e| ApiError::from_io(&joined, &e))?;
    if !resolved.starts_with(&root) {
        return Err(refused(
            relative,
            "it leads out of the folder through a symlink",
        ));
    }
    let meta = std::fs::metadata(&resolved).map_err(|e| ApiError::from_io(&resolved, &e))?;
    if !meta.is_file() {
        return Err(ApiError::new(
            ErrorCode::WrongKind,
            format!("{}: is a folder, not a file", joined.display()),
        ));
    }
    Ok(ServedFile {
        media_type: heddle_artifacts::media_type(relative),
        size: meta.len(),
        path: resolved,
    })
}

/// Decodes the `%XX` escapes of a URL path; `None` for a broken escape or a result that is
/// not UTF-8 (overlong forms such as `%c0%ae` are not UTF-8). Both doors decode a run
/// file's URL with it before [`confined_file`] checks the path.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = text.get(i + 1..i + 3)?;
            if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The folders a path's file may be reached through, from the top: `a/b/c.html` gives
/// ``, `a`, `a/b`. `None` when a segment is empty, `.`, `..`, or holds a backslash or NUL
/// (what [`confined_file`] refuses too).
pub fn enclosing_folders(relative: &str) -> Option<Vec<&str>> {
    let segments: Vec<&str> = relative.split('/').collect();
    let plain = |s: &&str| {
        !s.is_empty() && *s != "." && *s != ".." && !s.contains('\\') && !s.contains('\0')
    };
    if !segments.iter().all(plain) {
        return None;
    }
    let mut folders = vec![""];
    let mut end = 0;
    for segment in &segments[..segments.len() - 1] {
        end += segment.len();
        folders.push(&relative[..end]);
        end += 1;
    }
    Some(folders)
}

/// The folder a run file is in (`a/b` for `a/b/c.html`, `` for `c.html`).
pub fn parent_folder(relative: &str) -> &str {
    relative.rsplit_once('/').map_or("", |(folder, _)| folder)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn escapes_decode_and_broken_or_overlong_ones_do_not() {
        assert_eq!(percent_decode("a%20b/%2e%2e").unwrap(), "a b/..");
        assert_eq!(percent_decode("%2F%5c%00").unwrap(), "/\\\0");
        for broken in ["%", "%2", "%zz", "%+1", "%c0%ae%c0%ae", "%ff%fe", "%e2%82"] {
            assert_eq!(percent_decode(broken), None, "{broken}");
        }
    }

    #[test]
    fn a_file_is_reached_through_each_folder_above_it() {
        assert_eq!(enclosing_folders("c.html").unwrap(), [""]);
        assert_eq!(enclosing_folders("a/b/c.html").unwrap(), ["", "a", "a/b"]);
        for bad in ["", "a//b", "a/../b", "./a", "a/", "/a", "a\\b", "a\0b"] {
            assert_eq!(enclosing_folders(bad), None, "{bad:?}");
        }
        assert_eq!(parent_folder("a/b/c.html"), "a/b");
        assert_eq!(parent_folder("c.html"), "");
    }

    #[test]
    fn nothing_outside_the_folder_is_served() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("artifacts");
        std::fs::create_dir_all(root.join("r")).unwrap();
        std::fs::write(root.join("r/ok.txt"), "ok").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("r/out.txt"))
                .unwrap();
            std::os::unix::fs::symlink(dir.path(), root.join("up")).unwrap();
            std::os::unix::fs::symlink("ok.txt", root.join("r/in.txt")).unwrap();
        }
        assert!(confined_file(&root, "r/ok.txt").is_ok());
        for bad in [
            "",
            "../secret.txt",
            "r/../../secret.txt",
            "/etc/passwd",
            "r\\..\\..\\secret.txt",
            "r/ok.txt\0",
            "r/out.txt",
            "up/secret.txt",
            "r",
        ] {
            assert!(confined_file(&root, bad).is_err(), "{bad:?}");
        }
        #[cfg(unix)]
        assert_eq!(
            confined_file(&root, "r/in.txt").unwrap().path,
            root.canonicalize().unwrap().join("r/ok.txt")
        );
    }
}
