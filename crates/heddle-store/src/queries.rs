//! Finding runs: one run by id or unique prefix, and pages of runs filtered by status,
//! workflow, labels and start time, newest first, by keyset cursor.

use std::collections::BTreeMap;

use sqlx::{Database, Encode, QueryBuilder, Type};

use crate::Store;
use crate::db::on_reader;
use crate::error::{Result, StoreError};
use crate::types::{PageRequest, RunCursor, RunFilter, RunPage, RunRecord, RunStatus};
use crate::write::epoch_ms;

/// Most runs one page holds.
const MAX_PAGE: u32 = 1000;

/// How many candidates an ambiguous prefix error names.
const CANDIDATES: i64 = 5;

/// The columns of [`RunRow`], in its order.
macro_rules! run_columns {
    () => {
        "key, id, folder, workflow_name, workflow_path, goal, labels, status, started_at, \
         started_ms, ended_at, duration_ms, failure_reason, checkpoint_mode, run_branch, \
         base_sha, final_sha, artifact_count, stage_count, event_count, last_seq, dry_run, \
         parent_run_id, work_dir, node_count, current_node, ingest_error, input_tokens, \
         output_tokens, cost_usd, max_cost_usd, max_tokens"
    };
}

/// A row of `runs`.
#[derive(Debug, sqlx::FromRow)]
pub(crate) struct RunRow {
    pub key: i64,
    pub id: String,
    pub folder: String,
    pub workflow_name: String,
    pub workflow_path: String,
    pub goal: Option<String>,
    pub labels: String,
    pub status: String,
    pub started_at: String,
    pub started_ms: i64,
    pub ended_at: Option<String>,
    pub duration_ms: Option<i64>,
    pub failure_reason: Option<String>,
    pub checkpoint_mode: String,
    pub run_branch: Option<String>,
    pub base_sha: Option<String>,
    pub final_sha: Option<String>,
    pub artifact_count: i64,
    pub stage_count: i64,
    pub event_count: i64,
    pub last_seq: i64,
    pub dry_run: bool,
    pub parent_run_id: Option<String>,
    pub work_dir: String,
    pub node_count: i64,
    pub current_node: Option<String>,
    pub ingest_error: Option<String>,
    pub input_tokens: i64,
    pub output_tokens: i64,
    pub cost_usd: Option<f64>,
    pub max_cost_usd: Option<f64>,
    pub max_tokens: Option<i64>,
}

impl RunRow {
    pub(crate) fn into_record(self) -> RunRecord {
        RunRecord {
            labels: serde_json::from_str::<BTreeMap<String, String>>(&self.labels)
                .unwrap_or_default(),
            inputs: BTreeMap::new(),
            status: RunStatus::parse(&self.status),
            id: self.id,
            folder: self.folder,
            workflow_name: self.workflow_name,
            workflow_path: self.workflow_path,
            goal: self.goal,
            started_at: self.started_at,
            ended_at: self.ended_at,
            duration_ms: self.duration_ms,
            failure_reason: self.failure_reason,
            checkpoint_mode: self.checkpoint_mode,
            run_branch: self.run_branch,
            base_sha: self.base_sha,
            final_sha: self.final_sha,
            artifact_count: self.artifact_count,
            stage_count: self.stage_count,
            event_count: self.event_count,
            last_seq: self.last_seq,
            dry_run: self.dry_run,
            parent_run_id: self.parent_run_id,
            work_dir: self.work_dir,
            node_count: self.node_count,
            current_node: self.current_node,
            ingest_error: self.ingest_error,
            input_tokens: self.input_tokens,
            output_tokens: self.output_tokens,
            cost_usd: self.cost_usd,
            max_cost_usd: self.max_cost_usd,
            max_tokens: self.max_tokens,
        }
    }
}

/// Milliseconds of an RFC 3339 time given for `field`.
fn time_filter(field: &'static str, value: Option<&String>) -> Result<Option<i64>> {
    let Some(value) = value else {
        return Ok(None);
    };
    humantime::parse_rfc3339_weak(value.trim())
        .ok()
        .map(|_| Some(epoch_ms(value.trim())))
        .ok_or_else(|| StoreError::InvalidTime {
            field,
            value: value.clone(),
        })
}

/// Appends the filter's conditions (after a `WHERE 1 = 1`).
fn push_filters<'a, DB>(
    query: &mut QueryBuilder<'a, DB>,
    filter: &RunFilter,
    since: Option<i64>,
    until: Option<i64>,
) where
    DB: Database,
    String: Encode<'a, DB> + Type<DB>,
    i64: Encode<'a, DB> + Type<DB>,
{
    if let Some(parent) = &filter.parent_run_id {
        query
            .push(" AND parent_run_id = ")
            .push_bind(parent.clone());
    } else if !filter.include_children {
        query.push(" AND parent_run_id IS NULL");
    }
    if !filter.status.is_empty() {
        query.push(" AND status IN (");
        let mut list = query.separated(", ");
        for status in &filter.status {
            list.push_bind(status.as_str().to_string());
        }
        query.push(")");
    }
    if let Some(workflow) = &filter.workflow {
        query
            .push(" AND workflow_name = ")
            .push_bind(workflow.clone());
    }
    for (key, value) in &filter.labels {
        query
            .push(" AND key IN (SELECT run_key FROM run_labels WHERE key = ")
            .push_bind(key.clone())
            .push(" AND value = ")
            .push_bind(value.clone())
            .push(")");
    }
    if let Some(since) = since {
        query.push(" AND started_ms >= ").push_bind(since);
    }
    if let Some(until) = until {
        query.push(" AND started_ms < ").push_bind(until);
    }
}

