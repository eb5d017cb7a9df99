//! Executing a prepared run: the pid file, the stall watchdog, the walk, and the
//! conclusion.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use heddle_workflow::Attrs;
use serde_json::Value as Json;
use tokio::sync::broadcast;
use tokio_util::sync::CancellationToken;

use super::shared::{RunShared, Shared};
use super::stage::millis;
use super::state::StopReason;
use super::walk::{Walk, WalkEnd, walk};
use crate::budget::Budget;
use crate::clock::rfc3339;
use crate::context::Context;
use crate::event::{Envelope, Event};
use crate::rundir::{Conclusion, RunDir, RunStatus, write_json};
use crate::runlock::RunLock;

/// A run whose directory exists, ready to execute (or resume).
pub struct PreparedRun {
    shared: Shared,
    start: String,
    context: Option<BTreeMap<String, Json>>,
    /// Values a fresh run starts with beside its own (a manager loop's child gets its
    /// parent's context); the run's own keys win.
    seed: BTreeMap<String, Json>,
    /// The lock on run.pid, held until the run ends (or is dropped without executing).
    run_lock: RunLock,
}

impl std::fmt::Debug for PreparedRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedRun")
            .field("run_id", &self.shared.spec.run_id)
            .field("start", &self.start)
            .finish_non_exhaustive()
    }
}

impl PreparedRun {
    pub(crate) fn new(
        shared: RunShared,
        run_lock: RunLock,
        start: String,
        context: Option<BTreeMap<String, Json>>,
    ) -> Self {
        PreparedRun {
            shared: Arc::new(shared),
            start,
            context,
            seed: BTreeMap::new(),
            run_lock,
        }
    }

    /// Starts a fresh run with `values` in its context beside its own (which win); a resumed
    /// run keeps the context it checkpointed.
    pub(crate) fn with_seed_context(mut self, values: BTreeMap<String, Json>) -> Self {
        self.seed = values;
        self
    }

    /// Limits the run's spending (see [`crate::budget`]); the graph's `max_cost_usd` and
    /// `max_tokens` apply to the limits `budget` leaves unset. A resumed run takes the budget
    /// given here, not the one it stopped under. The limits in force are recorded in the
    /// run's `run.started` event.
    pub fn with_budget(self, budget: Budget) -> Self {
        self.shared.state().budget = budget;
        self
    }

    /// The limits given with [`PreparedRun::with_budget`] (not the graph's).
    pub fn budget(&self) -> Budget {
        self.shared.state().budget
    }

    /// The run id.
    pub fn run_id(&self) -> &str {
        &self.shared.spec.run_id
    }

    /// The run directory.
    pub fn run_dir(&self) -> &RunDir {
        &self.shared.spec.run_dir
    }

    /// The workflow being run.
    pub fn workflow(&self) -> &heddle_workflow::Workflow {
        &self.shared.spec.workflow
    }

    /// The node the run starts (or resumes) at.
    pub fn start_node(&self) -> &str {
        &self.start
    }

    /// Events from now on (subscribe before [`PreparedRun::execute`] to see them all).
    pub fn subscribe(&self) -> broadcast::Receiver<Envelope> {
        self.shared.emitter.subscribe()
    }

    /// Cancelling this token stops the run cleanly: the running stage is stopped, a
    /// checkpoint is written and the conclusion says cancelled.
    pub fn cancel_token(&self) -> CancellationToken {
        self.shared.cancel.clone()
    }

    /// A handle that cancels the run with a reason.
    pub fn cancel_handle(&self) -> CancelHandle {
        CancelHandle {
            shared: self.shared.clone(),
        }
    }

    /// The run's human gates waiting for an answer; answering one through it reaches the
    /// gate whatever else (a terminal) is asking.
    pub fn gates(&self) -> crate::control::GateBoard {
        self.shared.gates.clone()
    }

