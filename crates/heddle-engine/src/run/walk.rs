//! The loop that walks the graph: run a stage, record it, pick the next edge, checkpoint.
//! The main run and every parallel branch walk with it.

use std::future::Future;
use std::pin::Pin;

use heddle_workflow::{Attrs, Edge, HandlerKind};
use tokio_util::sync::CancellationToken;

use super::goal::{GateCheck, check_goal_gates, retry_target};
use super::loops::{count_failure, restart};
use super::shared::Shared;
use super::stage::{StageCall, execute_stage};
use super::state::StopReason;
use crate::context::{Context, keys};
use crate::event::{EdgeReason, Event};
use crate::outcome::{FailureClass, Outcome, StageStatus};
use crate::routing::{EdgeChoice, select_edge};

/// Where a walk starts.
pub(crate) struct Walk {
    /// The first node.
    pub start: String,
    /// The edge it is entered through (position in the workflow's edges).
    pub edge: Option<usize>,
    /// The context (shared with the caller).
    pub context: Context,
    /// The parallel branch, when this is one.
    pub branch: Option<String>,
    /// The parallel node the branch belongs to.
    pub parallel: Option<String>,
    /// Stops the walk.
    pub cancel: CancellationToken,
    /// The fan-in a branch stops at (a nested parallel's fan-in is executed, not a stop).
    pub stop_at: Option<String>,
    /// The walk continues a resumed run: its first node's visit limit is not checked again
    /// (the visit that failed already counted).
    pub resumed: bool,
}

/// How a walk ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum WalkEnd {
    /// The run passed an exit node.
    Completed,
    /// The run (or branch) failed at `node`; a resume continues at `resume_at` (none when
    /// there is nothing left to run).
    Failed {
        node: String,
        reason: String,
        resume_at: Option<String>,
    },
    /// Cancelled before or during `node`, which has not completed.
    Stopped { node: String },
    /// A branch arrived at a fan-in node (not executed).
    ReachedFanIn { fan_in: String },
    /// A branch ran out of edges or reached an exit.
    BranchEnded,
}

/// A walk's end and its last stage.
#[derive(Debug, Clone)]
pub(crate) struct WalkResult {
    pub end: WalkEnd,
    pub last: Option<(String, Outcome)>,
}

/// Walks from `walk.start` until the run ends (or, for a branch, reaches a fan-in).
pub(crate) fn walk(shared: Shared, walk: Walk) -> Pin<Box<dyn Future<Output = WalkResult> + Send>> {
    Box::pin(async move {
        let mut last = None;
        let end = walk_loop(&shared, walk, &mut last).await;
        WalkResult { end, last }
    })
}