impl Store {
    /// The runs matching `filter`, newest first, one page at a time: `page.limit` runs
    /// (1..=1000) after `page.after`, the cursor of the next page, and how many match in all.
    pub async fn list_runs(&self, filter: &RunFilter, page: &PageRequest) -> Result<RunPage> {
        let db = &self.inner.db;
        let since = time_filter("since", filter.since.as_ref())?;
        let until = time_filter("until", filter.until.as_ref())?;
        let limit = page.limit.clamp(1, MAX_PAGE);
        let (mut rows, total): (Vec<RunRow>, i64) = on_reader!(db, |pool| async {
            let mut query =
                QueryBuilder::new(concat!("SELECT ", run_columns!(), " FROM runs WHERE 1 = 1"));
            push_filters(&mut query, filter, since, until);
            if let Some(after) = &page.after {
                query
                    .push(" AND (started_ms, id) < (")
                    .push_bind(after.started_ms)
                    .push(", ")
                    .push_bind(after.id.clone())
                    .push(")");
            }
            query
                .push(" ORDER BY started_ms DESC, id DESC LIMIT ")
                .push_bind(i64::from(limit) + 1);
            let rows = query.build_query_as().fetch_all(pool).await?;
            let mut count = QueryBuilder::new("SELECT COUNT(*) FROM runs WHERE 1 = 1");
            push_filters(&mut count, filter, since, until);
            let total = count.build_query_scalar().fetch_one(pool).await?;
            Ok::<_, sqlx::Error>((rows, total))
        }
        .await)
        .map_err(|e| db.err(e))?;
        let more = rows.len() > limit as usize;
        rows.truncate(limit as usize);
        let next = more.then(|| rows.last()).flatten().map(|last| RunCursor {
            started_ms: last.started_ms,
            id: last.id.clone(),
        });
        Ok(RunPage {
            items: rows.into_iter().map(RunRow::into_record).collect(),
            next,
            total,
        })
    }

    /// The run `id` names: a full run id, its folder (path or `YYYYMMDD-{id}` name), or a
    /// unique prefix of a run id (any case).
    pub async fn run(&self, id: &str) -> Result<RunRecord> {
        Ok(self.find(id).await?.into_record())
    }

    /// The row of the run `id` names (see [`Store::run`]).
    pub(crate) async fn find(&self, id: &str) -> Result<RunRow> {
        let db = &self.inner.db;
        let given = id.trim();
        let not_found = || StoreError::RunNotFound { id: id.to_string() };
        if given.is_empty() {
            return Err(not_found());
        }
        let exact = on_reader!(db, |pool| sqlx::query_as::<_, RunRow>(concat!(
            "SELECT ",
            run_columns!(),
            " FROM runs WHERE id = $1 OR folder = $1"
        ))
        .bind(given)
        .fetch_optional(pool)
        .await)
        .map_err(|e| db.err(e))?;
        if let Some(row) = exact {
            return Ok(row);
        }
        let upper = given.to_ascii_uppercase();
        let prefix = match upper.split_once('-') {
            Some((date, rest)) if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) => {
                rest.to_string()
            }
            _ => upper,
        };
        if prefix.is_empty() {
            return Err(not_found());
        }
        let mut rows = on_reader!(db, |pool| sqlx::query_as::<_, RunRow>(concat!(
            "SELECT ",
            run_columns!(),
            " FROM runs WHERE id >= $1 AND id < $1 || '~' ORDER BY id LIMIT $2"
        ))
        .bind(&prefix)
        .bind(CANDIDATES + 1)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        match rows.len() {
            0 => Err(not_found()),
            1 => Ok(rows.remove(0)),
            _ => {
                let count = on_reader!(db, |pool| sqlx::query_scalar::<_, i64>(
                    "SELECT COUNT(*) FROM runs WHERE id >= $1 AND id < $1 || '~'"
                )
                .bind(&prefix)
                .fetch_one(pool)
                .await)
                .map_err(|e| db.err(e))?;
                Err(StoreError::AmbiguousRun {
                    prefix: id.to_string(),
                    count,
                    candidates: rows
                        .into_iter()
                        .take(CANDIDATES as usize)
                        .map(|r| r.id)
                        .collect(),
                })
            }
        }
    }
}
