//! The writes of one ingest, inside its transaction: the run row, its labels, events (in
//! batches of one JSON array, one statement per batch) and artifacts; checkpoints are
//! written by [`crate::write_checkpoints`].

use crate::db::{Db, Sql, Tx, on_tx};
use crate::error::Result;
use crate::progress::ParsedEvent;
use crate::types::RunStatus;
use heddle_engine::run_records::ListedArtifact;
use heddle_engine::{Conclusion, Manifest};

/// Events per insert statement.
const EVENT_BATCH: usize = 1000;

/// The insert of a batch of events, given as one JSON array of `[seq, id, ts, node, event,
/// properties]` rows in `$2`; `$rows` is the function that turns a JSON array into rows.
/// (The `WHERE true` keeps SQLite from reading `ON CONFLICT` as a join's `ON`.)
macro_rules! insert_events_sql {
    ($rows:literal) => {
        concat!(
            "INSERT INTO events (run_key, seq, id, ts, node_id, event, properties)
             SELECT $1, CAST(e.value ->> 0 AS BIGINT), e.value ->> 1, e.value ->> 2,
                    e.value ->> 3, e.value ->> 4, CAST(e.value -> 5 AS TEXT)
             FROM ",
            $rows,
            " AS e WHERE true
             ON CONFLICT (run_key, seq) DO UPDATE SET
                 id = excluded.id, ts = excluded.ts, node_id = excluded.node_id,
                 event = excluded.event, properties = excluded.properties"
        )
    };
}

const INSERT_EVENTS: Sql = Sql {
    sqlite: insert_events_sql!("json_each($2)"),
    postgres: insert_events_sql!("jsonb_array_elements(CAST($2 AS jsonb))"),
};

/// Milliseconds since the Unix epoch of an RFC 3339 time (0 when it is not one).
pub(crate) fn epoch_ms(time: &str) -> i64 {
    humantime::parse_rfc3339_weak(time)
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .and_then(|d| i64::try_from(d.as_millis()).ok())
        .unwrap_or(0)
}

/// Inserts a new run row (after removing any row for the same folder or id); its key.
pub(crate) async fn insert_run(
    tx: &mut Tx,
    db: &Db,
    folder: &str,
    manifest: &Manifest,
) -> Result<i64> {
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM runs WHERE folder = $1 OR id = $2"
    )
    .bind(folder)
    .bind(&manifest.run_id)
    .execute(conn)
    .await
    .map(|_| ()))
    .map_err(|e| db.err(e))?;
    let key = on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        r#"INSERT INTO runs (id, folder, workflow_name, workflow_path, status, started_at,
                            started_ms, checkpoint_mode, work_dir)
           VALUES ($1, $2, '', '', 'running', '', 0, '', '')
           RETURNING key"#
    )
    .bind(&manifest.run_id)
    .bind(folder)
    .fetch_one(conn)
    .await)
    .map_err(|e| db.err(e))?;
    update_manifest(tx, db, key, manifest).await?;
    Ok(key)
}

/// Records what the manifest says on run `key`, labels included.
pub(crate) async fn update_manifest(
    tx: &mut Tx,
    db: &Db,
    key: i64,
    manifest: &Manifest,
) -> Result<()> {
    let labels = serde_json::to_string(&manifest.labels).unwrap_or_else(|_| "{}".into());
    let started_ms = epoch_ms(&manifest.start_time);
    let node_count = i64::try_from(manifest.node_count).unwrap_or(i64::MAX);
    let edge_count = i64::try_from(manifest.edge_count).unwrap_or(i64::MAX);
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE runs SET
             workflow_name = $2, workflow_path = $3, goal = $4, labels = $5, started_at = $6,
             started_ms = $7, checkpoint_mode = $8, run_branch = $9, base_sha = $10,
             dry_run = $11, parent_run_id = $12, work_dir = $13, node_count = $14,
             edge_count = $15
         WHERE key = $1"
    )
    .bind(key)
    .bind(&manifest.workflow_name)
    .bind(&manifest.workflow_path)
    .bind(&manifest.goal)
    .bind(labels)
    .bind(&manifest.start_time)
    .bind(started_ms)
    .bind(&manifest.checkpoint_mode)
    .bind(&manifest.run_branch)
    .bind(&manifest.base_sha)
    .bind(manifest.dry_run)
    .bind(&manifest.parent_run_id)
    .bind(&manifest.work_dir)
    .bind(node_count)
    .bind(edge_count)
    .execute(conn)
    .await
    .map(|_| ()))
    .map_err(|e| db.err(e))?;
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM run_labels WHERE run_key = $1"
    )
    .bind(key)
    .execute(conn)
    .await
    .map(|_| ()))
    .map_err(|e| db.err(e))?;
    for (name, value) in &manifest.labels {
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO run_labels (run_key, key, value) VALUES ($1, $2, $3)"
        )
        .bind(key)
        .bind(name)
        .bind(value)
        .execute(conn)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
    }
    Ok(())
}

