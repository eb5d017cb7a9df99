//! Recently opened workflows: the one table that is not derived from run folders.

use std::path::Path;

use crate::Store;
use crate::db::{on_reader, on_writer};
use crate::error::{Result, StoreError};
use crate::types::RecentWorkflow;
use crate::write::epoch_ms;

impl Store {
    /// Records that the workflow at `path` (digraph `name`) was opened at `now` (RFC 3339).
    pub async fn touch_workflow(&self, path: &Path, name: &str, now: &str) -> Result<()> {
        if humantime::parse_rfc3339_weak(now).is_err() {
            return Err(StoreError::InvalidTime {
                field: "now",
                value: now.to_string(),
            });
        }
        let db = &self.inner.db;
        let path = path.to_string_lossy();
        let now_ms = epoch_ms(now);
        on_writer!(db, |pool| sqlx::query(
            "INSERT INTO recent_workflows (path, name, last_opened, last_opened_ms)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (path) DO UPDATE SET
                 name = excluded.name,
                 last_opened = excluded.last_opened,
                 last_opened_ms = excluded.last_opened_ms"
        )
        .bind(path)
        .bind(name)
        .bind(now)
        .bind(now_ms)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
        Ok(())
    }

    /// The `limit` workflows opened most recently, newest first.
    pub async fn recent_workflows(&self, limit: u32) -> Result<Vec<RecentWorkflow>> {
        let db = &self.inner.db;
        let limit = i64::from(limit);
        let rows = on_reader!(db, |pool| sqlx::query_as::<_, RecentWorkflow>(
            "SELECT path, name, last_opened FROM recent_workflows
             ORDER BY last_opened_ms DESC, path LIMIT $1"
        )
        .bind(limit)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(rows)
    }

    /// Forgets the workflow at `path` (it was moved or deleted).
    pub async fn forget_workflow(&self, path: &Path) -> Result<()> {
        let db = &self.inner.db;
        let path = path.to_string_lossy();
        on_writer!(db, |pool| sqlx::query(
            "DELETE FROM recent_workflows WHERE path = $1"
        )
        .bind(path)
        .execute(pool)
        .await
        .map(|_| ()))
        .map_err(|e| db.err(e))?;
        Ok(())
    }
}
