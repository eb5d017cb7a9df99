#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! grep and glob: results, ordering, filters, caps and what they skip.

use std::path::Path;
use std::time::Duration;

use heddle_llm::tools::{ToolContext, ToolOutcome, Toolbox};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

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

fn tree() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for (path, text) in [
        ("README.md", "Hello world\n"),
        ("src/main.rs", "fn main() {\n    hello();\n}\n"),
        ("src/lib.rs", "pub fn hello() {}\n// HELLO again\n"),
        ("src/a-b.rs", "hello dash\n"),
        ("src/deep/x/mod.rs", "hello deep\n"),
        (".git/config", "hello git\n"),
        ("notes.txt", "nothing here\n"),
    ] {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    std::fs::write(root.join("blob.bin"), b"hello\0binary").unwrap();
    dir
}

#[tokio::test]
async fn grep_finds_sorted_matches_and_skips_git_and_binary() {
    let dir = tree();
    let outcome = call(dir.path(), "grep", json!({"pattern": "hello"})).await;
    assert!(!outcome.is_error, "{}", outcome.output);
    assert_eq!(
        outcome.output,
        "src/a-b.rs:1: hello dash\nsrc/deep/x/mod.rs:1: hello deep\nsrc/lib.rs:1: pub fn hello() {}\nsrc/main.rs:2:     hello();"
    );

    let ci = call(
        dir.path(),
        "grep",
        json!({"pattern": "hello", "case_insensitive": true, "path": "src", "glob": "lib.rs"}),
    )
    .await;
    assert_eq!(
        ci.output,
        "src/lib.rs:1: pub fn hello() {}\nsrc/lib.rs:2: // HELLO again"
    );

    let by_path = call(
        dir.path(),
        "grep",
        json!({"pattern": "hello", "path": "src", "glob": "deep/**/*.rs"}),
    )
    .await;
    assert_eq!(by_path.output, "src/deep/x/mod.rs:1: hello deep");

    let one_file = call(
        dir.path(),
        "grep",
        json!({"pattern": "^fn", "path": "src/main.rs"}),
    )
    .await;
    assert_eq!(one_file.output, "src/main.rs:1: fn main() {");
}

#[tokio::test]
async fn grep_caps_results_and_reports_problems() {
    let dir = tree();
    let capped = call(
        dir.path(),
        "grep",
        json!({"pattern": "hello", "case_insensitive": true, "max_results": 2}),
    )
    .await;
    assert!(!capped.is_error);
    let lines: Vec<&str> = capped.output.lines().collect();
    assert_eq!(lines.len(), 3, "{}", capped.output);
    assert!(
        lines[2].contains("showing the first 2 of 6 matching lines"),
        "{}",
        capped.output
    );

    let none = call(dir.path(), "grep", json!({"pattern": "absent"})).await;
    assert!(!none.is_error);
    assert!(none.output.starts_with("no matches"), "{}", none.output);

    let bad = call(dir.path(), "grep", json!({"pattern": "fn("})).await;
    assert!(bad.is_error);
    assert!(
        bad.output.contains("not a valid regular expression"),
        "{}",
        bad.output
    );

    let missing = call(dir.path(), "grep", json!({"pattern": "x", "path": "nope"})).await;
    assert!(missing.is_error);
    assert!(
        missing.output.contains("does not exist"),
        "{}",
        missing.output
    );
}

#[tokio::test]
async fn glob_lists_sorted_files() {
    let dir = tree();
    let all_rs = call(dir.path(), "glob", json!({"pattern": "**/*.rs"})).await;
    assert!(!all_rs.is_error, "{}", all_rs.output);
    assert_eq!(
        all_rs.output,
        "src/a-b.rs\nsrc/deep/x/mod.rs\nsrc/lib.rs\nsrc/main.rs"
    );

    let top = call(dir.path(), "glob", json!({"pattern": "*.{md,txt}"})).await;
    assert_eq!(top.output, "README.md\nnotes.txt");

    let within = call(
        dir.path(),
        "glob",
        json!({"pattern": "*.rs", "path": "src"}),
    )
    .await;
    assert_eq!(within.output, "src/a-b.rs\nsrc/lib.rs\nsrc/main.rs");

    let everything = call(dir.path(), "glob", json!({"pattern": "**"})).await;
    assert!(!everything.output.contains(".git"), "{}", everything.output);

    let none = call(dir.path(), "glob", json!({"pattern": "*.rs"})).await;
    assert!(!none.is_error);
    assert!(none.output.contains("use `**/*.rs`"), "{}", none.output);

    let bad = call(dir.path(), "glob", json!({"pattern": "src/[ab"})).await;
    assert!(bad.is_error);
    assert!(bad.output.contains("never closed"), "{}", bad.output);

    let climbing = call(dir.path(), "glob", json!({"pattern": "../*"})).await;
    assert!(climbing.is_error);
    assert!(
        climbing.output.contains("must be relative"),
        "{}",
        climbing.output
    );
}

#[tokio::test]
async fn glob_caps_the_list() {
    let dir = tempfile::tempdir().unwrap();
    for n in 0..1005 {
        std::fs::write(dir.path().join(format!("f{n:04}.txt")), "").unwrap();
    }
    let outcome = call(dir.path(), "glob", json!({"pattern": "*.txt"})).await;
    assert!(!outcome.is_error);
    let lines: Vec<&str> = outcome.output.lines().collect();
    assert_eq!(lines.len(), 1001);
    assert_eq!(lines[0], "f0000.txt");
    assert!(lines[1000].contains("showing the first 1000 of 1005 files"));
}
