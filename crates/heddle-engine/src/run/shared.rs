//! What every walker of one run shares: the fixed [`RunSpec`], the event stream, the human
//! gates, the cancellation signal, and the [`RunState`] that changes as the run goes, behind
//! one lock that is never held across an `.await`.
//!
//! Besides that lock, only checkpoint writing has its own: saving a checkpoint awaits the
//! git hook, and concurrent branches must commit one after the other.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio_util::sync::CancellationToken;

use super::spec::RunSpec;
use super::state::{RunProgress, RunState, StopReason, Written};
use crate::checkpoint::Checkpoint;
use crate::clock::rfc3339;
use crate::context::Context;
use crate::emitter::Emitter;
use crate::error::EngineError;
use crate::event::Event;
use crate::timeline_file::{self, History, HistoryLine};

/// One run as its walkers share it.
pub(crate) struct RunShared {
    /// What the run is; never changes.
    pub spec: RunSpec,
    /// The run's events (progress.ndjson, live.json, subscribers); synchronises itself.
    pub emitter: Emitter,
    /// Human gates waiting for an answer from this process or another; its handles are
    /// shared with the doors.
    pub gates: crate::control::GateBoard,
    /// Cancelled when the run must stop; every stage awaits it.
    pub cancel: CancellationToken,
    state: Mutex<RunState>,
    /// One checkpoint is written (and committed through the hook) at a time.
    checkpoint_turn: tokio::sync::Mutex<()>,
}

impl RunShared {
    pub fn new(spec: RunSpec, emitter: Emitter, progress: RunProgress, resumed: bool) -> Self {
        RunShared {
            gates: crate::control::GateBoard::new(&spec.run_dir),
            spec,
            emitter,
            cancel: CancellationToken::new(),
            state: Mutex::new(RunState::new(progress, resumed)),
            checkpoint_turn: tokio::sync::Mutex::new(()),
        }
    }

    /// The run's changing state. Keep the guard within one synchronous step: never across an
    /// `.await` or blocking work.
    pub fn state(&self) -> MutexGuard<'_, RunState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Why the run was stopped early, if it was.
    pub fn stop_reason(&self) -> Option<StopReason> {
        self.state().stop_reason.clone()
    }

    /// Stops the run: records `reason` (unless one was given already) and cancels.
    pub fn stop(&self, reason: StopReason) {
        self.state().stop_reason.get_or_insert(reason);
        self.cancel.cancel();
    }

    /// Writes checkpoint.json for the latest checkpoint when only `head` lines held it, so
    /// a run that stopped leaves its file current (a crash leaves the lines, which readers
    /// apply).
    pub fn save_unsaved_head(&self) -> Result<(), EngineError> {
        let Some(head) = self.state().unsaved_head.take() else {
            return Ok(());
        };
        head.save_head(&self.spec.run_dir.checkpoint(), true)
    }

    /// Whether this is the first LLM stage since the run resumed (true once).
    pub fn take_resumed_flag(&self) -> bool {
        std::mem::take(&mut self.state().resumed_pending)
    }