/// Inserts `events` for run `run_key` (a seq seen before is replaced); how many rows that
/// added (seqs not seen before).
pub(crate) async fn insert_events(
    tx: &mut Tx,
    db: &Db,
    run_key: i64,
    events: &[ParsedEvent],
) -> Result<i64> {
    let (Some(first), Some(last)) = (
        events.iter().map(|e| e.seq).min(),
        events.iter().map(|e| e.seq).max(),
    ) else {
        return Ok(0);
    };
    let before = count_events(tx, db, run_key, first, last).await?;
    let mut batch: Vec<u8> = Vec::with_capacity(256 * EVENT_BATCH);
    for chunk in events.chunks(EVENT_BATCH) {
        batch.clear();
        batch.push(b'[');
        for (i, e) in chunk.iter().enumerate() {
            if i > 0 {
                batch.push(b',');
            }
            let envelope = &e.envelope;
            let row = (
                e.seq,
                &envelope.id,
                &envelope.ts,
                &envelope.node_id,
                e.name(),
                &*e.properties,
            );
            serde_json::to_writer(&mut batch, &row).map_err(|e| db.err(e))?;
        }
        batch.push(b']');
        let json = std::str::from_utf8(&batch).map_err(|e| db.err(e))?;
        on_tx!(tx, |conn| sqlx::query(db.sql(&INSERT_EVENTS))
            .bind(run_key)
            .bind(json)
            .execute(conn)
            .await
            .map(|_| ()))
        .map_err(|e| db.err(e))?;
    }
    Ok(count_events(tx, db, run_key, first, last).await? - before)
}

/// The run's events with seq in `first..=last` (reads only those).
async fn count_events(tx: &mut Tx, db: &Db, run_key: i64, first: i64, last: i64) -> Result<i64> {
    on_tx!(tx, |conn| sqlx::query_scalar::<_, i64>(
        r#"SELECT COUNT(*) AS count FROM events
           WHERE run_key = $1 AND seq BETWEEN $2 AND $3"#
    )
    .bind(run_key)
    .bind(first)
    .bind(last)
    .fetch_one(conn)
    .await)
    .map_err(|e| db.err(e))
}

/// Replaces the run's artifacts.
pub(crate) async fn replace_artifacts(
    tx: &mut Tx,
    db: &Db,
    run_key: i64,
    artifacts: &[ListedArtifact],
) -> Result<()> {
    on_tx!(tx, |conn| sqlx::query(
        "DELETE FROM artifacts WHERE run_key = $1"
    )
    .bind(run_key)
    .execute(conn)
    .await
    .map(|_| ()))
    .map_err(|e| db.err(e))?;
    insert_artifacts(tx, db, run_key, artifacts).await
}

/// Replaces the run's artifacts of the stage folders `stages` with `artifacts` (theirs).
pub(crate) async fn replace_stage_artifacts(
    tx: &mut Tx,
    db: &Db,
    run_key: i64,
    stages: &[String],
    artifacts: &[ListedArtifact],
) -> Result<()> {
    for stage in stages {
        on_tx!(tx, |conn| sqlx::query(
            "DELETE FROM artifacts WHERE run_key = $1 AND stage = $2"
        )
        .bind(run_key)
        .bind(stage)
        .execute(conn)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
    }
    insert_artifacts(tx, db, run_key, artifacts).await
}

/// Inserts `artifacts` (a path seen before is replaced).
async fn insert_artifacts(
    tx: &mut Tx,
    db: &Db,
    run_key: i64,
    artifacts: &[ListedArtifact],
) -> Result<()> {
    for a in artifacts {
        let size = i64::try_from(a.size).unwrap_or(i64::MAX);
        let retry = i64::from(a.retry);
        let kind = a.kind.as_str();
        // An upsert, not INSERT OR REPLACE: the row count the run keeps follows inserts.
        on_tx!(tx, |conn| sqlx::query(
            "INSERT INTO artifacts (run_key, path, stage, node_id, retry, source, size, sha256,
                                    media_type, kind)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
             ON CONFLICT (run_key, path) DO UPDATE SET
                 stage = excluded.stage, node_id = excluded.node_id, retry = excluded.retry,
                 source = excluded.source, size = excluded.size, sha256 = excluded.sha256,
                 media_type = excluded.media_type, kind = excluded.kind"
        )
        .bind(run_key)
        .bind(&a.path)
        .bind(&a.stage)
        .bind(&a.node)
        .bind(retry)
        .bind(&a.source)
        .bind(size)
        .bind(&a.sha256)
        .bind(&a.media_type)
        .bind(kind)
        .execute(conn)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
    }
    Ok(())
}

/// What the end of an ingest records on the run row.
pub(crate) struct RunUpdate<'a> {
    pub run_key: i64,
    pub status: RunStatus,
    pub conclusion: Option<&'a Conclusion>,
    pub current_node: Option<&'a str>,
    pub offset: u64,
    pub lines: u64,
    pub git_signature: Option<&'a str>,
    /// Where the last listing of the checkpoint history ended (JSON).
    pub checkpoint_mark: Option<&'a str>,
    pub manifest_signature: Option<&'a str>,
    pub ingest_error: Option<&'a str>,
    /// Event rows this ingest added.
    pub new_events: i64,
    /// The limits of the last `run.started` among the new events (`None`: none started).
    pub budget: Option<heddle_engine::Budget>,
}

