//! Runs through the index's run queue: enqueuing a run of a workflow in the team's repository,
//! and a worker that claims queued runs and executes each in a fresh clone of the team's git
//! remote, pushing the run's branches and metadata ref there after every checkpoint, before
//! the next stage starts (`PushingCheckpoints`). While it runs, the worker renews its lease;
//! a worker that loses it (it was too slow, and another took the run over) cancels its run. A
//! worker that claims a run whose previous worker died rebuilds it from the remote
//! (`refs/heddle/{id}`) and resumes it from its last checkpoint, so no stage that finished
//! there runs again.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use heddle_engine::clock::epoch_millis;
use heddle_engine::control::NoLocalPrompt;
use heddle_engine::{Clock, Conclusion, PreparedRun};
use heddle_store::{QueueEntry, StoreError, WorkerRecord};

use crate::error::{ApiError, ErrorCode};
use crate::queue_ops::QueuedRun;
use crate::run_host::blocking;
use crate::run_launch::{Executor, TeamRemote};
use crate::run_library::RunLibrary;
use crate::run_relay::{Relay, Sharing, TICK};
use crate::run_types::StartRunRequest;
use heddle_artifacts::BlobStore;

/// A worker's settings.
pub struct Worker {
    /// Names the worker in the queue (for example `host-pid`).
    pub name: String,
    /// The team's git remote (URL or path) runs are cloned from and pushed to.
    pub remote: String,
    /// Where the worker makes its clones, one per claimed entry.
    pub clones: PathBuf,
    /// How long a claim lasts without a heartbeat; the worker renews it every third of it.
    pub lease: Duration,
    /// The environment passed to commands and providers.
    pub env: Vec<(String, String)>,
    /// The time.
    pub clock: Arc<dyn Clock>,
    /// When the worker started.
    pub started: SystemTime,
}

impl Worker {
    /// The remote as it may be shown and stored: never with a password written in its URL.
    pub fn shown_remote(&self) -> String {
        heddle_checkpoint::remote_access::shown_remote(&self.remote)
    }

    /// Connects to the remote with the credentials the worker has, so a worker that cannot
    /// reach it says so when it starts rather than at its first claim.
    pub async fn reach_remote(&self) -> Result<(), ApiError> {
        let remote = self.remote.clone();
        blocking(move || {
            let access = heddle_checkpoint::remote_access::RemoteAccess::unattended();
            heddle_checkpoint::team_remote::reach(&remote, &access)?;
            Ok(())
        })
        .await
    }
}

/// What a worker did with one entry.
#[derive(Debug)]
pub struct Worked {
    /// The entry, as claimed.
    pub entry: QueueEntry,
    /// What became of it.
    pub done: WorkDone,
}

/// What became of a claimed entry.
#[derive(Debug)]
pub enum WorkDone {
    /// Its run executed here, to its end or until the worker lost its lease.
    Ran {
        /// The run.
        run_id: String,
        /// How it ended here.
        conclusion: Conclusion,
        /// The worker lost its lease while the run executed (another worker took it over,
        /// and this one cancelled its run).
        lease_lost: bool,
    },
    /// The worker could not clone the team's remote (unreachable, credentials refused, an
    /// unknown host key): the entry went back to the queue untouched for a worker that can,
    /// and this one should not claim again before the remote is reachable.
    Released {
        /// What failed, naming the remote (never its password) and what to fix.
        reason: String,
    },
    /// Its run could not start here (the workflow is not in the remote, the run to resume
    /// is not on it, ...). The entry is finished with the reason
    /// (`not started: ...`), so no other worker tries it again; queue it again once fixed.
    NotStarted {
        /// Why, naming what to fix.
        reason: String,
    },
}

/// `time` in milliseconds since the Unix epoch, as the queue keeps times.
pub(crate) fn millis(time: SystemTime) -> i64 {
    i64::try_from(epoch_millis(time)).unwrap_or(i64::MAX)
}