    /// Saves checkpoint.json (and, through the hook, a git checkpoint) after `current`.
    #[tracing::instrument(name = "checkpoint", skip_all, fields(run_id = %self.spec.run_id, node_id = current, next = next))]
    pub async fn save_checkpoint(
        &self,
        current: Option<&str>,
        next: Option<&str>,
        context: &Context,
    ) -> Result<(), EngineError> {
        let _turn = self.checkpoint_turn.lock().await;
        let spec = &self.spec;
        let path = spec.run_dir.checkpoint();
        let history = spec.run_dir.timeline();
        let sync = spec.engine.config.sync_checkpoints;
        // The head, with only the history not yet in timeline.jsonl (the hook sees the
        // newest stages that way) and a `state` line of the keys that changed: what is
        // written here is constant in the run's length and in the number of nodes it ran.
        let context_changes = context.take_changes();
        let (mut checkpoint, text, from, early_sync) = {
            let mut guard = self.state();
            let state = &mut guard.progress;
            let written = state.written;
            // A run whose checkpoints are recorded in git writes checkpoint.json again once
            // the commit is made: only that copy (and the history it names) is flushed.
            let early_sync = sync && state.last_git_sha.is_none();
            let whole = written.state_of != Some(context.id());
            let mut change = state.take_node_changes(whole);
            if whole {
                change.context_set = context.snapshot();
            } else {
                change.context_cleared = context_changes.replaced;
                context.with_values(|values| {
                    if context_changes.replaced {
                        change.context_set = values.clone();
                    }
                    for key in &context_changes.keys {
                        match values.get(key) {
                            Some(value) => {
                                change.context_set.insert(key.clone(), value.clone());
                            }
                            None => change.context_removed.push(key.clone()),
                        }
                    }
                });
            }
            // Until this line is on disk, the next checkpoint must not build on it.
            state.written.state_of = None;
            let new_stages = &state.timeline[written.stages.min(state.timeline.len())..];
            let new_logs = &state.logs[written.logs.min(state.logs.len())..];
            let mut node_outcomes = change.node_outcomes.clone();
            if let Some(node) = current
                && let Some(outcome) = state.node_outcomes().get(node)
            {
                node_outcomes.insert(node.to_string(), outcome.clone());
            }
            let checkpoint = Checkpoint {
                version: crate::checkpoint::CHECKPOINT_VERSION,
                run_id: spec.run_id.clone(),
                timestamp: rfc3339(spec.engine.env.clock.now()),
                current_node: current.map(str::to_string),
                next_node_id: next.map(str::to_string),
                completed_nodes: Vec::new(),
                node_retries: change.node_retries.clone(),
                node_visits: change.node_visits.clone(),
                node_outcomes,
                context_values: change.context_set.clone(),
                logs: new_logs.to_vec(),
                git_commit_sha: None,
                loop_failure_signatures: state.loop_failure_signatures.clone(),
                restart_failure_signatures: state.restart_failure_signatures.clone(),
                timeline: new_stages.to_vec(),
                restarts: state.restarts,
                branches: state.branches.clone(),
                stages: state.timeline.len(),
                history_bytes: None,
            };
            let change = (!change.is_empty()).then_some(change);
            let mut text = History::to_text(new_stages, new_logs, change)?;
            // Closes the stage's lines: once it is on disk the stage counts.
            let head = HistoryLine::Head(Box::new(checkpoint.head_line()));
            timeline_file::push_line(&mut text, &head)?;
            (checkpoint, text, written, early_sync)
        };
        let end = timeline_file::append(&history, from.bytes, &text, early_sync)?;
        checkpoint.history_bytes = Some(end);
        // checkpoint.json is rewritten now and then; the head lines stand for it meanwhile.
        let head_due = next.is_none()
            || from
                .head_stages
                .is_none_or(|at| checkpoint.stages >= at + timeline_file::HEAD_EVERY);
        {
            let mut guard = self.state();
            let state = &mut guard.progress;
            state.written = Written {
                stages: checkpoint.stages,
                logs: state
                    .logs
                    .len()
                    .min(state.written.logs + checkpoint.logs.len()),
                bytes: end,
                state_of: Some(context.id()),
                head_stages: if head_due {
                    Some(checkpoint.stages)
                } else {
                    from.head_stages
                },
            };
        }
        if head_due {
            checkpoint.save_head(&path, early_sync)?;
        }
        let recorded = spec
            .engine
            .services
            .checkpoints
            .after_node(&spec.run_dir, &checkpoint)
            .await
            .map_err(|message| EngineError::Io {
                path: spec.run_dir.root().to_path_buf(),
                message: format!("git checkpoint failed: {message}"),
            })?;
        let mut sha = None;
        if let Some(git) = recorded {
            for message in &git.warnings {
                self.emitter.emit(
                    current,
                    Event::Warning {
                        message: message.clone(),
                    },
                );
            }
            checkpoint.git_commit_sha = Some(git.sha.clone());
            let filled_stage = {
                let mut guard = self.state();
                let state = &mut guard.progress;
                state.last_git_sha = Some(git.sha.clone());
                // The stage's own list (agent tool events) wins; git fills it in otherwise.
                let record = state
                    .timeline
                    .iter_mut()
                    .enumerate()
                    .rev()
                    .find(|(_, r)| Some(r.node_id.as_str()) == current)
                    .filter(|(_, r)| r.files_touched.is_empty() && !git.files_touched.is_empty());
                record.map(|(index, record)| {
                    record.files_touched = git.files_touched.clone();
                    (index, record.stage_dir.clone())
                })
            };
            // A second head line, naming the commit, closes the stage again (after a
            // correction line when git found the files the stage touched).
            let mut text = Vec::new();
            if let Some((index, stage_dir)) = filled_stage {
                super::stage::add_files_touched(
                    &spec.run_dir.root().join(stage_dir),
                    &git.files_touched,
                );
                timeline_file::push_line(
                    &mut text,
                    &HistoryLine::FilesTouched {
                        stage: index,
                        files: git.files_touched.clone(),
                    },
                )?;
            }
            timeline_file::push_line(
                &mut text,
                &HistoryLine::Head(Box::new(checkpoint.head_line())),
            )?;
            let end = timeline_file::append(&history, end, &text, false)?;
            self.state().progress.written.bytes = end;
            checkpoint.history_bytes = Some(end);
            if sync {
                timeline_file::flush(&history)?;
            }
            if head_due {
                checkpoint.save_head(&path, sync)?;
            }
            sha = Some(git.sha);
        } else if sync && !early_sync {
            // Git recorded nothing after all: the lines written before are the ones to flush.
            timeline_file::flush(&history)?;
            if head_due {
                checkpoint.save_head(&path, true)?;
            }
        }
        self.state().unsaved_head = (!head_due).then(|| checkpoint.clone());
        self.emitter.emit(
            current,
            Event::CheckpointSaved {
                next_node_id: next.map(str::to_string),
                git_commit_sha: sha,
            },
        );
        if let Some(error) = self.emitter.write_error() {
            return Err(EngineError::Io {
                path: spec.run_dir.progress(),
                message: error,
            });
        }
        Ok(())
    }
}

/// A shared run.
pub(crate) type Shared = Arc<RunShared>;
