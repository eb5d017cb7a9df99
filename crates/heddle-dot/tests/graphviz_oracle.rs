//! Graphviz as the oracle: for hand-written and generated DOT files, `dot -Tjson0` and
//! heddle-dot must agree on
//!
//! - the set of node names;
//! - the multiset of edges (tail, head);
//! - for every node and edge, its attributes from the generator's vocabulary (`k0`..`k5`)
//!   plus `tailport`/`headport`, with their values, as Graphviz resolves them: `node [..]`
//!   / `edge [..]` defaults scoped to subgraphs and applied at creation time, ports turned
//!   into edge attributes, explicit attributes overriding (see `common/resolve.rs`).
//!
//! Layout attributes Graphviz adds (`pos`, `width`, `label="\N"`, ...) are outside the
//! vocabulary and ignored. Graphviz prints no empty value, so empty values count as unset
//! on both sides. The test fails (it does not skip) when `dot` is missing.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod common;

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

use common::resolve::{Attrs, Resolved, resolve};
use common::{DotGen, Options};
use serde_json::Value;

fn compared(key: &str) -> bool {
    matches!(
        key,
        "k0" | "k1" | "k2" | "k3" | "k4" | "k5" | "tailport" | "headport"
    )
}

fn dot_json(src: &str) -> Value {
    let child = Command::new("dot")
        .arg("-Tjson0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => panic!(
            "cannot run Graphviz `dot` ({e}): install graphviz (apt-get install graphviz) to run the oracle test"
        ),
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(src.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "dot rejected:\n{src}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn attrs_of(obj: &Value, keep: fn(&str) -> bool) -> Attrs {
    obj.as_object()
        .unwrap()
        .iter()
        .filter(|(k, _)| keep(k))
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
        .filter(|(_, v)| !v.is_empty())
        .collect()
}

fn from_graphviz(json: &Value, keep: fn(&str) -> bool) -> Resolved {
    let mut names = BTreeMap::new();
    let mut r = Resolved::default();
    // The first `_subgraph_cnt` objects are subgraphs, the rest nodes.
    let subgraphs = usize::try_from(json["_subgraph_cnt"].as_u64().unwrap_or(0)).unwrap();
    for obj in json["objects"]
        .as_array()
        .into_iter()
        .flatten()
        .skip(subgraphs)
    {
        let name = obj["name"].as_str().unwrap().to_owned();
        names.insert(obj["_gvid"].as_u64().unwrap(), name.clone());
        r.nodes.insert(name, attrs_of(obj, keep));
    }
    for e in json["edges"].as_array().into_iter().flatten() {
        let tail = names[&e["tail"].as_u64().unwrap()].clone();
        let head = names[&e["head"].as_u64().unwrap()].clone();
        r.edges.push((tail, head, attrs_of(e, keep)));
    }
    r.edges.sort();
    r
}

fn from_heddle(src: &str) -> Resolved {
    let parsed = heddle_dot::parse(src);
    assert!(parsed.errors.is_empty(), "{src}\n{:?}", parsed.errors);
    let mut r = resolve(parsed.document.graph().unwrap());
    for attrs in r.nodes.values_mut() {
        attrs.retain(|k, _| compared(k));
    }
    for (_, _, attrs) in &mut r.edges {
        attrs.retain(|k, _| compared(k));
    }
    r
}

/// Checks one file; returns how many (node or edge, attribute) values were compared.
fn check(src: &str) -> usize {
    let ours = from_heddle(src);
    let theirs = from_graphviz(&dot_json(src), compared);
    assert_eq!(ours.nodes, theirs.nodes, "nodes differ for:\n{src}");
    assert_eq!(ours.edges, theirs.edges, "edges differ for:\n{src}");
    ours.nodes.len()
        + ours.edges.len()
        + ours.nodes.values().map(Attrs::len).sum::<usize>()
        + ours.edges.iter().map(|(_, _, a)| a.len()).sum::<usize>()
}

#[test]
fn graphviz_is_installed() {
    let out = Command::new("dot").arg("-V").output();
    assert!(
        out.is_ok_and(|o| o.status.success()),
        "Graphviz `dot` is not installed: install graphviz (apt-get install graphviz); CI installs it"
    );
}

#[test]
fn hand_written_files_agree() {
    let files = [
        r#"digraph { a -> b -> c [k0=1]; b [k1="x y"] }"#,
        r#"digraph G {
            node [k0=outer]
            a
            subgraph cluster_s { node [k0=inner; k1=2] b; a -> c }
            d -> {e f} [k2=<b<i>x</i>>]
            edge [k3="dashed"]
            a:p:n -> b:sw -> {c; subgraph { g -> h }}
            "x\"y" + "z" [k4="a\\b\
c"]
        }"#,
        "graph U { a -- b -- c; { a b } -- d [k0=-.5] }",
        "/* head */ digraph {\n# line directive\n 1 -> 2. -> -3 // tail\n}",
    ];
    let compared: usize = files.into_iter().map(check).sum();
    assert!(compared > 40, "only {compared} facts compared");
}

