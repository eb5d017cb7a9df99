#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Model building: defaults scoping, chains, subgraphs, classes, stylesheet application.

use std::path::Path;

use heddle_workflow::{AttrOrigin, Attrs, MemoryFiles, Value, Workflow, load_source};

fn build(source: &str) -> Workflow {
    let loaded = load_source(source, Path::new("flow.dot"), &MemoryFiles::new());
    loaded.workflow.expect("a workflow")
}

fn ids(workflow: &Workflow) -> Vec<&str> {
    workflow.nodes.iter().map(|n| n.id.as_str()).collect()
}

#[test]
fn graph_fields() {
    let w = build("digraph Flow { goal=\"Ship \\\"it\\\"\"; label=\"L\"; rankdir=LR; a }");
    assert_eq!(w.name, "Flow");
    assert_eq!(w.goal.as_deref(), Some("Ship \"it\""));
    assert_eq!(w.label.as_deref(), Some("L"));
    assert_eq!(w.rankdir, "LR");
    assert_eq!(build("digraph { a }").rankdir, "TB");
    assert_eq!(build("digraph { a }").name, "");
}

#[test]
fn node_defaults_are_scoped() {
    let w = build(
        "digraph { node [timeout=\"10s\"]; a; subgraph s { node [timeout=\"20s\", model=m]; b } c; node [timeout=\"30s\"]; d; a }",
    );
    let timeout = |id: &str| w.node(id).unwrap().attr_duration_ms("timeout");
    assert_eq!(timeout("a"), Some(10_000));
    assert_eq!(timeout("b"), Some(20_000));
    assert_eq!(
        timeout("c"),
        Some(10_000),
        "the subgraph's default stays inside"
    );
    assert_eq!(timeout("d"), Some(30_000));
    assert_eq!(w.node("c").unwrap().attr("model"), None);
    assert_eq!(
        w.node("b").unwrap().attr("timeout").unwrap().origin,
        AttrOrigin::Default
    );
}

#[test]
fn defaults_apply_at_first_appearance_and_explicit_wins() {
    let w = build("digraph { a -> b; node [shape=hexagon]; b; c [shape=tab]; c [label=\"C\"] }");
    assert_eq!(
        w.node("b").unwrap().shape,
        "box",
        "b existed before the default"
    );
    let c = w.node("c").unwrap();
    assert_eq!(c.shape, "tab");
    assert_eq!(c.label, "C");
    assert_eq!(c.attr("shape").unwrap().origin, AttrOrigin::Explicit);
}

#[test]
fn chained_edges_share_attributes() {
    let w = build("digraph { a -> b -> c [label=\"go\", weight=3] }");
    assert_eq!(w.edges.len(), 2);
    for (edge, (from, to)) in w.edges.iter().zip([("a", "b"), ("b", "c")]) {
        assert_eq!((edge.from.as_str(), edge.to.as_str()), (from, to));
        assert_eq!(edge.label.as_deref(), Some("go"));
        assert_eq!(edge.weight, 3.0);
    }
    assert_eq!(ids(&w), ["a", "b", "c"]);
}

#[test]
fn edge_defaults_and_occurrences() {
    let w = build(
        "digraph { edge [weight=2]; a -> b; a -> b [weight=5]; { edge [fidelity=full]; a -> b } a -> b [weight=\"1.5\"] }",
    );
    let weights: Vec<f64> = w.edges.iter().map(|e| e.weight).collect();
    assert_eq!(weights, [2.0, 5.0, 2.0, 1.5]);
    let occurrences: Vec<usize> = w.edges.iter().map(|e| e.occurrence).collect();
    assert_eq!(occurrences, [0, 1, 2, 3]);
    assert_eq!(w.edges[2].attr_str("fidelity"), Some("full"));
    assert_eq!(w.edges[3].attr_str("fidelity"), None);
}

