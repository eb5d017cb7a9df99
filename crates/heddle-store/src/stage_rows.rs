//! A run's stage rows in the order they started, read as one value: the database gathers
//! every row into one JSON array, so a 20,000-stage run costs one row to hand across, not 20,000 (each
//! row handed over on its own cost the timeline of such a run most of its time).

use serde::Deserialize;

use crate::db::{Db, Sql, on_reader};
use crate::error::Result;

/// One row of `stages` as the timeline reads it. Each row comes as a JSON array whose items
/// are these fields in this order (serde reads a struct from a sequence field by field).
#[derive(Debug, Deserialize)]
pub(crate) struct StageRow {
    pub node_id: String,
    pub visit: i64,
    pub kind: String,
    pub branch: Option<String>,
    pub status: String,
    pub attempts: i64,
    pub retries: i64,
    pub started_at: String,
    pub ended_at: Option<String>,
    pub duration_ms: Option<i64>,
    pub notes: Option<String>,
    pub failure_reason: Option<String>,
    pub failure_class: Option<String>,
    pub last_retry_reason: Option<String>,
    pub stage_dir: String,
}

/// The stage rows of `$1` as one JSON array text (NULL when it has none); `$agg` gathers
/// rows into an array, `$row` makes one row's array.
macro_rules! stage_rows_sql {
    ($agg:literal, $row:literal) => {
        concat!(
            "SELECT CAST(",
            $agg,
            "(",
            $row,
            "(
                 node_id, visit, kind, branch, status, attempts, retries, started_at, ended_at,
                 duration_ms, notes, failure_reason, failure_class, last_retry_reason,
                 stage_dir) ORDER BY start_seq) AS TEXT)
             FROM stages WHERE run_key = $1"
        )
    };
}

const STAGE_ROWS: Sql = Sql {
    sqlite: stage_rows_sql!("json_group_array", "json_array"),
    postgres: stage_rows_sql!("json_agg", "json_build_array"),
};

/// The stage rows of the run `run_key`, oldest start first.
pub(crate) async fn stage_rows(db: &Db, run_key: i64) -> Result<Vec<StageRow>> {
    let rows: Option<String> = on_reader!(db, |pool| sqlx::query_scalar(db.sql(&STAGE_ROWS))
        .bind(run_key)
        .fetch_one(pool)
        .await)
    .map_err(|e| db.err(e))?;
    match rows {
        Some(json) => serde_json::from_str(&json).map_err(|e| db.err(e)),
        None => Ok(Vec::new()),
    }
}