async fn walk_loop(shared: &Shared, walk: Walk, last: &mut Option<(String, Outcome)>) -> WalkEnd {
    let Walk {
        start,
        mut edge,
        context,
        branch,
        parallel,
        cancel,
        stop_at,
        resumed,
    } = walk;
    let mut current = start;
    let in_branch = branch.is_some();
    let mut check_limit = !resumed;
    loop {
        if cancel.is_cancelled() {
            return WalkEnd::Stopped { node: current };
        }
        // A stage boundary of the main walk: over its budget, the run stops here.
        if !in_branch && over_budget(shared, &current) {
            return WalkEnd::Stopped { node: current };
        }
        let Some(node) = shared.spec.node(&current) else {
            return WalkEnd::Failed {
                reason: format!("node `{current}` is not in the workflow"),
                node: current,
                resume_at: None,
            };
        };
        // The join: a fan-in, or the ordinary node the branches converge on.
        if in_branch && stop_at.as_deref() == Some(node.id.as_str()) {
            return WalkEnd::ReachedFanIn { fan_in: current };
        }
        if in_branch && node.kind == HandlerKind::Exit {
            return WalkEnd::BranchEnded;
        }
        if node.kind == HandlerKind::Exit {
            match check_goal_gates(shared) {
                GateCheck::Satisfied => {}
                GateCheck::Jump { gate, target } => {
                    let unmet = format!("goal gate `{gate}` unmet");
                    if let Some(end) = count_failure(shared, &context, &gate, "goal_gate", &unmet) {
                        return end;
                    }
                    if let Err(error) = shared
                        .save_checkpoint(Some(&current), Some(&target), &context)
                        .await
                    {
                        return WalkEnd::Failed {
                            node: current,
                            reason: error.to_string(),
                            resume_at: Some(target),
                        };
                    }
                    edge = None;
                    current = target;
                    continue;
                }
                GateCheck::Unmet { reason } => {
                    return WalkEnd::Failed {
                        resume_at: Some(current.clone()),
                        node: current,
                        reason,
                    };
                }
            }
        }
        let visit = shared.state().progress.visit(&node.id);
        let limit = node
            .attr_int("max_visits")
            .or_else(|| shared.spec.workflow.attr_int("max_node_visits"))
            .filter(|n| *n > 0);
        if let Some(limit) = limit
            && check_limit
            && i64::from(visit) > limit
        {
            return WalkEnd::Failed {
                reason: format!(
                    "node `{}` was entered {visit} times, over its limit of {limit} (max_visits / max_node_visits)",
                    node.id
                ),
                resume_at: Some(current.clone()),
                node: current,
            };
        }
        check_limit = true;
        context.set(keys::CURRENT_NODE, node.id.clone());
        context.set(keys::NODE_VISIT_COUNT, visit);
        let incoming: Option<&Edge> = edge.and_then(|e| shared.spec.workflow.edges.get(e));
        let call = StageCall {
            node,
            edge: incoming,
            context: &context,
            visit,
            branch: branch.as_deref(),
            cancel: &cancel,
        };
        let (outcome, record) = execute_stage(shared, &call).await;
        if cancel.is_cancelled() && outcome.failure_class == Some(FailureClass::Cancelled) {
            // Not completed: a resume runs this visit again.
            shared.state().progress.unvisit(&node.id);
            return WalkEnd::Stopped { node: current };
        }
        let retries = record.attempts.saturating_sub(1);
        {
            let mut guard = shared.state();
            let state = &mut guard.progress;
            state.record(&node.id, &outcome, retries, record);
            if outcome.status.is_success() {
                // A node that succeeds starts its failure counts afresh.
                let prefix = format!("{}|", node.id);
                state
                    .loop_failure_signatures
                    .retain(|k, _| !k.starts_with(&prefix));
            }
        }
        context.merge(&outcome.context_updates);
        super::offload::offload_large(shared, &node.id, &outcome.context_updates, &context).await;
        context.set(keys::LAST_STAGE, node.id.clone());
        if node.kind != HandlerKind::Conditional {
            context.set(keys::OUTCOME, outcome.status.as_str());
            match &outcome.preferred_label {
                Some(label) => context.set(keys::PREFERRED_LABEL, label.clone()),
                None => context.remove(keys::PREFERRED_LABEL),
            }
        }
        *last = Some((node.id.clone(), outcome.clone()));
        let failed = outcome.status == StageStatus::Fail;
        if failed {
            let reason = outcome.failure_reason.clone().unwrap_or_default();
            let class = outcome.failure_class.unwrap_or(FailureClass::Deterministic);
            context.set(keys::FAILURE_REASON, reason.clone());
            context.set(keys::FAILURE_CLASS, class.as_str());
            if let Some(end) = count_failure(shared, &context, &node.id, class.as_str(), &reason) {
                return end;
            }
        }
        if node.kind == HandlerKind::Exit {
            if let Err(error) = shared.save_checkpoint(Some(&current), None, &context).await {
                return WalkEnd::Failed {
                    resume_at: Some(current.clone()),
                    node: current,
                    reason: error.to_string(),
                };
            }
            return WalkEnd::Completed;
        }
        let next = next_step(shared, &current, &outcome, &context);
        let (target, next_edge) = match next {
            Next::Edge(e, reason) => {
                let chosen = &shared.spec.workflow.edges[e];
                shared.emitter.emit(
                    Some(&current),
                    Event::EdgeSelected {
                        from: chosen.from.clone(),
                        to: chosen.to.clone(),
                        label: chosen.label.clone(),
                        condition: chosen.condition.clone(),
                        reason,
                    },
                );
                (chosen.to.clone(), Some(e))
            }
            Next::Jump(target, reason) => {
                shared.emitter.emit(
                    Some(&current),
                    Event::EdgeSelected {
                        from: current.clone(),
                        to: target.clone(),
                        label: None,
                        condition: None,
                        reason,
                    },
                );
                (target, None)
            }
            Next::End if in_branch => return WalkEnd::BranchEnded,
            Next::End if failed => {
                let reason = outcome
                    .failure_reason
                    .clone()
                    .unwrap_or_else(|| format!("node `{current}` failed"));
                return WalkEnd::Failed {
                    resume_at: Some(current.clone()),
                    node: current,
                    reason,
                };
            }
            Next::End => {
                // The loop breaks (Attractor spec, Fabro): the run ends here, successfully.
                let message = format!(
                    "no edge out of `{current}` holds after {}; the run ends here without reaching an exit",
                    outcome.status
                );
                shared.state().end_note = Some(message.clone());
                shared.emitter.emit(
                    Some(&current),
                    Event::RunEndedWithoutEdge {
                        status: outcome.status,
                        message,
                    },
                );
                if let Err(error) = shared.save_checkpoint(Some(&current), None, &context).await {
                    return WalkEnd::Failed {
                        resume_at: None,
                        node: current,
                        reason: error.to_string(),
                    };
                }
                return WalkEnd::Completed;
            }
        };
        if let Some(e) = next_edge
            && shared.spec.workflow.edges[e].attr_bool("loop_restart") == Some(true)
            && let Some(end) = restart(
                shared,
                &context,
                &current,
                &target,
                failed.then_some(&outcome),
            )
        {
            return end;
        }
        let saved = match (&parallel, &branch) {
            (Some(parallel), Some(branch)) => {
                shared
                    .save_branch(parallel, branch, Some((&target, next_edge)), &context, None)
                    .await
            }
            // A nested parallel's branches are not tracked: the outer branch resumes at it.
            (None, Some(_)) => Ok(()),
            _ => {
                shared
                    .save_checkpoint(Some(&current), Some(&target), &context)
                    .await
            }
        };
        if let Err(error) = saved {
            return WalkEnd::Failed {
                node: current,
                reason: error.to_string(),
                resume_at: Some(target),
            };
        }
        edge = next_edge;
        current = target;
    }
}

