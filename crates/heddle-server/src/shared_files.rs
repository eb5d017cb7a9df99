//! Read-only links to one run's files that work without the access token:
//! `/shared/{key}/{run}/{area}/{path}`, where `key` is derived from the server's token and
//! the run id. A page in a sandboxed frame (a Playwright report) has an opaque origin, so
//! the token cookie (SameSite=Strict) is not sent for the files it loads itself; the UI's
//! request for such a page is redirected here, and the page's relative links resolve under
//! the same prefix. The key opens that run's `artifacts/` and `nodes/` and nothing else:
//! no other run, no API operation, no UI.

use sha2::{Digest, Sha256};

/// Where shared links start.
pub const SHARED_PREFIX: &str = "/shared/";

/// The key that opens run `run_id`'s files: the first 32 hex digits of
/// SHA-256(token, NUL, "run-files", NUL, run id).
pub fn run_files_key(token: &str, run_id: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(token.as_bytes());
    hasher.update(b"\0run-files\0");
    hasher.update(run_id.as_bytes());
    let mut key = hex::encode(hasher.finalize());
    key.truncate(32);
    key
}

/// Whether `path` (a request path, still percent-encoded) is a shared link whose key opens
/// the run it names.
pub fn opens(path: &str, token: &str) -> bool {
    let Some(rest) = path.strip_prefix(SHARED_PREFIX) else {
        return false;
    };
    let mut parts = rest.splitn(3, '/');
    let (Some(key), Some(run)) = (parts.next(), parts.next()) else {
        return false;
    };
    !run.is_empty() && crate::auth::same(key, &run_files_key(token, run))
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

/// The shared link of a run's folder (`artifacts` or `nodes`), ending in `/`.
pub fn shared_folder(token: &str, run_id: &str, area: &str) -> String {
    format!(
        "{SHARED_PREFIX}{}/{}/{}/",
        run_files_key(token, run_id),
        encode_segment(run_id),
        encode_segment(area),
    )
}

/// The shared link of one file of a run.
pub fn shared_link(token: &str, run_id: &str, area: &str, path: &str) -> String {
    let path: Vec<String> = path.split('/').map(encode_segment).collect();
    format!("{}{}", shared_folder(token, run_id, area), path.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_opens_only_its_own_run() {
        let key = run_files_key("secret", "01RUN");
        assert_eq!(key.len(), 32);
        assert_ne!(key, run_files_key("secret", "01OTHER"));
        assert_ne!(key, run_files_key("other-token", "01RUN"));
        assert!(opens(
            &format!("/shared/{key}/01RUN/artifacts/a.png"),
            "secret"
        ));
        assert!(!opens(
            &format!("/shared/{key}/01OTHER/artifacts/a.png"),
            "secret"
        ));
        assert!(!opens("/shared/nonsense/01RUN/artifacts/a.png", "secret"));
        assert!(!opens(
            &format!("/api/{key}/01RUN/artifacts/a.png"),
            "secret"
        ));
        assert!(!opens(&format!("/shared/{key}//artifacts/a.png"), "secret"));
    }

    #[test]
    fn links_encode_each_segment() {
        let link = shared_link(
            "t",
            "01RUN",
            "artifacts",
            "browser/retry_0/my report/index.html",
        );
        let key = run_files_key("t", "01RUN");
        assert_eq!(
            link,
            format!("/shared/{key}/01RUN/artifacts/browser/retry_0/my%20report/index.html")
        );
    }
}
