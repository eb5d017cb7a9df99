//! The semantic view: id kinds and values, ports, chains, subgraphs, the dialect's bare
//! runs, and spans that point at the right text.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use common::{DotGen, Options};
use heddle_dot::{AttrTarget, EdgeOperand, Graph, Id, IdKind, Stmt, parse};
use proptest::prelude::*;

const CONSTRUCTS: &str = include_str!("fixtures/constructs.dot");
const WORKFLOW: &str = include_str!("fixtures/workflow.dot");

fn graph(src: &str) -> Graph {
    let parsed = parse(src);
    assert_eq!(parsed.errors, vec![]);
    parsed.document.graph().cloned().unwrap()
}

/// Every id in the graph, in document order.
fn ids(stmts: &[Stmt], out: &mut Vec<Id>) {
    for stmt in stmts {
        match stmt {
            Stmt::Node(n) => {
                out.push(n.node.id.clone());
                out.extend(
                    n.attrs
                        .iter()
                        .flat_map(|a| [a.key.clone(), a.value.clone()]),
                );
            }
            Stmt::Edge(e) => {
                for op in &e.operands {
                    match op {
                        EdgeOperand::Node(n) => out.push(n.id.clone()),
                        EdgeOperand::Subgraph(s) => ids(&s.stmts, out),
                    }
                }
                out.extend(
                    e.attrs
                        .iter()
                        .flat_map(|a| [a.key.clone(), a.value.clone()]),
                );
            }
            Stmt::Attr(a) => out.extend(
                a.attrs
                    .iter()
                    .flat_map(|a| [a.key.clone(), a.value.clone()]),
            ),
            Stmt::Assign(a) => out.extend([a.key.clone(), a.value.clone()]),
            Stmt::Subgraph(s) => ids(&s.stmts, out),
        }
    }
}

fn find<'a>(all: &'a [Id], value: &str) -> &'a Id {
    all.iter()
        .find(|i| i.value == value)
        .unwrap_or_else(|| panic!("no id {value:?}"))
}

#[test]
fn header_keywords_are_case_insensitive() {
    let g = graph(CONSTRUCTS);
    assert!(g.strict && g.directed);
    assert_eq!(g.id.as_ref().unwrap().value, "the graph");
    let two = parse("graph a {} DIGRAPH b {}").document;
    assert_eq!(two.graphs().len(), 2);
    assert!(!two.graphs()[0].directed && two.graphs()[1].directed);
}

#[test]
fn id_kinds_and_values() {
    let g = graph(CONSTRUCTS);
    let mut all = Vec::new();
    ids(&g.stmts, &mut all);
    let cases = [
        ("-.5", IdKind::Numeral),
        ("1.", IdKind::Numeral),
        ("42", IdKind::Numeral),
        ("été", IdKind::Identifier),
        ("名前", IdKind::Identifier),
        ("multi\nline", IdKind::Quoted),
        ("concatenated", IdKind::Quoted),
        ("xy", IdKind::Quoted),
        ("<b>bold</b> and <i>italic <u>nested</u></i>", IdKind::Html),
        ("a\"b\\\\c\\nd", IdKind::Quoted),
    ];
    for (value, kind) in cases {
        assert_eq!(find(&all, value).kind, kind, "{value}");
    }
    let label = find(&all, "a\"b\\\\c\\nd");
    assert_eq!(label.unescaped(), "a\"b\\c\nd");
    let concat = find(&all, "concatenated");
    assert_eq!(
        &CONSTRUCTS[concat.span.start..concat.span.end],
        "\"con\" + \"cat\" + \"enated\""
    );
}

