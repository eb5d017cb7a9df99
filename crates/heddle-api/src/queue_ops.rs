//! The run queue as the API's doors show it: queuing a run for a worker (`enqueue_run`,
//! which takes the same request as `start_run` and checks trust the same way), cancelling an
//! entry (`cancel_queued`), and the queue with the workers taking from it (`run_queue`). The workers themselves are in
//! [`crate::run_queue`].

use std::collections::BTreeMap;
use std::path::Path;
use std::time::SystemTime;

use heddle_engine::OsEntropy;
use heddle_engine::entropy::new_ulid;
use heddle_store::{QueueCancel, QueueEntry, QueueState, WorkerRecord};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ApiError, ErrorCode};
use crate::run_host::blocking;
use crate::run_library::RunLibrary;
use crate::run_queue::millis;
use crate::run_trust::work_dir_of;
use crate::run_types::{RunRef, StartRunRequest};

/// What a queued run asks for: a workflow of the team's repository and how to run it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
pub struct QueuedRun {
    /// The `.dot` file, relative to the repository's top folder.
    pub workflow: String,
    /// Overrides the graph's `goal`.
    #[serde(default)]
    pub goal: Option<String>,
    /// `inputs.NAME` values for the workflow's templates.
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
    /// Labels to find the run by.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// Simulate LLM stages.
    #[serde(default)]
    pub dry_run: bool,
    /// The most the run may cost, in US dollars.
    #[serde(default)]
    pub max_cost_usd: Option<f64>,
    /// The most input plus output tokens the run may use.
    #[serde(default)]
    pub max_tokens: Option<u64>,
}

/// Ask for the run queue and its workers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RunQueueRequest {
    /// How many finished entries to show besides the waiting and claimed ones, most
    /// recently finished first (20 by default).
    #[serde(default = "default_finished")]
    pub finished: u32,
}

fn default_finished() -> u32 {
    20
}

/// A queue entry, by its id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct QueueEntryRef {
    /// The entry's id (what `enqueue_run` and `heddle run --queue` answered).
    pub entry: String,
}

/// The run queue and the workers taking from it, as the index has them now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RunQueue {
    /// Entries waiting or held by a worker, then the recently finished ones; oldest first.
    pub entries: Vec<QueuedEntry>,
    /// The workers, by name, as each last reported itself.
    pub workers: Vec<WorkerRecord>,
    /// The answering machine's time (milliseconds since the Unix epoch), to tell how long
    /// ago a worker was heard from without trusting the viewer's clock.
    #[ts(type = "number")]
    pub now_ms: i64,
}

/// A queue entry and what it asks to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct QueuedEntry {
    /// The entry.
    #[serde(flatten)]
    pub entry: QueueEntry,
    /// What it asks to run (`None` when another version wrote something this one cannot
    /// read).
    pub run: Option<QueuedRun>,
}

impl RunLibrary {
    /// Queues a run for a worker: the request `start_run` takes, for a workflow committed
    /// in a git repository. Workers run it in a fresh clone of the team's remote with
    /// worktree checkpoints, so `checkpoints` is not read and `work_dir` only places the
    /// trust check (an untrusted workflow is refused unless `trust` is set, as by
    /// `start_run`). The new entry.
    pub async fn enqueue(&self, request: StartRunRequest) -> Result<QueueEntry, ApiError> {
        let now = SystemTime::now();
        let id = new_ulid(now, &OsEntropy::new());
        self.enqueue_as(&id, request, now).await
    }

    /// [`RunLibrary::enqueue`] as entry `id`, at `now`.
    pub async fn enqueue_as(
        &self,
        id: &str,
        request: StartRunRequest,
        now: SystemTime,
    ) -> Result<QueueEntry, ApiError> {
        // A run config names its workflow, and its goal and inputs go with the entry (the
        // caller's over them, as for a run started here).
        let resolved = crate::run_inputs::resolve_run(
            Path::new(&request.workflow_path),
            request.goal,
            request.inputs,
        )
        .map_err(|message| ApiError::new(ErrorCode::InvalidRequest, message))?;
        let file = resolved.workflow_path;
        // Outside a repository nothing is queued, and nothing is remembered as trusted.
        let in_repository = file.clone();
        let workflow = blocking(move || {
            Ok(heddle_checkpoint::team_remote::path_in_repository(
                &in_repository,
            )?)
        })
        .await?;
        let work_dir = work_dir_of(&file, request.work_dir.as_deref());
        self.trusted_source(&file, &work_dir, request.trust, request.trust_digest)
            .await?;
        let run = QueuedRun {
            workflow,
            goal: resolved.goal,
            inputs: resolved.inputs,
            labels: request.labels,
            dry_run: request.dry_run,
            max_cost_usd: request.max_cost_usd,
            max_tokens: request.max_tokens,
        };
        let text = serde_json::to_string(&run)
            .map_err(|e| ApiError::new(ErrorCode::InvalidRequest, e.to_string()))?;
        Ok(self.index().enqueue(id, &text, millis(now)).await?)
    }

    /// Cancels a queue entry: one that waits for a worker is finished as `cancelled` and
    /// never runs; one whose run a worker executes has that run cancelled (the worker then
    /// finishes the entry with the run's end). The entry as it is after the call. Refused
    /// with `busy` while a worker is setting the run up (cancel it once it shows), with
    /// `invalid_request` once the entry finished, with `not_found` for an unknown id.
    pub async fn cancel_queued(&self, request: QueueEntryRef) -> Result<QueueEntry, ApiError> {
        let id = request.entry.trim();
        let entry = match self
            .index()
            .cancel_queued(id, millis(SystemTime::now()))
            .await?
        {
            QueueCancel::Cancelled(entry) => return Ok(entry),
            QueueCancel::Unchanged(entry) => entry,
            QueueCancel::Missing => {
                return Err(ApiError::new(
                    ErrorCode::NotFound,
                    format!("there is no queue entry {id}"),
                ));
            }
        };
        match (entry.state, &entry.run_id) {
            (QueueState::Claimed, Some(run_id)) => {
                self.cancel(&RunRef {
                    run_id: run_id.clone(),
                })
                .await?;
                Ok(entry)
            }
            (QueueState::Claimed, None) => Err(ApiError::new(
                ErrorCode::Busy,
                format!(
                    "worker {} is setting up the run of queue entry {id}; cancel the run once \
                     it shows",
                    entry.worker.as_deref().unwrap_or("?")
                ),
            )),
            _ => Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!(
                    "queue entry {id} already finished ({})",
                    entry.outcome.as_deref().unwrap_or("no outcome")
                ),
            )),
        }
    }

    /// The queue's entries and the workers, as the index has them now.
    pub async fn run_queue(&self, request: RunQueueRequest) -> Result<RunQueue, ApiError> {
        let entries = self.index().queue(request.finished).await?;
        let workers = self.index().workers().await?;
        Ok(RunQueue {
            entries: entries
                .into_iter()
                .map(|entry| QueuedEntry {
                    run: serde_json::from_str(&entry.request).ok(),
                    entry,
                })
                .collect(),
            workers,
            now_ms: millis(SystemTime::now()),
        })
    }
}
