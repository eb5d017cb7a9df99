//! Serving a run's files stays inside the folder asked for, whatever the path tries.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_api::{ErrorCode, confined_file};

fn layout() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("run/artifacts");
    std::fs::create_dir_all(root.join("test/retry_0/shots")).unwrap();
    std::fs::write(root.join("test/retry_0/shots/home.png"), b"\x89PNG").unwrap();
    std::fs::write(root.join("test/retry_0/report.html"), "<html></html>").unwrap();
    std::fs::write(dir.path().join("run/manifest.json"), "{}").unwrap();
    std::fs::write(dir.path().join("secret.txt"), "secret").unwrap();
    (dir, root)
}

#[test]
fn a_file_inside_is_served_with_its_media_type() {
    let (_dir, root) = layout();
    let served = confined_file(&root, "test/retry_0/shots/home.png").unwrap();
    assert_eq!(served.media_type, "image/png");
    assert_eq!(served.size, 4);
    assert!(served.path.ends_with("test/retry_0/shots/home.png"));
    assert!(!served.is_html());
    assert!(
        confined_file(&root, "test/retry_0/report.html")
            .unwrap()
            .is_html()
    );
}

#[test]
fn climbing_out_is_refused() {
    let (dir, root) = layout();
    let outside = dir.path().join("secret.txt").display().to_string();
    for path in [
        "../manifest.json",
        "test/../../manifest.json",
        "./test/retry_0/report.html",
        outside.as_str(),
        "/etc/passwd",
        "..\\manifest.json",
        "test\\retry_0\\report.html",
        "",
        "test/retry_0/report.html\0.png",
    ] {
        let err = confined_file(&root, path).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidRequest, "{path:?}: {err:?}");
        assert!(err.message.contains("refused"), "{path:?}: {err:?}");
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_folder_is_refused_and_one_inside_is_followed() {
    let (dir, root) = layout();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), root.join("leak.txt")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("run"), root.join("up")).unwrap();
    std::os::unix::fs::symlink(
        root.join("test/retry_0/shots/home.png"),
        root.join("alias.png"),
    )
    .unwrap();
    for path in ["leak.txt", "up/manifest.json"] {
        let err = confined_file(&root, path).unwrap_err();
        assert_eq!(err.code, ErrorCode::InvalidRequest, "{path}: {err:?}");
        assert!(err.message.contains("symlink"), "{err:?}");
    }
    assert_eq!(
        confined_file(&root, "alias.png").unwrap().media_type,
        "image/png"
    );
}

#[test]
fn folders_and_missing_files_are_not_served() {
    let (_dir, root) = layout();
    assert_eq!(
        confined_file(&root, "test/retry_0").unwrap_err().code,
        ErrorCode::WrongKind
    );
    let missing = confined_file(&root, "test/retry_0/nope.png").unwrap_err();
    assert_eq!(missing.code, ErrorCode::NotFound);
    assert!(missing.message.contains("nope.png"), "{missing:?}");
}
