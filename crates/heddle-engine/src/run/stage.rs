//! One stage: a node executed with its retry policy, its folder written, its events emitted.

use std::time::Duration;

use heddle_workflow::{Attrs, Edge, HandlerKind, Node};
use serde_json::json;

use super::shared::Shared;
use super::{dispatch, parallel};
use crate::checkpoint::StageRecord;
use crate::clock::rfc3339;
use crate::context::Context;
use crate::event::Event;
use crate::outcome::{FailureClass, Outcome, StageStatus};
use crate::retry::RetryPolicy;
use crate::rundir::write_json;

/// Where a stage runs: its node, how it was entered, its context and visit.
pub(crate) struct StageCall<'a> {
    pub node: &'a Node,
    pub edge: Option<&'a Edge>,
    pub context: &'a Context,
    pub visit: u32,
    pub branch: Option<&'a str>,
    /// Cancels this stage (the run's token, or a parallel group's child of it).
    pub cancel: &'a tokio_util::sync::CancellationToken,
}

/// Runs `call.node` with retries; returns the final outcome and the timeline record.
#[tracing::instrument(name = "stage", skip_all, fields(node_id = %call.node.id, kind = call.node.kind.type_name(), visit = call.visit, attempt = tracing::field::Empty, status = tracing::field::Empty))]
pub(crate) async fn execute_stage(shared: &Shared, call: &StageCall<'_>) -> (Outcome, StageRecord) {
    let node = call.node;
    let clock = shared.spec.engine.env.clock.clone();
    let started_at = clock.now();
    let started = clock.monotonic();
    let policy = RetryPolicy::for_node(node, &shared.spec.workflow);
    let stage_dir_name = shared.spec.run_dir.choose_stage_dir(&node.id, call.visit);
    let stage_dir = shared.spec.run_dir.root().join(&stage_dir_name);
    let events = shared.emitter.for_node(&node.id);
    let mut attempt = 1;
    let outcome = loop {
        call.context
            .set(crate::context::keys::retry_count(&node.id), attempt - 1);
        tracing::Span::current().record("attempt", attempt);
        tracing::info!(attempt, "stage started");
        events.emit(Event::StageStarted {
            kind: node.kind.type_name().to_string(),
            visit: call.visit,
            attempt,
            branch: call.branch.map(str::to_string),
            stage_dir: Some(stage_dir_name.clone()),
        });
        let outcome = if call.cancel.is_cancelled() {
            Outcome::fail(FailureClass::Cancelled, "the run was cancelled")
        } else if node.kind == HandlerKind::Parallel {
            parallel::run_parallel(shared, call).await
        } else {
            dispatch::run_handler(shared, call, &stage_dir, attempt).await
        };
        let retryable = match outcome.status {
            StageStatus::Retry => true,
            StageStatus::Fail => outcome.failure_class == Some(FailureClass::Transient),
            _ => false,
        };
        if retryable && attempt < policy.max_attempts && !call.cancel.is_cancelled() {
            let delay = policy.delay(attempt, shared.spec.engine.env.entropy.as_ref());
            events.emit(Event::StageRetrying {
                attempt,
                max_attempts: policy.max_attempts,
                delay_ms: millis(delay),
                reason: outcome
                    .failure_reason
                    .clone()
                    .unwrap_or_else(|| outcome.status.to_string()),
            });
            tokio::select! {
                () = clock.sleep(delay) => {}
                () = call.cancel.cancelled() => {}
            }
            if call.cancel.is_cancelled() {
                break Outcome::fail(FailureClass::Cancelled, "cancelled while waiting to retry");
            }
            attempt += 1;
            continue;
        }
        break auto_status(
            exhausted(outcome, node, attempt, policy.max_attempts),
            node,
            call.cancel,
        );
    };
    let duration_ms = millis(clock.monotonic().saturating_sub(started));
    tracing::Span::current().record("status", tracing::field::display(outcome.status));
    tracing::info!(status = %outcome.status, duration_ms, "stage finished");
    let record = StageRecord {
        node_id: node.id.clone(),
        kind: node.kind,
        visit: call.visit,
        attempts: attempt,
        status: outcome.status,
        stage_dir: stage_dir_name,
        started_at: rfc3339(started_at),
        ended_at: rfc3339(clock.now()),
        duration_ms,
        branch: call.branch.map(str::to_string),
        failure_reason: outcome.failure_reason.clone(),
        failure_class: outcome.failure_class,
        notes: outcome.notes.clone(),
        preferred_label: outcome.preferred_label.clone(),
        model: outcome.model.clone(),
        usage: outcome.usage,
        cost_usd: outcome.cost_usd,
        files_touched: outcome.files_touched.clone(),
        script: (node.kind == HandlerKind::Command)
            .then(|| node.attr_str("script").map(str::to_string))
            .flatten(),
        simulated: outcome.simulated,
        artifacts: outcome.artifacts,
        junit: outcome.junit.clone(),
        blobs: outcome.blobs.clone(),
    };
    write_status(&stage_dir, &outcome, &record);
    let branch = call.branch.map(str::to_string);
    if outcome.status == StageStatus::Fail {
        events.emit(Event::StageFailed {
            reason: outcome
                .failure_reason
                .clone()
                .unwrap_or_else(|| "failed".to_string()),
            failure_class: outcome.failure_class,
            duration_ms,
            visit: call.visit,
            attempts: attempt,
            branch,
            stage_dir: Some(record.stage_dir.clone()),
            usage: outcome.usage,
            cost_usd: outcome.cost_usd,
        });
    } else {
        events.emit(Event::StageCompleted {
            status: outcome.status,
            duration_ms,
            visit: call.visit,
            attempts: attempt,
            notes: outcome.notes.clone(),
            branch,
            stage_dir: Some(record.stage_dir.clone()),
            usage: outcome.usage,
            cost_usd: outcome.cost_usd,
        });
    }
    (outcome, record)
}

