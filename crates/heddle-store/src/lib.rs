//! heddle-store owns the index of runs: the embedded SQLite database `$HEDDLE_HOME/heddle.db`
//! (WAL, foreign keys), or a PostgreSQL database a team shares ([`IndexLocation`], chosen by
//! `HEDDLE_DATABASE_URL`), with the same tables and queries (migrations for each under
//! `migrations/`): runs, labels, stages, human waits, events, checkpoints, artifacts and
//! recently opened workflows.
//!
//! The run folders under `runs/` stay the source of truth; everything but the recent
//! workflows is derived from them and can be rebuilt at any time ([`Store::reindex`]). It
//! reads git checkpoints and captured artifacts through the readers it is opened with
//! ([`RunReaders`], the engine's traits), so it knows neither heddle-checkpoint nor
//! heddle-artifacts.
//! [`Store::ingest_run`] brings one run up to date incrementally (it tails progress.jsonl
//! from where it stopped), and [`Store::watch`] keeps the whole runs folder indexed as runs
//! started anywhere (another CLI, another window) write to it, announcing each changed run
//! on [`Store::subscribe`]. Queries ([`Store::list_runs`], [`Store::run`],
//! [`Store::timeline`], [`Store::checkpoints`], [`Store::artifacts`], [`Store::events`], [`Store::events_page`],
//! [`Store::recent_workflows`]) return serde types; with the `ts` feature they also derive
//! `ts_rs::TS` for the UI's generated TypeScript.

mod db;
mod derive;
mod derive_sql;
mod detail_rows;
mod error;
mod event_page;
mod ingest;
mod location;
mod progress;
mod queries;
mod queue;
mod readers;
mod reindex;
mod run_control;
mod scan;
mod shared_changes;
mod stage_rows;
#[cfg(feature = "testing")]
pub mod testing;
mod timeline;
mod types;
mod watch;
mod workflows;
mod write;
mod write_checkpoints;

use std::sync::Arc;

use tokio::sync::{Mutex, broadcast};

pub use error::{Result, StoreError};
pub use event_page::MAX_PAGE_EVENTS;
pub use location::IndexLocation;
pub use readers::RunReaders;
pub use types::{
    ArtifactRecord, CheckpointRecord, EventRecord, HumanWait, IngestFailure, IngestReport,
    PageRequest, QueueCancel, QueueEntry, QueueState, RecentWorkflow, ReindexReport, RunChange,
    RunCursor, RunFilter, RunPage, RunRecord, RunRequest, RunStatus, StageState, Timeline,
    TimelineStage, WaitOutcome, WorkerRecord,
};
pub use watch::WatchHandle;

/// How many run changes a slow subscriber may fall behind before it misses some.
const CHANGES_CAPACITY: usize = 1024;

/// The index of runs in one database file. Cheap to clone; clones share the database.
#[derive(Debug, Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    db: db::Db,
    /// Tells this store's change notices from other stores' on a shared database.
    origin: String,
    /// On PostgreSQL: announces the changes other processes make (aborted with the store).
    listener: Option<tokio::task::JoinHandle<()>>,
    /// Reads checkpoints and artifacts from run folders.
    readers: RunReaders,
    /// One ingest at a time in this process (a second process is detected by position).
    ingest: Mutex<()>,
    changes: broadcast::Sender<RunChange>,
}

impl Store {
    /// Opens the index at `location` (usually the file `$HEDDLE_HOME/heddle.db`, created
    /// with its folder when missing; or a PostgreSQL database) and brings its schema up to
    /// date; run folders' checkpoints and artifacts are read through `readers`.
    pub async fn open(location: impl Into<IndexLocation>, readers: RunReaders) -> Result<Store> {
        let db = db::Db::open(&location.into()).await?;
        let (changes, _) = broadcast::channel(CHANGES_CAPACITY);
        let origin = shared_changes::origin_token();
        let listener = match &db.pools {
            db::Pools::Postgres(pool) => Some(
                shared_changes::listen(pool.clone(), origin.clone(), changes.clone())
                    .await
                    .map_err(|e| StoreError::Open {
                        index: db.name.clone(),
                        message: format!("cannot listen for other processes' run changes: {e}"),
                    })?,
            ),
            db::Pools::Sqlite { .. } => None,
        };
        Ok(Store {
            inner: Arc::new(Inner {
                db,
                origin,
                listener,
                readers,
                ingest: Mutex::new(()),
                changes,
            }),
        })
    }

    /// Where the index lives.
    pub fn location(&self) -> &IndexLocation {
        &self.inner.db.location
    }

    /// The index as messages name it: the file's path, or the URL without its password.
    pub fn describe(&self) -> &str {
        &self.inner.db.name
    }

    /// Every run whose index changes from now on (by any ingest: the watcher's, a
    /// reindex, or a direct [`Store::ingest_run`]; on a PostgreSQL index, also those other
    /// processes and machines make). A receiver that falls more than 1024 changes behind gets
    /// `RecvError::Lagged` and should list the runs again.
    pub fn subscribe(&self) -> broadcast::Receiver<RunChange> {
        self.inner.changes.subscribe()
    }

    /// Tells this process's subscribers of `change`, and on PostgreSQL the other processes'.
    async fn announce(&self, change: RunChange) {
        if let db::Pools::Postgres(pool) = &self.inner.db.pools {
            shared_changes::notify(pool, &self.inner.origin, &change).await;
        }
        // No subscriber is fine.
        let _ = self.inner.changes.send(change);
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Some(listener) = &self.listener {
            listener.abort();
        }
    }
}
