//! Resolves a heddle-dot graph the way Graphviz's cgraph builds it, to compare with
//! Graphviz's own output:
//!
//! - a node gets the `node [..]` defaults in effect, in the (sub)graph where it is first
//!   mentioned, when it is first mentioned; later statements only add explicit attributes;
//! - an edge gets the `edge [..]` defaults in effect where its statement is, then
//!   `tailport`/`headport` from the endpoints' ports, then the statement's attributes;
//! - a subgraph endpoint stands for every node mentioned inside it (nested ones included);
//!   the edges inside it are created before the statement's own edges;
//! - a subgraph starts with a copy of its parent's defaults;
//! - empty values count as unset (Graphviz prints none of them).
#![allow(dead_code)]

use std::collections::BTreeMap;

use heddle_dot::{AttrTarget, EdgeOperand, Graph, NodeRef, Port, Stmt};

pub type Attrs = BTreeMap<String, String>;

#[derive(Debug, Default, PartialEq)]
pub struct Resolved {
    pub nodes: BTreeMap<String, Attrs>,
    /// (tail, head, attributes), sorted.
    pub edges: Vec<(String, String, Attrs)>,
}

#[derive(Clone, Default)]
struct Scope {
    node: Attrs,
    edge: Attrs,
}

pub fn resolve(graph: &Graph) -> Resolved {
    let mut r = Resolved::default();
    let mut scope = Scope::default();
    walk(&graph.stmts, &mut scope, &mut r, &mut Vec::new());
    for attrs in r.nodes.values_mut() {
        attrs.retain(|_, v| !v.is_empty());
    }
    for (_, _, attrs) in &mut r.edges {
        attrs.retain(|_, v| !v.is_empty());
    }
    r.edges.sort();
    r
}

fn port_text(port: &Option<Box<Port>>) -> Option<String> {
    let port = port.as_ref()?;
    let parts: Vec<&str> = [&port.name, &port.compass]
        .into_iter()
        .flatten()
        .map(|id| id.value.as_str())
        .collect();
    Some(parts.join(":"))
}

/// Mentions node `n` in the current scope; `members` collects the node names of the
/// enclosing subgraphs.
fn touch(n: &NodeRef, scope: &Scope, r: &mut Resolved, members: &mut Vec<String>) {
    let id = &n.id.value;
    r.nodes
        .entry(id.clone())
        .or_insert_with(|| scope.node.clone());
    if !members.contains(id) {
        members.push(id.clone());
    }
}

fn walk(stmts: &[Stmt], scope: &mut Scope, r: &mut Resolved, members: &mut Vec<String>) {
    for stmt in stmts {
        match stmt {
            Stmt::Attr(a) => {
                let target = match a.target {
                    AttrTarget::Node => &mut scope.node,
                    AttrTarget::Edge => &mut scope.edge,
                    AttrTarget::Graph => continue,
                };
                for attr in &a.attrs {
                    target.insert(attr.key.value.clone(), attr.value.value.clone());
                }
            }
            Stmt::Assign(_) => {}
            Stmt::Node(n) => {
                touch(&n.node, scope, r, members);
                if let Some(node) = r.nodes.get_mut(&n.node.id.value) {
                    for attr in &n.attrs {
                        node.insert(attr.key.value.clone(), attr.value.value.clone());
                    }
                }
            }
            Stmt::Subgraph(s) => {
                let mut inner = scope.clone();
                walk(&s.stmts, &mut inner, r, members);
            }
            Stmt::Edge(e) => {
                let mut ends: Vec<(Vec<String>, Option<String>)> = Vec::new();
                for op in &e.operands {
                    match op {
                        EdgeOperand::Node(n) => {
                            touch(n, scope, r, members);
                            ends.push((vec![n.id.value.clone()], port_text(&n.port)));
                        }
                        EdgeOperand::Subgraph(s) => {
                            let mut inner = scope.clone();
                            let mut inside = Vec::new();
                            walk(&s.stmts, &mut inner, r, &mut inside);
                            for id in &inside {
                                if !members.contains(id) {
                                    members.push(id.clone());
                                }
                            }
                            ends.push((inside, None));
                        }
                    }
                }
                for pair in ends.windows(2) {
                    let [(tails, tport), (heads, hport)] = pair else {
                        continue;
                    };
                    for t in tails {
                        for h in heads {
                            let mut attrs = scope.edge.clone();
                            if let Some(p) = tport {
                                attrs.insert("tailport".into(), p.clone());
                            }
                            if let Some(p) = hport {
                                attrs.insert("headport".into(), p.clone());
                            }
                            for attr in &e.attrs {
                                attrs.insert(attr.key.value.clone(), attr.value.value.clone());
                            }
                            r.edges.push((t.clone(), h.clone(), attrs));
                        }
                    }
                }
            }
        }
    }
}
