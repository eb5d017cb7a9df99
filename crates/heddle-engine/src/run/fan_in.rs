//! Fan-in nodes: finding the fan-in a parallel node's branches share, and choosing the best
//! branch when the run reaches it.

use std::collections::VecDeque;
use std::path::Path;

use heddle_workflow::HandlerKind;
use serde_json::Value as Json;

use super::fan_in_choice::ask_model;
use super::shared::Shared;
use super::spec::RunSpec;
use super::stage::StageCall;
use crate::context::keys;
use crate::outcome::{FailureClass, Outcome, StageStatus};

/// Where the branches of `node` join: the fan-in every branch reaches, the first in
/// breadth-first order from the first branch that all branches can reach (so a nested
/// parallel's own fan-in is skipped). Without one, as Fabro does, the first node all
/// branches converge on, whatever its kind (the parallel node itself aside).
pub(crate) fn find_fan_in(shared: &Shared, node: &str) -> Option<String> {
    let starts: Vec<String> = shared
        .spec
        .outgoing(node)
        .iter()
        .map(|e| e.to.clone())
        .collect();
    let reachable: Vec<Vec<String>> = starts.iter().map(|s| reachable_from(shared, s)).collect();
    let first = reachable.first()?;
    let shared_by_all =
        |id: &&String| id.as_str() != node && reachable.iter().all(|r| r.contains(id));
    first
        .iter()
        .filter(shared_by_all)
        .find(|id| {
            shared
                .spec
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
        if shared.spec.node(&id).is_none() {
            continue;
        }
        found.push(id.clone());
        queue.extend(shared.spec.outgoing(&id).iter().map(|e| e.to.clone()));
    }
    found
}

/// A fan-in picks the best branch of `parallel.results`: with a `prompt`, the model says
/// which (see [`super::fan_in_choice`]); otherwise, or when its reply names no branch, the
/// branches are ranked by status, then `score` (higher first), then branch id, a failure
/// that `error_policy=ignore` counted as a success after the real successes. It fails when
/// no branch succeeded or the parallel node's join policy was not met.
pub(crate) async fn run_fan_in(shared: &Shared, call: &StageCall<'_>, stage_dir: &Path) -> Outcome {
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
    let ranked = rank(&results);
    let Some(first) = ranked.first() else {
        return Outcome::fail(
            FailureClass::Deterministic,
            format!("fan-in `{}`: no branch results to choose from", node.id),
        );
    };
    let (best, mut outcome) = if RunSpec::node_text(node, "prompt").is_some() {
        let ids: Vec<String> = ranked.iter().map(|c| c.branch.clone()).collect();
        let asked = ask_model(shared, call, stage_dir, &results, &ids).await;
        if asked.cancelled {
            return asked.outcome;
        }
        let chosen = asked
            .branch
            .as_ref()
            .and_then(|id| ranked.iter().find(|c| &c.branch == id));
        match chosen {
            Some(candidate) => (candidate.clone(), asked.outcome.with_notes(asked.note)),
            None => (first.clone(), asked.outcome.with_notes(asked.note)),
        }
    } else {
        (first.clone(), Outcome::success())
    };
    let any_success = ranked.iter().any(|c| c.status.is_success());
    let join_unmet = match call.context.get(keys::PARALLEL_JOIN) {
        Some(join) if join.get("met") == Some(&Json::Bool(false)) => Some(join),
        _ => None,
    };
    let by = if outcome.notes.is_empty() {
        String::new()
    } else {
        format!("; {}", outcome.notes)
    };
    if let Some(join) = join_unmet {
        outcome.status = StageStatus::Fail;
        outcome.failure_class = Some(FailureClass::Deterministic);
        let errors = match join.get("error_policy").and_then(Json::as_str) {
            Some(errors) if errors != "continue" => format!(" with error_policy={errors}"),
            _ => String::new(),
        };
        outcome.failure_reason = Some(format!(
            "fan-in `{}`: the join policy {}{errors} was not met ({} of {} branch(es) succeeded, {} needed)",
            node.id,
            join.get("policy").and_then(Json::as_str).unwrap_or("?"),
            join.get("succeeded").unwrap_or(&Json::Null),
            join.get("total").unwrap_or(&Json::Null),
            join.get("needed").unwrap_or(&Json::Null),
        ));
    } else if !any_success {
        outcome.status = StageStatus::Fail;
        outcome.failure_class = Some(FailureClass::Deterministic);
        outcome.failure_reason = Some(format!(
            "fan-in `{}`: no branch succeeded (best: {}, {})",
            node.id, best.branch, best.status
        ));
    } else {
        outcome.status = StageStatus::Success;
        outcome.failure_class = None;
        outcome.failure_reason = None;
    }
    outcome.preferred_label = None;
    outcome.suggested_next_ids.clear();
    outcome.notes = format!("best branch: {} ({}){by}", best.branch, best.status);
    outcome
        .with_update(keys::FAN_IN_BEST_ID, best.branch)
        .with_update(keys::FAN_IN_BEST_OUTCOME, best.status.as_str())
        .with_update(keys::FAN_IN_BEST_HEAD_SHA, Json::Null)
}

/// A branch as the fan-in ranks it.
#[derive(Debug, Clone)]
struct Candidate {
    branch: String,
    status: StageStatus,
    ignored_failure: bool,
    score: Option<f64>,
}

/// The branches of `parallel.results`, best first.
fn rank(results: &[Json]) -> Vec<Candidate> {
    let mut ranked: Vec<Candidate> = results
        .iter()
        .filter_map(|r| {
            Some(Candidate {
                status: StageStatus::parse(r.get("status")?.as_str()?)?,
                branch: r.get("branch")?.as_str()?.to_string(),
                ignored_failure: r.get("failure_ignored") == Some(&Json::Bool(true)),
                score: r.get("score").and_then(Json::as_f64),
            })
        })
        .collect();
    ranked.sort_by(|a, b| {
        a.status
            .rank()
            .cmp(&b.status.rank())
            .then(a.ignored_failure.cmp(&b.ignored_failure))
            .then_with(|| {
                let (x, y) = (
                    a.score.unwrap_or(f64::NEG_INFINITY),
                    b.score.unwrap_or(f64::NEG_INFINITY),
                );
                y.total_cmp(&x)
            })
            .then_with(|| a.branch.cmp(&b.branch))
    });
    ranked
}
