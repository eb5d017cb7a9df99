//! The kind of graph: `digraph`, not `strict`, not absurdly nested.

use heddle_dot::Stmt;

use super::{LintContext, RuleInfo};
use crate::build::MAX_NESTING;
use crate::{Diagnostic, Severity};

const DIRECTED_GRAPH: RuleInfo = RuleInfo {
    id: "directed_graph",
    severity: Severity::Error,
    summary: "The file is a `digraph` and its edges use `->`.",
};

const STRICT_GRAPH: RuleInfo = RuleInfo {
    id: "strict_graph",
    severity: Severity::Warning,
    summary: "`strict` is not used (Heddle keeps parallel edges that Graphviz would merge).",
};

const NESTING_DEPTH: RuleInfo = RuleInfo {
    id: "nesting_depth",
    severity: Severity::Error,
    summary: "Subgraphs nest at most 100 deep.",
};

pub(super) const RULES: &[RuleInfo] = &[DIRECTED_GRAPH, STRICT_GRAPH, NESTING_DEPTH];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let graph = ctx.graph;
    if !graph.directed {
        out.push(
            DIRECTED_GRAPH
                .diag("`graph` declares an undirected graph; a workflow is a `digraph`")
                .at(ctx.graph_span())
                .with_hint("write `digraph` instead of `graph`, and `->` instead of `--`"),
        );
    } else {
        undirected_edges(ctx, &graph.stmts, out);
    }
    if graph.strict {
        out.push(
            STRICT_GRAPH
                .diag("`strict` has no effect on a workflow: every edge is kept")
                .at(ctx.graph_span())
                .with_hint("remove `strict`"),
        );
    }
    if let Some(span) = ctx.built.too_deep {
        out.push(
            NESTING_DEPTH
                .diag(format!(
                    "subgraphs are nested more than {MAX_NESTING} levels deep; the deeper ones are ignored"
                ))
                .at(span)
                .with_hint("flatten the subgraphs"),
        );
    }
}

/// Reports `--` edges inside a `digraph`.
fn undirected_edges(_ctx: &LintContext<'_, '_>, stmts: &[Stmt], out: &mut Vec<Diagnostic>) {
    let mut stack: Vec<&[Stmt]> = vec![stmts];
    while let Some(stmts) = stack.pop() {
        for stmt in stmts {
            match stmt {
                Stmt::Edge(edge) => {
                    if edge.directed_ops.iter().any(|directed| !directed) {
                        out.push(
                            DIRECTED_GRAPH
                                .diag("`--` is an undirected edge; a workflow's edges use `->`")
                                .at(edge.span)
                                .with_hint("write `->`"),
                        );
                    }
                    for operand in &edge.operands {
                        if let heddle_dot::EdgeOperand::Subgraph(sub) = operand {
                            stack.push(&sub.stmts);
                        }
                    }
                }
                Stmt::Subgraph(sub) => stack.push(&sub.stmts),
                _ => {}
            }
        }
    }
}