#[test]
fn dialect_bare_runs() {
    let g = graph(WORKFLOW);
    let mut all = Vec::new();
    ids(&g.stmts, &mut all);
    for bare in [
        "gpt-5.2",
        "30s",
        "15m",
        "claude:latest",
        "human.default_choice",
    ] {
        assert_eq!(find(&all, bare).kind, IdKind::Bare, "{bare}");
    }
    assert_eq!(find(&all, "none").kind, IdKind::Identifier);
    assert_eq!(find(&all, "default_max_retries").kind, IdKind::Identifier);
    // Edge operators are never part of a run, ports stay ports in node positions.
    let g = graph("digraph { a->b->c; x=a-b; n:p:sw -> m:ne [k=v:w] }");
    let Stmt::Assign(a) = &g.stmts[1] else {
        panic!()
    };
    assert_eq!(
        (a.value.kind, a.value.value.as_str()),
        (IdKind::Bare, "a-b")
    );
    let Stmt::Edge(e) = &g.stmts[2] else { panic!() };
    let EdgeOperand::Node(n) = &e.operands[0] else {
        panic!()
    };
    assert_eq!(n.id.value, "n");
    let port = n.port.as_ref().unwrap();
    assert_eq!(port.name.as_ref().unwrap().value, "p");
    assert_eq!(port.compass.as_ref().unwrap().value, "sw");
    let EdgeOperand::Node(m) = &e.operands[1] else {
        panic!()
    };
    let port = m.port.as_ref().unwrap();
    assert!(port.name.is_none());
    assert_eq!(port.compass.as_ref().unwrap().value, "ne");
    assert_eq!(e.attrs[0].value.value, "v:w");
}

#[test]
fn chains_subgraphs_and_attr_statements() {
    let g = graph(CONSTRUCTS);
    let chain = g
        .stmts
        .iter()
        .find_map(|s| match s {
            Stmt::Edge(e) if e.operands.len() == 3 => Some(e),
            _ => None,
        })
        .unwrap();
    assert_eq!(chain.directed_ops, vec![true, true]);
    assert_eq!(chain.attrs[0].key.value, "weight");
    let graph_attrs: Vec<&str> = g
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Attr(a) if a.target == AttrTarget::Graph => Some(a),
            _ => None,
        })
        .flat_map(|a| a.attrs.iter().map(|x| x.key.value.as_str()))
        .collect();
    assert_eq!(
        graph_attrs,
        ["rankdir", "label", "fontsize", "bgcolor", "margin"]
    );
    let subgraph_ids: Vec<Option<&str>> = g
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Subgraph(s) => Some(s.id.as_ref().map(|i| i.value.as_str())),
            _ => None,
        })
        .collect();
    assert_eq!(subgraph_ids, [Some("cluster_0"), None]);
    let mixed = g
        .stmts
        .iter()
        .find_map(|s| match s {
            Stmt::Edge(e) if matches!(e.operands[0], EdgeOperand::Subgraph(_)) => Some(e),
            _ => None,
        })
        .unwrap();
    assert_eq!(mixed.span.line, 26);
}

#[test]
fn spans_locate_text() {
    let src = "digraph {\n  été -> \"b\" [label = \"x\"]; // c\n}";
    let g = graph(src);
    let Stmt::Edge(e) = &g.stmts[0] else { panic!() };
    assert_eq!(
        &src[e.span.start..e.span.end],
        "été -> \"b\" [label = \"x\"]"
    );
    assert_eq!((e.span.line, e.span.column), (2, 3));
    let attr = &e.attrs[0];
    assert_eq!(&src[attr.span.start..attr.span.end], "label = \"x\"");
    assert_eq!((attr.span.line, attr.span.column), (2, 15));
    let EdgeOperand::Node(b) = &e.operands[1] else {
        panic!()
    };
    assert_eq!(b.id.span.column, 10);
    assert_eq!(g.span.start, 0);
    assert_eq!(g.span.end, src.len());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn every_id_span_slices_its_text(seed in any::<u64>()) {
        let src = DotGen::generate(seed, Options { graphviz: false });
        let parsed = parse(&src);
        prop_assert!(parsed.errors.is_empty());
        for g in parsed.document.graphs() {
            let mut all = Vec::new();
            ids(&g.stmts, &mut all);
            for id in all {
                let text = src.get(id.span.start..id.span.end).expect("span on char boundaries");
                match id.kind {
                    IdKind::Quoted => prop_assert!(text.starts_with('"') && text.ends_with('"')),
                    IdKind::Html => prop_assert_eq!(&text[1..text.len() - 1], id.value.as_str()),
                    _ => prop_assert_eq!(text, id.value.as_str()),
                }
                let line_start = src[..id.span.start].rfind('\n').map_or(0, |i| i + 1);
                prop_assert_eq!(id.span.line as usize, src[..id.span.start].matches('\n').count() + 1);
                prop_assert_eq!(id.span.column as usize, src[line_start..id.span.start].chars().count() + 1);
            }
        }
    }
}
