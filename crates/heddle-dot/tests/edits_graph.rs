//! Edits of graph attributes and node attributes: before/after snapshots, and checks that
//! lines outside the edit are untouched.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{apply, apply_err, before_after};
use heddle_dot::{Edit, EditError};
use insta::assert_snapshot;

const FLOW: &str = r#"// Release flow
digraph release {
    goal = "Ship it" // what we want
    graph [rankdir=LR, label="Release"]

    node [shape=box]
    plan [label="Plan", model=gpt-5.2, timeout=30s]
    build [
        label="Build",   // multi-line list
        script="make"
    ]
    subgraph cluster_review {
        review [shape=hexagon]
    }
    plan -> build -> review [label=next]
    review -> ship
}
"#;

fn set_graph(key: &str, value: &str) -> Edit {
    Edit::SetGraphAttr {
        key: key.into(),
        value: value.into(),
    }
}

fn set_node(node: &str, key: &str, value: &str) -> Edit {
    Edit::SetNodeAttr {
        node: node.into(),
        key: key.into(),
        value: value.into(),
    }
}

fn remove_node_attr(node: &str, key: &str) -> Edit {
    Edit::RemoveNodeAttr {
        node: node.into(),
        key: key.into(),
    }
}

#[test]
fn set_graph_attr_replaces_keeping_quotes_and_comment() {
    assert_snapshot!(before_after(FLOW, &set_graph("goal", "Ship v2"), &[3]));
}

#[test]
fn set_graph_attr_in_graph_list_and_new() {
    assert_snapshot!(
        "graph_list_replace",
        before_after(FLOW, &set_graph("rankdir", "TB"), &[4])
    );
    assert_snapshot!(
        "graph_list_append",
        before_after(FLOW, &set_graph("stall_timeout", "5m"), &[4])
    );
    let assigns = "digraph {\n  goal=x;\n  a\n}\n";
    assert_eq!(
        apply(assigns, &set_graph("human.default_choice", "yes"), &[]),
        "digraph {\n  goal=x;\n  \"human.default_choice\"=yes;\n  a\n}\n"
    );
}

#[test]
fn set_graph_attr_in_empty_and_single_line_graphs() {
    assert_eq!(
        apply("digraph {}", &set_graph("goal", "g"), &[1]),
        "digraph {\n    goal=g\n}"
    );
    assert_eq!(
        apply("digraph G {\n}\n", &set_graph("goal", "a b"), &[]),
        "digraph G {\n    goal=\"a b\"\n}\n"
    );
    assert_eq!(
        apply("digraph { a -> b }", &set_graph("goal", "g"), &[1]),
        "digraph { goal=g; a -> b }"
    );
    assert_eq!(
        apply("digraph {\n\ta\n}\n", &set_graph("goal", "g"), &[]),
        "digraph {\n\tgoal=g\n\ta\n}\n"
    );
}

#[test]
fn remove_graph_attr_everywhere_at_top_level() {
    assert_snapshot!(before_after(
        FLOW,
        &Edit::RemoveGraphAttr { key: "goal".into() },
        &[3]
    ));
    let src = "digraph {\n  graph [label=x]\n  label = y; a\n  subgraph s { label=z }\n}\n";
    assert_eq!(
        apply(
            src,
            &Edit::RemoveGraphAttr {
                key: "label".into()
            },
            &[2, 3]
        ),
        "digraph {\n  a\n  subgraph s { label=z }\n}\n"
    );
}

#[test]
fn set_node_attr_appends_replaces_or_adds_a_list() {
    assert_snapshot!(
        "node_append",
        before_after(FLOW, &set_node("plan", "max_retries", "3"), &[7])
    );
    assert_snapshot!(
        "node_multiline_append",
        before_after(FLOW, &set_node("build", "timeout", "15m"), &[10])
    );
    assert_snapshot!(
        "node_in_subgraph",
        before_after(FLOW, &set_node("review", "label", "Review?"), &[13])
    );
    assert_snapshot!(
        "node_only_in_edges",
        before_after(FLOW, &set_node("ship", "shape", "Msquare"), &[])
    );
    assert_eq!(
        apply("digraph { a; a -> b }", &set_node("a", "k", "v"), &[1]),
        "digraph { a [k=v]; a -> b }"
    );
    assert_eq!(
        apply("digraph { a []; }", &set_node("a", "k", "v"), &[1]),
        "digraph { a [k=v]; }"
    );
    assert_eq!(
        apply("digraph { a [x = 1] }", &set_node("a", "k", "v"), &[1]),
        "digraph { a [x = 1, k = v] }"
    );
    assert_eq!(
        apply("digraph { a [x=1; y=2] }", &set_node("a", "k", "v"), &[1]),
        "digraph { a [x=1; y=2; k=v] }"
    );
}