impl RunLibrary {
    /// Records in the index that `worker` is alive now, working on queue entry `entry` if
    /// any (the workers list shows it). A failure is logged: the worker goes on.
    pub async fn worker_seen(&self, worker: &Worker, entry: Option<&str>) {
        let record = WorkerRecord {
            name: worker.name.clone(),
            // Everyone sees the workers list: never a token written in the remote's URL.
            remote: worker.shown_remote(),
            started_ms: millis(worker.started),
            seen_ms: millis(worker.clock.now()),
            entry: entry.map(str::to_string),
        };
        if let Err(error) = self.index().worker_seen(&record).await {
            tracing::warn!(worker = %worker.name, %error, "cannot report the worker as alive");
        }
    }

    /// Takes `worker` off the workers list (it stops).
    pub async fn worker_stopped(&self, worker: &Worker) -> Result<(), ApiError> {
        Ok(self.index().worker_stopped(&worker.name).await?)
    }

    /// Claims the oldest entry of the queue no live worker holds and executes its run to
    /// the end; `None` when there is none.
    pub async fn work_one(&self, worker: &Worker) -> Result<Option<Worked>, ApiError> {
        let index = self.index();
        let now = millis(worker.clock.now());
        let Some(entry) = index.claim(&worker.name, now, worker.lease).await? else {
            self.worker_seen(worker, None).await;
            return Ok(None);
        };
        self.worker_seen(worker, Some(&entry.id)).await;
        let clone = worker.clones.join(format!("{}-{}", entry.id, entry.claims));
        if let Err(error) = clone_remote(worker, &clone, entry.run_id.clone()).await {
            tracing::warn!(
                worker = %worker.name,
                entry = %entry.id,
                reason = %error.message,
                "cannot clone the team's remote; the entry goes back to the queue"
            );
            index.release(&entry.id, &worker.name).await?;
            return Ok(Some(Worked {
                entry,
                done: WorkDone::Released {
                    reason: error.message,
                },
            }));
        }
        let prepared = match self.prepare_entry(worker, &entry, &clone).await {
            Ok(prepared) => prepared,
            Err(error) => {
                let reason = error.message;
                let now = millis(worker.clock.now());
                index
                    .finish(
                        &entry.id,
                        &worker.name,
                        &format!("not started: {reason}"),
                        now,
                    )
                    .await?;
                return Ok(Some(Worked {
                    entry,
                    done: WorkDone::NotStarted { reason },
                }));
            }
        };
        let run_id = prepared.run_id().to_string();
        index
            .attach_run(&entry.id, &worker.name, &run_id, prepared.run_dir().root())
            .await?;
        let (conclusion, lease_lost) = self.execute_leased(worker, &entry, prepared).await?;
        if !lease_lost {
            let now = millis(worker.clock.now());
            index
                .finish(&entry.id, &worker.name, conclusion.status.as_str(), now)
                .await?;
        }
        Ok(Some(Worked {
            entry,
            done: WorkDone::Ran {
                run_id,
                conclusion,
                lease_lost,
            },
        }))
    }

