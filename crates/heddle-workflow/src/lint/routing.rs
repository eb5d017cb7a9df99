//! Edges and routing: endpoints declared, human gates with choices (and at most one freeform
//! edge), conditional nodes with conditions, join policies a parallel node can meet.

use super::attributes::JOIN_POLICY_VALID;
use super::{LintContext, RuleInfo};
use crate::access::Attrs;
use crate::suggest::closest;
use crate::{Diagnostic, HandlerKind, JoinPolicy, Severity};

const EDGE_TARGET_EXISTS: RuleInfo = RuleInfo {
    id: "edge_target_exists",
    severity: Severity::Error,
    summary: "Every node an edge mentions is declared by a node statement.",
};

const HUMAN_GATE_HAS_CHOICES: RuleInfo = RuleInfo {
    id: "human_gate_has_choices",
    severity: Severity::Error,
    summary: "A human gate has outgoing edges to choose from (error with none, warning with one or with duplicate labels).",
};

const CONDITIONAL_HAS_CONDITIONS: RuleInfo = RuleInfo {
    id: "conditional_has_conditions",
    severity: Severity::Warning,
    summary: "A conditional node has at least one outgoing edge with a `condition`.",
};

const FREEFORM_EDGE: RuleInfo = RuleInfo {
    id: "freeform_edge",
    severity: Severity::Warning,
    summary: "`freeform=true` is on an edge of a human gate, at most one per gate.",
};

const DEAD_END: RuleInfo = RuleInfo {
    id: "dead_end",
    severity: Severity::Warning,
    summary: "Every node other than an exit has an outgoing edge.",
};

pub(super) const RULES: &[RuleInfo] = &[
    EDGE_TARGET_EXISTS,
    HUMAN_GATE_HAS_CHOICES,
    CONDITIONAL_HAS_CONDITIONS,
    FREEFORM_EDGE,
    DEAD_END,
];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    edge_target_exists(ctx, out);
    freeform_edges(ctx, out);
    for (i, node) in ctx.workflow.nodes.iter().enumerate() {
        match node.kind {
            HandlerKind::Human => human_gate(ctx, i, out),
            HandlerKind::Parallel => join_policy_reachable(ctx, i, out),
            HandlerKind::Conditional => conditional(ctx, i, out),
            HandlerKind::Exit => {}
            _ => {
                let unreachable = ctx.reachable.as_ref().is_some_and(|r| !r[i]);
                if ctx.adjacency.outgoing(i).is_empty() && !unreachable {
                    out.push(
                        DEAD_END
                            .diag(format!(
                                "node `{}` has no outgoing edges and is not an exit; a run that gets here ends there (or fails, if the stage failed) without reaching an exit",
                                node.id
                            ))
                            .at(ctx.node_span(&node.id))
                            .for_node(node.id.clone())
                            .with_hint("add an edge to the next stage or to the exit"),
                    );
                }
            }
        }
    }
}

fn edge_target_exists(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    let declared = &ctx.built.declared;
    for (node, _) in workflow
        .nodes
        .iter()
        .zip(declared)
        .filter(|(n, declared)| !**declared && HandlerKind::from_id(&n.id).is_none())
    {
        let candidates = workflow
            .nodes
            .iter()
            .zip(declared)
            .filter(|(_, d)| **d)
            .map(|(n, _)| n.id.as_str());
        let hint = match closest(&node.id, candidates) {
            Some(similar) => format!("did you mean `{similar}`?"),
            None => format!(
                "declare it, e.g. `{} [label=\"...\", prompt=\"...\"]`",
                node.id
            ),
        };
        out.push(
            EDGE_TARGET_EXISTS
                .diag(format!(
                    "`{}` is used in an edge but never declared as a node",
                    node.id
                ))
                .at(ctx.node_span(&node.id))
                .for_node(node.id.clone())
                .with_hint(hint),
        );
    }
}

