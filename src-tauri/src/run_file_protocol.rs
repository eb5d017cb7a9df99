//! The `heddle-run://` scheme: the window's way to show a run's files (screenshots, videos,
//! logs, reports), like the HTTP door's `/api/runs/{run}/{area}/{path}`. A URL is
//! `heddle-run://localhost/{run}/{artifacts|nodes}/{path}`; heddle-api confines the path to
//! that folder. Every file gets the same sandboxing policy as over HTTP (`run_file_policy`:
//! a page runs its scripts in an opaque origin, anything else, an SVG or XML included, runs
//! none); `Range` requests are answered with the part asked for, so videos seek.

use heddle_api::{
    ApiError, ErrorCode, RunFileArea, RunFileRequest, RunHost, ServedFile, percent_decode,
};
use tauri::Manager;
use tauri::http::{Response, StatusCode, header};

use crate::byte_range::{self, RangeAnswer};

/// The scheme's name.
pub const SCHEME: &str = "heddle-run";

/// A URL path's `{run}`, `{area}` and `{path…}` parts, still %-encoded.
fn path_parts(uri_path: &str) -> Option<(&str, &str, &str)> {
    let mut parts = uri_path.trim_start_matches('/').splitn(3, '/');
    Some((parts.next()?, parts.next()?, parts.next()?))
}

/// The request a URL path (`/{run}/{area}/{path…}`) names.
pub fn parse_path(uri_path: &str) -> Result<RunFileRequest, ApiError> {
    let invalid = |why: &str| {
        ApiError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{SCHEME}:{uri_path}: {why}; a run file is {SCHEME}://localhost/RUN/artifacts|nodes/PATH"
            ),
        )
    };
    let Some((run, area, path)) = path_parts(uri_path) else {
        return Err(invalid("too few parts"));
    };
    let area = RunFileArea::parse(area).ok_or_else(|| invalid("unknown folder"))?;
    let run_id = percent_decode(run).ok_or_else(|| invalid("a broken %-escape"))?;
    let path = percent_decode(path).ok_or_else(|| invalid("a broken %-escape"))?;
    Ok(RunFileRequest { run_id, area, path })
}

fn failure(error: &ApiError) -> Response<Vec<u8>> {
    let body = serde_json::to_vec(error).unwrap_or_default();
    Response::builder()
        .status(
            StatusCode::from_u16(error.code.http_status())
                .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        )
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .body(body)
        .unwrap_or_default()
}

/// The scheme's handler: answers each request on a thread of its own (reading a file blocks).
pub fn handle<R: tauri::Runtime>(
    ctx: tauri::UriSchemeContext<'_, R>,
    request: tauri::http::Request<Vec<u8>>,
    responder: tauri::UriSchemeResponder,
) {
    let host = ctx.app_handle().state::<RunHost>().inner().clone();
    let path = request.uri().path().to_owned();
    let folder = page_folder(request.uri());
    let header_text = |name| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let range = header_text(header::RANGE);
    let origin = header_text(header::ORIGIN);
    std::thread::spawn(move || {
        let mut response = respond(&host, &path, range.as_deref(), folder.as_deref());
        if let Some(allowed) = origin.as_deref().and_then(app_origin)
            && let Ok(value) = header::HeaderValue::from_str(allowed)
        {
            response
                .headers_mut()
                .insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, value);
        }
        responder.respond(response)
    });
}

/// The URL of the folder a request's file is in
/// (`heddle-run://localhost/RUN/artifacts/report/`), which a page's policy names as its own
/// (see `sandboxed_page_policy`): a report loads what lies under its own folder.
pub fn page_folder(uri: &tauri::http::Uri) -> Option<String> {
    let scheme = uri.scheme_str()?;
    let authority = uri.authority()?.as_str();
    let (run, area, path) = path_parts(uri.path())?;
    let folder = path
        .rsplit_once('/')
        .map_or(String::new(), |(f, _)| format!("{f}/"));
    Some(format!("{scheme}://{authority}/{run}/{area}/{folder}"))
}

/// `origin` when it is the app's own page (`tauri://localhost`, or `http://tauri.localhost`
/// where the webview serves it over http): only the app may read run files from a script
/// (JUnit XML, images for the pixel difference), not a report's sandboxed page.
pub fn app_origin(origin: &str) -> Option<&str> {
    matches!(
        origin,
        "tauri://localhost" | "http://tauri.localhost" | "https://tauri.localhost"
    )
    .then_some(origin)
}

