//! A run's events a page at a time, from a sequence number or from a moment: what a screen
//! reads of a long run's history instead of every event (a 20,000-stage run has 100,000).

use sqlx::Row;

use crate::Store;
use crate::error::Result;
use crate::types::EventRecord;

/// Most events one page holds.
pub const MAX_PAGE_EVENTS: u32 = 10_000;

impl Store {
    /// The run's events with `seq` above `after_seq` and, when `since` is given, written at or
    /// after that moment (RFC 3339 UTC with milliseconds, as events are stamped), in order, at
    /// most `limit` (clamped to 1..=[`MAX_PAGE_EVENTS`]).
    pub async fn events_page(
        &self,
        id: &str,
        after_seq: i64,
        since: Option<&str>,
        limit: u32,
    ) -> Result<Vec<EventRecord>> {
        let run = self.find(id).await?;
        let db = &self.inner.db;
        let limit = i64::from(limit.clamp(1, MAX_PAGE_EVENTS));
        // Events are stamped in one fixed format, so their text orders as their time does.
        let rows = sqlx::query(
            "SELECT seq, id, ts, node_id, event, properties FROM events
             WHERE run_key = ?1 AND seq > ?2 AND (?3 IS NULL OR ts >= ?3)
             ORDER BY seq LIMIT ?4",
        )
        .bind(run.key)
        .bind(after_seq)
        .bind(since)
        .bind(limit)
        .fetch_all(&db.reader)
        .await
        .map_err(|e| db.err(e))?;
        rows.into_iter()
            .map(|row| {
                let properties: String = row.try_get("properties").map_err(|e| db.err(e))?;
                Ok(EventRecord {
                    seq: row.try_get("seq").map_err(|e| db.err(e))?,
                    id: row.try_get("id").map_err(|e| db.err(e))?,
                    ts: row.try_get("ts").map_err(|e| db.err(e))?,
                    node_id: row.try_get("node_id").map_err(|e| db.err(e))?,
                    event: row.try_get("event").map_err(|e| db.err(e))?,
                    properties: serde_json::from_str(&properties)
                        .unwrap_or_else(|_| serde_json::Value::Object(serde_json::Map::new())),
                })
            })
            .collect()
    }
}
