//! Adding, removing and renaming nodes: before/after snapshots, untouched lines, errors.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{apply, apply_err, before_after};
use heddle_dot::{Edit, EditError};
use insta::assert_snapshot;

const FLOW: &str = r#"digraph flow {
    node [shape=box]

    start [shape=Mdiamond]
    "plan" [label="Plan"] // planning
    build; test

    /* the main path */
    start -> "plan" -> build -> test -> exit
    build:out:s -> report
    subgraph cluster_x { build -> lint; lint [label="Lint"] }
    {build deploy} -> exit
}
"#;

fn add(id: &str, attrs: &[(&str, &str)]) -> Edit {
    Edit::AddNode {
        id: id.into(),
        attrs: attrs
            .iter()
            .map(|(k, v)| ((*k).into(), (*v).into()))
            .collect(),
    }
}

fn remove(id: &str) -> Edit {
    Edit::RemoveNode { id: id.into() }
}

fn rename(from: &str, to: &str) -> Edit {
    Edit::RenameNode {
        from: from.into(),
        to: to.into(),
    }
}

#[test]
fn add_node_after_the_last_node_statement() {
    assert_snapshot!(before_after(
        FLOW,
        &add(
            "review",
            &[
                ("shape", "hexagon"),
                ("label", "Ship it?"),
                ("human.default_choice", "yes")
            ]
        ),
        &[]
    ));
}

#[test]
fn add_node_placement_without_node_statements() {
    assert_eq!(
        apply(
            "digraph {\n  rankdir=LR;\n  a -> b;\n}\n",
            &add("c", &[]),
            &[]
        ),
        "digraph {\n  rankdir=LR;\n  c;\n  a -> b;\n}\n"
    );
    assert_eq!(
        apply("digraph {\n  a -> b\n}\n", &add("c", &[]), &[]),
        "digraph {\n  c\n  a -> b\n}\n"
    );
    assert_eq!(
        apply("digraph {}", &add("c", &[("k", "")]), &[1]),
        "digraph {\n    c [k=\"\"]\n}"
    );
    assert_eq!(
        apply("graph G {\n  // nothing yet\n}", &add("c", &[]), &[]),
        "graph G {\n  // nothing yet\n  c\n}"
    );
}

#[test]
fn add_node_errors() {
    assert_eq!(
        apply_err(FLOW, &add("build", &[])),
        EditError::NodeExists("build".into())
    );
    assert_eq!(
        apply_err(FLOW, &add("plan", &[])),
        EditError::NodeExists("plan".into())
    );
    for bad in ["", "1abc", "with space", "a-b", "node", "Graph", "é"] {
        assert_eq!(
            apply_err(FLOW, &add(bad, &[])),
            EditError::InvalidId(bad.into()),
            "{bad}"
        );
    }
    assert_eq!(
        apply_err(FLOW, &add("x", &[("", "v")])),
        EditError::InvalidId(String::new())
    );
}

#[test]
fn remove_node_cuts_chains_and_keeps_other_nodes() {
    assert_snapshot!(
        "remove_build",
        before_after(FLOW, &remove("build"), &[6, 9, 10, 11, 12])
    );
    assert_snapshot!(
        "remove_quoted_plan",
        before_after(FLOW, &remove("plan"), &[5, 9])
    );
    assert_snapshot!(
        "remove_edge_only_node",
        before_after(FLOW, &remove("exit"), &[9, 12])
    );
}

#[test]
fn remove_node_keeps_neighbours_that_would_vanish() {
    // `y` is only mentioned next to `x`, twice: it must stay, once.
    assert_eq!(
        apply("digraph {\n  y -> x\n  x -> y\n}\n", &remove("x"), &[2, 3]),
        "digraph {\n  y\n}\n"
    );
    assert_eq!(
        apply("digraph { a -> x -> b [k=1]; b }", &remove("x"), &[1]),
        "digraph { a; b }"
    );
    assert_eq!(
        apply("digraph { x -> a -> b -> x -> c }", &remove("x"), &[1]),
        "digraph { a -> b; c }"
    );
    assert_eq!(
        apply("digraph { a; x -> {a b} }", &remove("x"), &[1]),
        "digraph { a; {a b} }"
    );
    assert_eq!(
        apply("digraph { {x a} -> b }", &remove("x"), &[1]),
        "digraph { {a} -> b }"
    );
    assert_eq!(
        apply("digraph { a -> {x -> c} -> x }", &remove("x"), &[1]),
        "digraph { a -> {c} }"
    );
}

#[test]
fn remove_node_never_fuses_the_tokens_either_side() {
    // Two removals meet (the node statement, then the head of the next edge, whose subgraph
    // stays): `c` and `subgraph` must not become the one id `csubgraph`.
    assert_eq!(
        apply(
            "digraph { b -> c\"x\"[]\n;\"x\" -> subgraph s1 {} [k=v] }",
            &remove("x"),
            &[1, 2]
        ),
        "digraph { b -> c subgraph s1 {} }"
    );
}

#[test]
fn remove_node_line_handling() {
    let src = "digraph {\n    a // first\n    x [k=1] // gone with it\n    b; x; c\n}\n";
    assert_eq!(
        apply(src, &remove("x"), &[3, 4]),
        "digraph {\n    a // first\n    b; c\n}\n"
    );
    let crlf = src.replace('\n', "\r\n");
    assert_eq!(
        apply(&crlf, &remove("x"), &[3, 4]),
        "digraph {\r\n    a // first\r\n    b; c\r\n}\r\n"
    );
    assert_eq!(
        apply_err(FLOW, &remove("nope")),
        EditError::NodeNotFound("nope".into())
    );
}

#[test]
fn rename_updates_every_mention_in_its_style() {
    assert_snapshot!(
        "rename_plan",
        before_after(FLOW, &rename("plan", "design"), &[5, 9])
    );
    assert_snapshot!(
        "rename_build",
        before_after(FLOW, &rename("build", "compile"), &[6, 9, 10, 11, 12])
    );
    assert_eq!(
        apply("graph { 1 -- <x> ; \"1\":n }", &rename("1", "one"), &[1]),
        "graph { one -- <x> ; \"one\":n }"
    );
    assert_eq!(
        apply("graph { <x> }", &rename("x", "y"), &[1]),
        "graph { <y> }"
    );
}

#[test]
fn rename_errors() {
    assert_eq!(
        apply_err(FLOW, &rename("nope", "x")),
        EditError::NodeNotFound("nope".into())
    );
    assert_eq!(
        apply_err(FLOW, &rename("plan", "test")),
        EditError::NodeExists("test".into())
    );
    assert_eq!(
        apply_err(FLOW, &rename("plan", "two words")),
        EditError::InvalidId("two words".into())
    );
    let mut doc = heddle_dot::parse(FLOW).document;
    doc.apply(&rename("plan", "plan")).unwrap();
    assert_eq!(doc.text(), FLOW);
}
