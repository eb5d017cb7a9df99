//! The kind of graph: `digraph`, not `strict`, not absurdly nested.

use super::{LintContext, RuleInfo};
use crate::build::MAX_NESTING;
use crate::{Diagnostic, Severity};

const DIRECTED_GRAPH: RuleInfo = RuleInfo {
    id: "directed_graph",
    severity: Severity::Error,
    summary: "The file is a `digraph` (the parser reports `--` edges inside one).",
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

const SINGLE_GRAPH: RuleInfo = RuleInfo {
    id: "single_graph",
    severity: Severity::Error,
    summary: "A file holds one graph.",
};

pub(super) const RULES: &[RuleInfo] = &[DIRECTED_GRAPH, STRICT_GRAPH, NESTING_DEPTH, SINGLE_GRAPH];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let graph = ctx.graph;
    if !graph.directed {
        out.push(
            DIRECTED_GRAPH
                .diag("`graph` declares an undirected graph; a workflow is a `digraph`")
                .at(ctx.graph_span())
                .with_hint("write `digraph` instead of `graph`, and `->` instead of `--`"),
        );
    }
    if graph.strict {
        out.push(
            STRICT_GRAPH
                .diag("`strict` has no effect on a workflow: every edge is kept")
                .at(ctx.graph_span())
                .with_hint("remove `strict`"),
        );
    }
    for extra in ctx.extra_graphs {
        let name = extra
            .id
            .as_ref()
            .map_or_else(String::new, |id| format!(" `{}`", id.value));
        out.push(
            SINGLE_GRAPH
                .diag(format!(
                    "a second graph{name} in the file; a workflow file holds one graph and only the first is used"
                ))
                .at(extra.id.as_ref().map_or(extra.span, |id| id.span))
                .with_hint("move it to a file of its own"),
        );
    }
    if let Some(span) = ctx.built.too_deep {
        out.push(
            NESTING_DEPTH
                .diag(format!(
                    "subgraphs are nested more than {MAX_NESTING} levels deep; the deeper ones are ignored"
                ))
                .at(head(ctx, span))
                .with_hint("flatten the subgraphs"),
        );
    }
}

/// The head of a subgraph (`subgraph name {` or `{`), for a caret that fits on a line.
fn head(ctx: &LintContext<'_, '_>, span: heddle_dot::Span) -> heddle_dot::Span {
    let text = ctx.source.get(span.start..span.end).unwrap_or_default();
    let len = text.find('{').map_or(text.len(), |i| i + 1);
    ctx.span(span.start, span.start + len)
}
