#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The toolbox itself: specs, unknown tools, bad arguments and truncation.

use std::time::Duration;

use heddle_llm::tools::{ToolContext, Toolbox};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn toolbox(dir: &std::path::Path, output_limit: usize) -> Toolbox {
    Toolbox::new(ToolContext {
        work_dir: dir.to_path_buf(),
        env: Vec::new(),
        pass_env: Vec::new(),
        shell_timeout: Duration::from_secs(10),
        output_limit,
    })
}

#[test]
fn specs_list_the_six_tools_with_object_schemas() {
    let dir = tempfile::tempdir().unwrap();
    let specs = toolbox(dir.path(), 20_000).specs();
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "read_file",
            "write_file",
            "edit_file",
            "shell",
            "grep",
            "glob"
        ]
    );
    for spec in &specs {
        assert_eq!(spec.parameters["type"], "object", "{}", spec.name);
        assert!(spec.parameters["properties"].is_object(), "{}", spec.name);
        let required = spec.parameters["required"].as_array().unwrap();
        assert!(!required.is_empty(), "{}", spec.name);
        for name in required {
            let name = name.as_str().unwrap();
            assert!(
                spec.parameters["properties"].get(name).is_some(),
                "{}: {name}",
                spec.name
            );
        }
        assert!(spec.description.len() > 40, "{}", spec.name);
    }
}

#[tokio::test]
async fn unknown_tool_lists_the_available_ones() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = toolbox(dir.path(), 20_000)
        .call("delete_everything", &json!({}), &CancellationToken::new())
        .await;
    assert!(outcome.is_error);
    assert_eq!(
        outcome.output,
        "unknown tool `delete_everything`; the available tools are: read_file, write_file, \
         edit_file, shell, grep, glob"
    );
}

#[tokio::test]
async fn bad_arguments_name_the_argument_and_its_type() {
    let dir = tempfile::tempdir().unwrap();
    let tools = toolbox(dir.path(), 20_000);
    let cancel = CancellationToken::new();

    let missing = tools
        .call("read_file", &json!({"file_path": "a.txt"}), &cancel)
        .await;
    assert!(missing.is_error);
    assert_eq!(
        missing.output,
        "read_file: missing required argument `path` (a string); the arguments given were \
         `file_path`"
    );

    let none = tools.call("write_file", &json!(null), &cancel).await;
    assert!(none.is_error);
    assert!(
        none.output.contains("missing required argument `path`"),
        "{}",
        none.output
    );
    assert!(none.output.contains("no arguments were given"));

    let wrong = tools.call("shell", &json!({"command": 42}), &cancel).await;
    assert!(wrong.is_error);
    assert_eq!(
        wrong.output,
        "shell: argument `command` must be a string, but got the number 42"
    );

    let count = tools
        .call("read_file", &json!({"path": "a", "offset": -3}), &cancel)
        .await;
    assert!(count.is_error);
    assert!(
        count.output.contains("`offset` must be a positive integer"),
        "{}",
        count.output
    );

    let flag = tools
        .call(
            "edit_file",
            &json!({"path": "a", "old_string": "x", "new_string": "y", "replace_all": "yes"}),
            &cancel,
        )
        .await;
    assert!(flag.is_error);
    assert!(
        flag.output.contains(
            "`replace_all` must be a boolean (true or false), but got the string \"yes\""
        ),
        "{}",
        flag.output
    );

    let not_object = tools.call("glob", &json!(["*.rs"]), &cancel).await;
    assert!(not_object.is_error);
    assert!(
        not_object.output.contains("must be a JSON object"),
        "{}",
        not_object.output
    );
}

#[tokio::test]
async fn a_missing_work_dir_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let outcome = toolbox(&dir.path().join("nope"), 20_000)
        .call(
            "read_file",
            &json!({"path": "a"}),
            &CancellationToken::new(),
        )
        .await;
    assert!(outcome.is_error);
    assert!(
        outcome.output.contains("the work dir"),
        "{}",
        outcome.output
    );
}

#[tokio::test]
async fn long_file_output_is_truncated_in_the_middle() {
    let dir = tempfile::tempdir().unwrap();
    let text: String = (1..=500).map(|n| format!("row {n} ééé\n")).collect();
    std::fs::write(dir.path().join("big.txt"), text).unwrap();
    let outcome = toolbox(dir.path(), 1_000)
        .call(
            "read_file",
            &json!({"path": "big.txt"}),
            &CancellationToken::new(),
        )
        .await;
    assert!(!outcome.is_error);
    assert!(outcome.output.chars().count() <= 1_000);
    assert!(
        outcome.output.starts_with("     1\trow 1 ééé\n"),
        "{}",
        outcome.output
    );
    assert!(
        outcome.output.ends_with("   500\trow 500 ééé\n"),
        "{}",
        outcome.output
    );
    assert!(outcome.output.contains(
        "characters omitted: output was longer than 1000 characters; use read_file with offset and limit"
    ), "{}", outcome.output);
}
