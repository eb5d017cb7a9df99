#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `@file` references through the in-memory and the real file source.

use std::path::{Path, PathBuf};

use heddle_workflow::{
    Attrs, FileSource, MemoryFiles, OsFiles, Value, load_source, resolve_reference,
};

const FLOW: &str = r#"digraph {
  start -> plan -> exit
  plan [prompt="@prompts/plan.md", output_schema="@../schemas/out.schema.json"]
}"#;

#[test]
fn references_resolve_relative_to_the_workflow() {
    let files = MemoryFiles::new()
        .with("flows/prompts/plan.md", "Plan it.")
        .with("schemas/out.schema.json", "{\"type\": \"object\"}");
    let loaded = load_source(FLOW, Path::new("flows/main.dot"), &files);
    let workflow = loaded.workflow.unwrap();
    let plan = workflow.node("plan").unwrap();
    assert_eq!(
        plan.attr("prompt").unwrap().value,
        Value::FileRef {
            path: "prompts/plan.md".into(),
            resolved: Some("flows/prompts/plan.md".into())
        }
    );
    assert_eq!(
        plan.attr("output_schema").unwrap().value,
        Value::FileRef {
            path: "../schemas/out.schema.json".into(),
            resolved: Some("schemas/out.schema.json".into())
        }
    );
    assert!(
        loaded.diagnostics.iter().all(|d| !d.rule.contains("file")),
        "{:?}",
        loaded.diagnostics
    );
}

#[test]
fn missing_files_stay_unresolved() {
    let loaded = load_source(FLOW, Path::new("flows/main.dot"), &MemoryFiles::new());
    let workflow = loaded.workflow.unwrap();
    let prompt = workflow.node("plan").unwrap().attr("prompt").unwrap();
    assert_eq!(
        prompt.value,
        Value::FileRef {
            path: "prompts/plan.md".into(),
            resolved: None
        }
    );
    let rules: Vec<&str> = loaded.diagnostics.iter().map(|d| d.rule.as_str()).collect();
    assert_eq!(
        rules
            .iter()
            .filter(|r| **r == "unresolved_file_ref")
            .count(),
        2
    );
}

#[test]
fn resolution_rules() {
    assert_eq!(
        resolve_reference(Path::new("a/b.dot"), "c.md"),
        PathBuf::from("a/c.md")
    );
    assert_eq!(
        resolve_reference(Path::new("b.dot"), "./c.md"),
        PathBuf::from("c.md")
    );
    assert_eq!(
        resolve_reference(Path::new("a/b/c.dot"), "../../d.md"),
        PathBuf::from("d.md")
    );
    assert_eq!(
        resolve_reference(Path::new("a/b.dot"), "/abs/x.md"),
        PathBuf::from("/abs/x.md")
    );
}

#[test]
fn real_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("prompts")).unwrap();
    std::fs::write(dir.path().join("prompts/plan.md"), "Plan.").unwrap();
    let flow = dir.path().join("flow.dot");
    let loaded = load_source(FLOW, &flow, &OsFiles);
    let workflow = loaded.workflow.unwrap();
    let prompt = workflow.node("plan").unwrap().attr("prompt").unwrap();
    let Value::FileRef {
        resolved: Some(resolved),
        ..
    } = &prompt.value
    else {
        panic!("unresolved: {prompt:?}");
    };
    assert_eq!(
        OsFiles.read_to_string(Path::new(resolved)).unwrap(),
        "Plan."
    );
    assert!(!OsFiles.exists(&dir.path().join("nope.md")));
    assert!(!OsFiles.exists(dir.path()), "a directory is not a file");
}
