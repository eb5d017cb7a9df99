//! Edge edits: attributes on one edge (chains split only when unavoidable), add, remove.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{apply, apply_err, before_after, key};
use heddle_dot::{EdgeKey, Edit, EditError};
use insta::assert_snapshot;

const FLOW: &str = r#"digraph flow {
    start; plan; build; test; ship

    // happy path
    start -> plan -> build -> test -> ship [weight=1]; // chain
    test -> build [label="retry", condition="outcome=fail"]
    test -> build
    plan:out -> ship:n
}
"#;

fn set(edge: EdgeKey, k: &str, v: &str) -> Edit {
    Edit::SetEdgeAttr {
        edge,
        key: k.into(),
        value: v.into(),
    }
}

fn unset(edge: EdgeKey, k: &str) -> Edit {
    Edit::RemoveEdgeAttr {
        edge,
        key: k.into(),
    }
}

fn remove(edge: EdgeKey) -> Edit {
    Edit::RemoveEdge { edge }
}

#[test]
fn set_attr_on_a_single_edge() {
    assert_snapshot!(
        "set_single",
        before_after(FLOW, &set(key("test", "build", 0), "label", "again"), &[6])
    );
    assert_snapshot!(
        "set_second_occurrence",
        before_after(FLOW, &set(key("test", "build", 1), "label", "loop"), &[7])
    );
    assert_eq!(
        apply("graph { a -- b }", &set(key("a", "b", 0), "k", "v w"), &[1]),
        "graph { a -- b [k=\"v w\"] }"
    );
}

#[test]
fn set_attr_on_a_chain_link_splits_it_out() {
    assert_snapshot!(
        "split_middle",
        before_after(FLOW, &set(key("plan", "build", 0), "label", "go"), &[5])
    );
    assert_snapshot!(
        "split_first",
        before_after(FLOW, &set(key("start", "plan", 0), "weight", "5"), &[5])
    );
    assert_snapshot!(
        "split_last",
        before_after(FLOW, &set(key("test", "ship", 0), "label", "ok"), &[5])
    );
    assert_eq!(
        apply(
            "digraph { a -> b -> c }",
            &set(key("b", "c", 0), "k", "v"),
            &[1]
        ),
        "digraph { a -> b; b -> c [k=v] }"
    );
    assert_eq!(
        apply(
            "digraph { a -> b -> a -> b }",
            &set(key("a", "b", 1), "k", "v"),
            &[1]
        ),
        "digraph { a -> b -> a; a -> b [k=v] }"
    );
}

#[test]
fn chain_is_not_split_when_unneeded() {
    for edit in [
        set(key("plan", "build", 0), "weight", "1"),
        unset(key("plan", "build", 0), "label"),
    ] {
        let mut doc = heddle_dot::parse(FLOW).document;
        doc.apply(&edit).unwrap();
        assert_eq!(doc.text(), FLOW, "{edit:?}");
    }
}

#[test]
fn remove_attr_from_edges() {
    assert_snapshot!(
        "unset_single",
        before_after(FLOW, &unset(key("test", "build", 0), "label"), &[6])
    );
    assert_snapshot!(
        "unset_in_chain",
        before_after(FLOW, &unset(key("build", "test", 0), "weight"), &[5])
    );
}

#[test]
fn edges_to_subgraphs() {
    let src = "digraph { a -> {b c} [k=1]; {d} -> e }";
    assert_eq!(
        apply(src, &set(key("d", "e", 0), "k", "2"), &[1]),
        "digraph { a -> {b c} [k=1]; {d} -> e [k=2] }"
    );
    assert!(matches!(
        apply_err(src, &set(key("a", "b", 0), "k", "2")),
        EditError::Unsupported(_)
    ));
    assert!(matches!(
        apply_err(src, &remove(key("a", "c", 0))),
        EditError::Unsupported(_)
    ));
    assert_eq!(
        apply(
            "digraph { {a -> b} -> c }",
            &set(key("a", "b", 0), "k", "v"),
            &[1]
        ),
        "digraph { {a -> b [k=v]} -> c }"
    );
    assert_eq!(
        apply("digraph { {a} -> b -> c }", &remove(key("b", "c", 0)), &[1]),
        "digraph { {a} -> b; c }"
    );
}

