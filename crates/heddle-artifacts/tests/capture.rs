//! Test-artifact capture: change detection against a snapshot, exclusions, limits, kinds and
//! media types, JUnit sniffing, and the safety rules (symlinks, odd and non-UTF-8 names).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::fs::{self, File};
use std::path::Path;
use std::time::{Duration, SystemTime};

use heddle_artifacts::capture::{
    MANIFEST_FILE, SkipReason, classify, looks_like_junit, media_type, stored_path,
};
use heddle_artifacts::{
    ArtifactKind, CaptureError, CaptureLimits, CaptureReport, Skipped, Snapshot, capture, snapshot,
};

fn write(root: &Path, rel: &str, content: &[u8]) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, content).unwrap();
}

fn paths(report: &CaptureReport) -> Vec<&str> {
    report.artifacts.iter().map(|a| a.path.as_str()).collect()
}

fn skipped<'a>(report: &'a CaptureReport, path: &str) -> &'a Skipped {
    report
        .skipped
        .iter()
        .find(|s| s.path == path)
        .unwrap_or_else(|| panic!("{path} not in skipped: {:?}", report.skipped))
}

/// Work tree and destination in one temp dir; dest is outside the work tree.
fn dirs() -> (tempfile::TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    let dest = tmp.path().join("run/artifacts/test/retry_0");
    fs::create_dir_all(&work).unwrap();
    (tmp, work, dest)
}

#[test]
fn captures_exactly_new_and_changed_files() {
    let (_tmp, work, dest) = dirs();
    write(&work, "test-results/unchanged.png", b"old png");
    write(&work, "test-results/changed.txt", b"before!");
    write(&work, "playwright-report/index.html", b"<html>");
    write(&work, "src/main.rs", b"fn main() {}");
    let before = snapshot(&work);
    assert_eq!(before.len(), 3, "only candidates are fingerprinted");
    assert!(before.get("src/main.rs").is_none());

    // Same size, new content, a later mtime: caught by the mtime.
    write(&work, "test-results/changed.txt", b"after!!");
    let later = SystemTime::now() + Duration::from_secs(5);
    File::options()
        .write(true)
        .open(work.join("test-results/changed.txt"))
        .unwrap()
        .set_modified(later)
        .unwrap();
    write(&work, "test-results/run-1/video.webm", b"webm");
    write(&work, "src/new.png", b"not in an artifact folder");

    let report = capture(&work, &before, &dest, CaptureLimits::default()).unwrap();
    assert_eq!(
        paths(&report),
        ["test-results/changed.txt", "test-results/run-1/video.webm"]
    );
    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
    assert_eq!(report.bytes, 7 + 4);
    assert_eq!(
        fs::read(dest.join("test-results/changed.txt")).unwrap(),
        b"after!!"
    );
    assert!(!dest.join("test-results/unchanged.png").exists());
    assert!(!dest.join("playwright-report").exists());

    // Nothing changes after a fresh snapshot: nothing is captured, no manifest written.
    let again = snapshot(&work);
    let dest2 = dest.with_file_name("retry_1");
    let report = capture(&work, &again, &dest2, CaptureLimits::default()).unwrap();
    assert_eq!(report, CaptureReport::default());
    assert!(!dest2.exists());
}