    /// Runs to the end and writes conclusion.json.
    #[tracing::instrument(name = "run", skip_all, fields(run_id = %self.shared.spec.run_id, workflow = %self.shared.spec.workflow.name, status = tracing::field::Empty))]
    pub async fn execute(self) -> Conclusion {
        let shared = self.shared;
        let clock = shared.spec.engine.env.clock.clone();
        let started = clock.monotonic();
        let resumed = self.context.is_some() || shared.state().resumed_pending;
        let context = match self.context {
            Some(values) => Context::from_values(values),
            None => {
                let context = shared.spec.fresh_context();
                for (key, value) in self.seed {
                    if context.get(&key).is_none() {
                        context.set(key, value);
                    }
                }
                context
            }
        };
        // The limits in force are recorded with each start, so any reader of the run sees them.
        let budget = shared.state().budget.over_graph(&shared.spec.workflow);
        shared.emitter.emit(
            None,
            Event::RunStarted {
                workflow: shared.spec.workflow.name.clone(),
                goal: shared.spec.goal.clone(),
                work_dir: shared.spec.work_dir.to_string_lossy().into_owned(),
                run_dir: shared.spec.run_dir.root().to_string_lossy().into_owned(),
                dry_run: shared.spec.dry_run,
                resumed,
                max_cost_usd: budget.max_cost_usd,
                max_tokens: budget.max_tokens,
            },
        );
        tracing::info!(resumed, dry_run = shared.spec.dry_run, "run started");
        let watchdog = shared
            .spec
            .workflow
            .attr_duration_ms("stall_timeout")
            .filter(|ms| *ms > 0)
            .map(|ms| tokio::spawn(watch_stalls(shared.clone(), Duration::from_millis(ms))));
        shared.state().main_context = Some(context.clone());
        let live = tokio::spawn(refresh_live(shared.clone()));
        let control = tokio::spawn(take_control_requests(shared.clone()));
        let result = walk(
            shared.clone(),
            Walk {
                start: self.start,
                edge: None,
                context: context.clone(),
                branch: None,
                parallel: None,
                cancel: shared.cancel.clone(),
                stop_at: None,
                resumed,
            },
        )
        .await;
        if let Some(watchdog) = watchdog {
            watchdog.abort();
        }
        live.abort();
        control.abort();
        let duration_ms = millis(clock.monotonic().saturating_sub(started));
        let (status, reason, resume_at) = match result.end {
            WalkEnd::Completed | WalkEnd::BranchEnded | WalkEnd::ReachedFanIn { .. } => {
                (RunStatus::Success, None, None)
            }
            WalkEnd::Failed {
                reason, resume_at, ..
            } => (RunStatus::Fail, Some(reason), resume_at),
            WalkEnd::Stopped { node } => match shared.stop_reason() {
                Some(StopReason::Stalled(reason)) => (RunStatus::Fail, Some(reason), Some(node)),
                // Stopped cleanly and resumable, as a cancel is: the reason says why.
                Some(StopReason::BudgetExceeded(reason)) => {
                    (RunStatus::Cancelled, Some(reason), Some(node))
                }
                Some(StopReason::Cancelled(reason)) => {
                    (RunStatus::Cancelled, Some(reason), Some(node))
                }
                None => (
                    RunStatus::Cancelled,
                    Some("cancelled".to_string()),
                    Some(node),
                ),
            },
        };
        let mut reason = reason;
        if status != RunStatus::Success {
            // Resume continues where the run stopped: the failed or interrupted node (none
            // when nothing is left to run).
            let last = shared.state().progress.completed_nodes.last().cloned();
            if let Err(error) = shared
                .save_checkpoint(last.as_deref(), resume_at.as_deref(), &context)
                .await
            {
                let note = format!("; also, the final checkpoint could not be saved: {error}");
                reason = Some(reason.unwrap_or_default() + &note);
            }
        }
        let (stages, artifact_count) = {
            let guard = shared.state();
            let state = &guard.progress;
            let artifacts = state.timeline.iter().map(|s| s.artifacts).sum();
            (state.timeline.len(), artifacts)
        };
        let event = match status {
            RunStatus::Success => Event::RunCompleted {
                duration_ms,
                stages,
            },
            RunStatus::Cancelled => Event::RunCancelled {
                reason: reason.clone().unwrap_or_default(),
                duration_ms,
            },
            _ => Event::RunFailed {
                reason: reason.clone().unwrap_or_default(),
                duration_ms,
            },
        };
        if let Err(message) = shared
            .spec
            .engine
            .services
            .checkpoints
            .finish(&shared.spec.run_dir, &shared.spec.run_id)
            .await
        {
            shared.emitter.emit(
                None,
                Event::Warning {
                    message: format!("git checkpoints: {message}"),
                },
            );
        }
        tracing::Span::current().record("status", status.as_str());
        tracing::info!(
            status = status.as_str(),
            duration_ms,
            stages,
            "run finished"
        );
        shared.emitter.emit(None, event);
        let (final_git_commit_sha, end_note) = {
            let state = shared.state();
            (state.progress.last_git_sha.clone(), state.end_note.clone())
        };
        if let Err(error) = shared.save_unsaved_head() {
            tracing::warn!(%error, "could not bring checkpoint.json up to date at the run's end");
        }
        let conclusion = Conclusion {
            run_id: shared.spec.run_id.clone(),
            status,
            duration_ms,
            failure_reason: reason,
            final_git_commit_sha,
            completed_at: rfc3339(clock.now()),
            stages,
            artifact_count,
            notes: end_note.filter(|_| status == RunStatus::Success),
        };
        let _ = write_json(&shared.spec.run_dir.conclusion(), &conclusion, true);
        let _ = std::fs::remove_file(shared.spec.run_dir.pid());
        drop(self.run_lock);
        conclusion
    }
}

