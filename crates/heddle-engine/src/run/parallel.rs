//! Parallel nodes fan out to every outgoing edge; each branch walks a deep copy of the
//! context until it reaches a fan-in node. Fan-in nodes rank the branches' results.

use std::sync::Arc;

use heddle_workflow::Attrs;
use serde_json::Value as Json;
use tokio::sync::Semaphore;

use super::fan_in::find_fan_in;
use super::join::{BranchResult, Join};
use super::shared::Shared;
use super::stage::StageCall;
use super::walk::{Walk, WalkEnd, WalkResult, walk};
use crate::checkpoint::{BranchOutcome, BranchProgress};
use crate::event::Event;
use crate::outcome::{FailureClass, Outcome, StageStatus};

pub(crate) async fn run_parallel(shared: &Shared, call: &StageCall<'_>) -> Outcome {
    let node = call.node;
    let edges: Vec<(usize, String)> = shared
        .spec
        .outgoing_indexed(&node.id)
        .into_iter()
        .map(|(i, e)| (i, e.to.clone()))
        .collect();
    if edges.is_empty() {
        return Outcome::fail(
            FailureClass::Setup,
            format!("parallel node `{}` has no outgoing edges", node.id),
        );
    }
    let Some(fan_in) = find_fan_in(shared, &node.id) else {
        return Outcome::fail(
            FailureClass::Setup,
            format!(
                "parallel node `{}`: its branches never meet (no node, fan-in or other, is reachable from all of them)",
                node.id
            ),
        );
    };
    let fan_in_node = shared.spec.node(&fan_in);
    let max_parallel = node
        .attr_int("max_parallel")
        .and_then(|n| usize::try_from(n).ok())
        .filter(|n| *n > 0)
        .unwrap_or(4);
    let mut join = Join::new(node, fan_in_node, edges.len());
    let semaphore = Arc::new(Semaphore::new(max_parallel));
    let group = call.cancel.child_token();
    let base = call.context.snapshot();
    let mut tasks = tokio::task::JoinSet::new();
    let mut results: Vec<(usize, BranchResult)> = Vec::new();
    let mut finished = vec![false; edges.len()];
    // Branches of a top-level parallel node are checkpointed; after a resume, ended ones
    // keep their result and the others continue where they stopped.
    let tracked = call.branch.is_none();
    let saved = if tracked {
        shared.saved_branches(&node.id)
    } else {
        Vec::new()
    };
    for (index, (edge, target)) in edges.iter().enumerate() {
        let progress = saved.iter().find(|b| &b.branch == target).cloned();
        if let Some(BranchProgress {
            result: Some(outcome),
            context_values,
            ..
        }) = &progress
        {
            let context = crate::Context::from_values(context_values.clone());
            let mut result = saved_result(target, outcome, &context, &base);
            if join.ended(&mut result) {
                group.cancel();
            }
            results.push((index, result));
            finished[index] = true;
            continue;
        }
        let (start, start_edge, context, resumed) = match progress {
            Some(BranchProgress {
                next_node: Some(next),
                edge,
                context_values,
                ..
            }) => (
                next,
                edge,
                crate::Context::from_values(context_values),
                true,
            ),
            _ => (target.clone(), Some(*edge), call.context.deep_copy(), false),
        };
        let shared = shared.clone();
        let semaphore = semaphore.clone();
        let group = group.clone();
        let target = target.clone();
        let fan_in = fan_in.clone();
        let parallel = tracked.then(|| node.id.clone());
        tasks.spawn(async move {
            let _permit = semaphore.acquire_owned().await.ok();
            if group.is_cancelled() {
                return (index, target, None, context);
            }
            shared.emitter.emit(
                Some(&target),
                Event::ParallelBranchStarted {
                    branch: target.clone(),
                },
            );
            let result = walk(
                shared.clone(),
                Walk {
                    start,
                    edge: start_edge,
                    context: context.clone(),
                    branch: Some(target.clone()),
                    parallel,
                    cancel: group.clone(),
                    stop_at: Some(fan_in.clone()),
                    resumed,
                },
            )
            .await;
            (index, target, Some(result), context)
        });
    }
    while let Some(joined) = tasks.join_next().await {
        let Ok((index, branch, result, context)) = joined else {
            continue;
        };
        if let Some(done) = finished.get_mut(index) {
            *done = true;
        }
        let run_cancelled = call.cancel.is_cancelled();
        if run_cancelled {
            // Keep where the branch stopped, so a resume continues it.
            if tracked
                && let Some(WalkResult {
                    end: WalkEnd::Stopped { node: at },
                    ..
                }) = &result
            {
                let _ = shared
                    .save_branch(&node.id, &branch, Some((at, None)), &context, None)
                    .await;
                continue;
            }
        }
        let mut result = branch_result(
            &branch,
            result,
            &context,
            &base,
            run_cancelled,
            join.stop_reason(),
        );
        let stop_others = join.ended(&mut result);
        if tracked {
            let ended = BranchOutcome {
                status: result.status,
                last_node: result.last_node.clone(),
                failure_reason: result.failure_reason.clone(),
            };
            if let Err(error) = shared
                .save_branch(&node.id, &branch, None, &context, Some(ended))
                .await
            {
                shared.emitter.emit(
                    Some(&node.id),
                    Event::Warning {
                        message: format!(
                            "branch `{branch}` ended but its progress was not saved: {error}"
                        ),
                    },
                );
            }
        }
        shared.emitter.emit(
            Some(&branch),
            Event::ParallelBranchCompleted {
                branch: branch.clone(),
                status: result.status,
                last_node: result.last_node.clone(),
            },
        );
        if stop_others {
            group.cancel();
        }
        results.push((index, result));
    }
    // A branch whose task died (a panic) is a failure, never silently missing.
    for (index, done) in finished.iter().enumerate() {
        if !done && let Some((_, target)) = edges.get(index) {
            results.push((
                index,
                BranchResult {
                    branch: target.clone(),
                    status: StageStatus::Fail,
                    last_node: None,
                    failure_reason: Some("the branch stopped unexpectedly (internal error)".into()),
                    score: None,
                    failure_ignored: false,
                    updates: Vec::new(),
                },
            ));
        }
    }
    results.sort_by_key(|(index, _)| *index);
    if call.cancel.is_cancelled() {
        // Unfinished branches must run again on resume: the parallel node did not complete.
        return Outcome::fail(
            FailureClass::Cancelled,
            format!(
                "parallel `{}` was stopped before its branches finished",
                node.id
            ),
        );
    }
    let results: Vec<BranchResult> = results.into_iter().map(|(_, r)| r).collect();
    if tracked {
        shared.clear_branches(&node.id);
    }
    join.summarize(node.id.as_str(), &fan_in, &results)
}

