#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Lint rules about attributes, conditions, stylesheets, node needs and files.

mod lint_support;

use heddle_workflow::{MemoryFiles, Severity};
use lint_support::*;

/// `body` placed in a valid workflow around node `a`.
fn flow(body: &str) -> String {
    format!("digraph t {{ start -> a -> exit; {body} }}")
}

#[test]
fn attribute_type() {
    for bad in [
        "timeout=30x",
        "max_retries=-1",
        "max_retries=abc",
        "timeout=1.5",
        "retry_policy=sometimes",
    ] {
        let d = fires("attribute_type", &flow(&format!("a [prompt=x, {bad}]")));
        assert_eq!(d.severity, Severity::Error);
        assert_eq!(d.node.as_deref(), Some("a"));
    }
    let d = fires(
        "attribute_type",
        &flow("a [prompt=x, reasoning_effort=hihg]"),
    );
    assert_eq!(d.hint.as_deref(), Some("did you mean `high`?"));
    fires("attribute_type", &flow("a [prompt=x]; edge [weight=heavy]"));
    quiet(
        "attribute_type",
        &flow("a [prompt=x, timeout=\"30s\", max_retries=0, goal_gate=true]"),
    );
}

#[test]
fn duration_unit() {
    let d = fires("duration_unit", &flow("a [prompt=x, timeout=900]"));
    assert_eq!(d.severity, Severity::Warning);
    assert!(d.message.contains("900s"), "{}", d.message);
    assert_eq!(
        d.hint.as_deref(),
        Some("write `900s` (or `900ms` if milliseconds were meant)")
    );
    fires(
        "duration_unit",
        &flow("graph [stall_timeout=\"300\"]; a [prompt=x]"),
    );
    quiet("attribute_type", &flow("a [prompt=x, timeout=900]"));
    quiet("duration_unit", &flow("a [prompt=x, timeout=\"15m\"]"));
}

#[test]
fn boolean_text() {
    let d = fires("boolean_text", &flow("a [prompt=x, goal_gate=required]"));
    assert_eq!(d.severity, Severity::Warning);
    assert!(d.message.contains("read as `true`"), "{}", d.message);
    quiet("attribute_type", &flow("a [prompt=x, goal_gate=yes]"));
    quiet("boolean_text", &flow("a [prompt=x, goal_gate=TRUE]"));
    quiet(
        "attribute_type",
        &flow("graph [max_node_visits=0]; a [prompt=x] a -> b [weight=2.5]; b [prompt=y]"),
    );
}

#[test]
fn unknown_attribute() {
    let d = fires("unknown_attribute", &flow("a [promt=x]"));
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.hint.as_deref(), Some("did you mean `prompt`?"));
    let d = fires("unknown_attribute", &flow("a [prompt=x, condition=\"a\"]"));
    assert_eq!(
        d.hint.as_deref(),
        Some("`condition` is an edge attribute; it has no effect on a node")
    );
    quiet(
        "unknown_attribute",
        &flow("a [prompt=x, color=red, fillcolor=blue, style=filled, tooltip=t, manager.extra=1]"),
    );
}

#[test]
fn duplicate_attribute() {
    let d = fires(
        "duplicate_attribute",
        &flow("a [prompt=x, model=a, llm_model=b]"),
    );
    assert!(d.message.contains("`model`"), "{}", d.message);
    quiet(
        "duplicate_attribute",
        &flow("a [prompt=x, model=a]; a [model=b]"),
    );
}

#[test]
fn fidelity_valid() {
    let d = fires("fidelity_valid", &flow("a [prompt=x, fidelity=summary]"));
    assert_eq!(d.hint.as_deref(), Some("did you mean `summary:low`?"));
    fires(
        "fidelity_valid",
        "digraph { default_fidelity=everything; start -> exit }",
    );
    fires(
        "fidelity_valid",
        &flow("a [prompt=x]; a -> exit [fidelity=ful]"),
    );
    quiet(
        "fidelity_valid",
        &flow("a [prompt=x, fidelity=\"summary:high\"]"),
    );
    quiet("attribute_type", &flow("a [prompt=x, fidelity=summary]"));
}

