//! Read-only links to the files of one folder of a run that work without the access token:
//! `/shared/{key}/{run}/{area}/{path}`, where `key` is derived from the server's token, the
//! run id, the area and the folder the link was made for. A page in a sandboxed frame (a
//! Playwright report) has an opaque origin, so the token cookie (SameSite=Strict) is not
//! sent for the files it loads itself; the UI's request for such a page is redirected here,
//! and the page's relative links resolve under the same prefix. The key opens the files
//! under the page's own folder and nothing else: not the rest of the run's `artifacts/`,
//! not its `nodes/`, no other run, no API operation, no UI.

use heddle_api::{enclosing_folders, parent_folder, percent_decode};
use sha2::{Digest, Sha256};

/// Where shared links start.
pub const SHARED_PREFIX: &str = "/shared/";

/// The key that opens the files under `folder` (relative to the run's `area` folder, `""`
/// for all of it) of run `run_id`: the first 32 hex digits of
/// SHA-256(token, NUL, "run-files", NUL, run id, NUL, area, NUL, folder).
pub fn run_files_key(token: &str, run_id: &str, area: &str, folder: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(token.as_bytes());
    hasher.update(b"\0run-files\0");
    hasher.update(run_id.as_bytes());
    hasher.update(b"\0");
    hasher.update(area.as_bytes());
    hasher.update(b"\0");
    hasher.update(folder.as_bytes());
    let mut key = hex::encode(hasher.finalize());
    key.truncate(32);
    key
}

/// Whether `key` opens `path` (decoded, relative to the run's `area` folder): it was made
/// for one of the folders the file is in.
pub fn key_opens(token: &str, key: &str, run_id: &str, area: &str, path: &str) -> bool {
    !run_id.is_empty()
        && enclosing_folders(path).is_some_and(|folders| {
            folders
                .iter()
                .any(|folder| crate::auth::same(key, &run_files_key(token, run_id, area, folder)))
        })
}

/// Whether `path` (a request path, still percent-encoded) is a shared link whose key opens
/// the file it names.
pub fn opens(path: &str, token: &str) -> bool {
    let Some(rest) = path.strip_prefix(SHARED_PREFIX) else {
        return false;
    };
    let mut parts = rest.splitn(4, '/');
    let (Some(key), Some(run), Some(area), Some(file)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    match (
        percent_decode(run),
        percent_decode(area),
        percent_decode(file),
    ) {
        (Some(run), Some(area), Some(file)) => key_opens(token, key, &run, &area, &file),
        _ => false,
    }
}

/// Percent-encodes one path segment (everything but unreserved characters).
fn encode_segment(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn encode_path(path: &str) -> String {
    let segments: Vec<String> = path.split('/').map(encode_segment).collect();
    segments.join("/")
}

/// The shared link of a folder of a run's `area` (`""`: the area itself), ending in `/`.
pub fn shared_folder(token: &str, run_id: &str, area: &str, folder: &str) -> String {
    let base = format!(
        "{SHARED_PREFIX}{}/{}/{}/",
        run_files_key(token, run_id, area, folder),
        encode_segment(run_id),
        encode_segment(area),
    );
    if folder.is_empty() {
        base
    } else {
        format!("{base}{}/", encode_path(folder))
    }
}

/// The shared link of one file of a run, opening the folder it is in.
pub fn shared_link(token: &str, run_id: &str, area: &str, path: &str) -> String {
    let folder = parent_folder(path);
    let key = run_files_key(token, run_id, area, folder);
    format!(
        "{SHARED_PREFIX}{key}/{}/{}/{}",
        encode_segment(run_id),
        encode_segment(area),
        encode_path(path)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_opens_only_its_own_folder_of_its_own_run() {
        let key = run_files_key("secret", "01RUN", "artifacts", "b/report");
        assert_eq!(key.len(), 32);
        assert_ne!(
            key,
            run_files_key("secret", "01OTHER", "artifacts", "b/report")
        );
        assert_ne!(
            key,
            run_files_key("other-token", "01RUN", "artifacts", "b/report")
        );
        assert_ne!(key, run_files_key("secret", "01RUN", "nodes", "b/report"));
        let at = |path: &str| format!("/shared/{key}/{path}");
        assert!(opens(&at("01RUN/artifacts/b/report/index.html"), "secret"));
        assert!(opens(&at("01RUN/artifacts/b/report/data/a.png"), "secret"));
        assert!(opens(
            &at("01RUN/artifacts/b/report/data%2Fa.png"),
            "secret"
        ));
        for refused in [
            "01OTHER/artifacts/b/report/index.html",
            "01RUN/nodes/b/report/index.html",
            "01RUN/artifacts/b/other.png",
            "01RUN/artifacts/b/report",
            "01RUN/artifacts/b/report/../other.png",
            "01RUN/artifacts/b/report/%2e%2e/other.png",
            "01RUN/artifacts/b/report/..%2fother.png",
            "01RUN/artifacts/b/report/data%5c..%5c..%5cx",
            "01RUN/artifacts/b/report/%c0%ae%c0%ae/x",
            "01RUN/artifacts/b/report/x%00.png",
            "/artifacts/b/report/index.html",
        ] {
            assert!(!opens(&at(refused), "secret"), "{refused}");
        }
        assert!(!opens(
            "/shared/nonsense/01RUN/artifacts/b/report/a.png",
            "secret"
        ));
        assert!(!opens(
            &format!("/api/{key}/01RUN/artifacts/b/report/a.png"),
            "secret"
        ));
    }

    #[test]
    fn links_encode_each_segment_and_open_the_files_folder() {
        let link = shared_link(
            "t",
            "01RUN",
            "artifacts",
            "browser/retry_0/my report/index.html",
        );
        let key = run_files_key("t", "01RUN", "artifacts", "browser/retry_0/my report");
        assert_eq!(
            link,
            format!("/shared/{key}/01RUN/artifacts/browser/retry_0/my%20report/index.html")
        );
        assert!(opens(&link, "t"));
        assert_eq!(
            shared_folder("t", "01RUN", "artifacts", "browser/retry_0/my report"),
            format!("/shared/{key}/01RUN/artifacts/browser/retry_0/my%20report/")
        );
        let top = run_files_key("t", "01RUN", "artifacts", "");
        assert_eq!(
            shared_link("t", "01RUN", "artifacts", "index.html"),
            format!("/shared/{top}/01RUN/artifacts/index.html")
        );
    }
}
