#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Lint rules about the graph's shape: each fires on a bad example and stays quiet on a fixed one.

mod lint_support;

use heddle_workflow::Severity;
use lint_support::*;

const GOOD: &str = "digraph t { start [shape=Mdiamond]; exit [shape=Msquare]; a [prompt=\"do\"]; start -> a -> exit }";

#[test]
fn a_good_workflow_is_clean() {
    assert_eq!(diagnostics(GOOD), vec![]);
}

#[test]
fn start_node() {
    let d = fires(
        "start_node",
        "digraph t { a [prompt=x]; exit [shape=Msquare]; a -> exit }",
    );
    assert_eq!(d.severity, Severity::Error);
    assert_eq!(d.span.unwrap().column, 9, "points at the graph name");
    let d = fires(
        "start_node",
        "digraph t { start; s2 [shape=Mdiamond]; exit; start -> exit; s2 -> exit }",
    );
    assert_eq!(d.node.as_deref(), Some("s2"));
    quiet("start_node", GOOD);
}

#[test]
fn terminal_node() {
    fires("terminal_node", "digraph { start -> a; a [prompt=x] }");
    quiet(
        "terminal_node",
        "digraph { start -> done; done [type=exit] }",
    );
    quiet("terminal_node", "digraph { start -> end }");
}

#[test]
fn start_no_incoming_and_exit_no_outgoing() {
    let d = fires(
        "start_no_incoming",
        "digraph { start -> a -> start; a -> exit; a [prompt=x] }",
    );
    assert_eq!(d.edge.unwrap().to, "start");
    let d = fires(
        "exit_no_outgoing",
        "digraph { start -> exit -> a; a [prompt=x] }",
    );
    assert_eq!(d.edge.unwrap().from, "exit");
    quiet("start_no_incoming", GOOD);
    quiet("exit_no_outgoing", GOOD);
}

#[test]
fn reachability() {
    let d = fires(
        "reachability",
        "digraph { start -> exit; island [prompt=x]; island -> exit }",
    );
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.node.as_deref(), Some("island"));
    quiet("reachability", GOOD);
}

#[test]
fn edge_target_exists() {
    let d = fires(
        "edge_target_exists",
        "digraph { start -> review -> exit; reveiw [prompt=x]; start -> reveiw }",
    );
    assert_eq!(d.node.as_deref(), Some("review"));
    assert_eq!(d.hint.as_deref(), Some("did you mean `reveiw`?"));
    quiet("edge_target_exists", GOOD);
    quiet(
        "edge_target_exists",
        "digraph { start -> {a b} -> exit; a [prompt=x]; b [prompt=y] }",
    );
}

#[test]
fn human_gate_has_choices() {
    let d = fires(
        "human_gate_has_choices",
        "digraph { start -> ask; ask [shape=hexagon]; exit }",
    );
    assert_eq!(d.severity, Severity::Error);
    let d = fires(
        "human_gate_has_choices",
        "digraph { start -> ask -> exit; ask [shape=hexagon] }",
    );
    assert_eq!(d.severity, Severity::Warning);
    let d = fires(
        "human_gate_has_choices",
        "digraph { start -> ask; ask [shape=hexagon]; ask -> exit [label=Yes]; ask -> start2 [label=\" yes\"]; start2 [prompt=x]; start2 -> exit }",
    );
    assert_eq!(d.severity, Severity::Warning);
    assert!(d.message.contains("twice"), "{}", d.message);
    quiet(
        "human_gate_has_choices",
        "digraph { start -> ask; ask [shape=hexagon]; ask -> exit [label=Ship]; ask -> fix [label=Fix]; fix [prompt=x]; fix -> exit }",
    );
}

#[test]
fn conditional_has_conditions() {
    fires(
        "conditional_has_conditions",
        "digraph { start -> c -> exit; c [shape=diamond] }",
    );
    quiet(
        "conditional_has_conditions",
        "digraph { start -> c -> exit [condition=\"outcome=success\"]; c [shape=diamond]; c -> start2; start2 [prompt=x]; start2 -> exit }",
    );
}

#[test]
fn dead_end() {
    let d = fires(
        "dead_end",
        "digraph { start -> a; a [prompt=x]; start -> exit }",
    );
    assert_eq!(d.node.as_deref(), Some("a"));
    quiet("dead_end", GOOD);
}

#[test]
fn parallel_has_fan_in() {
    fires(
        "parallel_has_fan_in",
        "digraph { start -> p; p [shape=component]; p -> a -> exit; p -> b -> exit; a [prompt=x]; b [prompt=y] }",
    );
    quiet(
        "parallel_has_fan_in",
        "digraph { start -> p; p [shape=component]; p -> a -> j; p -> b -> j; j [shape=tripleoctagon]; j -> exit; a [prompt=x]; b [prompt=y] }",
    );
}