fn human_gate(ctx: &LintContext<'_, '_>, index: usize, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    let node = &workflow.nodes[index];
    let all = ctx.adjacency.outgoing(index);
    // A freeform edge is not a choice: it takes the free-text answers.
    let outgoing: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&e| !is_freeform(&workflow.edges[e]))
        .collect();
    let has_freeform = outgoing.len() < all.len();
    match outgoing.len() {
        // Only free text: a question without choices, as Fabro asks it.
        0 | 1 if has_freeform => {}
        0 => out.push(
            HUMAN_GATE_HAS_CHOICES
                .diag(format!(
                    "human gate `{}` has no outgoing edges, so there is nothing to choose",
                    node.id
                ))
                .at(ctx.node_span(&node.id))
                .for_node(node.id.clone())
                .with_hint(
                    "add an edge per choice, labelled with the choice, e.g. `[label=\"Approve\"]`",
                ),
        ),
        1 => out.push(
            Diagnostic::new(
                HUMAN_GATE_HAS_CHOICES.id,
                Severity::Warning,
                format!("human gate `{}` offers only one choice", node.id),
            )
            .at(ctx.node_span(&node.id))
            .for_node(node.id.clone())
            .with_hint("add the other choices as labelled edges, or make it a regular stage"),
        ),
        _ => {
            let mut seen: Vec<String> = Vec::new();
            for &e in &outgoing {
                let edge = &workflow.edges[e];
                let label = edge.label.clone().unwrap_or_else(|| {
                    ctx.adjacency
                        .node(&edge.to)
                        .map_or_else(|| edge.to.clone(), |t| workflow.nodes[t].label.clone())
                });
                let normalized = label.trim().to_lowercase();
                if seen.contains(&normalized) {
                    out.push(
                        Diagnostic::new(
                            HUMAN_GATE_HAS_CHOICES.id,
                            Severity::Warning,
                            format!("human gate `{}` offers the choice `{label}` twice", node.id),
                        )
                        .at(edge.span)
                        .for_edge(edge.key())
                        .with_hint("give each outgoing edge a distinct `label`"),
                    );
                } else {
                    seen.push(normalized);
                }
            }
        }
    }
}

fn conditional(ctx: &LintContext<'_, '_>, index: usize, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    let node = &workflow.nodes[index];
    let outgoing = ctx.adjacency.outgoing(index);
    if outgoing.is_empty()
        || outgoing
            .iter()
            .any(|&e| workflow.edges[e].condition.is_some())
    {
        return;
    }
    out.push(
        CONDITIONAL_HAS_CONDITIONS
            .diag(format!(
                "conditional node `{}` has no outgoing edge with a `condition`; it always takes the same edge",
                node.id
            ))
            .at(ctx.node_span(&node.id))
            .for_node(node.id.clone())
            .with_hint("add `condition=\"...\"` to its outgoing edges"),
    );
}

/// Whether an edge has `freeform=true`.
fn is_freeform(edge: &crate::Edge) -> bool {
    edge.attr_bool("freeform") == Some(true)
}

/// `freeform=true` only means something on a human gate's edge, and a gate routes free
/// text along one edge (the last, as Fabro does).
fn freeform_edges(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    for (index, node) in workflow.nodes.iter().enumerate() {
        let freeform: Vec<usize> = ctx
            .adjacency
            .outgoing(index)
            .iter()
            .copied()
            .filter(|&e| is_freeform(&workflow.edges[e]))
            .collect();
        if node.kind != HandlerKind::Human {
            for &e in &freeform {
                let edge = &workflow.edges[e];
                out.push(
                    FREEFORM_EDGE
                        .diag(format!(
                            "`freeform=true` on `{} -> {}` does nothing: `{}` is not a human gate",
                            edge.from, edge.to, node.id
                        ))
                        .at(edge.span)
                        .for_edge(edge.key())
                        .with_hint("remove it, or make the node a human gate (`shape=hexagon`)"),
                );
            }
            continue;
        }
        if let Some((&last, earlier)) = freeform.split_last() {
            let kept = &workflow.edges[last];
            for &e in earlier {
                let edge = &workflow.edges[e];
                out.push(
                    FREEFORM_EDGE
                        .diag(format!(
                            "human gate `{}` has more than one freeform edge; free text goes to `{}` (the last one), never to `{}`",
                            node.id, kept.to, edge.to
                        ))
                        .at(edge.span)
                        .for_edge(edge.key())
                        .with_hint("keep `freeform=true` on one edge of the gate"),
                );
            }
        }
    }
}

/// A `k_of_n(N)` asking for more branches than the parallel node has can never be met.
fn join_policy_reachable(ctx: &LintContext<'_, '_>, index: usize, out: &mut Vec<Diagnostic>) {
    let node = &ctx.workflow.nodes[index];
    let Some(entry) = node.attr("join_policy") else {
        return;
    };
    let Ok(JoinPolicy::KOfN(k)) = JoinPolicy::parse(&entry.raw) else {
        return;
    };
    let branches = ctx.adjacency.outgoing(index).len();
    if usize::try_from(k).unwrap_or(usize::MAX) <= branches {
        return;
    }
    out.push(
        Diagnostic::new(
            JOIN_POLICY_VALID.id,
            Severity::Warning,
            format!(
                "parallel node `{}` asks for {k} successful branches but has {branches}; the join can never be met and its fan-in fails",
                node.id
            ),
        )
        .at(entry.span)
        .for_node(node.id.clone())
        .with_hint(format!("use `k_of_n({branches})` or fewer, or add branches")),
    );
}
