//! Retry targets exist; goal gates have somewhere to retry.

use super::{LintContext, RuleInfo};
use crate::access::Attrs;
use crate::suggest::closest;
use crate::{Diagnostic, Severity};

const RETRY_TARGET_EXISTS: RuleInfo = RuleInfo {
    id: "retry_target_exists",
    severity: Severity::Error,
    summary: "`retry_target` and `fallback_retry_target` (node or graph) name existing nodes.",
};

const GOAL_GATE_HAS_RETRY: RuleInfo = RuleInfo {
    id: "goal_gate_has_retry",
    severity: Severity::Warning,
    summary: "A `goal_gate` node has a retry target (its own or the graph's).",
};

pub(super) const RULES: &[RuleInfo] = &[RETRY_TARGET_EXISTS, GOAL_GATE_HAS_RETRY];

const TARGET_KEYS: [&str; 2] = ["retry_target", "fallback_retry_target"];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let workflow = ctx.workflow;
    for occurrence in &ctx.built.occurrences {
        if !TARGET_KEYS.contains(&occurrence.canonical()) {
            continue;
        }
        let raw = occurrence.raw();
        let target = raw.trim();
        if ctx.adjacency.node(target).is_some() {
            continue;
        }
        let hint = match closest(target, workflow.nodes.iter().map(|n| n.id.as_str())) {
            Some(similar) => format!("did you mean `{similar}`?"),
            None => "name a node of this workflow".to_owned(),
        };
        let diagnostic = RETRY_TARGET_EXISTS
            .diag(format!(
                "`{}` names `{target}`, which is not a node",
                occurrence.key()
            ))
            .at(occurrence.attr.value.span)
            .with_hint(hint);
        out.push(ctx.owned(diagnostic, occurrence));
    }
    let graph_has_target = TARGET_KEYS.iter().any(|k| workflow.attr(k).is_some());
    for node in &workflow.nodes {
        let Some(gate) = node.attr("goal_gate") else {
            continue;
        };
        if node.attr_bool("goal_gate") != Some(true)
            || graph_has_target
            || TARGET_KEYS.iter().any(|k| node.attr(k).is_some())
        {
            continue;
        }
        out.push(
            GOAL_GATE_HAS_RETRY
                .diag(format!(
                    "goal gate `{}` has no retry target: if it is unmet at exit, the run fails",
                    node.id
                ))
                .at(gate.span)
                .for_node(node.id.clone())
                .with_hint("set `retry_target` on the node, or on the graph for every gate"),
        );
    }
}