#[test]
fn directed_and_strict() {
    let d = fires("directed_graph", "graph t { start -- exit }");
    assert_eq!(d.severity, Severity::Error);
    fires("strict_graph", "strict digraph t { start -> exit }");
    quiet("directed_graph", GOOD);
    quiet("strict_graph", GOOD);
}

#[test]
fn nesting_depth() {
    let deep = format!(
        "digraph {{ start -> exit {} a {} }}",
        "{ ".repeat(150),
        "} ".repeat(150)
    );
    let d = fires("nesting_depth", &deep);
    assert!(d.message.contains("100"));
    quiet("nesting_depth", GOOD);
}

#[test]
fn syntax_errors_skip_whole_graph_rules() {
    let found = rules("digraph { start -> a [label=\"x ]; }");
    assert!(found.contains(&"syntax".to_owned()), "{found:?}");
    assert!(!found.contains(&"terminal_node".to_owned()), "{found:?}");
}

#[test]
fn diagnostics_are_sorted_by_position() {
    let all = diagnostics(
        "digraph { a [promt=x, timeout=1x]; b [modle=y] ; start -> a -> exit; start -> b -> exit }",
    );
    let starts: Vec<usize> = all.iter().map(|d| d.span.map_or(0, |s| s.start)).collect();
    let mut sorted = starts.clone();
    sorted.sort_unstable();
    assert_eq!(starts, sorted);
    assert!(all.len() >= 3);
}

#[test]
fn freeform_edges_belong_to_one_edge_of_a_human_gate() {
    // One choice plus a freeform edge, or a freeform edge alone, is a full gate.
    let gate = "digraph { start -> ask; ask [shape=hexagon]; ask -> exit [label=Ship]; ask -> fix [freeform=true]; fix [prompt=x]; fix -> exit }";
    quiet("human_gate_has_choices", gate);
    quiet("freeform_edge", gate);
    let only_text = "digraph { start -> ask; ask [shape=hexagon]; ask -> fix [freeform=true]; fix [prompt=x]; fix -> exit }";
    quiet("human_gate_has_choices", only_text);
    // Two freeform edges: the earlier one is never taken.
    let d = fires(
        "freeform_edge",
        "digraph { start -> ask; ask [shape=hexagon]; ask -> exit [label=Ship]; ask -> a [freeform=true]; ask -> b [freeform=true]; a [prompt=x]; b [prompt=y]; a -> exit; b -> exit }",
    );
    assert_eq!(d.severity, Severity::Warning);
    assert_eq!(d.edge.as_ref().map(|e| e.to.as_str()), Some("a"));
    assert!(d.message.contains("goes to `b`"), "{}", d.message);
    // On a node that asks nobody, it does nothing.
    let d = fires(
        "freeform_edge",
        "digraph { start -> a; a [prompt=x]; a -> exit [freeform=true] }",
    );
    assert!(d.message.contains("not a human gate"), "{}", d.message);
    fires(
        "attribute_type",
        "digraph { start -> ask; ask [shape=hexagon]; ask -> exit [freeform=maybe]; ask -> start2; start2 [prompt=x]; start2 -> exit }",
    );
}

#[test]
fn join_policy_valid() {
    let par = |policy: &str| {
        format!(
            "digraph {{ start -> p; p [shape=component, join_policy=\"{policy}\"]; p -> a; p -> b; a [prompt=x]; b [prompt=y]; a -> j; b -> j; j [shape=tripleoctagon]; j -> exit }}"
        )
    };
    for good in ["wait_all", "first_success", "k_of_n(2)", "quorum(0.5)"] {
        quiet("join_policy_valid", &par(good));
        quiet("attribute_type", &par(good));
    }
    let d = fires("join_policy_valid", &par("k_of_n"));
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message.contains("k_of_n(2)"), "{}", d.message);
    assert_eq!(
        fires("join_policy_valid", &par("quorum(2)")).severity,
        Severity::Error
    );
    assert_eq!(
        fires("join_policy_valid", &par("majority")).severity,
        Severity::Error
    );
    let d = fires("join_policy_valid", &par("k_of_n(3)"));
    assert_eq!(d.severity, Severity::Warning);
    assert!(d.message.contains("never be met"), "{}", d.message);
    quiet(
        "attribute_type",
        &par("k_of_n(2)").replace("];", ", error_policy=fail_fast];"),
    );
    fires(
        "attribute_type",
        &par("k_of_n(2)").replace("join_policy", "error_policy"),
    );
}
