//! The invariants every input must keep, checked by the fuzz target and property tests.

use crate::edit::find::{all_edges, find_edge, for_each_node_ref, node_stmts};
use crate::{Document, EdgeKey, EdgeOperand, Edit, EditError, Graph, Stmt, parse, snippet};

/// Parses `src` and checks, panicking on a violation: the document prints back byte for
/// byte and every error renders; when the file parsed cleanly, each of a series of edits
/// derived from its content either fails leaving the document unchanged, or leaves a
/// document that re-parses without errors and whose nodes, edges and attributes changed
/// exactly as the edit says.
pub fn check_source(src: &str) {
    let parsed = parse(src);
    assert_eq!(
        parsed.document.text(),
        src,
        "the round trip changed the text"
    );
    for e in &parsed.errors {
        assert!(src.is_char_boundary(e.span.start.min(src.len())));
        let _ = snippet(src, "input.dot", e.span);
    }
    if !parsed.errors.is_empty() {
        return;
    }
    let Some(before) = parsed.document.graph() else {
        return;
    };
    for edit in edits_for(before) {
        let mut doc = parsed.document.clone();
        match doc.apply(&edit) {
            Ok(()) => check_applied(src, before, &doc, &edit),
            Err(err) => {
                assert_eq!(doc.text(), src, "a failed {edit:?} changed the text");
                let internal =
                    matches!(&err, EditError::Unsupported(why) if why.starts_with("internal"));
                assert!(!internal, "{edit:?} hit an internal error: {err}\n{src}");
            }
        }
    }
}

fn nodes(graph: &Graph) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for_each_node_ref(&graph.stmts, &mut |r| {
        if !out.contains(&r.id.value) {
            out.push(r.id.value.clone());
        }
    });
    out.sort();
    out
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

/// The value the node's statements give `key` (the last one wins).
fn node_attr(graph: &Graph, node: &str, key: &str) -> Option<String> {
    let mut stmts = Vec::new();
    node_stmts(&graph.stmts, node, &mut stmts);
    let attr = stmts
        .iter()
        .flat_map(|s| s.attrs.iter())
        .rfind(|a| a.key.value == key)?;
    Some(attr.value.unescaped())
}

fn graph_attr(graph: &Graph, key: &str) -> Option<String> {
    let attr = graph
        .stmts
        .iter()
        .flat_map(|s| match s {
            Stmt::Assign(a) => std::slice::from_ref(a).iter(),
            Stmt::Attr(a) if a.target == crate::AttrTarget::Graph => a.attrs.iter(),
            _ => [].iter(),
        })
        .rfind(|a| a.key.value == key)?;
    Some(attr.value.unescaped())
}

fn edge_attr(graph: &Graph, edge: &EdgeKey, key: &str) -> Option<String> {
    let loc = find_edge(graph, edge)?;
    let attr = loc.stmt.attrs.iter().rfind(|a| a.key.value == key)?;
    Some(attr.value.unescaped())
}

