//! Rebuilding the index from the run folders, and the lighter rescan the watcher falls back
//! to when it may have missed changes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::Store;
use crate::db::on_writer;
use crate::error::Result;
use crate::ingest::folder_key;
use crate::scan::{child_runs, run_folders};
use crate::types::{IngestFailure, ReindexReport, RunChange};

impl Store {
    /// Rebuilds the index of every run under `runs_root` (manager-loop child runs in
    /// `nodes/*/child` included) from its folder, as if never indexed, and drops runs whose
    /// folder under `runs_root` is gone. Recent workflows are kept. A folder that cannot be
    /// read is reported in [`ReindexReport::failures`] and does not stop the others.
    pub async fn reindex(&self, runs_root: &Path) -> Result<ReindexReport> {
        let _one_at_a_time = self.inner.ingest.lock().await;
        self.sweep(runs_root, true).await
    }

    /// Ingests every run folder under `runs_root` incrementally (what the watcher does when
    /// it may have missed events) and drops runs whose folder is gone.
    pub async fn rescan(&self, runs_root: &Path) -> Result<ReindexReport> {
        let _one_at_a_time = self.inner.ingest.lock().await;
        self.sweep(runs_root, false).await
    }

    async fn sweep(&self, runs_root: &Path, rebuild: bool) -> Result<ReindexReport> {
        let runs_root = folder_key(runs_root);
        let folders = {
            let root = runs_root.clone();
            tokio::task::spawn_blocking(move || -> Result<Vec<PathBuf>> {
                let mut all = Vec::new();
                for folder in run_folders(&root)? {
                    let children = child_runs(&folder);
                    all.push(folder);
                    all.extend(children);
                }
                Ok(all)
            })
            .await
            .map_err(|e| {
                self.inner
                    .db
                    .err(format!("listing run folders stopped: {e}"))
            })??
        };
        let mut report = ReindexReport::default();
        let mut seen = BTreeSet::new();
        for folder in &folders {
            seen.insert(folder.to_string_lossy().into_owned());
            match self.ingest_locked(folder, rebuild).await {
                Ok(ingested) => {
                    if ingested.run_id.is_some() {
                        report.runs += 1;
                    }
                    report.events += ingested.new_events;
                }
                Err(error) => {
                    // The run is indexed as far as it could be read; count it.
                    report.runs += 1;
                    report.failures.push(IngestFailure {
                        folder: folder.to_string_lossy().into_owned(),
                        error: error.to_string(),
                    });
                }
            }
        }
        report.removed = self.drop_missing(&runs_root, &seen).await?;
        Ok(report)
    }

    /// Removes runs indexed under `runs_root` whose folder is not in `seen`.
    async fn drop_missing(&self, runs_root: &Path, seen: &BTreeSet<String>) -> Result<usize> {
        let db = &self.inner.db;
        // Only runs whose folder lies under `runs_root` (a range of the unique folder index:
        // `root/` up to `root0`, '0' being the byte after '/'), not every run of a shared
        // index; `starts_with` below still decides by path components.
        let key = folder_key(runs_root);
        let root = key.to_string_lossy();
        let root = root.trim_end_matches('/');
        let (from, to) = (format!("{root}/"), format!("{root}0"));
        let rows: Vec<(String, String)> = on_writer!(db, |pool| sqlx::query_as(
            "SELECT id, folder FROM runs WHERE folder >= $1 AND folder < $2"
        )
        .bind(&from)
        .bind(&to)
        .fetch_all(pool)
        .await)
        .map_err(|e| db.err(e))?;
        let mut removed = 0;
        for (id, folder_name) in rows {
            let folder = Path::new(&folder_name);
            if !folder.starts_with(runs_root) || seen.contains(&folder_name) {
                continue;
            }
            on_writer!(db, |pool| sqlx::query("DELETE FROM runs WHERE id = $1")
                .bind(&id)
                .execute(pool)
                .await
                .map(|_| ()))
            .map_err(|e| db.err(e))?;
            removed += 1;
            self.announce(RunChange {
                run_id: id,
                status: None,
            })
            .await;
        }
        Ok(removed)
    }
}
