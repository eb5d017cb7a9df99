#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Every path-taking tool refuses paths outside the work dir, including through symbolic
//! links, and accepts absolute paths inside it.

use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::Duration;

use heddle_llm::tools::{ToolContext, ToolOutcome, Toolbox};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

/// A sandbox: `outside/` holds `secret.txt`; `work/` is the work dir with `inside.txt`, a
/// link `link.txt` to the secret and a link `linkdir` to `outside/`.
struct Sandbox {
    _temp: tempfile::TempDir,
    work: std::path::PathBuf,
    outside: std::path::PathBuf,
}

fn sandbox() -> Sandbox {
    let temp = tempfile::tempdir().unwrap();
    let work = temp.path().join("work");
    let outside = temp.path().join("outside");
    std::fs::create_dir_all(work.join("src")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "secret needle\n").unwrap();
    std::fs::write(work.join("inside.txt"), "inside needle\n").unwrap();
    std::fs::write(work.join("src/lib.rs"), "needle\n").unwrap();
    symlink(outside.join("secret.txt"), work.join("link.txt")).unwrap();
    symlink(&outside, work.join("linkdir")).unwrap();
    Sandbox {
        _temp: temp,
        work,
        outside,
    }
}

async fn call(dir: &Path, name: &str, args: Value) -> ToolOutcome {
    Toolbox::new(ToolContext {
        work_dir: dir.to_path_buf(),
        env: Vec::new(),
        pass_env: Vec::new(),
        shell_timeout: Duration::from_secs(10),
        output_limit: 20_000,
    })
    .call(name, &args, &CancellationToken::new())
    .await
}

const ESCAPES: [&str; 5] = [
    "../x",
    "../../etc/passwd",
    "/etc/passwd",
    "link.txt",
    "linkdir/secret.txt",
];

fn assert_refused(outcome: &ToolOutcome, path: &str) {
    assert!(outcome.is_error, "{path}: {}", outcome.output);
    assert!(
        outcome.output.contains("outside the work dir"),
        "{path}: {}",
        outcome.output
    );
    assert!(
        outcome.output.contains(&format!("`{path}`")),
        "{path}: {}",
        outcome.output
    );
    assert!(outcome.touched.is_empty());
}

#[tokio::test]
async fn read_refuses_escapes() {
    let s = sandbox();
    for path in ESCAPES {
        let outcome = call(&s.work, "read_file", json!({"path": path})).await;
        assert_refused(&outcome, path);
        assert!(!outcome.output.contains("secret needle"));
    }
}

