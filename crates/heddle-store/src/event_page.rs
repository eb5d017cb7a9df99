//! A run's events a page at a time, from a sequence number or from a moment: what a screen
//! reads of a long run's history instead of every event (a 20,000-stage run has 100,000).

use crate::Store;
use crate::db::on_reader;
use crate::detail_rows::EventRow;
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
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, EventRow>(
            "SELECT seq, id, ts, node_id, event, properties FROM events
             WHERE run_key = $1 AND seq > $2 AND ($3 IS NULL OR ts >= $3)
             ORDER BY seq LIMIT $4",
        )
        .bind(run.key)
        .bind(after_seq)
        .bind(since)
        .bind(limit)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(rows.into_iter().map(EventRow::into_record).collect())
    }
}
