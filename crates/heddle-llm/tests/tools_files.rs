#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! read_file, write_file and edit_file in normal use and their error messages.

use std::path::Path;
use std::time::Duration;

use heddle_llm::tools::{ToolContext, ToolOutcome, Toolbox};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn toolbox(dir: &Path) -> Toolbox {
    Toolbox::new(ToolContext {
        work_dir: dir.to_path_buf(),
        env: Vec::new(),
        pass_env: Vec::new(),
        shell_timeout: Duration::from_secs(10),
        output_limit: 20_000,
    })
}

async fn call(dir: &Path, name: &str, args: Value) -> ToolOutcome {
    toolbox(dir)
        .call(name, &args, &CancellationToken::new())
        .await
}

#[tokio::test]
async fn read_file_numbers_lines_and_pages() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (1..=10).map(|n| format!("line {n}\n")).collect();
    std::fs::write(dir.path().join("a.txt"), text).unwrap();

    let all = call(dir.path(), "read_file", json!({"path": "a.txt"})).await;
    assert!(!all.is_error, "{}", all.output);
    assert!(all.output.starts_with("     1\tline 1\n"), "{}", all.output);
    assert!(all.output.contains("    10\tline 10\n"));
    assert!(!all.output.contains("offset="));
    assert!(all.touched.is_empty());

    let part = call(
        dir.path(),
        "read_file",
        json!({"path": "a.txt", "offset": 3, "limit": 2}),
    )
    .await;
    assert!(!part.is_error);
    assert!(part.output.starts_with("     3\tline 3\n     4\tline 4\n"));
    assert!(!part.output.contains("line 5"));
    assert!(
        part.output
            .contains("lines 3-4 of 10; call read_file with offset=5"),
        "{}",
        part.output
    );

    let past = call(
        dir.path(),
        "read_file",
        json!({"path": "a.txt", "offset": 11}),
    )
    .await;
    assert!(past.is_error);
    assert!(past.output.contains("has 10 lines"), "{}", past.output);
}

#[tokio::test]
async fn read_file_refuses_missing_folders_and_binary() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("bin.dat"), [0x89, b'P', 0, 0, 1, 2]).unwrap();
    std::fs::write(dir.path().join("empty.txt"), "").unwrap();

    let missing = call(dir.path(), "read_file", json!({"path": "nope.txt"})).await;
    assert!(missing.is_error);
    assert!(
        missing.output.contains("does not exist"),
        "{}",
        missing.output
    );

    let folder = call(dir.path(), "read_file", json!({"path": "sub"})).await;
    assert!(folder.is_error);
    assert!(folder.output.contains("is a folder"), "{}", folder.output);

    let binary = call(dir.path(), "read_file", json!({"path": "bin.dat"})).await;
    assert!(binary.is_error);
    assert!(binary.output.contains("binary"), "{}", binary.output);

    let empty = call(dir.path(), "read_file", json!({"path": "empty.txt"})).await;
    assert!(!empty.is_error);
    assert!(empty.output.contains("empty"));
}

#[tokio::test]
async fn write_file_creates_nested_folders_and_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let first = call(
        dir.path(),
        "write_file",
        json!({"path": "a/b/c/new.txt", "content": "héllo\n"}),
    )
    .await;
    assert!(!first.is_error, "{}", first.output);
    assert_eq!(first.touched, vec!["a/b/c/new.txt".to_string()]);
    assert!(first.output.contains("wrote 7 bytes"), "{}", first.output);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a/b/c/new.txt")).unwrap(),
        "héllo\n"
    );

    let again = call(
        dir.path(),
        "write_file",
        json!({"path": "./a/b/../b/c/new.txt", "content": "bye"}),
    )
    .await;
    assert!(!again.is_error, "{}", again.output);
    assert_eq!(again.touched, vec!["a/b/c/new.txt".to_string()]);
    assert!(again.output.contains("replaced"), "{}", again.output);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("a/b/c/new.txt")).unwrap(),
        "bye"
    );
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path().join("a/b/c"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");

    let folder = call(
        dir.path(),
        "write_file",
        json!({"path": "a/b", "content": "x"}),
    )
    .await;
    assert!(folder.is_error);
    assert!(folder.output.contains("is a folder"), "{}", folder.output);
}

#[tokio::test]
async fn edit_file_replaces_one_occurrence() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.rs"), "fn a() {}\nfn b() {}\n").unwrap();
    let edit = call(
        dir.path(),
        "edit_file",
        json!({"path": "m.rs", "old_string": "fn b() {}", "new_string": "fn c() {}"}),
    )
    .await;
    assert!(!edit.is_error, "{}", edit.output);
    assert_eq!(edit.touched, vec!["m.rs".to_string()]);
    assert!(edit.output.contains("at line 2"), "{}", edit.output);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("m.rs")).unwrap(),
        "fn a() {}\nfn c() {}\n"
    );
}

#[tokio::test]
async fn edit_file_not_found_and_not_unique() {
    let dir = tempfile::tempdir().unwrap();
    let original = "x = 1\ny = 2\nx = 1\nz = 3\nx = 1\n";
    std::fs::write(dir.path().join("f.txt"), original).unwrap();

    let missing = call(
        dir.path(),
        "edit_file",
        json!({"path": "f.txt", "old_string": "w = 9", "new_string": "w = 10"}),
    )
    .await;
    assert!(missing.is_error);
    assert!(
        missing.output.contains("was not found"),
        "{}",
        missing.output
    );
    assert!(missing.output.contains("read_file"), "{}", missing.output);
    assert!(missing.touched.is_empty());

    let many = call(
        dir.path(),
        "edit_file",
        json!({"path": "f.txt", "old_string": "x = 1", "new_string": "x = 2"}),
    )
    .await;
    assert!(many.is_error);
    assert!(many.output.contains("occurs 3 times"), "{}", many.output);
    assert!(
        many.output.contains("at lines 1, 3 and 5"),
        "{}",
        many.output
    );
    assert!(many.output.contains("replace_all"), "{}", many.output);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        original
    );

    let all = call(
        dir.path(),
        "edit_file",
        json!({"path": "f.txt", "old_string": "x = 1", "new_string": "x = 2", "replace_all": true}),
    )
    .await;
    assert!(!all.is_error, "{}", all.output);
    assert!(
        all.output.contains("replaced 3 occurrences"),
        "{}",
        all.output
    );
    assert_eq!(all.touched, vec!["f.txt".to_string()]);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "x = 2\ny = 2\nx = 2\nz = 3\nx = 2\n"
    );
}

#[tokio::test]
async fn edit_file_other_errors() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("f.txt"), "a\r\nb\r\n").unwrap();
    let missing = call(
        dir.path(),
        "edit_file",
        json!({"path": "gone.txt", "old_string": "a", "new_string": "b"}),
    )
    .await;
    assert!(missing.is_error);
    assert!(
        missing.output.contains("does not exist"),
        "{}",
        missing.output
    );

    let empty = call(
        dir.path(),
        "edit_file",
        json!({"path": "f.txt", "old_string": "", "new_string": "b"}),
    )
    .await;
    assert!(empty.is_error);
    assert!(empty.output.contains("`old_string` is empty"));

    // A file with CRLF line endings can be edited with `\n` in the strings.
    let crlf = call(
        dir.path(),
        "edit_file",
        json!({"path": "f.txt", "old_string": "a\nb", "new_string": "a\nc"}),
    )
    .await;
    assert!(!crlf.is_error, "{}", crlf.output);
    assert_eq!(
        std::fs::read_to_string(dir.path().join("f.txt")).unwrap(),
        "a\r\nc\r\n"
    );
}