#[test]
fn excluded_folders_are_never_captured() {
    let (_tmp, work, dest) = dirs();
    for rel in [
        "node_modules/pkg/test-results/shot.png",
        "node_modules/junit.xml",
        "web/node_modules/x/playwright-report/index.html",
        ".git/junit.xml",
        "target/playwright-report/index.html",
        ".cache/ms-playwright/chromium/a.trace.zip",
        ".yarn/cache/junit-pkg.xml",
        ".heddle/runs/r1/test-results/shot.png",
    ] {
        write(&work, rel, b"excluded");
    }
    // Near misses that are captured: only the exact two-segment caches are pruned.
    write(&work, ".cache/other/junit.xml", b"<testsuite/>");
    write(&work, "cache/junit.xml", b"<testsuite/>");
    write(&work, "pkg/cypress/videos/spec.mp4", b"mp4");
    write(&work, "pkg/cypress/screenshots/spec/fail.png", b"png");
    write(&work, "pkg/videos/not-cypress.mp4", b"mp4");

    let report = capture(&work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    assert_eq!(
        paths(&report),
        [
            ".cache/other/junit.xml",
            "cache/junit.xml",
            "pkg/cypress/screenshots/spec/fail.png",
            "pkg/cypress/videos/spec.mp4",
        ]
    );
    assert!(report.skipped.is_empty(), "{:?}", report.skipped);
}

#[test]
fn per_file_and_per_stage_limits_are_enforced() {
    let (_tmp, work, dest) = dirs();
    write(&work, "test-results/a-too-big.bin", &[1; 150]);
    write(&work, "test-results/b.bin", &[2; 100]);
    write(&work, "test-results/c.bin", &[3; 100]);
    write(&work, "test-results/d-over-stage.bin", &[4; 100]);
    write(&work, "test-results/e-fits.bin", &[5; 40]);
    let limits = CaptureLimits {
        max_file_bytes: 100,
        max_stage_bytes: 250,
    };
    let report = capture(&work, &Snapshot::default(), &dest, limits).unwrap();
    assert_eq!(
        paths(&report),
        [
            "test-results/b.bin",
            "test-results/c.bin",
            "test-results/e-fits.bin"
        ]
    );
    assert_eq!(report.bytes, 240);
    let big = skipped(&report, "test-results/a-too-big.bin");
    assert_eq!(big.reason, SkipReason::FileTooLarge);
    assert_eq!(big.size, Some(150));
    assert!(big.detail.contains("100 byte file limit"), "{}", big.detail);
    let over = skipped(&report, "test-results/d-over-stage.bin");
    assert_eq!(over.reason, SkipReason::StageLimit);
    assert!(
        over.detail.contains("250 byte stage limit"),
        "{}",
        over.detail
    );
    assert_eq!(report.skipped.len(), 2);
    assert!(!dest.join("test-results/a-too-big.bin").exists());
    assert!(!dest.join("test-results/d-over-stage.bin").exists());

    let defaults = CaptureLimits::default();
    assert_eq!(defaults.max_file_bytes, 10 * 1024 * 1024);
    assert_eq!(defaults.max_stage_bytes, 50 * 1024 * 1024);
}

#[test]
fn kinds_media_types_and_hashes() {
    let (_tmp, work, dest) = dirs();
    let files: [(&str, ArtifactKind, &str); 11] = [
        (
            "cypress/screenshots/s/a.png",
            ArtifactKind::Screenshot,
            "image/png",
        ),
        (
            "test-results/t/shot.JPEG",
            ArtifactKind::Screenshot,
            "image/jpeg",
        ),
        ("cypress/videos/a.mp4", ArtifactKind::Video, "video/mp4"),
        (
            "test-results/t/video.webm",
            ArtifactKind::Video,
            "video/webm",
        ),
        (
            "test-results/t/trace.zip",
            ArtifactKind::Trace,
            "application/zip",
        ),
        (
            "e2e/login.trace.zip",
            ArtifactKind::Trace,
            "application/zip",
        ),
        (
            "playwright-report/index.html",
            ArtifactKind::PlaywrightReport,
            "text/html",
        ),
        (
            "playwright-report/data/x.json",
            ArtifactKind::PlaywrightReport,
            "application/json",
        ),
        (
            "playwright-report/data/img.svg",
            ArtifactKind::Screenshot,
            "image/svg+xml",
        ),
        (
            "test-results/.last-run.json",
            ArtifactKind::Other,
            "application/json",
        ),
        (
            "test-results/t/error-context",
            ArtifactKind::Other,
            "application/octet-stream",
        ),
    ];
    for (rel, _, _) in files {
        write(&work, rel, rel.as_bytes());
    }
    let report = capture(&work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    assert_eq!(report.artifacts.len(), files.len(), "{:?}", report.skipped);
    for (rel, kind, media) in files {
        let a = report.artifacts.iter().find(|a| a.path == rel).unwrap();
        assert_eq!((a.kind, a.media_type.as_str()), (kind, media), "{rel}");
        assert_eq!(a.size, rel.len() as u64);
    }
    let mp4 = report
        .artifacts
        .iter()
        .find(|a| a.path == "cypress/videos/a.mp4")
        .unwrap();
    assert_eq!(mp4.sha256.len(), 64);
    assert!(mp4.sha256.chars().all(|c| c.is_ascii_hexdigit()));
    assert_ne!(mp4.sha256, report.artifacts[0].sha256);
    assert_eq!(media_type("a/b.CSS"), "text/css");
    assert_eq!(media_type("x.js"), "text/javascript");
    assert_eq!(media_type("notes.txt"), "text/plain");
    assert_eq!(media_type(".png"), "application/octet-stream");
    let json = serde_json::to_string(&ArtifactKind::PlaywrightReport).unwrap();
    assert_eq!(json, "\"playwright_report\"");
}

#[test]
fn sha256_matches_the_content() {
    let (_tmp, work, dest) = dirs();
    write(&work, "test-results/abc.txt", b"abc");
    let report = capture(&work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    assert_eq!(
        report.artifacts[0].sha256,
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn junit_is_detected_by_root_element() {
    let (_tmp, work, dest) = dirs();
    write(
        &work,
        "test-results/results.xml",
        b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- pw -->\n<testsuites tests=\"1\">",
    );
    write(
        &work,
        "test-results/suite.xml",
        b"\n<testsuite name=\"x\"/>",
    );
    write(
        &work,
        "test-results/config.xml",
        b"<?xml version=\"1.0\"?><config/>",
    );
    write(&work, "test-results/near.xml", b"<testsuitesummary/>");
    write(
        &work,
        "reports/junit-rust.xml",
        b"<testsuites></testsuites>",
    );
    write(&work, "reports/other.xml", b"<testsuites/>");
    let report = capture(&work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    let kind = |p: &str| report.artifacts.iter().find(|a| a.path == p).unwrap().kind;
    assert_eq!(kind("test-results/results.xml"), ArtifactKind::Junit);
    assert_eq!(kind("test-results/suite.xml"), ArtifactKind::Junit);
    assert_eq!(kind("test-results/config.xml"), ArtifactKind::Other);
    assert_eq!(kind("test-results/near.xml"), ArtifactKind::Other);
    assert_eq!(kind("reports/junit-rust.xml"), ArtifactKind::Junit);
    // Not a candidate: neither in an artifact folder nor named junit*.xml.
    assert!(!paths(&report).contains(&"reports/other.xml"));
    assert!(looks_like_junit(b"<ns:testsuite>"));
    assert!(!looks_like_junit(b"<html>"));
    assert_eq!(classify("junit.xml", b"<html>"), ArtifactKind::Junit);
}

#[cfg(unix)]
#[test]
fn symlinks_outside_the_tree_are_refused_and_reported() {
    use std::os::unix::fs::symlink;
    let (tmp, work, dest) = dirs();
    write(tmp.path(), "secret/key.txt", b"top secret");
    write(&work, "shots/real.png", b"real png");
    let before = snapshot(&work);

    symlink(
        tmp.path().join("secret/key.txt"),
        work.join("leak.trace.zip"),
    )
    .unwrap();
    fs::create_dir_all(work.join("test-results")).unwrap();
    symlink("../../secret/key.txt", work.join("test-results/leak.png")).unwrap();
    symlink(tmp.path().join("secret"), work.join("test-results/leakdir")).unwrap();
    symlink("../shots/real.png", work.join("test-results/inside.png")).unwrap();
    symlink("missing.png", work.join("test-results/broken.png")).unwrap();
    // A symlinked folder is never entered, even towards an artifact folder.
    symlink(tmp.path().join("secret"), work.join("playwright-report")).unwrap();

    let report = capture(&work, &before, &dest, CaptureLimits::default()).unwrap();
    assert_eq!(paths(&report), ["test-results/inside.png"]);
    assert_eq!(
        fs::read(dest.join("test-results/inside.png")).unwrap(),
        b"real png"
    );
    for rel in ["leak.trace.zip", "test-results/leak.png"] {
        let s = skipped(&report, rel);
        assert_eq!(s.reason, SkipReason::SymlinkOutside, "{rel}");
        assert!(s.detail.contains("secret"), "{}", s.detail);
        assert!(!dest.join(rel).exists());
    }
    assert_eq!(
        skipped(&report, "test-results/leakdir").reason,
        SkipReason::SymlinkOutside
    );
    assert_eq!(
        skipped(&report, "test-results/broken.png").reason,
        SkipReason::SymlinkBroken
    );
    assert_eq!(report.skipped.len(), 4, "{:?}", report.skipped);
    let all = fs::read_dir(&dest).unwrap().count();
    assert_eq!(all, 2, "only test-results/ and the manifest");
}

#[test]
fn odd_names_are_refused() {
    let (_tmp, work, dest) = dirs();
    write(&work, "test-results/..\\..\\evil.png", b"backslashes");
    write(&work, "test-results/line\nbreak.png", b"newline");
    write(&work, "test-results/fine name.png", b"ok");
    let report = capture(&work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    assert_eq!(paths(&report), ["test-results/fine name.png"]);
    for rel in [
        "test-results/..\\..\\evil.png",
        "test-results/line\nbreak.png",
    ] {
        assert_eq!(skipped(&report, rel).reason, SkipReason::UnsafePath);
    }
    assert!(!dest.join("test-results/..\\..\\evil.png").exists());

    assert_eq!(stored_path(Path::new("./a/./b.png")).unwrap(), "a/b.png");
    for odd in [
        "../etc/passwd",
        "a/../../b",
        "/etc/passwd",
        "",
        ".",
        "a/b\\c",
    ] {
        assert!(stored_path(Path::new(odd)).is_err(), "{odd:?} accepted");
    }
}

#[test]
fn manifest_is_written_and_parses() {
    let (_tmp, work, dest) = dirs();
    write(&work, "test-results/a.png", b"png");
    write(&work, "test-results/big.webm", &[0; 64]);
    let limits = CaptureLimits {
        max_file_bytes: 10,
        max_stage_bytes: 100,
    };
    let report = capture(&work, &Snapshot::default(), &dest, limits).unwrap();
    let text = fs::read_to_string(dest.join(MANIFEST_FILE)).unwrap();
    assert!(text.contains("\n  "), "pretty-printed");
    let parsed: CaptureReport = serde_json::from_str(&text).unwrap();
    assert_eq!(parsed, report);
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["artifacts"][0]["path"], "test-results/a.png");
    assert_eq!(value["artifacts"][0]["kind"], "screenshot");
    assert_eq!(value["artifacts"][0]["media_type"], "image/png");
    assert_eq!(value["skipped"][0]["reason"], "file_too_large");
    assert_eq!(value["bytes"], 3);
}

/// A destination that cannot be written is one error naming it, not a skip per file.
#[test]
fn a_destination_behind_a_file_is_an_error_naming_it() {
    let (_tmp, work, dest) = dirs();
    write(&work, "test-results/a.png", b"png");
    write(&work, "test-results/b.png", b"png");
    let artifacts = dest.parent().unwrap().parent().unwrap();
    fs::create_dir_all(artifacts.parent().unwrap()).unwrap();
    fs::write(artifacts, b"a file where the artifacts folder goes").unwrap();
    let error = capture(&work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap_err();
    let CaptureError::Destination { path, cause } = &error;
    assert_eq!(path, &dest);
    assert!(cause.contains("directory"), "{cause}");
    assert!(
        error.to_string().contains(&dest.display().to_string()),
        "{error}"
    );
}

#[test]
fn dest_inside_the_work_tree_is_not_scanned() {
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path();
    write(work, "test-results/a.png", b"png");
    let dest = work.join("out/test-results/retry_0");
    let first = capture(work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    assert_eq!(paths(&first), ["test-results/a.png"]);
    // A second pass into the same dest does not pick up the first pass's copies.
    let second = capture(work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    assert_eq!(paths(&second), ["test-results/a.png"]);
}

#[cfg(unix)]
#[test]
fn non_utf8_names_are_reported_without_panic() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let (_tmp, work, dest) = dirs();
    let results = work.join("test-results");
    fs::create_dir_all(results.join(OsStr::from_bytes(b"dir\xfe"))).unwrap();
    fs::write(results.join(OsStr::from_bytes(b"bad\xff.png")), b"x").unwrap();
    fs::write(
        results
            .join(OsStr::from_bytes(b"dir\xfe"))
            .join("inner.png"),
        b"y",
    )
    .unwrap();
    fs::write(work.join(OsStr::from_bytes(b"junit-\xff.xml")), b"z").unwrap();
    write(&work, "test-results/ok.png", b"ok");
    let before = snapshot(&work);
    assert_eq!(before.len(), 4);
    let report = capture(&work, &Snapshot::default(), &dest, CaptureLimits::default()).unwrap();
    assert_eq!(paths(&report), ["test-results/ok.png"]);
    assert_eq!(report.skipped.len(), 3, "{:?}", report.skipped);
    for s in &report.skipped {
        assert_eq!(s.reason, SkipReason::NonUtf8Name, "{s}");
        assert!(s.path.contains('\u{FFFD}'), "{}", s.path);
    }
    // Unchanged since the snapshot: not reported again.
    let report = capture(&work, &before, &dest, CaptureLimits::default()).unwrap();
    assert_eq!(report, CaptureReport::default());
}