#[test]
fn generated_files_agree() {
    let mut compared = 0;
    for seed in 0..60 {
        compared += check(&DotGen::generate(seed, Options { graphviz: true }));
    }
    // The comparison must not be vacuous.
    assert!(compared > 1500, "only {compared} facts compared");
}

/// What Heddle writes must be DOT that Graphviz reads the same way: edit generated files
/// with awkward values and keys, then compare again.
#[test]
fn edited_files_still_agree() {
    use heddle_dot::{EdgeKey, Edit};
    let mut applied = 0;
    let values = [
        "gpt-5.2",
        "a \"quoted\" word",
        "node",
        "trailing\\",
        "two\nlines",
        "",
        "-.5",
    ];
    for seed in 0..25u64 {
        let src = DotGen::generate(seed, Options { graphviz: true });
        let mut doc = heddle_dot::parse(&src).document;
        let graph = doc.graph().unwrap().clone();
        let mut names = Vec::new();
        let mut first_edge = None;
        for stmt in &graph.stmts {
            match stmt {
                heddle_dot::Stmt::Node(n) => names.push(n.node.id.value.clone()),
                heddle_dot::Stmt::Edge(e) => {
                    if let [
                        heddle_dot::EdgeOperand::Node(t),
                        heddle_dot::EdgeOperand::Node(h),
                        ..,
                    ] = e.operands.as_slice()
                    {
                        first_edge.get_or_insert((t.id.value.clone(), h.id.value.clone()));
                        names.push(t.id.value.clone());
                    }
                }
                _ => {}
            }
        }
        let value = values[seed as usize % values.len()];
        let mut edits = vec![
            Edit::SetGraphAttr {
                key: "k0".into(),
                value: value.into(),
            },
            Edit::AddNode {
                id: "added".into(),
                attrs: vec![("k1".into(), value.into())],
            },
        ];
        if let Some(n) = names.first() {
            edits.push(Edit::SetNodeAttr {
                node: n.clone(),
                key: "k2".into(),
                value: value.into(),
            });
            edits.push(Edit::AddEdge {
                from: n.clone(),
                to: "added".into(),
                attrs: vec![("k3".into(), value.into())],
            });
            edits.push(Edit::RenameNode {
                from: n.clone(),
                to: "renamed".into(),
            });
        }
        if let Some((from, to)) = first_edge {
            let edge = EdgeKey {
                from,
                to,
                occurrence: 0,
            };
            edits.push(Edit::SetEdgeAttr {
                edge,
                key: "k4".into(),
                value: value.into(),
            });
        }
        for edit in &edits {
            // An edit may be refused (say, a name already taken); the file must stay valid.
            applied += usize::from(doc.apply(edit).is_ok());
        }
        check(&doc.text());
    }
    assert!(applied >= 100, "only {applied} edits applied");
}

/// For real workflow files: the same nodes and edges, and every attribute Heddle reads is in
/// Graphviz's output with the same value (Graphviz adds layout attributes of its own, so
/// the comparison is one-way for attributes).
fn check_workflow_file(src: &str) -> usize {
    let parsed = heddle_dot::parse(src);
    assert!(parsed.errors.is_empty(), "{src}\n{:?}", parsed.errors);
    let ours = resolve(parsed.document.graph().unwrap());
    let theirs = from_graphviz(&dot_json(src), |_| true);
    let names = |r: &Resolved| r.nodes.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&ours), names(&theirs), "nodes differ");
    let ends = |r: &Resolved| {
        r.edges
            .iter()
            .map(|(t, h, _)| (t.clone(), h.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(ends(&ours), ends(&theirs), "edges differ");
    let mut compared = 0;
    let node_pairs = ours
        .nodes
        .iter()
        .map(|(n, a)| (n.clone(), a, &theirs.nodes[n]));
    let edge_pairs = ours
        .edges
        .iter()
        .zip(&theirs.edges)
        .map(|((t, h, a), (_, _, b))| (format!("{t}->{h}"), a, b));
    for (element, mine, graphviz) in node_pairs.chain(edge_pairs) {
        for (key, value) in mine {
            assert_eq!(
                graphviz.get(key),
                Some(value),
                "{element}: attribute `{key}`"
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn the_bundled_examples_agree() {
    for (path, src) in common::examples() {
        let compared = check_workflow_file(&src);
        assert!(
            compared >= 10,
            "{}: only {compared} attributes compared",
            path.display()
        );
    }
}
