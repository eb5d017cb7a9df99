//! The policies every run file is served under, by every door (HTTP and the desktop's
//! `heddle-run://` scheme), so a file a run captured (written by an agent or a test suite,
//! so untrusted) never runs script in Heddle's own origin:
//! - a page (`text/html`, a Playwright report) runs in a sandbox: its own scripts in an
//!   opaque origin, without the UI's token, cookie or API;
//! - everything else is inert: sandboxed with no script and nothing loaded but its own
//!   inline styles and images, so an SVG or XML file opened directly runs nothing, while
//!   images and videos still display (an `<img>` or `<video>` ignores the policy).

/// The Content Security Policy of any run file that is not a page: no script, no
/// plugin, no form, nothing fetched; inline styles and images (an image document and an
/// SVG need them), and the media the document itself is (a video opened directly).
pub const INERT_FILE_POLICY: &str = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; media-src 'self'";

/// The Content Security Policy a served HTML file (a Playwright report) gets: it may run its
/// own scripts and show its own resources, in an opaque origin without the UI's token or API.
///
/// `folder` is the absolute URL of the folder the page is in, ending in `/` (such as
/// `heddle-run://localhost/RUN/artifacts/report/`). It is named as a source next to `'self'`
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

/// Whether a browser shows a file of this media type as a page the viewer renders on
/// purpose (in a sandbox that lets its scripts run). Only `text/html` is.
pub fn is_page(media_type: &str) -> bool {
    media_type == "text/html"
}

/// The policy of a run file of `media_type` (see the module's doc); `folder` as for
/// [`sandboxed_page_policy`].
pub fn run_file_policy(media_type: &str, folder: Option<&str>) -> String {
    if is_page(media_type) {
        sandboxed_page_policy(folder)
    } else {
        INERT_FILE_POLICY.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_policy_names_its_own_folder_beside_self() {
        let policy = sandboxed_page_policy(Some("heddle-run://localhost/01RUN/artifacts/r/"));
        assert!(
            policy.starts_with("sandbox allow-scripts allow-popups;"),
            "{policy}"
        );
        assert!(
            policy.contains("default-src 'self' heddle-run://localhost/01RUN/artifacts/r/ "),
            "{policy}"
        );
        assert!(
            policy.contains("connect-src 'self' heddle-run://localhost/01RUN/artifacts/r/ "),
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

    #[test]
    fn every_file_but_a_page_is_inert() {
        for media_type in [
            "image/svg+xml",
            "application/xml",
            "text/xml",
            "application/xhtml+xml",
            "application/pdf",
            "text/javascript",
            "application/octet-stream",
            "image/png",
            "video/webm",
        ] {
            let policy = run_file_policy(media_type, Some("http://127.0.0.1:1/f/"));
            assert_eq!(policy, INERT_FILE_POLICY, "{media_type}");
        }
        // Sandboxed without `allow-scripts`, and nothing is fetched by default.
        let first = INERT_FILE_POLICY.split(';').next().unwrap_or_default();
        assert_eq!(first, "sandbox");
        assert!(INERT_FILE_POLICY.contains("default-src 'none'"));
        assert!(!INERT_FILE_POLICY.contains("script"));
        assert!(run_file_policy("text/html", None).starts_with("sandbox allow-scripts"));
    }
}