/// Records status, conclusion, counts and the ingest position on the run row. The counts
/// and sums read only what changed: events are counted on from the previous count, stages
/// and artifacts are counted by triggers as rows come and go, and the usage sums read only
/// the stages that have some (see the migration `ingest_cost_per_stage`).
pub(crate) async fn update_run(tx: &mut Tx, db: &Db, update: &RunUpdate<'_>) -> Result<()> {
    let status = update.status.as_str();
    let ended_at = update.conclusion.map(|c| c.completed_at.as_str());
    let duration_ms = update
        .conclusion
        .map(|c| i64::try_from(c.duration_ms).unwrap_or(i64::MAX));
    let failure_reason = update.conclusion.and_then(|c| c.failure_reason.as_deref());
    let final_sha = update
        .conclusion
        .and_then(|c| c.final_git_commit_sha.as_deref());
    let running = update.status == RunStatus::Running;
    let offset = i64::try_from(update.offset).unwrap_or(i64::MAX);
    let lines = i64::try_from(update.lines).unwrap_or(i64::MAX);
    let started = update.budget.is_some();
    let max_cost_usd = update.budget.and_then(|b| b.max_cost_usd);
    let max_tokens = update
        .budget
        .and_then(|b| b.max_tokens)
        .map(|n| i64::try_from(n).unwrap_or(i64::MAX));
    on_tx!(tx, |conn| sqlx::query(
        "UPDATE runs SET
             status = $2, ended_at = $3, duration_ms = $4, failure_reason = $5,
             final_sha = $6,
             current_node = CASE WHEN $7 THEN COALESCE($8, current_node) ELSE NULL END,
             ingest_offset = $9, ingest_line = $10, git_signature = $11,
             ingest_error = COALESCE(ingest_error, $12), manifest_signature = $13,
             event_count = event_count + $14, checkpoint_mark = $15,
             max_cost_usd = CASE WHEN $16 THEN $17 ELSE max_cost_usd END,
             max_tokens = CASE WHEN $16 THEN $18 ELSE max_tokens END,
             last_seq = (SELECT COALESCE(MAX(seq), 0) FROM events WHERE run_key = $1),
             input_tokens = (SELECT COALESCE(SUM(input_tokens), 0) FROM stages
                             WHERE run_key = $1 AND (input_tokens IS NOT NULL
                                   OR output_tokens IS NOT NULL OR cost_usd IS NOT NULL)),
             output_tokens = (SELECT COALESCE(SUM(output_tokens), 0) FROM stages
                              WHERE run_key = $1 AND (input_tokens IS NOT NULL
                                    OR output_tokens IS NOT NULL OR cost_usd IS NOT NULL)),
             cost_usd = (SELECT SUM(cost_usd) FROM stages
                         WHERE run_key = $1 AND (input_tokens IS NOT NULL
                               OR output_tokens IS NOT NULL OR cost_usd IS NOT NULL))
         WHERE key = $1"
    )
    .bind(update.run_key)
    .bind(status)
    .bind(ended_at)
    .bind(duration_ms)
    .bind(failure_reason)
    .bind(final_sha)
    .bind(running)
    .bind(update.current_node)
    .bind(offset)
    .bind(lines)
    .bind(update.git_signature)
    .bind(update.ingest_error)
    .bind(update.manifest_signature)
    .bind(update.new_events)
    .bind(update.checkpoint_mark)
    .bind(started)
    .bind(max_cost_usd)
    .bind(max_tokens)
    .execute(conn)
    .await
    .map(|_| ()))
    .map_err(|e| db.err(e))?;
    Ok(())
}