/// Checks that an applied edit did what it says, and nothing else.
fn check_applied(src: &str, before: &Graph, doc: &Document, edit: &Edit) {
    let text = doc.text();
    let reparsed = parse(&text);
    assert!(
        reparsed.errors.is_empty(),
        "{edit:?} produced invalid DOT:\n{src}\n=>\n{text}\n{:?}",
        reparsed.errors
    );
    assert!(doc.graph().is_some(), "{edit:?} lost the graph");
    let Some(after) = doc.graph() else {
        return;
    };
    assert_eq!(
        reparsed.document.graph(),
        Some(after),
        "{edit:?}: stale graph"
    );
    let (nodes_before, nodes_after) = (nodes(before), nodes(after));
    let (edges_before, edges_after) = (all_edges(before), all_edges(after));
    let context = || format!("{edit:?}\n{src}\n=>\n{text}");
    // Splitting a chain may move its edges before those inside its subgraph endpoints, so
    // edges compare as multisets where a statement may be split.
    let same_edges = sorted(edges_before.clone()) == sorted(edges_after.clone());
    let same_shape = nodes_before == nodes_after && same_edges;
    match edit {
        Edit::SetGraphAttr { key, value } => {
            assert!(same_shape, "{}", context());
            assert_eq!(
                graph_attr(after, key).as_ref(),
                Some(value),
                "{}",
                context()
            );
        }
        Edit::RemoveGraphAttr { key } => {
            assert!(same_shape, "{}", context());
            assert_eq!(graph_attr(after, key), None, "{}", context());
        }
        Edit::SetNodeAttr { node, key, value } => {
            assert!(same_shape, "{}", context());
            assert_eq!(
                node_attr(after, node, key).as_ref(),
                Some(value),
                "{}",
                context()
            );
        }
        Edit::RemoveNodeAttr { node, key } => {
            assert!(same_shape, "{}", context());
            assert_eq!(node_attr(after, node, key), None, "{}", context());
        }
        Edit::SetEdgeAttr { edge, key, value } => {
            assert!(same_shape, "{}", context());
            assert_eq!(
                edge_attr(after, edge, key).as_ref(),
                Some(value),
                "{}",
                context()
            );
        }
        Edit::RemoveEdgeAttr { edge, key } => {
            assert!(same_shape, "{}", context());
            assert_eq!(edge_attr(after, edge, key), None, "{}", context());
        }
        Edit::AddNode { id, .. } => {
            let mut expected = nodes_before.clone();
            expected.push(id.clone());
            assert_eq!(nodes_after, sorted(expected), "{}", context());
            assert_eq!(edges_after, edges_before, "{}", context());
        }
        Edit::RemoveNode { id } => {
            let expected: Vec<String> = nodes_before.iter().filter(|n| *n != id).cloned().collect();
            assert_eq!(nodes_after, expected, "{}", context());
            let kept = edges_before
                .iter()
                .filter(|(t, h)| t != id && h != id)
                .cloned();
            assert_eq!(sorted(edges_after), sorted(kept.collect()), "{}", context());
        }
        Edit::RenameNode { from, to } => {
            let rename = |n: &String| if n == from { to.clone() } else { n.clone() };
            assert_eq!(
                nodes_after,
                sorted(nodes_before.iter().map(rename).collect()),
                "{}",
                context()
            );
            let renamed: Vec<_> = edges_before
                .iter()
                .map(|(t, h)| (rename(t), rename(h)))
                .collect();
            assert_eq!(edges_after, renamed, "{}", context());
        }
        Edit::AddEdge { from, to, .. } => {
            assert_eq!(nodes_after, nodes_before, "{}", context());
            let mut expected = edges_before.clone();
            expected.push((from.clone(), to.clone()));
            assert_eq!(sorted(edges_after), sorted(expected), "{}", context());
        }
        Edit::RemoveEdge { edge } => {
            assert_eq!(nodes_after, nodes_before, "{}", context());
            let mut expected = edges_before.clone();
            let mut seen = 0;
            expected.retain(|(t, h)| {
                let hit = *t == edge.from && *h == edge.to;
                seen += usize::from(hit);
                !(hit && seen == edge.occurrence + 1)
            });
            assert_eq!(sorted(edges_after), sorted(expected), "{}", context());
        }
    }
}

/// Edits of every kind aimed at what the graph contains.
fn edits_for(graph: &Graph) -> Vec<Edit> {
    let mut names: Vec<String> = Vec::new();
    for_each_node_ref(&graph.stmts, &mut |r| {
        if !names.contains(&r.id.value) {
            names.push(r.id.value.clone());
        }
    });
    let mut edits = vec![
        Edit::SetGraphAttr {
            key: "goal".into(),
            value: "a \"quoted\"\nvalue\\".into(),
        },
        Edit::RemoveGraphAttr { key: "k0".into() },
        Edit::AddNode {
            id: "fresh_node".into(),
            attrs: vec![
                ("label".into(), "Fresh".into()),
                ("k.x".into(), "1.5".into()),
            ],
        },
    ];
    for (i, node) in names.iter().take(3).enumerate() {
        let other = names.get(i + 1).unwrap_or(node).clone();
        edits.extend([
            Edit::SetNodeAttr {
                node: node.clone(),
                key: "k1".into(),
                value: "new value".into(),
            },
            Edit::RemoveNodeAttr {
                node: node.clone(),
                key: "k2".into(),
            },
            Edit::RenameNode {
                from: node.clone(),
                to: "renamed_node".into(),
            },
            Edit::AddEdge {
                from: node.clone(),
                to: other,
                attrs: vec![("k3".into(), "<b>x</b>".into())],
            },
            Edit::RemoveNode { id: node.clone() },
        ]);
    }
    let mut links = Vec::new();
    for stmt in &graph.stmts {
        if let Stmt::Edge(e) = stmt {
            for pair in e.operands.windows(2) {
                if let [EdgeOperand::Node(t), EdgeOperand::Node(h)] = pair {
                    links.push((t.id.value.clone(), h.id.value.clone()));
                }
            }
        }
    }
    for (from, to) in links.into_iter().take(3) {
        let edge = EdgeKey {
            from,
            to,
            occurrence: 0,
        };
        edits.extend([
            Edit::SetEdgeAttr {
                edge: edge.clone(),
                key: "k4".into(),
                value: "v".into(),
            },
            Edit::RemoveEdgeAttr {
                edge: edge.clone(),
                key: "k0".into(),
            },
            Edit::RemoveEdge { edge },
        ]);
    }
    edits
}