#[test]
fn type_known_and_shape_known() {
    let d = fires("type_known", &flow("a [prompt=x, type=humna]"));
    assert_eq!(d.hint.as_deref(), Some("did you mean `human`?"));
    let d = fires("shape_known", &flow("a [prompt=x, shape=hexagn]"));
    assert_eq!(d.hint.as_deref(), Some("did you mean `hexagon`?"));
    quiet(
        "type_known",
        &flow(
            "a [prompt=x, type=\"wait.human\"]; a -> start2 [label=b]; start2 [prompt=x]; start2 -> exit",
        ),
    );
    quiet("shape_known", &flow("a [prompt=x, shape=ellipse]"));
}

#[test]
fn condition_syntax() {
    let source = "digraph {\n  start -> exit [condition=\"outcome=success &&\"]\n}";
    let d = fires("condition_syntax", source);
    let span = d.span.unwrap();
    assert_eq!((span.line, span.column), (2, 47));
    assert_eq!(d.edge.unwrap().to, "exit");
    let d = fires(
        "condition_syntax",
        "digraph { start -> exit [condition=\"x & y\"] }",
    );
    assert_eq!(d.hint.as_deref(), Some("write `&&`"));
    let d = fires(
        "condition_syntax",
        "digraph { start -> exit [condition=\"x matches \\\"(\\\"\"] }",
    );
    assert!(d.message.contains("regular expression"), "{}", d.message);
    fires(
        "condition_syntax",
        &flow("a [prompt=x, manager.stop_condition=\"((\"]"),
    );
    quiet(
        "condition_syntax",
        "digraph { start -> exit [condition=\"outcome=success && context.n > 2\"] }",
    );
}

#[test]
fn condition_positions_survive_escapes() {
    let source = r#"digraph { start -> exit [condition="x = \"a\" &&"] }"#;
    let d = fires("condition_syntax", source);
    assert_eq!(d.span.unwrap().start, source.rfind('"').unwrap());
}

#[test]
fn condition_outcome() {
    let d = fires(
        "condition_outcome",
        "digraph { start -> exit [condition=\"outcome=sucess\"] }",
    );
    assert_eq!(d.hint.as_deref(), Some("did you mean `success`?"));
    quiet(
        "condition_outcome",
        "digraph { start -> exit [condition=\"outcome=succeeded || outcome=partial_success\"] }",
    );
}

#[test]
fn stylesheet_rules() {
    let d = fires(
        "stylesheet_syntax",
        "digraph {\n model_stylesheet=\"* { model gpt }\"\n start -> exit }",
    );
    assert_eq!(d.span.unwrap().line, 2);
    assert_eq!(d.span.unwrap().column, 24);
    fires(
        "stylesheet_syntax",
        "digraph { model_stylesheet=\"* { reasoning_effort: extreme }\"; start -> exit }",
    );
    let d = fires(
        "stylesheet_property",
        "digraph { model_stylesheet=\"* { modle: x }\"; start -> exit }",
    );
    assert_eq!(d.hint.as_deref(), Some("did you mean `model`?"));
    quiet(
        "stylesheet_syntax",
        "digraph { model_stylesheet=\"* { model: x } .c { llm_provider: y }\"; start -> exit }",
    );
    quiet(
        "stylesheet_property",
        "digraph { model_stylesheet=\"* { model: x }\"; start -> exit }",
    );
}

#[test]
fn retry_targets() {
    let d = fires(
        "retry_target_exists",
        &flow("a [prompt=x, retry_target=plna]; plan [prompt=y]; a -> plan -> exit"),
    );
    assert_eq!(d.hint.as_deref(), Some("did you mean `plan`?"));
    fires(
        "retry_target_exists",
        &flow("a [prompt=x]; fallback_retry_target=nowhere"),
    );
    quiet(
        "retry_target_exists",
        &flow("a [prompt=x, retry_target=a]; retry_target=start"),
    );
    fires("goal_gate_has_retry", &flow("a [prompt=x, goal_gate=true]"));
    quiet(
        "goal_gate_has_retry",
        &flow("a [prompt=x, goal_gate=true, retry_target=a]"),
    );
    quiet(
        "goal_gate_has_retry",
        &flow("a [prompt=x, goal_gate=true]; retry_target=a"),
    );
    quiet(
        "goal_gate_has_retry",
        &flow("a [prompt=x, goal_gate=false]"),
    );
}