/// Whether the run has spent more than its budget; if so, says so (an event) and stops the
/// run with the budget as its reason.
fn over_budget(shared: &Shared, next_node: &str) -> bool {
    let (budget, spent) = {
        let state = shared.state();
        let budget = state.budget.over_graph(&shared.spec.workflow);
        (budget, state.progress.spent)
    };
    let Some(reason) = budget.exceeded(spent) else {
        return false;
    };
    shared.emitter.emit(
        None,
        Event::RunBudgetExceeded {
            cost_usd: spent.cost_usd,
            tokens: spent.tokens,
            max_cost_usd: budget.max_cost_usd,
            max_tokens: budget.max_tokens,
            next_node: next_node.to_string(),
        },
    );
    shared.stop(StopReason::BudgetExceeded(reason));
    true
}

enum Next {
    Edge(usize, EdgeReason),
    Jump(String, EdgeReason),
    End,
}

fn next_step(shared: &Shared, current: &str, outcome: &Outcome, context: &Context) -> Next {
    let node_kind = shared.spec.node(current).map(|n| n.kind);
    if node_kind == Some(HandlerKind::Parallel)
        && let Some(fan_in) = outcome.suggested_next_ids.first()
    {
        return Next::Jump(fan_in.clone(), EdgeReason::FanIn);
    }
    // A parallel node's edges are its branches, not routes: without a join it goes to
    // failure routing.
    let is_parallel = node_kind == Some(HandlerKind::Parallel);
    let indexed = shared.spec.outgoing_indexed(current);
    let edges: Vec<&Edge> = indexed.iter().map(|(_, edge)| *edge).collect();
    // A conditional's edges test the stage before it; it never fails itself.
    let choice = EdgeChoice {
        human_gate: node_kind == Some(HandlerKind::Human),
    };
    let selected = context.with_values(|values| select_edge(&edges, outcome, values, choice));
    if let Some((edge, reason)) = selected.filter(|_| !is_parallel)
        && let Some((index, _)) = indexed.iter().find(|(_, e)| std::ptr::eq(*e, edge))
    {
        return Next::Edge(*index, reason);
    }
    if outcome.status == StageStatus::Fail
        && let Some(node) = shared.spec.node(current)
        && let Some(target) = retry_target(shared, node)
    {
        return Next::Jump(target, EdgeReason::RetryTarget);
    }
    Next::End
}
