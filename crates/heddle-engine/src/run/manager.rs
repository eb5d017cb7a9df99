//! Manager loops: run a child workflow in a child run directory and watch it every
//! `manager.poll_interval` until it ends, `manager.stop_condition` holds, or
//! `manager.max_cycles` observations pass.

use std::path::Path;
use std::time::Duration;

use heddle_workflow::{Attrs, Condition, resolve_reference};
use serde_json::Value as Json;

use super::RunRequest;
use super::shared::{RunShared, Shared};
use super::stage::StageCall;
use crate::checkpoint::Checkpoint;
use crate::event::Event;
use crate::outcome::{FailureClass, Outcome};
use crate::rundir::{RunDir, RunStatus};

const DEFAULT_POLL: Duration = Duration::from_secs(5);
const DEFAULT_MAX_CYCLES: u32 = 1000;

pub(crate) async fn run_manager(
    shared: &Shared,
    call: &StageCall<'_>,
    stage_dir: &Path,
) -> Outcome {
    let node = call.node;
    let Some(child) = RunShared::node_text(node, "stack.child_workflow") else {
        return Outcome::fail(
            FailureClass::Setup,
            format!("manager loop `{}` has no stack.child_workflow", node.id),
        );
    };
    let child_path = resolve_reference(&shared.workflow_path, child.trim_start_matches('@'));
    let stop =
        match RunShared::node_text(node, "manager.stop_condition").map(|s| Condition::parse(&s)) {
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
    let request = RunRequest {
        workflow_path: child_path.clone(),
        source: None,
        goal: None,
        labels: Default::default(),
        inputs: shared.inputs.clone(),
        runs_root: shared.run_dir.root().to_path_buf(),
        run_dir: Some(child_dir.clone()),
        work_dir: shared.work_dir.clone(),
        dry_run: shared.dry_run,
        parent_run_id: Some(shared.run_id.clone()),
    };
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
    let prepared = if existing.manifest().is_file() {
        shared.engine.resume(&existing)
    } else {
        shared.engine.prepare(request)
    };
    let prepared = match prepared {
        Ok(prepared) => prepared,
        Err(error) => {
            return Outcome::fail(
                FailureClass::Setup,
                format!(
                    "manager loop `{}`: child workflow {}: {error}",
                    node.id,
                    child_path.display()
                ),
            );
        }
    };
    let child_id = prepared.run_id().to_string();
    let child_cancel = prepared.cancel_token();
    let parent_cancel = call.cancel.clone();
    let mut handle = tokio::spawn(prepared.execute());
    let clock = shared.engine.env.clock.clone();
    let events = shared.emitter.for_node(&node.id);
    let child_run = RunDir::at(&child_dir);
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
            Some(Err(_)) => RunStatus::Crashed,
            None => RunStatus::Running,
        };
        events.emit(Event::ManagerCycle {
            cycle,
            child_run_id: child_id.clone(),
            child_status: status.as_str().to_string(),
        });
        let mut values = Checkpoint::load(&child_run.checkpoint())
            .map(|c| c.context_values)
            .unwrap_or_default();
        if status != RunStatus::Running {
            values.insert("outcome".into(), Json::from(status.as_str()));
        }
        let stop_holds = stop.as_ref().is_some_and(|c| c.evaluate(&values));
        let summary = |verb: &str| {
            Outcome::success()
                .with_notes(format!(
                    "child run {child_id} {verb} after {cycle} cycle(s)"
                ))
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
                Ok(conclusion) => Outcome::fail(
                    FailureClass::Deterministic,
                    format!(
                        "manager loop `{}`: child run {child_id} ended {}: {}",
                        node.id,
                        conclusion.status.as_str(),
                        conclusion.failure_reason.unwrap_or_default()
                    ),
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
