//! [`RunHost`]: runs started through the API execute in this process on tokio, many at
//! once. The host starts, resumes and forks them, and answers and cancels the ones it
//! executes directly (others through [`RunLibrary`]'s control requests). It keeps the run
//! index current with a watcher while it lives. Every cheap read comes from the
//! [`RunLibrary`] it derefs to.

use std::collections::HashMap;
use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};

use heddle_engine::control::{GateBoard, NoLocalPrompt};
use heddle_engine::{CancelHandle, Envelope, PreparedRun};
use heddle_store::WatchHandle;
use tokio::sync::{broadcast, watch};

use crate::error::{ApiError, ErrorCode};
use crate::event_feed::EventFeed;
use crate::progress_feed::ProgressFeed;
use crate::run_control::{answer_of, pending_gate};
use crate::run_elsewhere::Located;
use crate::run_launch::Executor;
use crate::run_library::RunLibrary;
use crate::run_types::{
    AnswerGateRequest, ForkRequest, PendingGate, ResumeRunRequest, RunRef, RunStarted,
    StartRunRequest,
};
use crate::runs::HeddleHome;

/// How many events a [`RunHost::subscribe`] receiver may fall behind before it loses some.
pub const EVENTS_BUFFER: usize = 1024;

/// A run executing in this process.
#[derive(Clone)]
struct ActiveRun {
    cancel: CancelHandle,
    gates: GateBoard,
    /// The latest event's seq; closed when the run's task ends.
    seq: watch::Receiver<u64>,
}

/// Executes runs for the API's doors.
#[derive(Clone)]
pub struct RunHost {
    library: RunLibrary,
    env: Vec<(String, String)>,
    active: Arc<Mutex<HashMap<String, ActiveRun>>>,
    /// Every event of the runs executing here, for [`RunHost::subscribe`].
    events: broadcast::Sender<Envelope>,
    /// Keeps the index's watcher running while any clone of the host lives.
    _watch: Arc<WatchHandle>,
}

impl std::fmt::Debug for RunHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunHost")
            .field("home", self.library.home())
            .finish_non_exhaustive()
    }
}

impl Deref for RunHost {
    type Target = RunLibrary;

    fn deref(&self) -> &RunLibrary {
        &self.library
    }
}

impl RunHost {
    /// A host keeping runs in `home`, giving commands the environment `env` (whose `HOME`
    /// is refused as a workspace). Opens the run index and starts watching `runs/`; call it
    /// within a tokio runtime.
    pub async fn open(home: HeddleHome, env: Vec<(String, String)>) -> Result<Self, ApiError> {
        let library = RunLibrary::open(home).await?;
        let watch = library.index().watch(&library.home().runs())?;
        Ok(RunHost {
            library,
            env,
            active: Arc::new(Mutex::new(HashMap::new())),
            events: broadcast::channel(EVENTS_BUFFER).0,
            _watch: Arc::new(watch),
        })
    }

    fn active(&self, run_id: &str) -> Option<ActiveRun> {
        self.active
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(run_id)
            .cloned()
    }

    /// Ids of the runs executing in this process.
    pub fn active_runs(&self) -> Vec<String> {
        let active = self.active.lock().unwrap_or_else(PoisonError::into_inner);
        let mut ids: Vec<String> = active.keys().cloned().collect();
        ids.sort();
        ids
    }

    /// Every event of the runs this host executes from now on, as they happen (the desktop
    /// notifies from them). A receiver that falls more than [`EVENTS_BUFFER`] events behind
    /// loses the oldest (`RecvError::Lagged`).
    pub fn subscribe(&self) -> broadcast::Receiver<Envelope> {
        self.events.subscribe()
    }

    /// Validates the workflow, sets the run up and starts it; returns once it is running.
    pub async fn start(&self, request: StartRunRequest) -> Result<RunStarted, ApiError> {
        let prepared = self
            .library
            .prepare_start(request, None, &self.executor())
            .await?;
        Ok(self.launch(prepared.run))
    }

    /// Continues a stopped run from its checkpoint, under the limits the request gives.
    pub async fn resume(&self, request: ResumeRunRequest) -> Result<RunStarted, ApiError> {
        let prepared = self
            .library
            .prepare_resume(&request, &self.executor())
            .await?;
        Ok(self.launch(prepared))
    }

    /// Makes a new run from a checkpoint of another and starts it.
    pub async fn fork(&self, request: ForkRequest) -> Result<RunStarted, ApiError> {
        let prepared = self
            .library
            .prepare_fork(&request, &self.executor())
            .await?;
        Ok(self.launch(prepared))
    }

