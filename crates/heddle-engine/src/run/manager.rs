//! Manager loops: run a child workflow in a child run directory and watch it every
//! `manager.poll_interval` until it ends, `manager.stop_condition` holds, or
//! `manager.max_cycles` observations pass. What the child gets and gives back is
//! decided in `manager_child`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use heddle_workflow::{Attrs, Condition};
use serde_json::Value as Json;

use super::manager_child::{inherited_context, plan_child, returned_context};
use super::shared::Shared;
use super::spec::RunSpec;
use super::stage::StageCall;
use crate::checkpoint::Checkpoint;
use crate::event::Event;
use crate::outcome::{FailureClass, Outcome};
use crate::rundir::{RunDir, RunStatus};

const DEFAULT_POLL: Duration = Duration::from_secs(5);
const DEFAULT_MAX_CYCLES: u32 = 1000;

/// What the parent knows of its child at one observation, under the Attractor spec's
/// `stack.child.*` names: `status` is `running`, `completed` (it succeeded) or `failed`;
/// `outcome` (`success`/`fail`) exists once the child ended.
fn telemetry(child_id: &str, status: RunStatus, cycle: u32) -> BTreeMap<String, Json> {
    let mut keys = BTreeMap::new();
    keys.insert("stack.child.run_id".into(), Json::from(child_id));
    keys.insert("stack.child.cycle".into(), Json::from(cycle));
    let (shown, outcome) = match status {
        RunStatus::Running => ("running", None),
        RunStatus::Success => ("completed", Some("success")),
        _ => ("failed", Some("fail")),
    };
    keys.insert("stack.child.status".into(), Json::from(shown));
    if let Some(outcome) = outcome {
        keys.insert("stack.child.outcome".into(), Json::from(outcome));
    }
    keys
}

fn with_updates(mut outcome: Outcome, updates: BTreeMap<String, Json>) -> Outcome {
    outcome.context_updates.extend(updates);
    outcome
}

pub(crate) async fn run_manager(
    shared: &Shared,
    call: &StageCall<'_>,
    stage_dir: &Path,
) -> Outcome {
    let node = call.node;
    let stop =
        match RunSpec::node_text(node, "manager.stop_condition").map(|s| Condition::parse(&s)) {
            Some(Ok(condition)) => Some(condition),
            Some(Err(error)) => {
                return Outcome::fail(
                    FailureClass::Setup,
                    format!(
                        "manager loop `{}`: manager.stop_condition: {error}",
                        node.id
                    ),
                );
            }
            None => None,
        };
    let poll = node
        .attr_duration_ms("manager.poll_interval")
        .map_or(DEFAULT_POLL, Duration::from_millis);
    let max_cycles = node
        .attr_int("manager.max_cycles")
        .and_then(|n| u32::try_from(n).ok())
        .filter(|n| *n > 0)
        .unwrap_or(DEFAULT_MAX_CYCLES);
    let child_dir = stage_dir.join("child");
    // After a resume the child run may already exist: continue it rather than start over.
    let existing = RunDir::at(&child_dir);
    if existing.manifest().is_file()
        && let Some(conclusion) = existing.read_conclusion()
        && conclusion.status == RunStatus::Success
    {
        return Outcome::success()
            .with_notes(format!(
                "child run {} had already succeeded",
                conclusion.run_id
            ))
            .with_update("manager.child_run_id", conclusion.run_id)
            .with_update("manager.child_status", "success");
    }
    let handed = inherited_context(call.context.snapshot());
    let (prepared, shown) = if existing.manifest().is_file() {
        (
            shared.spec.engine.resume(&existing),
            child_dir.display().to_string(),
        )
    } else {
        match plan_child(shared, node, &child_dir) {
            Ok(plan) => (
                shared
                    .spec
                    .engine
                    .prepare(plan.request)
                    .map(|p| p.with_seed_context(handed.clone())),
                plan.shown,
            ),
            Err(message) => return Outcome::fail(FailureClass::Setup, message),
        }
    };
    let prepared = match prepared {
        Ok(prepared) => prepared,
        Err(error) => {
            return Outcome::fail(
                FailureClass::Setup,
                format!(
                    "manager loop `{}`: child workflow {shown}: {error}",
                    node.id
                ),
            );
        }
    };
    let child_id = prepared.run_id().to_string();
    let child_cancel = prepared.cancel_token();
    let parent_cancel = call.cancel.clone();
    let mut handle = tokio::spawn(prepared.execute());
    let clock = shared.spec.engine.env.clock.clone();
    let events = shared.emitter.for_node(&node.id);
    let child_run = RunDir::at(&child_dir);
    let child_context = || {
        Checkpoint::load(&child_run.checkpoint())
            .map(|c| c.context_values)
            .unwrap_or_default()
    };
    for cycle in 1..=max_cycles {
        let finished = tokio::select! {
            joined = &mut handle => Some(joined),
            () = clock.sleep(poll) => None,
            () = parent_cancel.cancelled() => {
                child_cancel.cancel();
                let _ = handle.await;
                return Outcome::fail(FailureClass::Cancelled, "cancelled while supervising the child run");
            }
        };
        let status = match &finished {
            Some(Ok(conclusion)) => conclusion.status,
            Some(Err(_)) => RunStatus::Interrupted,
            None => RunStatus::Running,
        };
        events.emit(Event::ManagerCycle {
            cycle,
            child_run_id: child_id.clone(),
            child_status: status.as_str().to_string(),
        });
        let seen = telemetry(&child_id, status, cycle);
        // The stop condition reads the child's context, the `stack.child.*` keys and, once
        // the child ended, `outcome` as its final status.
        let mut values = child_context();
        values.extend(seen.clone());
        if status != RunStatus::Running {
            values.insert("outcome".into(), Json::from(status.as_str()));
        }
        let stop_holds = stop.as_ref().is_some_and(|c| c.evaluate(&values));
        let summary = |verb: &str| {
            let mut updates = returned_context(&handed, child_context());
            updates.extend(seen.clone());
            with_updates(
                Outcome::success().with_notes(format!(
                    "child run {child_id} {verb} after {cycle} cycle(s)"
                )),
                updates,
            )
            .with_update("manager.child_run_id", child_id.clone())
            .with_update("manager.child_status", status.as_str())
        };
        if stop_holds {
            if status == RunStatus::Running {
                child_cancel.cancel();
                let _ = (&mut handle).await;
            }
            return summary("met the stop condition");
        }
        if let Some(joined) = finished {
            return match joined {
                Ok(conclusion) if conclusion.status == RunStatus::Success => summary("succeeded"),
                Ok(conclusion) => with_updates(
                    Outcome::fail(
                        FailureClass::Deterministic,
                        format!(
                            "manager loop `{}`: child run {child_id} ended {}: {}",
                            node.id,
                            conclusion.status.as_str(),
                            conclusion.failure_reason.unwrap_or_default()
                        ),
                    ),
                    seen,
                )
                .with_update("manager.child_run_id", child_id.clone())
                .with_update("manager.child_status", conclusion.status.as_str()),
                Err(error) => Outcome::fail(
                    FailureClass::Deterministic,
                    format!(
                        "manager loop `{}`: child run {child_id} crashed: {error}",
                        node.id
                    ),
                ),
            };
        }
    }
    child_cancel.cancel();
    let _ = handle.await;
    Outcome::fail(
        FailureClass::Timeout,
        format!(
            "manager loop `{}`: child run {child_id} still running after {max_cycles} cycle(s) of {}; stopped it",
            node.id,
            heddle_workflow::format_duration(super::stage::millis(poll))
        ),
    )
    .with_update("manager.child_run_id", child_id)
}
