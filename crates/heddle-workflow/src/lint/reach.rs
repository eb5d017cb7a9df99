//! Graph walks: every node reachable from the start; parallel branches joined by a fan-in.

use std::collections::VecDeque;

use super::{LintContext, RuleInfo};
use crate::{Diagnostic, HandlerKind, Severity};

const REACHABILITY: RuleInfo = RuleInfo {
    id: "reachability",
    severity: Severity::Warning,
    summary: "Every node can be reached from the start node.",
};

const PARALLEL_HAS_FAN_IN: RuleInfo = RuleInfo {
    id: "parallel_has_fan_in",
    severity: Severity::Warning,
    summary: "A parallel node's branches lead to a fan-in node.",
};

pub(super) const RULES: &[RuleInfo] = &[REACHABILITY, PARALLEL_HAS_FAN_IN];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    reachability(ctx, out);
    parallel_has_fan_in(ctx, out);
}

/// Breadth-first search from `seeds`, following edges forwards or backwards.
fn search(
    ctx: &LintContext<'_, '_>,
    seeds: impl Iterator<Item = usize>,
    forwards: bool,
) -> Vec<bool> {
    let mut seen = vec![false; ctx.workflow.nodes.len()];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for seed in seeds {
        if !seen[seed] {
            seen[seed] = true;
            queue.push_back(seed);
        }
    }
    while let Some(node) = queue.pop_front() {
        let edges = if forwards {
            ctx.adjacency.outgoing(node)
        } else {
            ctx.adjacency.incoming(node)
        };
        for &e in edges {
            let Some((from, to)) = ctx.adjacency.ends(e) else {
                continue;
            };
            let n = if forwards { to } else { from };
            if !seen[n] {
                seen[n] = true;
                queue.push_back(n);
            }
        }
    }
    seen
}

/// Per node, whether the first start node reaches it; `None` without a start node.
pub(super) fn from_start(ctx: &LintContext<'_, '_>) -> Option<Vec<bool>> {
    let start = ctx
        .workflow
        .nodes
        .iter()
        .position(|n| n.kind == HandlerKind::Start)?;
    Some(search(ctx, std::iter::once(start), true))
}

fn reachability(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    let (Some(reached), Some(start)) = (&ctx.reachable, workflow.start_nodes().next()) else {
        return;
    };
    let start_id = &start.id;
    for (node, &reached) in workflow.nodes.iter().zip(reached) {
        if reached || node.kind == HandlerKind::Start {
            continue;
        }
        out.push(
            REACHABILITY
                .diag(format!(
                    "node `{}` cannot be reached from `{start_id}`",
                    node.id
                ))
                .at(ctx.node_span(&node.id))
                .for_node(node.id.clone())
                .with_hint("add an edge leading to it, or remove it"),
        );
    }
}

fn parallel_has_fan_in(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    if !workflow
        .nodes
        .iter()
        .any(|n| n.kind == HandlerKind::Parallel)
    {
        return;
    }
    let fan_ins = workflow
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.kind == HandlerKind::FanIn)
        .map(|(i, _)| i);
    let reaches_fan_in = search(ctx, fan_ins, false);
    for (node, ok) in workflow.nodes.iter().zip(reaches_fan_in) {
        if node.kind != HandlerKind::Parallel || ok {
            continue;
        }
        out.push(
            PARALLEL_HAS_FAN_IN
                .diag(format!(
                    "parallel node `{}` has no fan-in node after it; its branches are never joined",
                    node.id
                ))
                .at(ctx.node_span(&node.id))
                .for_node(node.id.clone())
                .with_hint("add a `tripleoctagon` (fan_in) node that every branch leads to"),
        );
    }
}
