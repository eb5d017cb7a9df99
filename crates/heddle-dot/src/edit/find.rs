//! Queries on the semantic view that edits need: where a node is mentioned, its
//! statements, and which statement defines a given edge.

use crate::{EdgeKey, EdgeOperand, EdgeStmt, Graph, NodeRef, NodeStmt, Stmt};

/// Calls `f` on every node reference (node statements and edge endpoints), in document
/// order, subgraphs included.
pub(crate) fn for_each_node_ref<'g>(stmts: &'g [Stmt], f: &mut impl FnMut(&'g NodeRef)) {
    for stmt in stmts {
        match stmt {
            Stmt::Node(n) => f(&n.node),
            Stmt::Edge(e) => {
                for op in &e.operands {
                    match op {
                        EdgeOperand::Node(n) => f(n),
                        EdgeOperand::Subgraph(s) => for_each_node_ref(&s.stmts, f),
                    }
                }
            }
            Stmt::Subgraph(s) => for_each_node_ref(&s.stmts, f),
            Stmt::Attr(_) | Stmt::Assign(_) => {}
        }
    }
}

/// How many times `id` is mentioned.
pub(crate) fn mentions(stmts: &[Stmt], id: &str) -> usize {
    let mut n = 0;
    for_each_node_ref(stmts, &mut |r| n += usize::from(r.id.value == id));
    n
}

/// The first reference to `id`, if the node exists.
pub(crate) fn first_ref<'g>(stmts: &'g [Stmt], id: &str) -> Option<&'g NodeRef> {
    let mut found = None;
    for_each_node_ref(stmts, &mut |r| {
        if found.is_none() && r.id.value == id {
            found = Some(r);
        }
    });
    found
}

/// Every node statement of `id`, in document order (inside subgraphs too).
pub(crate) fn node_stmts<'g>(stmts: &'g [Stmt], id: &str, out: &mut Vec<&'g NodeStmt>) {
    for stmt in stmts {
        match stmt {
            Stmt::Node(n) if n.node.id.value == id => out.push(n),
            Stmt::Edge(e) => {
                for op in &e.operands {
                    if let EdgeOperand::Subgraph(s) = op {
                        node_stmts(&s.stmts, id, out);
                    }
                }
            }
            Stmt::Subgraph(s) => node_stmts(&s.stmts, id, out),
            _ => {}
        }
    }
}

/// The statement containing the first mention of `id`, searched in the innermost body
/// (graph or `subgraph` statement) that holds it.
pub(crate) fn first_mention_stmt<'g>(stmts: &'g [Stmt], id: &str) -> Option<&'g Stmt> {
    for stmt in stmts {
        match stmt {
            Stmt::Subgraph(s) => {
                if let Some(found) = first_mention_stmt(&s.stmts, id) {
                    return Some(found);
                }
            }
            Stmt::Node(_) | Stmt::Edge(_) if mentions(std::slice::from_ref(stmt), id) > 0 => {
                return Some(stmt);
            }
            _ => {}
        }
    }
    None
}

/// The nodes an edge endpoint stands for: the node, or every node in the subgraph (first
/// appearance order, without repeats).
pub(crate) fn operand_nodes(op: &EdgeOperand) -> Vec<&str> {
    match op {
        EdgeOperand::Node(n) => vec![n.id.value.as_str()],
        EdgeOperand::Subgraph(s) => {
            let mut out: Vec<&str> = Vec::new();
            for_each_node_ref(&s.stmts, &mut |r| {
                if !out.contains(&r.id.value.as_str()) {
                    out.push(&r.id.value);
                }
            });
            out
        }
    }
}

/// One edge located in the source.
pub(crate) struct EdgeLoc<'g> {
    /// The edge statement (possibly a chain) that contains this edge.
    pub stmt: &'g EdgeStmt,
    /// The body (graph, subgraph or subgraph endpoint) holding that statement.
    pub body: &'g [Stmt],
    /// Which link of the chain (`operands[link] -> operands[link + 1]`).
    pub link: usize,
    /// How many edges the statement defines in all.
    pub edges_in_stmt: usize,
}

fn edges_of(stmt: &EdgeStmt) -> Vec<(usize, &str, &str)> {
    let mut out = Vec::new();
    for (link, pair) in stmt.operands.windows(2).enumerate() {
        if let [tail, head] = pair {
            for t in operand_nodes(tail) {
                for h in operand_nodes(head) {
                    out.push((link, t, h));
                }
            }
        }
    }
    out
}

/// Calls `f(body, stmt, link, tail, head, edges_in_stmt)` for every edge in document order
/// (edges inside subgraph endpoints come before the edges of the statement using them, as
/// Graphviz creates them) until `f` returns true. Returns whether it did.
fn walk_edges<'g>(
    stmts: &'g [Stmt],
    f: &mut impl FnMut(&'g [Stmt], &'g EdgeStmt, usize, &'g str, &'g str, usize) -> bool,
) -> bool {
    for stmt in stmts {
        match stmt {
            Stmt::Subgraph(s) if walk_edges(&s.stmts, f) => return true,
            Stmt::Edge(e) => {
                for op in &e.operands {
                    if let EdgeOperand::Subgraph(s) = op
                        && walk_edges(&s.stmts, f)
                    {
                        return true;
                    }
                }
                let edges = edges_of(e);
                for &(link, t, h) in &edges {
                    if f(stmts, e, link, t, h, edges.len()) {
                        return true;
                    }
                }
            }
            _ => {}
        }
    }
    false
}

/// Finds the edge `key` (see [`walk_edges`] for the order).
pub(crate) fn find_edge<'g>(graph: &'g Graph, key: &EdgeKey) -> Option<EdgeLoc<'g>> {
    let mut seen = 0;
    let mut found = None;
    walk_edges(
        &graph.stmts,
        &mut |body, stmt, link, t, h, edges_in_stmt| {
            if t != key.from || h != key.to {
                return false;
            }
            if seen == key.occurrence {
                found = Some(EdgeLoc {
                    stmt,
                    body,
                    link,
                    edges_in_stmt,
                });
                return true;
            }
            seen += 1;
            false
        },
    );
    found
}

/// Every edge `(tail, head)` in document order.
pub(crate) fn all_edges(graph: &Graph) -> Vec<(String, String)> {
    let mut out = Vec::new();
    walk_edges(&graph.stmts, &mut |_, _, _, t, h, _| {
        out.push((t.to_owned(), h.to_owned()));
        false
    });
    out
}