/// The result of a branch that ended before a resume.
fn saved_result(
    branch: &str,
    outcome: &BranchOutcome,
    context: &crate::Context,
    base: &std::collections::BTreeMap<String, Json>,
) -> BranchResult {
    let (score, updates) = branch_values(context, base);
    BranchResult {
        branch: branch.to_string(),
        status: outcome.status,
        last_node: outcome.last_node.clone(),
        failure_reason: outcome.failure_reason.clone(),
        score,
        failure_ignored: false,
        updates,
    }
}

/// A branch's `score` and the node-scoped keys (`response.*`, `output.*`) it set.
fn branch_values(
    context: &crate::Context,
    base: &std::collections::BTreeMap<String, Json>,
) -> (Option<f64>, Vec<(String, Json)>) {
    let values = context.snapshot();
    let score = values.get("score").and_then(Json::as_f64);
    let updates = values
        .into_iter()
        .filter(|(k, v)| {
            (k.starts_with("response.") || k.starts_with("output.")) && base.get(k) != Some(v)
        })
        .collect();
    (score, updates)
}

fn branch_result(
    branch: &str,
    result: Option<WalkResult>,
    context: &crate::Context,
    base: &std::collections::BTreeMap<String, Json>,
    run_cancelled: bool,
    stopped_because: Option<&str>,
) -> BranchResult {
    let why = stopped_because.unwrap_or("the parallel node stopped its branches");
    let (status, last_node, failure_reason) = match result {
        None => (
            StageStatus::Skipped,
            None,
            Some(format!("not started: {why}")),
        ),
        Some(WalkResult { end, last }) => {
            let last_node = last.as_ref().map(|(n, _)| n.clone());
            match end {
                WalkEnd::Failed { reason, .. } => (StageStatus::Fail, last_node, Some(reason)),
                WalkEnd::Stopped { .. } if run_cancelled => {
                    (StageStatus::Fail, last_node, Some("cancelled".to_string()))
                }
                WalkEnd::Stopped { .. } => (
                    StageStatus::Skipped,
                    last_node,
                    Some(format!("stopped: {why}")),
                ),
                _ => match last {
                    Some((_, outcome)) => (outcome.status, last_node, outcome.failure_reason),
                    None => (StageStatus::Success, None, None),
                },
            }
        }
    };
    let (score, updates) = branch_values(context, base);
    BranchResult {
        branch: branch.to_string(),
        status,
        last_node,
        failure_reason,
        score,
        failure_ignored: false,
        updates,
    }
}
