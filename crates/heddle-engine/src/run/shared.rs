//! What every walker of one run shares: the workflow, the run directory, the event stream,
//! the bookkeeping, cancellation, and the conversations of `full` fidelity threads.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use heddle_workflow::{Adjacency, Attrs, Edge, Node, Workflow};
use tokio_util::sync::CancellationToken;

use super::Engine;
use super::state::RunState;
use crate::checkpoint::Checkpoint;
use crate::clock::rfc3339;
use crate::context::{Context, keys};
use crate::emitter::Emitter;
use crate::error::EngineError;
use crate::event::Event;
use crate::llm::LlmConversation;
use crate::rundir::RunDir;

/// Why a run stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// Someone cancelled it.
    Cancelled(String),
    /// Nothing happened for `stall_timeout`.
    Stalled(String),
}

pub(crate) struct RunShared {
    pub engine: Engine,
    pub workflow: Workflow,
    pub workflow_path: PathBuf,
    pub run_id: String,
    pub run_dir: RunDir,
    pub work_dir: PathBuf,
    pub goal: Option<String>,
    /// `inputs.NAME` values (manager loop children get them too).
    pub inputs: BTreeMap<String, String>,
    pub dry_run: bool,
    pub emitter: Emitter,
    /// Human gates waiting for an answer from this process or another.
    pub gates: crate::control::GateBoard,
    pub cancel: CancellationToken,
    pub stop_reason: Mutex<Option<StopReason>>,
    /// How a run that completed ended when it is worth saying (it stopped at a stage with no
    /// edge that holds), for conclusion.json.
    pub end_note: Mutex<Option<String>>,
    pub state: Mutex<RunState>,
    pub threads: tokio::sync::Mutex<HashMap<String, Box<dyn LlmConversation>>>,
    /// Serialises checkpoint writes (parallel branches save progress concurrently).
    checkpoint_lock: tokio::sync::Mutex<()>,
    /// The run's own context (branches have copies), for checkpoints saved by branches.
    pub main_context: Mutex<Option<Context>>,
    /// The lock on run.pid, held until the run ends.
    pub lock: Mutex<Option<crate::runlock::RunLock>>,
    /// The first LLM stage after a resume drops `full` fidelity to `summary:high`.
    pub resumed_pending: AtomicBool,
    /// Position of each node and its outgoing edges.
    outgoing: Vec<Vec<usize>>,
    positions: HashMap<String, usize>,
}