    /// Runs execute here with the host's environment, and their gates wait for answers
    /// through the API (no one is asked in this process).
    fn executor(&self) -> Executor {
        Executor {
            env: self.env.clone(),
            interviewer: Arc::new(NoLocalPrompt),
            push_to: None,
        }
    }

    /// Executes `prepared` on a task of its own, tracked until it ends.
    fn launch(&self, prepared: PreparedRun) -> RunStarted {
        let started = RunStarted {
            run_id: prepared.run_id().to_string(),
            run_dir: prepared.run_dir().root().display().to_string(),
            start_node: prepared.start_node().to_string(),
        };
        let (seq_tx, seq_rx) = watch::channel(0u64);
        // Shared with the forwarder; the feed closes when the last one goes, after the
        // final ingest, so a client that saw the stream end finds the run indexed as ended.
        let seq_tx = Arc::new(seq_tx);
        let feed_open = seq_tx.clone();
        let mut events = prepared.subscribe();
        let active = ActiveRun {
            cancel: prepared.cancel_handle(),
            gates: prepared.gates(),
            seq: seq_rx,
        };
        self.active
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(started.run_id.clone(), active);
        let registry = self.active.clone();
        let run_id = started.run_id.clone();
        let library = self.library.clone();
        let subscribers = self.events.clone();
        tokio::spawn(async move {
            let forward = async move {
                loop {
                    match events.recv().await {
                        Ok(event) => {
                            seq_tx.send_replace(event.seq);
                            // No subscriber is not an error.
                            let _ = subscribers.send(event);
                        }
                        Err(broadcast::error::RecvError::Lagged(_)) => {}
                        Err(broadcast::error::RecvError::Closed) => break,
                    }
                }
            };
            let forwarder = tokio::spawn(forward);
            // Listed at once and as ended once it returns, without waiting for the watcher.
            let _conclusion = library.execute(prepared).await;
            registry
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .remove(&run_id);
            // The run's emitter is gone with `prepared`, so the forwarder ends.
            let _ = forwarder.await;
            drop(feed_open);
        });
        started
    }

    /// Cancels a run: directly when it executes here, else through its control channel.
    pub async fn cancel(&self, request: RunRef) -> Result<(), ApiError> {
        match self.active_by_ref(&request.run_id).await? {
            Some((_, active)) => {
                active.cancel.cancel("cancelled through the API");
                Ok(())
            }
            None => self.library.cancel(&request).await,
        }
    }

    /// The human gates of a run waiting for an answer, whichever process executes it.
    pub async fn pending_gates(&self, request: RunRef) -> Result<Vec<PendingGate>, ApiError> {
        match self.active_by_ref(&request.run_id).await? {
            Some((run_id, active)) => Ok(active
                .gates
                .waiting()
                .into_iter()
                .map(|question| pending_gate(&run_id, question))
                .collect()),
            None => self.library.pending_gates(&request).await,
        }
    }

    /// Answers a waiting gate: directly when the run executes here, else through its control
    /// channel.
    pub async fn answer_gate(&self, request: AnswerGateRequest) -> Result<(), ApiError> {
        match self.active_by_ref(&request.run_id).await? {
            Some((_, active)) => active
                .gates
                .answer(&request.question_id, answer_of(&request))
                .map_err(|message| ApiError::new(ErrorCode::InvalidRequest, message)),
            None => self.library.answer_gate(&request).await,
        }
    }

    /// The run `run` names, with its id, when it executes in this process.
    async fn active_by_ref(&self, run: &str) -> Result<Option<(String, ActiveRun)>, ApiError> {
        let Located::Here(run_dir) = self.locate(run).await? else {
            return Ok(None);
        };
        let run_id = run_dir.read_manifest()?.run_id;
        Ok(self.active(&run_id).map(|active| (run_id, active)))
    }

    /// The events of a run after `after_seq`, then new ones as they come, until it ends.
    pub async fn events(&self, run: &str, after_seq: u64) -> Result<EventFeed, ApiError> {
        let Located::Here(run_dir) = self.locate(run).await? else {
            return self.library.events(run, after_seq).await;
        };
        let run_id = run_dir.read_manifest()?.run_id;
        let live = self.active(&run_id).map(|a| a.seq);
        Ok(EventFeed::from_progress(ProgressFeed::new(
            run_dir, after_seq, live,
        )))
    }
}

/// Runs blocking work (git, run folders, workflow files) on tokio's blocking pool; a task
/// that died is an `io` error.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        Err(ApiError::new(
            ErrorCode::Io,
            format!("the operation stopped unexpectedly: {e}"),
        ))
    })
}