/// Keeps live.json current while a stage is quiet.
async fn refresh_live(shared: Shared) {
    loop {
        tokio::time::sleep(crate::emitter::LIVE_INTERVAL).await;
        shared.emitter.flush_live();
    }
}

/// Fails the run when no event arrives for `limit` (`stall_timeout`).
async fn watch_stalls(shared: Shared, limit: Duration) {
    let clock = shared.spec.engine.env.clock.clone();
    let tick = (limit / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
    let mut since = Duration::ZERO;
    loop {
        clock.sleep(tick).await;
        if shared.emitter.is_waiting() {
            // Waiting for a person, a timer or a child run is not a stall; count from the
            // moment the wait ends.
            since = clock.monotonic();
            continue;
        }
        let last = shared.emitter.last_activity().max(since);
        let idle = clock.monotonic().saturating_sub(last);
        if idle >= limit {
            let node = shared
                .state()
                .progress
                .completed_nodes
                .last()
                .cloned()
                .unwrap_or_default();
            shared.stop(StopReason::Stalled(format!(
                "stalled: no progress for {} (stall_timeout) after `{node}`",
                heddle_workflow::format_duration(millis(limit))
            )));
            return;
        }
    }
}

/// Cancels a run with a reason the conclusion will carry. Cheap to clone.
#[derive(Clone)]
pub struct CancelHandle {
    shared: Shared,
}

impl std::fmt::Debug for CancelHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelHandle")
            .field("run_id", &self.shared.spec.run_id)
            .finish()
    }
}

impl CancelHandle {
    /// Stops the run cleanly: the running stage is stopped, a checkpoint is written and
    /// the conclusion says cancelled, with `reason`.
    pub fn cancel(&self, reason: &str) {
        self.shared.stop(StopReason::Cancelled(reason.to_string()));
    }
}

/// Applies what other processes ask of the run (gate answers, cancel) until aborted.
async fn take_control_requests(shared: Shared) {
    let (cancel, warn) = (shared.clone(), shared.clone());
    crate::control::listen(
        shared.spec.run_dir.clone(),
        shared.gates.clone(),
        move |reason| cancel.stop(StopReason::Cancelled(reason.to_string())),
        move |message| {
            warn.emitter.emit(None, Event::Warning { message });
        },
    )
    .await;
}