/// A RETRY that used every attempt becomes partial success (`allow_partial`) or a failure.
fn exhausted(outcome: Outcome, node: &Node, attempt: u32, max: u32) -> Outcome {
    if outcome.status != StageStatus::Retry {
        return outcome;
    }
    let reason = outcome
        .failure_reason
        .clone()
        .unwrap_or_else(|| "the stage asked to retry".to_string());
    if node.attr_bool("allow_partial") == Some(true) {
        Outcome {
            status: StageStatus::PartialSuccess,
            notes: format!("accepted as partial success after {attempt} attempt(s): {reason}"),
            ..outcome
        }
    } else {
        Outcome {
            status: StageStatus::Fail,
            failure_class: Some(FailureClass::Deterministic),
            failure_reason: Some(format!(
                "node `{}`: still asking to retry after {attempt} of {max} attempt(s): {reason}",
                node.id
            )),
            ..outcome
        }
    }
}

/// status.json in the stage folder (best effort: the checkpoint is what resume relies on).
fn write_status(stage_dir: &std::path::Path, outcome: &Outcome, record: &StageRecord) {
    if std::fs::create_dir_all(stage_dir).is_err() {
        return;
    }
    let status = json!({
        "status": outcome.status,
        "notes": outcome.notes,
        "failure_reason": outcome.failure_reason,
        "failure_class": outcome.failure_class,
        "preferred_label": outcome.preferred_label,
        "suggested_next_ids": outcome.suggested_next_ids,
        "context_updates": outcome.context_updates,
        "model": outcome.model,
        "usage": outcome.usage,
        "cost_usd": outcome.cost_usd,
        "files_touched": outcome.files_touched,
        "simulated": outcome.simulated,
        "blobs": outcome.blobs,
        "attempts": record.attempts,
        "visit": record.visit,
        "started_at": record.started_at,
        "timestamp": record.ended_at,
        "duration_ms": record.duration_ms,
    });
    let _ = write_json(&stage_dir.join("status.json"), &status, false);
}

/// Fills status.json's `files_touched` from the git checkpoint when the stage reported
/// none itself (best effort, like [`write_status`]).
pub(crate) fn add_files_touched(stage_dir: &std::path::Path, files: &[String]) {
    let path = stage_dir.join("status.json");
    let Ok(text) = std::fs::read(&path) else {
        return;
    };
    let Ok(mut status) = serde_json::from_slice::<serde_json::Value>(&text) else {
        return;
    };
    let empty = status["files_touched"]
        .as_array()
        .is_none_or(|listed| listed.is_empty());
    if empty {
        status["files_touched"] = json!(files);
        let _ = write_json(&path, &status, false);
    }
}

pub(crate) fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

/// `auto_status=true` (Fabro): after the retries, any status but success and skipped counts
/// as success; the original status and reason are kept in the notes. A cancelled stage stays
/// cancelled.
fn auto_status(
    outcome: Outcome,
    node: &Node,
    cancel: &tokio_util::sync::CancellationToken,
) -> Outcome {
    if node.attr_bool("auto_status") != Some(true)
        || matches!(outcome.status, StageStatus::Success | StageStatus::Skipped)
        || cancel.is_cancelled()
    {
        return outcome;
    }
    let was = match &outcome.failure_reason {
        Some(reason) => format!("{} ({reason})", outcome.status),
        None => outcome.status.to_string(),
    };
    let notes = if outcome.notes.is_empty() {
        format!("auto_status: counted as success; was {was}")
    } else {
        format!(
            "{}; auto_status: counted as success; was {was}",
            outcome.notes
        )
    };
    Outcome {
        status: StageStatus::Success,
        failure_reason: None,
        failure_class: None,
        notes,
        ..outcome
    }
}
