//! Entry and exit: one start without incoming edges, at least one exit without outgoing ones.

use super::{LintContext, RuleInfo};
use crate::{Diagnostic, HandlerKind, Severity};

const START_NODE: RuleInfo = RuleInfo {
    id: "start_node",
    severity: Severity::Error,
    summary: "Exactly one start node (shape `Mdiamond`, `type=start` or id `start`).",
};

const TERMINAL_NODE: RuleInfo = RuleInfo {
    id: "terminal_node",
    severity: Severity::Error,
    summary: "At least one exit node (shape `Msquare`, `type=exit` or id `exit`/`end`).",
};

const START_NO_INCOMING: RuleInfo = RuleInfo {
    id: "start_no_incoming",
    severity: Severity::Error,
    summary: "No edge leads into the start node.",
};

const EXIT_NO_OUTGOING: RuleInfo = RuleInfo {
    id: "exit_no_outgoing",
    severity: Severity::Error,
    summary: "No edge leaves an exit node.",
};

pub(super) const RULES: &[RuleInfo] = &[
    START_NODE,
    TERMINAL_NODE,
    START_NO_INCOMING,
    EXIT_NO_OUTGOING,
];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    let starts: Vec<_> = workflow.start_nodes().collect();
    match starts.as_slice() {
        [] => out.push(
            START_NODE
                .diag("the workflow has no start node")
                .at(ctx.graph_span())
                .with_hint("add `start [shape=Mdiamond]` with an edge to the first stage"),
        ),
        [_] => {}
        [first, rest @ ..] => {
            for extra in rest {
                out.push(
                    START_NODE
                        .diag(format!(
                            "`{}` is a second start node (the first is `{}`); a workflow has exactly one",
                            extra.id, first.id
                        ))
                        .at(ctx.node_span(&extra.id))
                        .for_node(extra.id.clone())
                        .with_hint("give it another shape or type, or merge the two starts"),
                );
            }
        }
    }
    if workflow.exit_nodes().next().is_none() {
        out.push(
            TERMINAL_NODE
                .diag("the workflow has no exit node")
                .at(ctx.graph_span())
                .with_hint("add `exit [shape=Msquare]` with an edge from the last stage"),
        );
    }
    for (i, node) in workflow.nodes.iter().enumerate() {
        match node.kind {
            HandlerKind::Start => {
                for &e in ctx.adjacency.incoming(i) {
                    let edge = &workflow.edges[e];
                    out.push(
                        START_NO_INCOMING
                            .diag(format!(
                                "edge `{} -> {}` leads back into the start node",
                                edge.from, edge.to
                            ))
                            .at(edge.span)
                            .for_edge(edge.key())
                            .with_hint("point it at the first stage after the start instead"),
                    );
                }
            }
            HandlerKind::Exit => {
                for &e in ctx.adjacency.outgoing(i) {
                    let edge = &workflow.edges[e];
                    out.push(
                        EXIT_NO_OUTGOING
                            .diag(format!(
                                "edge `{} -> {}` leaves an exit node; a run ends at its exit",
                                edge.from, edge.to
                            ))
                            .at(edge.span)
                            .for_edge(edge.key())
                            .with_hint("remove the edge, or make the node a regular stage"),
                    );
                }
            }
            _ => {}
        }
    }
}
