//! The checkpoint rows of one ingest, inside its transaction: all replaced after a full
//! listing of the run's history, or the new ones appended after a listing of what followed
//! the last one (a live run's stage), which costs the same however many came before.

use crate::db::{Db, Tx, on_tx};
use crate::error::Result;
use heddle_engine::run_records::CheckpointEntry;

/// Replaces the run's checkpoints with `entries`.
pub(crate) async fn replace_checkpoints(
    tx: &mut Tx,
    db: &Db,
    run_key: i64,
    entries: &[CheckpointEntry],
) -> Result<()> {
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM checkpoints WHERE run_key = $1"
    )
    .bind(run_key)
    .execute(conn)
    .await
    .map(|_| ()))
    .map_err(|e| db.err(e))?;
    insert_checkpoints(tx, db, run_key, 0, entries).await
}

/// Adds `entries` after the run's first `first` checkpoints; `tip_moved`: the checkpoint
/// that was current no longer is (the current one, if any, is among `entries`).
pub(crate) async fn append_checkpoints(
    tx: &mut Tx,
    db: &Db,
    run_key: i64,
    first: usize,
    entries: &[CheckpointEntry],
    tip_moved: bool,
) -> Result<()> {
    if tip_moved {
        on_tx!(tx, |conn| sqlx::query(
            "UPDATE checkpoints SET current = FALSE WHERE run_key = $1 AND current"
        )
        .bind(run_key)
        .execute(conn)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
    }
    insert_checkpoints(tx, db, run_key, first, entries).await
}

/// Inserts `entries` at positions from `first` (a position seen before is replaced).
async fn insert_checkpoints(
    tx: &mut Tx,
    db: &Db,
    run_key: i64,
    first: usize,
    entries: &[CheckpointEntry],
) -> Result<()> {
    for (position, c) in entries.iter().enumerate() {
        let position = i64::try_from(first + position).unwrap_or(i64::MAX);
        let completed = i64::try_from(c.completed).unwrap_or(i64::MAX);
        let timeline = i64::try_from(c.timeline).unwrap_or(i64::MAX);
        let branches = serde_json::to_string(&c.branches).unwrap_or_else(|_| "[]".into());
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO checkpoints (run_key, position, sha, node_id, status, completed,
                                      timeline, branches, time, parent, metadata_sha, current)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (run_key, position) DO UPDATE SET
                 sha = excluded.sha, node_id = excluded.node_id, status = excluded.status,
                 completed = excluded.completed, timeline = excluded.timeline,
                 branches = excluded.branches, time = excluded.time, parent = excluded.parent,
                 metadata_sha = excluded.metadata_sha, current = excluded.current"
        )
        .bind(run_key)
        .bind(position)
        .bind(&c.sha)
        .bind(&c.node_id)
        .bind(&c.status)
        .bind(completed)
        .bind(timeline)
        .bind(branches)
        .bind(&c.time)
        .bind(&c.parent)
        .bind(&c.metadata_sha)
        .bind(c.current)
        .execute(conn)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
    }
    Ok(())
}