#[test]
fn replaced_values_keep_their_quoting_when_possible() {
    let src = "digraph { a [q=\"x\", b=x, d=gpt-5.2, h=<<b>x</b>>] }";
    let cases = [
        ("q", "y", "q=\"y\""),
        ("q", "a \"b\"", "q=\"a \\\"b\\\"\""),
        ("b", "y", "b=y"),
        ("b", "two words", "b=\"two words\""),
        ("b", "node", "b=\"node\""),
        ("d", "gpt-5.3", "d=\"gpt-5.3\""),
        ("d", "claude", "d=claude"),
        ("h", "<i>y</i>", "h=<<i>y</i>>"),
        ("h", "a < b", "h=\"a < b\""),
    ];
    for (key, value, expected) in cases {
        let out = apply(src, &set_node("a", key, value), &[1]);
        assert!(out.contains(expected), "{key}={value:?}: {out}");
        let doc = heddle_dot::parse(&out).document;
        let attr = match &doc.graph().unwrap().stmts[0] {
            heddle_dot::Stmt::Node(n) => {
                n.attrs.iter().find(|a| a.key.value == key).unwrap().clone()
            }
            _ => unreachable!(),
        };
        assert_eq!(attr.value.unescaped(), value);
    }
    // The same value again changes nothing.
    let mut doc = heddle_dot::parse(src).document;
    doc.apply(&set_node("a", "d", "gpt-5.2")).unwrap();
    assert_eq!(doc.text(), src);
}

#[test]
fn remove_node_attr_from_lists() {
    assert_snapshot!(
        "remove_middle",
        before_after(FLOW, &remove_node_attr("plan", "model"), &[7])
    );
    assert_snapshot!(
        "remove_last",
        before_after(FLOW, &remove_node_attr("plan", "timeout"), &[7])
    );
    assert_snapshot!(
        "remove_multiline_with_comment",
        before_after(FLOW, &remove_node_attr("build", "label"), &[9])
    );
    assert_snapshot!(
        "remove_only",
        before_after(FLOW, &remove_node_attr("review", "shape"), &[13])
    );
    assert_eq!(
        apply(
            "digraph { a [x=1][k=2]; a [k=3, y=4] }",
            &remove_node_attr("a", "k"),
            &[1]
        ),
        "digraph { a [x=1]; a [y=4] }"
    );
    assert_eq!(
        apply(
            "digraph { a [k=1, k=2, x=3, k=4] }",
            &remove_node_attr("a", "k"),
            &[1]
        ),
        "digraph { a [x=3] }"
    );
    assert_eq!(
        apply("digraph { a [x=1] }", &remove_node_attr("a", "absent"), &[]),
        "digraph { a [x=1] }"
    );
}

#[test]
fn crlf_files_stay_crlf() {
    let src = FLOW.replace('\n', "\r\n");
    let out = apply(&src, &set_node("ship", "shape", "Msquare"), &[]);
    assert!(out.contains("    ship [shape=Msquare]\r\n"), "{out}");
    assert!(!out.replace("\r\n", "").contains('\n'));
    let out = apply(&src, &remove_node_attr("build", "label"), &[9]);
    assert!(!out.replace("\r\n", "").contains('\n'));
    let out = apply(&src, &set_graph("stall_timeout", "5m"), &[4]);
    assert!(!out.replace("\r\n", "").contains('\n'));
}

#[test]
fn node_attr_errors() {
    assert_eq!(
        apply_err(FLOW, &set_node("nope", "k", "v")),
        EditError::NodeNotFound("nope".into())
    );
    assert_eq!(
        apply_err(FLOW, &remove_node_attr("nope", "k")),
        EditError::NodeNotFound("nope".into())
    );
    assert_eq!(
        apply_err(FLOW, &set_node("plan", "", "v")),
        EditError::InvalidId(String::new())
    );
    assert_eq!(
        apply_err("digraph { a [ }", &set_node("a", "k", "v")),
        EditError::HasSyntaxErrors { count: 1 }
    );
}