#[tokio::test]
async fn write_refuses_escapes_and_leaves_outside_untouched() {
    let s = sandbox();
    for path in ESCAPES
        .into_iter()
        .chain(["linkdir/new.txt", "../outside/new.txt"])
    {
        if path.starts_with('/') {
            continue; // never try to write system files, even refused
        }
        let outcome = call(
            &s.work,
            "write_file",
            json!({"path": path, "content": "pwned"}),
        )
        .await;
        assert_refused(&outcome, path);
    }
    let refused = call(
        &s.work,
        "write_file",
        json!({"path": "/etc/heddle-test-should-not-exist", "content": "x"}),
    )
    .await;
    assert_refused(&refused, "/etc/heddle-test-should-not-exist");
    assert_eq!(
        std::fs::read_to_string(s.outside.join("secret.txt")).unwrap(),
        "secret needle\n"
    );
    assert!(!s.outside.join("new.txt").exists());
    assert!(
        std::fs::symlink_metadata(s.work.join("link.txt"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[tokio::test]
async fn edit_refuses_escapes_and_leaves_outside_untouched() {
    let s = sandbox();
    for path in ["link.txt", "linkdir/secret.txt", "../outside/secret.txt"] {
        let outcome = call(
            &s.work,
            "edit_file",
            json!({"path": path, "old_string": "secret", "new_string": "pwned"}),
        )
        .await;
        assert_refused(&outcome, path);
    }
    assert_eq!(
        std::fs::read_to_string(s.outside.join("secret.txt")).unwrap(),
        "secret needle\n"
    );
}

#[tokio::test]
async fn grep_and_glob_refuse_escaping_paths_and_skip_outside_links() {
    let s = sandbox();
    for path in ["..", "../outside", "/etc", "linkdir"] {
        let grep = call(&s.work, "grep", json!({"pattern": "needle", "path": path})).await;
        assert_refused(&grep, path);
        let glob = call(&s.work, "glob", json!({"pattern": "*", "path": path})).await;
        assert_refused(&glob, path);
    }
    let grep = call(&s.work, "grep", json!({"pattern": "needle"})).await;
    assert!(!grep.is_error, "{}", grep.output);
    assert_eq!(
        grep.output,
        "inside.txt:1: inside needle\nsrc/lib.rs:1: needle"
    );
    let glob = call(&s.work, "glob", json!({"pattern": "**/*"})).await;
    assert!(!glob.is_error, "{}", glob.output);
    assert_eq!(glob.output, "inside.txt\nsrc/lib.rs");
}

#[tokio::test]
async fn absolute_paths_inside_are_allowed() {
    let s = sandbox();
    let inside = s.work.join("inside.txt");
    let read = call(
        &s.work,
        "read_file",
        json!({"path": inside.to_str().unwrap()}),
    )
    .await;
    assert!(!read.is_error, "{}", read.output);
    assert!(read.output.contains("inside needle"));

    let target = s.work.join("src/new.txt");
    let write = call(
        &s.work,
        "write_file",
        json!({"path": target.to_str().unwrap(), "content": "ok"}),
    )
    .await;
    assert!(!write.is_error, "{}", write.output);
    assert_eq!(write.touched, vec!["src/new.txt".to_string()]);

    let edit = call(
        &s.work,
        "edit_file",
        json!({"path": target.to_str().unwrap(), "old_string": "ok", "new_string": "fine"}),
    )
    .await;
    assert!(!edit.is_error, "{}", edit.output);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "fine");

    let src = s.work.join("src");
    let grep = call(
        &s.work,
        "grep",
        json!({"pattern": "needle", "path": src.to_str().unwrap()}),
    )
    .await;
    assert_eq!(grep.output, "src/lib.rs:1: needle");
    let glob = call(
        &s.work,
        "glob",
        json!({"pattern": "*.rs", "path": src.to_str().unwrap()}),
    )
    .await;
    assert_eq!(glob.output, "src/lib.rs");
}

#[tokio::test]
async fn links_inside_the_work_dir_are_followed() {
    let s = sandbox();
    symlink(s.work.join("src"), s.work.join("srclink")).unwrap();
    symlink("inside.txt", s.work.join("alias.txt")).unwrap();
    let read = call(&s.work, "read_file", json!({"path": "srclink/lib.rs"})).await;
    assert!(!read.is_error, "{}", read.output);
    let write = call(
        &s.work,
        "write_file",
        json!({"path": "alias.txt", "content": "through the alias\n"}),
    )
    .await;
    assert!(!write.is_error, "{}", write.output);
    assert_eq!(write.touched, vec!["inside.txt".to_string()]);
    assert_eq!(
        std::fs::read_to_string(s.work.join("inside.txt")).unwrap(),
        "through the alias\n"
    );
}

#[tokio::test]
async fn a_symlinked_work_dir_is_resolved_first() {
    let s = sandbox();
    let alias = s.work.parent().unwrap().join("work-alias");
    symlink(&s.work, &alias).unwrap();
    let read = call(&alias, "read_file", json!({"path": "inside.txt"})).await;
    assert!(!read.is_error, "{}", read.output);
    let absolute = alias.join("inside.txt");
    let read = call(
        &alias,
        "read_file",
        json!({"path": absolute.to_str().unwrap()}),
    )
    .await;
    assert!(!read.is_error, "{}", read.output);
    let escape = call(&alias, "read_file", json!({"path": "link.txt"})).await;
    assert_refused(&escape, "link.txt");
}