    /// The run of `entry`, set up in `clone`, a fresh clone of the remote: started, or
    /// rebuilt from the remote when an earlier worker started it.
    async fn prepare_entry(
        &self,
        worker: &Worker,
        entry: &QueueEntry,
        clone: &Path,
    ) -> Result<PreparedRun, ApiError> {
        let run: QueuedRun = serde_json::from_str(&entry.request).map_err(|e| {
            ApiError::new(
                ErrorCode::InvalidRequest,
                format!("queue entry {} does not say what to run: {e}", entry.id),
            )
        })?;
        let clone = clone.to_path_buf();
        let executor = Executor {
            env: worker.env.clone(),
            interviewer: Arc::new(NoLocalPrompt),
            push_to: Some(TeamRemote {
                repository: clone.clone(),
                remote: worker.remote.clone(),
            }),
        };
        if let Some(run_id) = &entry.run_id {
            return self
                .prepare_from_ref(
                    &clone,
                    &format!("refs/heddle/{run_id}"),
                    run.max_cost_usd,
                    run.max_tokens,
                    &executor,
                )
                .await;
        }
        let request = StartRunRequest {
            workflow_path: clone.join(&run.workflow).display().to_string(),
            goal: run.goal,
            labels: run.labels,
            inputs: run.inputs,
            dry_run: run.dry_run,
            work_dir: Some(clone.display().to_string()),
            checkpoints: Some("worktree".into()),
            // Whoever queued it was asked (`heddle run --queue` checks trust).
            trust: true,
            trust_digest: None,
            max_cost_usd: run.max_cost_usd,
            max_tokens: run.max_tokens,
        };
        Ok(self.prepare_start(request, None, &executor).await?.run)
    }

    /// Executes `prepared`, renewing the lease; the conclusion, and whether the lease was lost
    /// (the run is then cancelled).
    async fn execute_leased(
        &self,
        worker: &Worker,
        entry: &QueueEntry,
        prepared: PreparedRun,
    ) -> Result<(Conclusion, bool), ApiError> {
        let run_id = prepared.run_id().to_string();
        let cancel = prepared.cancel_handle();
        let sharing = self.shared().map(|shared| Sharing {
            files: shared.files().clone(),
            blobs: BlobStore::new(self.home().blobs()),
        });
        let mut relay = Relay::start(self.index().clone(), &worker.name, &prepared, sharing).await;
        let executing = self.clone();
        let mut task = tokio::spawn(async move { executing.execute(prepared).await });
        let renew_every = worker.lease / 3;
        let mut lease_lost = false;
        let mut heartbeat = worker.clock.sleep(renew_every);
        let mut tick = worker.clock.sleep(TICK);
        loop {
            tokio::select! {
                ended = &mut task => {
                    relay.finish().await;
                    let conclusion = ended.map_err(|e| {
                        ApiError::new(ErrorCode::Io, format!("run {run_id} stopped unexpectedly: {e}"))
                    })?;
                    return Ok((conclusion, lease_lost));
                }
                () = &mut tick => {
                    relay.tick().await;
                    tick = worker.clock.sleep(TICK);
                }
                () = &mut heartbeat, if !lease_lost => {
                    let now = millis(worker.clock.now());
                    match self.index().heartbeat(&entry.id, &worker.name, now, worker.lease).await {
                        Err(StoreError::LeaseLost { .. }) => {
                            lease_lost = true;
                            cancel.cancel("another worker took the run over (this one lost its lease)");
                        }
                        Err(error) => tracing::warn!(entry = %entry.id, %error, "cannot renew the lease"),
                        Ok(()) => {}
                    }
                    self.worker_seen(worker, Some(&entry.id)).await;
                    heartbeat = worker.clock.sleep(renew_every);
                }
            }
        }
    }
}

/// Clones the worker's remote into `into`, with the refs of `run` when the entry carries one
/// on; a clone cut short is removed so the folder never looks like a usable one.
async fn clone_remote(worker: &Worker, into: &Path, run: Option<String>) -> Result<(), ApiError> {
    let (remote, into) = (worker.remote.clone(), into.to_path_buf());
    blocking(move || {
        let access = heddle_checkpoint::remote_access::RemoteAccess::unattended();
        match heddle_checkpoint::team_remote::clone_with_runs(
            &remote,
            &into,
            run.as_deref(),
            &access,
        ) {
            Ok(_) => Ok(()),
            Err(error) => {
                if into.exists()
                    && let Err(e) = std::fs::remove_dir_all(&into)
                {
                    tracing::warn!(folder = %into.display(), error = %e, "cannot remove a failed clone");
                }
                Err(error.into())
            }
        }
    })
    .await
}
