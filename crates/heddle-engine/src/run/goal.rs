//! Goal gates and retry targets.

use heddle_workflow::{Attrs, Node};

use super::shared::Shared;
use super::spec::RunSpec;
use crate::event::Event;

/// What the gates say at an exit.
pub(crate) enum GateCheck {
    /// Every visited gate succeeded.
    Satisfied,
    /// A gate is unmet and has somewhere to go.
    Jump { gate: String, target: String },
    /// A gate is unmet with no retry target.
    Unmet { reason: String },
}

/// Checks every goal gate that ran (in workflow order) and emits `goal_gate.checked`.
pub(crate) fn check_goal_gates(shared: &Shared) -> GateCheck {
    let outcomes = shared.state().progress.node_outcomes().clone();
    for node in &shared.spec.workflow.nodes {
        if node.attr_bool("goal_gate") != Some(true) {
            continue;
        }
        let Some(outcome) = outcomes.get(&node.id) else {
            continue;
        };
        let satisfied = outcome.status.is_success();
        let target = if satisfied {
            None
        } else {
            retry_target(shared, node)
        };
        shared.emitter.emit(
            Some(&node.id),
            Event::GoalGateChecked {
                satisfied,
                status: outcome.status,
                target: target.clone(),
            },
        );
        if satisfied {
            continue;
        }
        return match target {
            Some(target) => GateCheck::Jump {
                gate: node.id.clone(),
                target,
            },
            None => GateCheck::Unmet {
                reason: format!(
                    "goal gate `{}` is not satisfied (its last outcome was {}) and neither it nor the graph has a retry_target",
                    node.id, outcome.status
                ),
            },
        };
    }
    GateCheck::Satisfied
}

/// Where a failed node (or unmet gate) goes: its `retry_target`, its
/// `fallback_retry_target`, then the graph's, when they name a node.
pub(crate) fn retry_target(shared: &Shared, node: &Node) -> Option<String> {
    let graph = &shared.spec.workflow;
    [
        RunSpec::node_text(node, "retry_target"),
        RunSpec::node_text(node, "fallback_retry_target"),
        graph.attr_str("retry_target").map(str::to_string),
        graph.attr_str("fallback_retry_target").map(str::to_string),
    ]
    .into_iter()
    .flatten()
    .map(|t| t.trim().to_string())
    .find(|t| shared.spec.node(t).is_some())
}