impl RunShared {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        engine: Engine,
        workflow: Workflow,
        workflow_path: PathBuf,
        run_id: String,
        run_dir: RunDir,
        work_dir: PathBuf,
        goal: Option<String>,
        inputs: BTreeMap<String, String>,
        dry_run: bool,
        emitter: Emitter,
        state: RunState,
        resumed: bool,
    ) -> Self {
        let adjacency = Adjacency::new(&workflow);
        let outgoing = (0..workflow.nodes.len())
            .map(|i| adjacency.outgoing(i).to_vec())
            .collect();
        let positions = workflow
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.clone(), i))
            .collect();
        RunShared {
            engine,
            workflow,
            workflow_path,
            run_id,
            gates: crate::control::GateBoard::new(&run_dir),
            run_dir,
            work_dir,
            goal,
            inputs,
            dry_run,
            emitter,
            cancel: CancellationToken::new(),
            stop_reason: Mutex::new(None),
            end_note: Mutex::new(None),
            state: Mutex::new(state),
            threads: tokio::sync::Mutex::new(HashMap::new()),
            checkpoint_lock: tokio::sync::Mutex::new(()),
            main_context: Mutex::new(None),
            lock: Mutex::new(None),
            resumed_pending: AtomicBool::new(resumed),
            outgoing,
            positions,
        }
    }

    pub fn node(&self, id: &str) -> Option<&Node> {
        self.positions
            .get(id)
            .and_then(|&i| self.workflow.nodes.get(i))
    }

    /// The edges leaving `id` with their positions in the workflow's edges, in document order.
    pub fn outgoing_indexed(&self, id: &str) -> Vec<(usize, &Edge)> {
        self.positions
            .get(id)
            .and_then(|&i| self.outgoing.get(i))
            .map(|edges| {
                edges
                    .iter()
                    .filter_map(|&e| self.workflow.edges.get(e).map(|edge| (e, edge)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The edges leaving `id`, in document order.
    pub fn outgoing(&self, id: &str) -> Vec<&Edge> {
        self.outgoing_indexed(id)
            .into_iter()
            .map(|(_, edge)| edge)
            .collect()
    }

    pub fn state(&self) -> std::sync::MutexGuard<'_, RunState> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    pub fn stop_reason(&self) -> Option<StopReason> {
        self.stop_reason
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }

    pub fn stop(&self, reason: StopReason) {
        let mut slot = self
            .stop_reason
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if slot.is_none() {
            *slot = Some(reason);
        }
        drop(slot);
        self.cancel.cancel();
    }

    /// A fresh context: graph attributes mirrored as `graph.*`, the goal, the run id.
    pub fn fresh_context(&self) -> Context {
        let context = Context::new();
        for entry in &self.workflow.attrs {
            context.set(format!("graph.{}", entry.canonical), entry.raw.clone());
        }
        if let Some(goal) = &self.goal {
            context.set("graph.goal", goal.clone());
        }
        context.set(keys::RUN_ID, self.run_id.clone());
        context.set(keys::WORK_DIR, self.work_dir.to_string_lossy().into_owned());
        context
    }

    /// Saves checkpoint.json (and, through the hook, a git checkpoint) after `current`.
    pub async fn save_checkpoint(
        &self,
        current: Option<&str>,
        next: Option<&str>,
        context: &Context,
    ) -> Result<(), EngineError> {
        let _writing = self.checkpoint_lock.lock().await;
        let mut checkpoint = {
            let state = self.state();
            Checkpoint {
                version: crate::checkpoint::CHECKPOINT_VERSION,
                run_id: self.run_id.clone(),
                timestamp: rfc3339(self.engine.env.clock.now()),
                current_node: current.map(str::to_string),
                next_node_id: next.map(str::to_string),
                completed_nodes: state.completed_nodes.clone(),
                node_retries: state.node_retries.clone(),
                node_visits: state.node_visits.clone(),
                node_outcomes: state.node_outcomes.clone(),
                context_values: context.snapshot(),
                logs: state.logs.clone(),
                git_commit_sha: None,
                loop_failure_signatures: state.loop_failure_signatures.clone(),
                restart_failure_signatures: state.restart_failure_signatures.clone(),
                timeline: state.timeline.clone(),
                restarts: state.restarts,
                branches: state.branches.clone(),
            }
        };
        let path = self.run_dir.checkpoint();
        let sync = self.engine.config.sync_checkpoints;
        checkpoint.save_with(&path, sync)?;
        let recorded = self
            .engine
            .services
            .checkpoints
            .after_node(&self.run_dir, &checkpoint)
            .await
            .map_err(|message| EngineError::Io {
                path: self.run_dir.root().to_path_buf(),
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
            let mut state = self.state();
            state.last_git_sha = Some(git.sha.clone());
            if !git.files_touched.is_empty() {
                // The stage's own list (agent tool events) wins; git fills it in otherwise.
                let record = state
                    .timeline
                    .iter_mut()
                    .rev()
                    .find(|r| Some(r.node_id.as_str()) == current);
                if let Some(record) = record.filter(|r| r.files_touched.is_empty()) {
                    record.files_touched = git.files_touched.clone();
                    super::stage::add_files_touched(
                        &self.run_dir.root().join(&record.stage_dir),
                        &git.files_touched,
                    );
                    checkpoint.timeline = state.timeline.clone();
                }
            }
            drop(state);
            checkpoint.save_with(&path, sync)?;
            sha = Some(git.sha);
        }
        self.emitter.emit(
            current,
            Event::CheckpointSaved {
                next_node_id: next.map(str::to_string),
                git_commit_sha: sha,
            },
        );
        if let Some(error) = self.emitter.write_error() {
            return Err(EngineError::Io {
                path: self.run_dir.progress(),
                message: error,
            });
        }
        Ok(())
    }

    /// The JSON value of a node attribute, as text.
    pub fn node_text(node: &Node, key: &str) -> Option<String> {
        node.attr_str(key)
            .map(str::to_string)
            .filter(|s| !s.is_empty())
    }

    pub fn take_resumed_flag(&self) -> bool {
        self.resumed_pending.swap(false, Ordering::SeqCst)
    }
}

/// A shared run.
pub(crate) type Shared = Arc<RunShared>;
