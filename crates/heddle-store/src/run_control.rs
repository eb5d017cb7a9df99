//! Reaching runs that workers on other machines execute: the gates each waits at (published
//! by its worker), requests for it (gate answers, cancels) that its worker takes, and the
//! workers themselves with when each was last heard from. The store does not read the
//! questions or requests (JSON the API writes); times are given by the caller, in
//! milliseconds since the Unix epoch.

use crate::Store;
use crate::db::{on_reader, on_writer};
use crate::error::Result;
use crate::types::{RunRequest, WorkerRecord};

/// A row of `workers`.
#[derive(sqlx::FromRow)]
struct WorkerRow {
    name: String,
    remote: String,
    started_ms: i64,
    seen_ms: i64,
    entry: Option<String>,
}

/// A row of `run_requests`.
#[derive(sqlx::FromRow)]
struct RequestRow {
    id: i64,
    request: String,
}

impl Store {
    /// Records that run `run_id`, executed by `worker`, waits at the gate `question_id`
    /// asking `question`.
    pub async fn gate_waiting(
        &self,
        run_id: &str,
        worker: &str,
        question_id: &str,
        question: &str,
    ) -> Result<()> {
        let db = &self.inner.db;
        on_writer!(db, |pool| sqlx::query(
            "INSERT INTO run_gates (run_id, question_id, worker, question) VALUES ($1, $2, $3, $4)
             ON CONFLICT (run_id, question_id)
             DO UPDATE SET worker = excluded.worker, question = excluded.question"
        )
        .bind(run_id)
        .bind(question_id)
        .bind(worker)
        .bind(question)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))
    }

    /// Records that run `run_id` no longer waits at the gate `question_id`.
    pub async fn gate_closed(&self, run_id: &str, question_id: &str) -> Result<()> {
        let db = &self.inner.db;
        on_writer!(db, |pool| sqlx::query(
            "DELETE FROM run_gates WHERE run_id = $1 AND question_id = $2"
        )
        .bind(run_id)
        .bind(question_id)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))
    }

    /// Forgets every gate run `run_id` waited at (its worker stopped executing it).
    pub async fn gates_closed(&self, run_id: &str) -> Result<()> {
        let db = &self.inner.db;
        on_writer!(db, |pool| sqlx::query(
            "DELETE FROM run_gates WHERE run_id = $1"
        )
        .bind(run_id)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))
    }

    /// The questions of the gates run `run_id` waits at, by question id.
    pub async fn waiting_gates(&self, run_id: &str) -> Result<Vec<String>> {
        let db = &self.inner.db;
        on_reader!(db, |pool| sqlx::query_scalar::<_, String>(
            "SELECT question FROM run_gates WHERE run_id = $1 ORDER BY question_id"
        )
        .bind(run_id)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))
    }

    /// Leaves `request` for the worker executing run `run_id`, made at `now_ms`.
    pub async fn request(&self, run_id: &str, request: &str, now_ms: i64) -> Result<()> {
        let db = &self.inner.db;
        on_writer!(db, |pool| sqlx::query(
            "INSERT INTO run_requests (run_id, request, made_ms) VALUES ($1, $2, $3)"
        )
        .bind(run_id)
        .bind(request)
        .bind(now_ms)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))
    }

    /// Takes the requests left for run `run_id`, oldest first: each is handed out once.
    /// Looking is a read, so a worker may look often without holding up writers.
    pub async fn take_requests(&self, run_id: &str) -> Result<Vec<RunRequest>> {
        let db = &self.inner.db;
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, RequestRow>(
            "SELECT id, request FROM run_requests WHERE run_id = $1 ORDER BY id"
        )
        .bind(run_id)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        let Some(last) = rows.last().map(|r| r.id) else {
            return Ok(Vec::new());
        };
        on_writer!(db, |pool| sqlx::query(
            "DELETE FROM run_requests WHERE run_id = $1 AND id <= $2"
        )
        .bind(run_id)
        .bind(last)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
        Ok(rows
            .into_iter()
            .map(|r| RunRequest {
                id: r.id,
                request: r.request,
            })
            .collect())
    }

    /// Records how `worker` reports itself: alive at its `seen_ms`, working on its `entry`.
    pub async fn worker_seen(&self, worker: &WorkerRecord) -> Result<()> {
        let db = &self.inner.db;
        on_writer!(db, |pool| sqlx::query(
            "INSERT INTO workers (name, remote, started_ms, seen_ms, entry)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (name) DO UPDATE SET remote = excluded.remote,
                 started_ms = excluded.started_ms, seen_ms = excluded.seen_ms,
                 entry = excluded.entry"
        )
        .bind(&worker.name)
        .bind(&worker.remote)
        .bind(worker.started_ms)
        .bind(worker.seen_ms)
        .bind(&worker.entry)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))
    }

    /// Forgets worker `name` (it stopped).
    pub async fn worker_stopped(&self, name: &str) -> Result<()> {
        let db = &self.inner.db;
        on_writer!(db, |pool| sqlx::query(
            "DELETE FROM workers WHERE name = $1"
        )
        .bind(name)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))
    }

    /// The workers, by name, as each last reported itself (one killed stays listed, its
    /// `seen_ms` getting old).
    pub async fn workers(&self) -> Result<Vec<WorkerRecord>> {
        let db = &self.inner.db;
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, WorkerRow>(
            "SELECT name, remote, started_ms, seen_ms, entry FROM workers ORDER BY name"
        )
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(rows
            .into_iter()
            .map(|r| WorkerRecord {
                name: r.name,
                remote: r.remote,
                started_ms: r.started_ms,
                seen_ms: r.seen_ms,
                entry: r.entry,
            })
            .collect())
    }
}