/// Answers one request of the scheme (blocking: reads the file, or the part of it a `Range`
/// header asks for). `folder` is the URL of the file's run folder ([`page_folder`]).
pub fn respond(
    host: &RunHost,
    uri_path: &str,
    range: Option<&str>,
    folder: Option<&str>,
) -> Response<Vec<u8>> {
    match parse_path(uri_path).and_then(|req| host.run_file(&req)) {
        Ok(served) => answer_file(&served, range, folder),
        Err(error) => failure(&error),
    }
}

/// The response for a file that may be served: its bytes (or the part `range` asks for)
/// under its type, `nosniff` and its policy.
pub fn answer_file(
    served: &ServedFile,
    range: Option<&str>,
    folder: Option<&str>,
) -> Response<Vec<u8>> {
    let part = byte_range::answer(range, served.size);
    if part == RangeAnswer::Unsatisfiable {
        return Response::builder()
            .status(StatusCode::RANGE_NOT_SATISFIABLE)
            .header(header::CONTENT_RANGE, format!("bytes */{}", served.size))
            .body(Vec::new())
            .unwrap_or_default();
    }
    let bytes = match read_part(&served.path, part) {
        Ok(bytes) => bytes,
        Err(e) => return failure(&ApiError::from_io(&served.path, &e)),
    };
    let mut response = Response::builder()
        .header(header::CONTENT_TYPE, served.media_type)
        .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
        .header(header::ACCEPT_RANGES, "bytes")
        .header(
            header::CONTENT_SECURITY_POLICY,
            served.policy(folder.filter(|_| served.is_html())),
        );
    if let RangeAnswer::Part { start, end } = part {
        response = response.status(StatusCode::PARTIAL_CONTENT).header(
            header::CONTENT_RANGE,
            format!("bytes {start}-{end}/{}", served.size),
        );
    }
    response.body(bytes).unwrap_or_default()
}

