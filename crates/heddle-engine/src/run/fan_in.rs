//! Fan-in nodes: finding the fan-in a parallel node's branches share, and ranking the
//! branches' results when the run reaches it.

use std::collections::VecDeque;

use heddle_workflow::HandlerKind;
use serde_json::Value as Json;

use super::shared::Shared;
use super::stage::StageCall;
use crate::context::keys;
use crate::outcome::{FailureClass, Outcome, StageStatus};

/// Where the branches of `node` join: the fan-in every branch reaches, the first in
/// breadth-first order from the first branch that all branches can reach (so a nested
/// parallel's own fan-in is skipped). Without one, as Fabro does, the first node all
/// branches converge on, whatever its kind (the parallel node itself aside).
pub(crate) fn find_fan_in(shared: &Shared, node: &str) -> Option<String> {
    let starts: Vec<String> = shared.outgoing(node).iter().map(|e| e.to.clone()).collect();
    let reachable: Vec<Vec<String>> = starts.iter().map(|s| reachable_from(shared, s)).collect();
    let first = reachable.first()?;
    let shared_by_all =
        |id: &&String| id.as_str() != node && reachable.iter().all(|r| r.contains(id));
    first
        .iter()
        .filter(shared_by_all)
        .find(|id| {
            shared
                .node(id)
                .is_some_and(|n| n.kind == HandlerKind::FanIn)
        })
        .or_else(|| first.iter().find(shared_by_all))
        .cloned()
}

/// Nodes reachable from `start` (itself included), breadth first.
fn reachable_from(shared: &Shared, start: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut found = Vec::new();
    let mut queue: VecDeque<String> = VecDeque::from([start.to_string()]);
    while let Some(id) = queue.pop_front() {
        if !seen.insert(id.clone()) {
            continue;
        }
        if shared.node(&id).is_none() {
            continue;
        }
        found.push(id.clone());
        queue.extend(shared.outgoing(&id).iter().map(|e| e.to.clone()));
    }
    found
}

/// A fan-in ranks `parallel.results`: status, then score (higher first), then branch id.
pub(crate) fn run_fan_in(_shared: &Shared, call: &StageCall<'_>) -> Outcome {
    let node = call.node;
    let Some(Json::Array(results)) = call.context.get(keys::PARALLEL_RESULTS) else {
        return Outcome::fail(
            FailureClass::Setup,
            format!(
                "fan-in `{}` was reached without a parallel node before it",
                node.id
            ),
        );
    };
    let mut ranked: Vec<(StageStatus, Option<f64>, String)> = results
        .iter()
        .filter_map(|r| {
            let status = StageStatus::parse(r.get("status")?.as_str()?)?;
            let branch = r.get("branch")?.as_str()?.to_string();
            Some((status, r.get("score").and_then(Json::as_f64), branch))
        })
        .collect();
    ranked.sort_by(|a, b| {
        a.0.rank()
            .cmp(&b.0.rank())
            .then_with(|| {
                let (x, y) = (
                    a.1.unwrap_or(f64::NEG_INFINITY),
                    b.1.unwrap_or(f64::NEG_INFINITY),
                );
                y.total_cmp(&x)
            })
            .then_with(|| a.2.cmp(&b.2))
    });
    let Some((status, _, best)) = ranked.first().cloned() else {
        return Outcome::fail(
            FailureClass::Deterministic,
            format!("fan-in `{}`: no branch results to choose from", node.id),
        );
    };
    let outcome = if status.is_success() {
        Outcome::success().with_notes(format!("best branch: {best} ({status})"))
    } else {
        Outcome::fail(
            FailureClass::Deterministic,
            format!(
                "fan-in `{}`: no branch succeeded (best: {best}, {status})",
                node.id
            ),
        )
    };
    outcome
        .with_update(keys::FAN_IN_BEST_ID, best)
        .with_update(keys::FAN_IN_BEST_OUTCOME, status.as_str())
        .with_update(keys::FAN_IN_BEST_HEAD_SHA, Json::Null)
}