#[test]
fn add_edge_after_the_last_edge_statement() {
    let add = Edit::AddEdge {
        from: "ship".into(),
        to: "start".into(),
        attrs: vec![
            ("label".into(), "again".into()),
            ("loop_restart".into(), "true".into()),
        ],
    };
    assert_snapshot!(before_after(FLOW, &add, &[]));
    let src = "graph {\n  \"a b\"; c;\n}\n";
    let add = Edit::AddEdge {
        from: "a b".into(),
        to: "c".into(),
        attrs: vec![],
    };
    assert_eq!(
        apply(src, &add, &[]),
        "graph {\n  \"a b\"; c;\n  \"a b\" -- c;\n}\n"
    );
    let missing = Edit::AddEdge {
        from: "a b".into(),
        to: "nope".into(),
        attrs: vec![],
    };
    assert_eq!(
        apply_err(src, &missing),
        EditError::NodeNotFound("nope".into())
    );
}

#[test]
fn remove_edge_cuts_chains() {
    assert_snapshot!(
        "remove_first_link",
        before_after(FLOW, &remove(key("start", "plan", 0)), &[5])
    );
    assert_snapshot!(
        "remove_last_link",
        before_after(FLOW, &remove(key("test", "ship", 0)), &[5])
    );
    assert_snapshot!(
        "remove_middle_link",
        before_after(FLOW, &remove(key("plan", "build", 0)), &[5])
    );
    assert_snapshot!(
        "remove_single_with_port",
        before_after(FLOW, &remove(key("plan", "ship", 0)), &[8])
    );
    assert_eq!(
        apply(
            "digraph {\n  a -> b // only mention\n}\n",
            &remove(key("a", "b", 0)),
            &[2]
        ),
        "digraph {\n  a\n  b // only mention\n}\n"
    );
    let crlf = FLOW.replace('\n', "\r\n");
    let out = apply(&crlf, &remove(key("plan", "build", 0)), &[5]);
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
}

#[test]
fn edge_errors() {
    assert_eq!(
        apply_err(FLOW, &remove(key("ship", "start", 0))),
        EditError::EdgeNotFound(key("ship", "start", 0))
    );
    assert_eq!(
        apply_err(FLOW, &set(key("test", "build", 2), "k", "v")),
        EditError::EdgeNotFound(key("test", "build", 2))
    );
    assert_eq!(
        apply_err("digraph { a -> }", &remove(key("a", "b", 0))),
        EditError::HasSyntaxErrors { count: 1 }
    );
}

#[test]
fn edits_round_trip_through_serde() {
    let edit = set(key("a", "b", 0), "k", "v");
    let json = serde_json::to_string(&edit).unwrap();
    assert_eq!(
        json,
        r#"{"op":"set_edge_attr","edge":{"from":"a","to":"b","occurrence":0},"key":"k","value":"v"}"#
    );
    assert_eq!(serde_json::from_str::<Edit>(&json).unwrap(), edit);
}

#[test]
fn splitting_a_chain_keeps_a_comment_before_its_attributes() {
    let src = "digraph g {\n  a -> b -> c  // why these two\n    [label=\"x\"]\n}\n";
    let out = apply(src, &set(key("a", "b", 0), "weight", "2"), &[2, 3]);
    assert!(out.contains("// why these two"), "comment lost:\n{out}");
    let out = apply(src, &remove(key("b", "c", 0)), &[2, 3]);
    assert!(out.contains("// why these two"), "comment lost:\n{out}");
    let out = apply(src, &remove(key("a", "b", 0)), &[2, 3]);
    assert!(out.contains("// why these two"), "comment lost:\n{out}");
    assert_snapshot!(before_after(
        src,
        &set(key("a", "b", 0), "weight", "2"),
        &[2, 3]
    ));
}
