//! Classifying captured files: the [`ArtifactKind`] of a stored path, its media type from the
//! extension, and JUnit detection by the XML root element.

pub use heddle_engine::run_records::ArtifactKind;

/// The lower-cased extension of the last segment of `path` (without the dot), if any.
fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, ext) = name.rsplit_once('.')?;
    if stem.is_empty() {
        return None;
    }
    Some(ext.to_ascii_lowercase())
}

/// The media type for a stored path, from its extension; `application/octet-stream` when the
/// extension is unknown or missing.
pub fn media_type(path: &str) -> &'static str {
    let Some(ext) = extension(path) else {
        return "application/octet-stream";
    };
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "bmp" => "image/bmp",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "webm" => "video/webm",
        "mp4" => "video/mp4",
        "mov" => "video/quicktime",
        "mkv" => "video/x-matroska",
        "avi" => "video/x-msvideo",
        "html" | "htm" => "text/html",
        "json" | "map" => "application/json",
        "xml" => "application/xml",
        "zip" => "application/zip",
        "gz" => "application/gzip",
        "pdf" => "application/pdf",
        "txt" | "log" => "text/plain",
        "md" => "text/markdown",
        "csv" => "text/csv",
        "css" => "text/css",
        "js" | "mjs" | "cjs" => "text/javascript",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        _ => "application/octet-stream",
    }
}

/// Whether a file name (the last path segment) is one captured wherever it appears:
/// `junit*.xml` or `*.trace.zip` (ASCII case-insensitive).
pub(crate) fn is_loose_candidate(name: &[u8]) -> bool {
    is_junit_name(name) || ends_with_ignore_case(name, b".trace.zip")
}

/// `junit*.xml`, ASCII case-insensitive.
fn is_junit_name(name: &[u8]) -> bool {
    name.len() >= b"junit.xml".len()
        && name[..5].eq_ignore_ascii_case(b"junit")
        && ends_with_ignore_case(name, b".xml")
}

fn ends_with_ignore_case(name: &[u8], suffix: &[u8]) -> bool {
    name.len() >= suffix.len() && name[name.len() - suffix.len()..].eq_ignore_ascii_case(suffix)
}

/// Whether the start of an XML document has `<testsuites>` or `<testsuite>` as its root
/// element. Skips a byte-order mark, the XML declaration, processing instructions, comments
/// and a doctype; a namespace prefix on the root (`<ns:testsuite>`) is accepted.
pub fn looks_like_junit(head: &[u8]) -> bool {
    let mut rest = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    loop {
        rest = rest.trim_ascii_start();
        let skip_to: &[u8] = if rest.starts_with(b"<?") {
            b"?>"
        } else if rest.starts_with(b"<!--") {
            b"-->"
        } else if rest.starts_with(b"<!") {
            b">"
        } else {
            break;
        };
        match find(rest, skip_to) {
            Some(at) => rest = &rest[at + skip_to.len()..],
            None => return false,
        }
    }
    let Some(tag) = rest.strip_prefix(b"<") else {
        return false;
    };
    let end = tag
        .iter()
        .position(|b| b.is_ascii_whitespace() || matches!(b, b'>' | b'/'))
        .unwrap_or(tag.len());
    let name = &tag[..end];
    let local = match name.iter().rposition(|&b| b == b':') {
        Some(colon) => &name[colon + 1..],
        None => name,
    };
    // A name cut off by the end of `head` is not a match.
    end < tag.len() && (local == b"testsuites" || local == b"testsuite")
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Classifies a stored relative path (`/`-separated). `head` is the start of the file's
/// content, used to recognise JUnit XML by its root element.
pub fn classify(path: &str, head: &[u8]) -> ArtifactKind {
    let name = path.rsplit('/').next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    if lower == "trace.zip" || lower.ends_with(".trace.zip") {
        return ArtifactKind::Trace;
    }
    let ext = extension(path);
    let ext = ext.as_deref().unwrap_or("");
    if ext == "xml" && (is_junit_name(name.as_bytes()) || looks_like_junit(head)) {
        return ArtifactKind::Junit;
    }
    match ext {
        "png" | "jpg" | "jpeg" | "gif" | "webp" | "bmp" | "svg" => ArtifactKind::Screenshot,
        "webm" | "mp4" | "mov" | "mkv" | "avi" => ArtifactKind::Video,
        _ if path.split('/').any(|s| s == "playwright-report") => ArtifactKind::PlaywrightReport,
        _ => ArtifactKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn junit_roots() {
        assert!(looks_like_junit(b"<testsuites name=\"x\">"));
        assert!(looks_like_junit(
            b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- c -->\n<testsuite>"
        ));
        assert!(looks_like_junit(b"<j:testsuite/>"));
        assert!(!looks_like_junit(b"<testsuitesx>"));
        assert!(!looks_like_junit(b"<testsuite"));
        assert!(!looks_like_junit(b"<html><testsuite>"));
        assert!(!looks_like_junit(b"<!-- unterminated"));
    }

    #[test]
    fn loose_names() {
        assert!(is_loose_candidate(b"junit.xml"));
        assert!(is_loose_candidate(b"JUnit-results.XML"));
        assert!(is_loose_candidate(b"a.trace.zip"));
        assert!(!is_loose_candidate(b"junit.xm"));
        assert!(!is_loose_candidate(b"trace.zip"));
    }
}