fn read_part(path: &std::path::Path, part: RangeAnswer) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let RangeAnswer::Part { start, end } = part else {
        return std::fs::read(path);
    };
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(end - start + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn a_url_path_names_the_run_folder_and_file() {
        let req = parse_path("/01JRUN/artifacts/test/retry_0/shots/home%20page.png").unwrap();
        assert_eq!(req.run_id, "01JRUN");
        assert_eq!(req.area, RunFileArea::Artifacts);
        assert_eq!(req.path, "test/retry_0/shots/home page.png");
        assert_eq!(
            parse_path("/r/nodes/plan/response.md").unwrap().area,
            RunFileArea::Nodes
        );
    }

    #[test]
    fn escapes_are_decoded_before_the_confinement_check_sees_them() {
        // `%2e%2e` reaches heddle-api as `..`, which refuses it (see heddle-api's tests).
        assert_eq!(
            parse_path("/r/artifacts/%2e%2e/manifest.json")
                .unwrap()
                .path,
            "../manifest.json"
        );
    }

    /// A fresh `artifacts` folder of the test's own, beside a secret file.
    fn artifacts_folder(test: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("heddle-{test}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("artifacts/report")).unwrap();
        std::fs::write(dir.join("secret.txt"), "secret").unwrap();
        dir.join("artifacts")
    }

    fn header(response: &Response<Vec<u8>>, name: header::HeaderName) -> &str {
        response
            .headers()
            .get(&name)
            .map(|v| v.to_str().unwrap())
            .unwrap_or_else(|| panic!("no {name}"))
    }

    #[test]
    fn hostile_files_are_served_inert_and_pages_only_in_a_sandbox() {
        let root = artifacts_folder("hostile");
        let script = "<script>parent.postMessage(document.cookie,'*')</script>";
        let svg = format!(r#"<svg xmlns="http://www.w3.org/2000/svg">{script}</svg>"#);
        let xml = format!(
            r#"<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">{script}</html>"#
        );
        for (name, text) in [
            ("evil.svg", svg.as_str()),
            ("junit.xml", xml.as_str()),
            ("page.xhtml", xml.as_str()),
            ("shot.png", "\u{89}PNG"),
            ("report/index.html", script),
        ] {
            std::fs::write(root.join(name), text).unwrap();
        }
        let folder = "heddle-run://localhost/R/artifacts/report/";
        for (name, media_type) in [
            ("evil.svg", "image/svg+xml"),
            ("junit.xml", "application/xml"),
            ("page.xhtml", "application/octet-stream"),
            ("shot.png", "image/png"),
        ] {
            let served = heddle_api::confined_file(&root, name).unwrap();
            for range in [None, Some("bytes=0-3")] {
                let response = answer_file(&served, range, Some(folder));
                assert_eq!(
                    header(&response, header::CONTENT_TYPE),
                    media_type,
                    "{name}"
                );
                assert_eq!(
                    header(&response, header::CONTENT_SECURITY_POLICY),
                    heddle_api::INERT_FILE_POLICY,
                    "{name}"
                );
                assert_eq!(header(&response, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
            }
        }
        let page = heddle_api::confined_file(&root, "report/index.html").unwrap();
        let response = answer_file(&page, None, Some(folder));
        let policy = header(&response, header::CONTENT_SECURITY_POLICY);
        assert!(
            policy.starts_with("sandbox allow-scripts allow-popups;"),
            "{policy}"
        );
        assert!(policy.contains(&format!("'self' {folder} ")), "{policy}");
        assert!(!policy.contains("allow-same-origin"), "{policy}");
        std::fs::remove_dir_all(root.parent().unwrap()).unwrap();
    }

    #[test]
    fn traversal_and_encoding_tricks_never_reach_outside_the_folder() {
        let root = artifacts_folder("traversal");
        std::fs::write(root.join("ok.txt"), "ok").unwrap();
        #[cfg(unix)]
        {
            let outside = root.parent().unwrap();
            std::os::unix::fs::symlink(outside.join("secret.txt"), root.join("link.txt")).unwrap();
            std::os::unix::fs::symlink(outside, root.join("up")).unwrap();
        }
        let served =
            |raw: &str| parse_path(raw).and_then(|req| heddle_api::confined_file(&root, &req.path));
        assert!(served("/r/artifacts/ok.txt").is_ok());
        for raw in [
            "/r/artifacts/../secret.txt",
            "/r/artifacts/%2e%2e/secret.txt",
            "/r/artifacts/%2E%2E%2Fsecret.txt",
            "/r/artifacts/report/..%2f..%2fsecret.txt",
            "/r/artifacts/..%5csecret.txt",
            "/r/artifacts/..\\secret.txt",
            "/r/artifacts/ok.txt%00.png",
            "/r/artifacts/%2fetc%2fpasswd",
            "/r/artifacts//etc/passwd",
            "/r/artifacts/%c0%ae%c0%ae/secret.txt",
            "/r/artifacts/%c0%af",
            "/r/artifacts/link.txt",
            "/r/artifacts/up/secret.txt",
            "/r/artifacts/report",
        ] {
            assert!(served(raw).is_err(), "{raw} was served");
        }
        std::fs::remove_dir_all(root.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_part_is_read_from_its_offset() {
        let path = std::env::temp_dir().join(format!("heddle-range-{}.bin", std::process::id()));
        std::fs::write(&path, b"0123456789").unwrap();
        let part = read_part(&path, RangeAnswer::Part { start: 3, end: 6 }).unwrap();
        let whole = read_part(&path, RangeAnswer::Whole).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(part, b"3456");
        assert_eq!(whole, b"0123456789");
    }

    #[test]
    fn a_page_folder_is_the_run_folder_of_its_url() {
        let uri: tauri::http::Uri =
            "heddle-run://localhost/01J%20RUN/artifacts/b/retry_0/report/index.html"
                .parse()
                .unwrap();
        assert_eq!(
            page_folder(&uri).as_deref(),
            Some("heddle-run://localhost/01J%20RUN/artifacts/b/retry_0/report/")
        );
        let top: tauri::http::Uri = "heddle-run://localhost/r/artifacts/index.html"
            .parse()
            .unwrap();
        assert_eq!(
            page_folder(&top).as_deref(),
            Some("heddle-run://localhost/r/artifacts/")
        );
        let windows: tauri::http::Uri = "http://heddle-run.localhost/r/nodes/plan/out.html"
            .parse()
            .unwrap();
        assert_eq!(
            page_folder(&windows).as_deref(),
            Some("http://heddle-run.localhost/r/nodes/plan/")
        );
        let short: tauri::http::Uri = "heddle-run://localhost/r".parse().unwrap();
        assert_eq!(page_folder(&short), None);
    }

    #[test]
    fn only_the_app_page_may_read_files_from_a_script() {
        assert_eq!(app_origin("tauri://localhost"), Some("tauri://localhost"));
        assert_eq!(
            app_origin("http://tauri.localhost"),
            Some("http://tauri.localhost")
        );
        assert_eq!(app_origin("null"), None);
        assert_eq!(app_origin("http://evil.example"), None);
    }

    #[test]
    fn malformed_paths_are_refused() {
        for path in [
            "/r/artifacts",
            "/r/worktree/README.md",
            "/r/artifacts/%zz",
            "/r/artifacts/%ff%fe",
        ] {
            let err = parse_path(path).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidRequest, "{path}");
        }
    }
}
