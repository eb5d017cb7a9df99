//! The `heddle` binary end to end: exit codes, text and JSON output.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn heddle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_heddle"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap()
}

fn examples() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "dot"))
        .collect();
    files.sort();
    files
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_example_validates_without_errors() {
    let files = examples();
    assert!(
        files.len() >= 6,
        "expected at least six examples, found {files:?}"
    );
    let args: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let mut full = vec!["validate"];
    full.extend(args);
    let out = heddle(&full);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(!stdout.contains("error["), "{stdout}");
    for f in &files {
        assert!(
            stdout.contains(f.to_str().unwrap()),
            "no verdict line for {f:?} in {stdout}"
        );
    }
}

#[test]
fn errors_exit_1_with_rule_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.dot");
    std::fs::write(
        &path,
        "digraph B {\n  a -> b;\n  b [timeout=\"soon\"];\n}\n",
    )
    .unwrap();
    let out = heddle(&["validate", path.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("error[start_node]"), "{stdout}");
    assert!(stdout.contains("error[terminal_node]"), "{stdout}");
    assert!(stdout.contains("[attribute_type]"), "{stdout}");
    assert!(
        stdout.contains(&format!("{}:3:", path.display())),
        "{stdout}"
    );
    assert!(
        !stdout.contains("\u{1b}["),
        "NO_COLOR output must have no escapes: {stdout}"
    );
}

#[test]
fn json_output_is_machine_readable() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("two.dot");
    std::fs::write(
        &path,
        "digraph T {\n  start [shape=Mdiamond]\n  start -> nowhere\n}\n",
    )
    .unwrap();
    let out = heddle(&["validate", "--json", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let reports: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let report = &reports[0];
    assert_eq!(report["path"], path.to_str().unwrap());
    assert!(report["errors"].as_u64().unwrap() >= 1);
    let diagnostics = report["diagnostics"].as_array().unwrap();
    let terminal = diagnostics
        .iter()
        .find(|d| d["rule"] == "terminal_node")
        .expect("terminal_node");
    assert_eq!(terminal["severity"], "error");
    assert!(
        diagnostics
            .iter()
            .all(|d| d["message"].as_str().is_some_and(|m| !m.is_empty()))
    );
}

#[test]
fn an_unreadable_file_is_an_error_naming_the_path() {
    let out = heddle(&["validate", "/no/such/flow.dot"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("/no/such/flow.dot: no such file"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(heddle(&["validate"]).status.code(), Some(2));
    assert_eq!(
        heddle(&["validate", "--bogus", "x.dot"]).status.code(),
        Some(2)
    );
}

#[test]
fn graph_json_prints_the_typed_model() {
    let hello = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hello.dot");
    let out = heddle(&["graph", "--json", hello.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let model: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(model["name"], "Hello");
    assert_eq!(model["rankdir"], "LR");
    let kind_of = |id: &str| {
        model["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|n| n["id"] == id)
            .map(|n| n["kind"].clone())
    };
    assert_eq!(kind_of("start"), Some("start".into()));
    assert_eq!(kind_of("greet"), Some("command".into()));
    assert_eq!(kind_of("check"), Some("conditional".into()));
    assert_eq!(kind_of("exit"), Some("exit".into()));
    let conditions: Vec<_> = model["edges"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["condition"].as_str())
        .collect();
    assert_eq!(
        conditions,
        [
            "outcome=fail",
            "command.output contains 3",
            "!(command.output contains 3)"
        ]
    );
}

#[test]
fn graph_text_summary_lists_nodes_and_edges() {
    let hello = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/hello.dot");
    let out = heddle(&["graph", hello.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("workflow Hello"), "{stdout}");
    assert!(
        stdout.contains("check -> exit  [yes]  if command.output contains 3"),
        "{stdout}"
    );
}
