//! The run queue: runs someone asked for, claimed by workers one at a time under a lease.
//!
//! A worker claims the oldest entry that is queued, or whose worker's lease ran out (that
//! worker died or lost the database); it keeps its lease by heartbeat, records the run it
//! started, and reports the run's end. Every step but the claim names the worker, and fails
//! with [`StoreError::LeaseLost`] once another worker took the entry over, so two workers
//! never both think they hold one. A claim is one statement: SQLite's write lock serialises
//! claims; on PostgreSQL, claimers skip the rows others are claiming (`FOR UPDATE SKIP
//! LOCKED`) instead of waiting on them. Times are given by the caller, in milliseconds since
//! the Unix epoch.

use std::path::Path;
use std::time::Duration;

use crate::Store;
use crate::db::{Db, Sql, on_reader, on_writer};
use crate::error::{Result, StoreError};
use crate::ingest::folder_key;
use crate::types::{QueueCancel, QueueEntry, QueueState};

/// The columns of [`EntryRow`], in its order.
macro_rules! entry_columns {
    () => {
        "id, request, state, enqueued_ms, worker, lease_until_ms, heartbeat_ms, claims, run_id, \
         finished_ms, outcome"
    };
}

/// The claim: `$1` worker, `$2` now, `$3` lease; `$lock` is how the chosen row is locked.
macro_rules! claim_sql {
    ($lock:literal) => {
        concat!(
            "UPDATE run_queue SET state = 'claimed', worker = $1, lease_until_ms = $2 + $3,
                                  heartbeat_ms = $2, claims = claims + 1
             WHERE id = (SELECT id FROM run_queue
                         WHERE state = 'queued' OR (state = 'claimed' AND lease_until_ms < $2)
                         ORDER BY enqueued_ms, id LIMIT 1 ",
            $lock,
            ")
             RETURNING ",
            entry_columns!()
        )
    };
}

const CLAIM: Sql = Sql {
    sqlite: claim_sql!(""),
    postgres: claim_sql!("FOR UPDATE SKIP LOCKED"),
};

/// A row of `run_queue`.
#[derive(sqlx::FromRow)]
struct EntryRow {
    id: String,
    request: String,
    state: String,
    enqueued_ms: i64,
    worker: Option<String>,
    lease_until_ms: Option<i64>,
    heartbeat_ms: Option<i64>,
    claims: i64,
    run_id: Option<String>,
    finished_ms: Option<i64>,
    outcome: Option<String>,
}

impl EntryRow {
    fn into_entry(self) -> QueueEntry {
        QueueEntry {
            id: self.id,
            request: self.request,
            state: QueueState::parse(&self.state),
            enqueued_ms: self.enqueued_ms,
            worker: self.worker,
            lease_until_ms: self.lease_until_ms,
            heartbeat_ms: self.heartbeat_ms,
            claims: self.claims,
            run_id: self.run_id,
            finished_ms: self.finished_ms,
            outcome: self.outcome,
        }
    }
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// What an update guarded by the worker's hold changed: one row, or the hold is lost.
fn held(db: &Db, rows: u64, entry: &str, worker: &str) -> Result<()> {
    match rows {
        1 => Ok(()),
        0 => Err(StoreError::LeaseLost {
            entry: entry.to_string(),
            worker: worker.to_string(),
        }),
        n => Err(db.err(format!(
            "queue entry {entry}: {n} rows changed, expected one"
        ))),
    }
}

impl Store {
    /// Adds the entry `id` asking for `request` (JSON the workers read), queued at `now_ms`.
    pub async fn enqueue(&self, id: &str, request: &str, now_ms: i64) -> Result<QueueEntry> {
        let db = &self.inner.db;
        let row = on_writer!(db, |pool| sqlx::query_as::<_, EntryRow>(concat!(
            "INSERT INTO run_queue (id, request, enqueued_ms) VALUES ($1, $2, $3) RETURNING ",
            entry_columns!()
        ))
        .bind(id)
        .bind(request)
        .bind(now_ms)
        .fetch_one(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(row.into_entry())
    }

    /// The oldest entry no live worker holds, now held by `worker` until `now_ms + lease`;
    /// `None` when there is none.
    pub async fn claim(
        &self,
        worker: &str,
        now_ms: i64,
        lease: Duration,
    ) -> Result<Option<QueueEntry>> {
        let db = &self.inner.db;
        let row = on_writer!(db, |pool| sqlx::query_as::<_, EntryRow>(db.sql(&CLAIM))
            .bind(worker)
            .bind(now_ms)
            .bind(millis(lease))
            .fetch_optional(pool)
            .await)
        .map_err(|e| db.err(e))?;
        Ok(row.map(EntryRow::into_entry))
    }

    /// Renews `worker`'s lease on entry `id` until `now_ms + lease`.
    pub async fn heartbeat(
        &self,
        id: &str,
        worker: &str,
        now_ms: i64,
        lease: Duration,
    ) -> Result<()> {
        let db = &self.inner.db;
        let rows = on_writer!(db, |pool| sqlx::query(
            "UPDATE run_queue SET lease_until_ms = $3 + $4, heartbeat_ms = $3
             WHERE id = $1 AND worker = $2 AND state = 'claimed'"
        )
        .bind(id)
        .bind(worker)
        .bind(now_ms)
        .bind(millis(lease))
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| db.err(e))?;
        held(db, rows, id, worker)
    }

    /// Records that `worker` runs entry `id` as run `run_id`, in the run folder `folder` (a
    /// worker that takes the entry over resumes that run, in a folder of its own; an ingest
    /// of any other folder of the run leaves the index alone from then on).
    pub async fn attach_run(
        &self,
        id: &str,
        worker: &str,
        run_id: &str,
        folder: &Path,
    ) -> Result<()> {
        let db = &self.inner.db;
        let folder = folder_key(folder).to_string_lossy().into_owned();
        let rows = on_writer!(db, |pool| sqlx::query(
            "UPDATE run_queue SET run_id = $3, folder = $4
             WHERE id = $1 AND worker = $2 AND state = 'claimed'"
        )
        .bind(id)
        .bind(worker)
        .bind(run_id)
        .bind(&folder)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| db.err(e))?;
        held(db, rows, id, worker)
    }

    /// Whether a queue worker executes (or executed) run `run_id` in another folder than
    /// `folder`: this one was left by a worker that died, and another took the run over.
    pub(crate) async fn handed_over(&self, run_id: &str, folder: &str) -> Result<bool> {
        let db = &self.inner.db;
        let elsewhere = on_writer!(db, |pool| sqlx::query_scalar::<_, String>(
            "SELECT folder FROM run_queue
             WHERE run_id = $1 AND folder IS NOT NULL AND folder <> $2 LIMIT 1"
        )
        .bind(run_id)
        .bind(folder)
        .fetch_optional(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(elsewhere.is_some())
    }

    /// Records that entry `id`'s run ended with `outcome` at `now_ms`, as `worker` reports.
    pub async fn finish(&self, id: &str, worker: &str, outcome: &str, now_ms: i64) -> Result<()> {
        let db = &self.inner.db;
        let rows = on_writer!(db, |pool| sqlx::query(
            "UPDATE run_queue SET state = 'finished', outcome = $3, finished_ms = $4,
                                  lease_until_ms = NULL
             WHERE id = $1 AND worker = $2 AND state = 'claimed'"
        )
        .bind(id)
        .bind(worker)
        .bind(outcome)
        .bind(now_ms)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| db.err(e))?;
        held(db, rows, id, worker)
    }

    /// Puts entry `id`, which `worker` holds, back in the queue for any worker (the next
    /// claim takes it first again, with the run it may have): `worker` could not do its part
    /// (it cannot reach the team's remote), which says nothing about the entry.
    pub async fn release(&self, id: &str, worker: &str) -> Result<()> {
        let db = &self.inner.db;
        let rows = on_writer!(db, |pool| sqlx::query(
            "UPDATE run_queue SET state = 'queued', worker = NULL, lease_until_ms = NULL,
                                  heartbeat_ms = NULL
             WHERE id = $1 AND worker = $2 AND state = 'claimed'"
        )
        .bind(id)
        .bind(worker)
        .execute(pool)
        .await
        .map(|done| done.rows_affected()))
        .map_err(|e| db.err(e))?;
        held(db, rows, id, worker)
    }

    /// Cancels entry `id` at `now_ms` if it still waits for a worker: it is finished with
    /// the outcome `cancelled` and no worker claims it. Otherwise (a worker may have claimed
    /// it a moment before) the entry as it is.
    pub async fn cancel_queued(&self, id: &str, now_ms: i64) -> Result<QueueCancel> {
        let db = &self.inner.db;
        let cancelled = on_writer!(db, |pool| sqlx::query_as::<_, EntryRow>(concat!(
            "UPDATE run_queue SET state = 'finished', outcome = 'cancelled', finished_ms = $2
             WHERE id = $1 AND state = 'queued' RETURNING ",
            entry_columns!()
        ))
        .bind(id)
        .bind(now_ms)
        .fetch_optional(pool)
        .await)
        .map_err(|e| db.err(e))?;
        if let Some(row) = cancelled {
            return Ok(QueueCancel::Cancelled(row.into_entry()));
        }
        let now = on_writer!(db, |pool| sqlx::query_as::<_, EntryRow>(concat!(
            "SELECT ",
            entry_columns!(),
            " FROM run_queue WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(now.map_or(QueueCancel::Missing, |row| {
            QueueCancel::Unchanged(row.into_entry())
        }))
    }

    /// The entry a worker holds now (claimed, whether or not its lease ran out) for run
    /// `run_id`, if any: the run executes under the queue, and requests for it reach the
    /// worker holding it, or the next one to claim it.
    pub async fn entry_of_run(&self, run_id: &str) -> Result<Option<QueueEntry>> {
        let db = &self.inner.db;
        let row = on_reader!(db, |pool| sqlx::query_as::<_, EntryRow>(concat!(
            "SELECT ",
            entry_columns!(),
            " FROM run_queue WHERE run_id = $1 AND state = 'claimed'
             ORDER BY enqueued_ms DESC, id DESC LIMIT 1"
        ))
        .bind(run_id)
        .fetch_optional(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(row.map(EntryRow::into_entry))
    }

    /// The queue's entries, oldest first: those not finished, then the `finished` most
    /// recently finished.
    pub async fn queue(&self, finished: u32) -> Result<Vec<QueueEntry>> {
        let db = &self.inner.db;
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, EntryRow>(concat!(
            "SELECT ",
            entry_columns!(),
            " FROM (SELECT * FROM run_queue WHERE state <> 'finished'
                    UNION ALL
                    SELECT * FROM (SELECT * FROM run_queue WHERE state = 'finished'
                                   ORDER BY finished_ms DESC, id DESC LIMIT $1) AS done) AS q
             ORDER BY enqueued_ms, id"
        ))
        .bind(i64::from(finished))
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(rows.into_iter().map(EntryRow::into_entry).collect())
    }
}