#[test]
fn prompt_on_llm_nodes() {
    let d = fires("prompt_on_llm_nodes", &flow("a"));
    assert_eq!(d.node.as_deref(), Some("a"));
    fires("prompt_on_llm_nodes", &flow("a [shape=tab]"));
    quiet("prompt_on_llm_nodes", &flow("a [label=\"Write the plan\"]"));
    quiet(
        "prompt_on_llm_nodes",
        &flow("a [shape=parallelogram, script=make]"),
    );
}

#[test]
fn thread_id_requires_full_fidelity() {
    fires(
        "thread_id_requires_full_fidelity",
        &flow("a [prompt=x, thread_id=main]"),
    );
    fires(
        "thread_id_requires_full_fidelity",
        &flow("a [prompt=x]; start -> a [thread_id=t]"),
    );
    quiet(
        "thread_id_requires_full_fidelity",
        &flow("a [prompt=x, thread_id=main, fidelity=full]"),
    );
    quiet(
        "thread_id_requires_full_fidelity",
        &flow("a [prompt=x, thread_id=main]; default_fidelity=full"),
    );
    quiet(
        "thread_id_requires_full_fidelity",
        &flow("a [prompt=x, thread_id=main]; start -> a [fidelity=full]"),
    );
}

#[test]
fn node_kind_requirements() {
    fires("command_has_script", &flow("a [shape=parallelogram]"));
    quiet(
        "command_has_script",
        &flow("a [shape=parallelogram, tool_command=\"make test\"]"),
    );
    fires("wait_has_duration", &flow("a [shape=insulator]"));
    quiet(
        "wait_has_duration",
        &flow("a [shape=insulator, duration=\"5m\"]"),
    );
    fires("manager_has_child", &flow("a [shape=house]"));
    quiet(
        "manager_has_child",
        &flow("a [shape=house, stack.child_workflow=\"child.dot\"]"),
    );
    quiet(
        "manager_has_child",
        "digraph { graph [stack.child_dotfile=\"child.dot\"]; start -> a -> exit; a [shape=house] }",
    );
    quiet(
        "manager_has_child",
        &flow("a [shape=house, stack.child_dot_source=\"digraph C { start -> exit }\"]"),
    );
}

#[test]
fn node_id_valid() {
    fires(
        "node_id_valid",
        "digraph { start -> \"write plan\" -> exit; \"write plan\" [prompt=x] }",
    );
    fires(
        "node_id_valid",
        "digraph { start -> 1 -> exit; 1 [prompt=x] }",
    );
    quiet("node_id_valid", &flow("a [prompt=x]"));
}

#[test]
fn file_references() {
    let source = flow("a [prompt=\"@p.md\", output_schema=\"@s.json\"]");
    let all = diagnostics(&source);
    assert_eq!(
        all.iter()
            .filter(|d| d.rule == "unresolved_file_ref")
            .count(),
        2,
        "{all:#?}"
    );
    let files = MemoryFiles::new()
        .with("p.md", "x")
        .with("s.json", "{ nope");
    let all = diagnostics_with(&source, &files);
    let rules: Vec<&str> = all.iter().map(|d| d.rule.as_str()).collect();
    assert_eq!(rules, ["output_schema_json"]);
    let files = MemoryFiles::new().with("p.md", "x").with("s.json", "{}");
    assert_eq!(diagnostics_with(&source, &files), vec![]);
    fires("attribute_type", &flow("a [prompt=\"@\"]"));
    fires("attribute_type", &flow("a [prompt=x, output_schema=json]"));
}
