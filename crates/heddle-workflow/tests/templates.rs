#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! `{{ goal }}`, `{{ inputs.NAME }}` and `$goal`: what validation says with and without input
//! values, and the workflow a run executes once they are rendered.

use std::collections::BTreeMap;
use std::path::Path;

use heddle_workflow::template::{Inputs, expand, input_names};
use heddle_workflow::{Attrs, MemoryFiles, Severity, load_source, load_source_with};

const FLOW: &str = r#"digraph T {
  goal="Ship {{ inputs.feature }}"
  start -> plan -> build -> exit
  plan [prompt="Plan $goal, then {{ goal }} in {{ inputs.repo }}"]
  build [shape=parallelogram, script="git clone {{ inputs.repo }} && echo $HOME ${#x}"]
  write [prompt="@prompts/write.md"]
  plan -> write [condition="context.env = {{ inputs.env }}", label="to {{ inputs.env }}"]
  write -> exit
}"#;

fn files() -> MemoryFiles {
    MemoryFiles::new().with(
        "flows/prompts/write.md",
        "Write for {{ inputs.audience }}.\n",
    )
}

fn values(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn without_inputs_each_input_is_a_note_at_its_first_use() {
    let loaded = load_source(FLOW, Path::new("flows/main.dot"), &files());
    let notes: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.rule == "template_input")
        .collect();
    assert!(
        notes.iter().all(|d| d.severity == Severity::Info),
        "{notes:#?}"
    );
    let mut names: Vec<_> = notes.iter().map(|d| d.message.clone()).collect();
    names.sort();
    assert_eq!(
        names,
        [
            "the workflow takes input `audience`",
            "the workflow takes input `env`",
            "the workflow takes input `feature`",
            "the workflow takes input `repo`",
        ]
    );
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    // `$HOME` in the script is the shell's and fine; `$goal` there would be a warning.
    assert!(
        !loaded
            .diagnostics
            .iter()
            .any(|d| d.rule == "dollar_goal_in_script")
    );
    let repo = notes.iter().find(|d| d.message.contains("`repo`")).unwrap();
    let span = repo.span.unwrap();
    assert_eq!((span.line, span.column), (4, 51));
    assert_eq!(&FLOW[span.start..span.end], "inputs.repo");
    assert!(repo.hint.as_deref().unwrap().contains("-V repo=..."));
    let audience = notes
        .iter()
        .find(|d| d.message.contains("audience"))
        .unwrap();
    assert_eq!(audience.file.as_deref(), Some("prompts/write.md"));
    assert_eq!(audience.span.map(|s| (s.line, s.column)), Some((1, 14)));
}

#[test]
fn a_missing_input_is_an_error_when_a_run_gives_values() {
    let inputs = Inputs::Given {
        values: values(&[("feature", "x"), ("repo", "r"), ("audience", "a")]),
        missing: Severity::Error,
    };
    let loaded = load_source_with(FLOW, Path::new("flows/main.dot"), &files(), &inputs);
    let errors: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect();
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors
            .iter()
            .all(|d| d.message == "input `env` is not given a value")
    );
    assert_eq!(errors[0].span.map(|s| s.line), Some(7));
}

#[test]
fn bad_templates_and_unknown_names_are_errors_except_other_tools_templates_in_scripts() {
    let flow = r#"digraph T {
  goal="Improve {{ goal }}"
  start -> a -> exit
  a [shape=parallelogram, script="docker ps --format '{{.Names}}'; echo $goal"]
  a -> exit [label="{{ repo }}"]
}"#;
    let loaded = load_source(flow, Path::new("main.dot"), &MemoryFiles::new());
    let rules: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.rule.starts_with("template") || d.rule == "dollar_goal_in_script")
        .map(|d| (d.rule.as_str(), d.severity, d.span.unwrap().line))
        .collect();
    assert_eq!(
        rules,
        [
            ("template_variable", Severity::Error, 2),
            // Docker's Go template in a script: it runs as written, with a warning.
            ("template_syntax", Severity::Warning, 4),
            ("dollar_goal_in_script", Severity::Warning, 4),
            ("template_variable", Severity::Error, 5),
        ]
    );
}

#[test]
fn a_script_holding_another_tools_template_runs_as_written() {
    let flow = r#"digraph T {
  start -> a -> b -> exit
  a [shape=parallelogram, script="docker ps --format '{{.Names}}'"]
  b [shape=parallelogram, script="for x in {{ items }}; do echo $x; done"]
}"#;
    let loaded = load_source(flow, Path::new("main.dot"), &MemoryFiles::new());
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    let warnings: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.rule == "template_syntax")
        .map(|d| d.severity)
        .collect();
    assert_eq!(warnings, [Severity::Warning, Severity::Warning]);
    let workflow = loaded.workflow.unwrap();
    let run = expand(&workflow, None, &BTreeMap::new(), &MemoryFiles::new()).unwrap();
    assert_eq!(
        run.node("a").unwrap().attr_str("script"),
        Some("docker ps --format '{{.Names}}'")
    );
    assert_eq!(
        run.node("b").unwrap().attr_str("script"),
        Some("for x in {{ items }}; do echo $x; done")
    );
}

#[test]
fn raw_blocks_keep_braces_literal() {
    let flow = r#"digraph T {
  start -> a -> exit
  a [shape=parallelogram, script="docker ps --format '{% raw %}{{.Names}}{% endraw %}'"]
}"#;
    let loaded = load_source(flow, Path::new("main.dot"), &MemoryFiles::new());
    assert!(!loaded.has_errors(), "{:#?}", loaded.diagnostics);
    let workflow = loaded.workflow.unwrap();
    let run = expand(&workflow, None, &BTreeMap::new(), &MemoryFiles::new()).unwrap();
    assert_eq!(
        run.node("a").unwrap().attr_str("script"),
        Some("docker ps --format '{{.Names}}'")
    );
}

#[test]
fn expansion_renders_every_templated_attribute() {
    let files = files();
    let loaded = load_source(FLOW, Path::new("flows/main.dot"), &files);
    let workflow = loaded.workflow.unwrap();
    assert_eq!(
        input_names(&workflow, &files),
        ["audience", "env", "feature", "repo"]
    );
    let inputs = values(&[
        ("feature", "search"),
        ("repo", "git@x:r"),
        ("audience", "admins"),
        ("env", "prod"),
    ]);
    let run = expand(&workflow, None, &inputs, &files).unwrap();
    assert_eq!(run.goal.as_deref(), Some("Ship search"));
    assert_eq!(
        run.node("plan").unwrap().attr_str("prompt"),
        Some("Plan Ship search, then Ship search in git@x:r")
    );
    // `$HOME` and `${#x}` are the shell's: scripts only render `{{ }}`.
    assert_eq!(
        run.node("build").unwrap().attr_str("script"),
        Some("git clone git@x:r && echo $HOME ${#x}")
    );
    assert_eq!(
        run.node("write").unwrap().attr_str("prompt"),
        Some("Write for admins.\n")
    );
    let edge = run.edges.iter().find(|e| e.to == "write").unwrap();
    assert_eq!(edge.label.as_deref(), Some("to prod"));
    assert_eq!(edge.condition.as_deref(), Some("context.env = prod"));
    assert!(edge.parsed_condition.is_some());
    // A goal given for the run is used as written.
    let run = expand(&workflow, Some("Given {{ x }}"), &inputs, &files).unwrap();
    assert_eq!(
        run.node("plan").unwrap().attr_str("prompt"),
        Some("Plan Given {{ x }}, then Given {{ x }} in git@x:r")
    );
}
