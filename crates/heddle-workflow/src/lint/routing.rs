//! Edges and routing: endpoints declared, human gates with choices, conditional nodes with
//! conditions.

use super::{LintContext, RuleInfo};
use crate::suggest::closest;
use crate::{Diagnostic, HandlerKind, Severity};

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

const DEAD_END: RuleInfo = RuleInfo {
    id: "dead_end",
    severity: Severity::Warning,
    summary: "Every node other than an exit has an outgoing edge.",
};

pub(super) const RULES: &[RuleInfo] = &[
    EDGE_TARGET_EXISTS,
    HUMAN_GATE_HAS_CHOICES,
    CONDITIONAL_HAS_CONDITIONS,
    DEAD_END,
];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    edge_target_exists(ctx, out);
    for (i, node) in ctx.workflow.nodes.iter().enumerate() {
        match node.kind {
            HandlerKind::Human => human_gate(ctx, i, out),
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
    let outgoing = ctx.adjacency.outgoing(index);
    match outgoing.len() {
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
            for &e in outgoing {
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
