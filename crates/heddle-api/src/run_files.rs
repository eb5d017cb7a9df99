//! Serving the files a run left for a person to look at: its captured artifacts
//! (`artifacts/`) and its stage folders (`nodes/`: prompts, responses, logs, diffs). Every
//! path is confined to the folder it names: no `..`, no absolute paths, no backslashes, and
//! no symlink that leads out of the folder. The doors stream the file at the returned path.

use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ApiError, ErrorCode};
use crate::run_host::RunHost;

/// The Content Security Policy a served HTML file (a Playwright report) gets: it may run its
/// own scripts and show its own resources, in an opaque origin without the UI's token or API.
///
/// `folder` is the absolute URL of the run folder the page came from, ending in `/` (such as
/// `heddle-run://localhost/RUN/artifacts/`). It is named as a source next to `'self'`
/// because WebKit matches nothing to `'self'` in a sandboxed page, so a report's own images
/// would not load in the desktop window. It is left out when it holds a character a policy
/// cannot carry.
pub fn sandboxed_page_policy(folder: Option<&str>) -> String {
    let own = folder
        .filter(|url| {
            !url.is_empty()
                && url
                    .bytes()
                    .all(|b| b.is_ascii_graphic() && !matches!(b, b';' | b',' | b'\'' | b'"'))
        })
        .map(|url| format!(" {url}"))
        .unwrap_or_default();
    format!(
        "sandbox allow-scripts allow-popups; default-src 'self'{own} 'unsafe-inline' \
         'unsafe-eval' data: blob:; connect-src 'self'{own} data: blob:"
    )
}

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
    /// The folder.
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
        self.media_type == "text/html"
    }
}

impl RunHost {
    /// The file `req.path` inside the run's `req.area` folder, checked to stay inside it.
    pub fn run_file(&self, req: &RunFileRequest) -> Result<ServedFile, ApiError> {
        let run = self.find(&req.run_id)?;
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

#[cfg(test)]
mod tests {
    use super::sandboxed_page_policy;

    #[test]
    fn a_page_policy_names_its_own_folder_beside_self() {
        let policy = sandboxed_page_policy(Some("heddle-run://localhost/01RUN/artifacts/"));
        assert!(
            policy.starts_with("sandbox allow-scripts allow-popups;"),
            "{policy}"
        );
        assert!(
            policy.contains("default-src 'self' heddle-run://localhost/01RUN/artifacts/ "),
            "{policy}"
        );
        assert!(
            policy.contains("connect-src 'self' heddle-run://localhost/01RUN/artifacts/ "),
            "{policy}"
        );
    }

    #[test]
    fn a_folder_a_policy_cannot_carry_is_left_out() {
        let plain = sandboxed_page_policy(None);
        assert!(
            plain.contains("default-src 'self' 'unsafe-inline'"),
            "{plain}"
        );
        for bad in [
            "",
            "http://evil; script-src *",
            "http://a b/",
            "http://a/'unsafe-hashes'",
            "http://a,b/",
        ] {
            assert_eq!(sandboxed_page_policy(Some(bad)), plain, "{bad}");
        }
    }
}