#[test]
fn subgraph_endpoints() {
    let w = build("digraph { a -> {b c} -> d }");
    let pairs: Vec<(&str, &str)> = w
        .edges
        .iter()
        .map(|e| (e.from.as_str(), e.to.as_str()))
        .collect();
    assert_eq!(pairs, [("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]);
    assert_eq!(w.subgraphs.len(), 1);
    assert_eq!(w.subgraphs[0].nodes, ["b", "c"]);
}

#[test]
fn conditions_are_parsed_once() {
    let w = build(
        "digraph { a -> b [condition=\"outcome=success\"]; a -> c [condition=\"outcome=\"]; a -> d [condition=\"  \"] }",
    );
    assert_eq!(w.edges[0].condition.as_deref(), Some("outcome=success"));
    assert!(w.edges[0].parsed_condition.is_some());
    assert_eq!(w.edges[1].condition.as_deref(), Some("outcome="));
    assert!(w.edges[1].parsed_condition.is_none());
    assert_eq!(
        w.edges[2].condition, None,
        "a blank condition is no condition"
    );
}

#[test]
fn subgraph_labels_become_classes() {
    let w = build(
        "digraph { subgraph cluster_r { label=\"Review Loop!\"; r1; subgraph inner { graph [label=\"Deep & Dark\"]; r2 } } x [class=\"fast, cheap big\"]; r1 [class=fast] }",
    );
    assert_eq!(w.subgraphs[0].class.as_deref(), Some("review-loop"));
    assert_eq!(w.subgraphs[1].class.as_deref(), Some("deep-dark"));
    assert_eq!(w.subgraphs[1].parent, Some(0));
    assert_eq!(w.subgraphs[0].nodes, ["r1", "r2"]);
    assert_eq!(w.node("r1").unwrap().classes, ["fast", "review-loop"]);
    assert_eq!(w.node("r2").unwrap().classes, ["review-loop", "deep-dark"]);
    assert_eq!(w.node("r2").unwrap().subgraph, Some(1));
    assert_eq!(w.node("x").unwrap().classes, ["fast", "cheap", "big"]);
}

#[test]
fn stylesheet_precedence() {
    let w = build(
        r#"digraph {
  model_stylesheet="* { model: sheet-any; provider: p } .fast { model: sheet-fast } #c { reasoning_effort: high }"
  node [model=default-model]
  a
  b [class=fast]
  c [class=fast, llm_model=explicit]
}"#,
    );
    let model = |id: &str| w.node(id).unwrap().attr("model").unwrap().clone();
    assert_eq!(
        model("a").raw,
        "sheet-any",
        "stylesheet beats node defaults"
    );
    assert_eq!(model("a").origin, AttrOrigin::Stylesheet);
    assert_eq!(model("b").raw, "sheet-fast");
    assert_eq!(model("c").raw, "explicit");
    assert_eq!(model("c").key, "llm_model");
    assert_eq!(model("c").origin, AttrOrigin::Explicit);
    let effort = w.node("c").unwrap().attr("reasoning_effort").unwrap();
    assert_eq!(effort.value, Value::Enum("high".into()));
    assert_eq!(effort.span.line, 2);
    let provider = w.node("a").unwrap().attr("provider").unwrap();
    let sheet_value_column = 53;
    assert_eq!(provider.span.column, sheet_value_column);
    assert!(w.stylesheet.is_some());
}

#[test]
fn labels() {
    let w = build("digraph { node [label=\"\\N!\"]; a; b [label=\"B\"]; c [label=<<b>C</b>>] }");
    assert_eq!(w.node("a").unwrap().label, "a!");
    assert_eq!(w.node("b").unwrap().label, "B");
    assert_eq!(w.node("c").unwrap().label, "<b>C</b>");
}

#[test]
fn typed_attributes() {
    let w = build(
        "digraph { a [max_retries=3, goal_gate=true, timeout=\"2h\", retry_policy=Linear, weight=1] }",
    );
    let a = w.node("a").unwrap();
    assert_eq!(a.attr_int("max_retries"), Some(3));
    assert_eq!(a.attr_bool("goal_gate"), Some(true));
    assert_eq!(a.attr_duration_ms("timeout"), Some(7_200_000));
    assert_eq!(
        a.attr("retry_policy").unwrap().value,
        Value::Enum("linear".into())
    );
    assert_eq!(
        a.attr("weight").unwrap().value,
        Value::String("1".into()),
        "unknown on nodes: text"
    );
}

#[test]
fn spans_point_at_declarations() {
    let source = "digraph {\n  a -> b\n  b [label=x]\n}";
    let w = build(source);
    let b = w.node("b").unwrap();
    assert_eq!(&source[b.span.start..b.span.end], "b [label=x]");
    assert_eq!(b.span.line, 3);
    let a = w.node("a").unwrap();
    assert_eq!(&source[a.span.start..a.span.end], "a");
    assert_eq!(
        &source[w.edges[0].span.start..w.edges[0].span.end],
        "a -> b"
    );
}

#[test]
fn json_shape_is_clean() {
    let w = build("digraph { a -> b [condition=\"x\"]; model_stylesheet=\"* { model: m }\" }");
    let json = serde_json::to_value(&w).unwrap();
    assert!(json.get("stylesheet").is_none());
    assert!(json["edges"][0].get("parsed_condition").is_none());
    assert_eq!(json["nodes"][0]["kind"], "agent");
    let back: Workflow = serde_json::from_value(json).unwrap();
    assert_eq!(back.nodes.len(), 2);
}

#[test]
fn an_attribute_set_twice_in_one_list_takes_the_later_value() {
    // As Graphviz reads it; the duplicate_attribute lint warns about it.
    let w = build(
        "digraph { a [label=\"first\", shape=box, label=\"second\"]; a -> b [label=\"x\", weight=2, label=\"y\"] }",
    );
    let a = w.node("a").unwrap();
    assert_eq!(a.label, "second");
    assert_eq!(a.attrs.iter().filter(|e| e.canonical == "label").count(), 1);
    let edge = &w.edges[0];
    assert_eq!(edge.label.as_deref(), Some("y"));
    assert_eq!(edge.weight, 2.0);
    assert_eq!(
        edge.attrs.iter().filter(|e| e.canonical == "label").count(),
        1
    );
}
