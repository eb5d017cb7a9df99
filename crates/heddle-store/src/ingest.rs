//! Ingesting one run folder: incremental (from the stored position in progress.jsonl) and
//! idempotent (what was read is not read again), in one transaction per ingest.

use std::path::{Path, PathBuf};

use heddle_engine::run_records::HistoryMark;
use heddle_engine::{Budget, Event};

use crate::db::{on_tx, on_writer};
use crate::error::{Result, StoreError};
use crate::scan::{ArtifactRead, GitRead, Position, Scan, scan};
use crate::types::{IngestReport, RunChange, RunStatus};
use crate::write::{
    RunUpdate, insert_events, insert_run, replace_artifacts, replace_stage_artifacts,
    update_manifest, update_run,
};
use crate::write_checkpoints::{append_checkpoints, replace_checkpoints};
use crate::{Store, derive};

/// How often an ingest starts over when another process ingested the same run meanwhile.
const ATTEMPTS: usize = 3;

/// The row of a folder as the previous ingest left it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
struct Previous {
    key: i64,
    id: String,
    status: String,
    offset: i64,
    lines: i64,
    git_signature: Option<String>,
    manifest_signature: Option<String>,
    checkpoint_mark: Option<String>,
}

/// The folder as the index names it: absolute, without `.` parts.
pub(crate) fn folder_key(folder: &Path) -> PathBuf {
    std::path::absolute(folder).unwrap_or_else(|_| folder.to_path_buf())
}

impl Store {
    /// Brings the index of the run in `folder` up to date: manifest, status (conclusion, or
    /// whether a process holds the run's lock), the events appended to progress.jsonl since
    /// the last ingest (whole lines only), the stages and human waits they imply, and the
    /// checkpoints and artifacts when they may have changed. A folder without a manifest
    /// (yet) is left alone; a folder that is gone leaves the index.
    ///
    /// A line of progress.jsonl that is not an event is skipped and recorded on the run;
    /// everything else is indexed and the error names the file and line.
    pub async fn ingest_run(&self, folder: &Path) -> Result<IngestReport> {
        let _one_at_a_time = self.inner.ingest.lock().await;
        self.ingest_locked(folder, false).await
    }

    /// [`Store::ingest_run`] for a caller holding the ingest lock; `rebuild` forgets what
    /// the index held for the folder first.
    pub(crate) async fn ingest_locked(
        &self,
        folder: &Path,
        mut rebuild: bool,
    ) -> Result<IngestReport> {
        let folder = folder_key(folder);
        let name = folder.to_string_lossy().into_owned();
        for _ in 0..ATTEMPTS {
            let previous = self.previous(&name).await?;
            if !folder.is_dir() {
                return self.forget_folder(&name, previous).await;
            }
            let position = Position {
                offset: previous.as_ref().map_or(0, |p| to_u64(p.offset)),
                lines: previous.as_ref().map_or(0, |p| to_u64(p.lines)),
                git_signature: previous.as_ref().and_then(|p| p.git_signature.clone()),
                checkpoint_mark: previous
                    .as_ref()
                    .and_then(|p| p.checkpoint_mark.as_deref())
                    .and_then(|mark| serde_json::from_str(mark).ok()),
                fresh: rebuild || previous.is_none(),
            };
            let scanned = {
                let reading = folder.clone();
                let readers = self.inner.readers.clone();
                tokio::task::spawn_blocking(move || scan(&reading, &position, &readers))
                    .await
                    .map_err(|e| StoreError::Io {
                        path: folder.clone(),
                        message: format!("reading the run folder stopped: {e}"),
                    })??
            };
            let Some(scanned) = scanned else {
                return Ok(IngestReport {
                    run_id: None,
                    new_events: 0,
                    status: None,
                    changed: false,
                });
            };
            if previous.is_none() && self.handed_over(&scanned.manifest.run_id, &name).await? {
                // A worker died here and another resumed the run in its own folder, which
                // the index lists: this stale copy must not replace it.
                return Ok(IngestReport {
                    run_id: Some(scanned.manifest.run_id),
                    new_events: 0,
                    status: None,
                    changed: false,
                });
            }
            if !rebuild
                && previous
                    .as_ref()
                    .is_some_and(|p| p.id != scanned.manifest.run_id)
            {
                // Another run now lives in this folder: read it from the start.
                rebuild = true;
                continue;
            }
            if let Some(report) = self
                .write(&folder, &name, previous, rebuild, scanned)
                .await?
            {
                return report;
            }
        }
        Err(self.inner.db.err(format!(
            "{name} kept changing under another process's ingest; try again"
        )))
    }

    async fn previous(&self, folder: &str) -> Result<Option<Previous>> {
        let db = &self.inner.db;
        let row = on_writer!(db, |pool| sqlx::query_as::<_, Previous>(
            r#"SELECT key, id, status, ingest_offset AS offset, ingest_line AS lines,
                      git_signature, manifest_signature, checkpoint_mark
               FROM runs WHERE folder = $1"#
        )
        .bind(folder)
        .fetch_optional(pool)
        .await)
        .map_err(|e| db.err(e))?;
        Ok(row)
    }

    async fn forget_folder(
        &self,
        folder: &str,
        previous: Option<Previous>,
    ) -> Result<IngestReport> {
        let db = &self.inner.db;
        if let Some(previous) = &previous {
            on_writer!(db, |pool| sqlx::query("DELETE FROM runs WHERE folder = $1")
                .bind(folder)
                .execute(pool)
                .await
                .map(|_| ()))
            .map_err(|e| db.err(e))?;
            self.announce(RunChange {
                run_id: previous.id.clone(),
                status: None,
            })
            .await;
        }
        Ok(IngestReport {
            changed: previous.is_some(),
            run_id: previous.map(|p| p.id),
            new_events: 0,
            status: None,
        })
    }

    /// Writes what `scanned` holds; `None` when another process moved the position since
    /// `previous` was read (start over).
    async fn write(
        &self,
        folder: &Path,
        name: &str,
        previous: Option<Previous>,
        rebuild: bool,
        scanned: Scan,
    ) -> Result<Option<Result<IngestReport>>> {
        let db = &self.inner.db;
        let mut tx = db.write(name).await?;
        let now = on_tx!(&mut tx, |conn| sqlx::query_as::<_, Previous>(
            r#"SELECT key, id, status, ingest_offset AS offset, ingest_line AS lines,
                      git_signature, manifest_signature, checkpoint_mark
               FROM runs WHERE folder = $1"#
        )
        .bind(name)
        .fetch_optional(&mut *conn)
        .await)
        .map_err(|e| db.err(e))?;
        if now != previous {
            tx.rollback(db).await?;
            return Ok(None);
        }
        if let Some(p) = previous.as_ref().filter(|_| !rebuild)
            && unchanged(p, &scanned)
        {
            tx.rollback(db).await?;
            return Ok(Some(Ok(IngestReport {
                run_id: Some(p.id.clone()),
                new_events: 0,
                status: Some(scanned.status),
                changed: false,
            })));
        }
        let Scan {
            manifest,
            conclusion,
            status,
            tail,
            git,
            git_signature,
            manifest_signature,
            artifacts,
        } = scanned;
        let same_run = previous
            .as_ref()
            .is_some_and(|p| p.id == manifest.run_id && !rebuild && !tail.restarted);
        let run_key = match (&previous, same_run) {
            (Some(p), true) => p.key,
            _ => insert_run(&mut tx, db, name, &manifest).await?,
        };
        let manifest_changed = same_run
            && previous
                .as_ref()
                .is_some_and(|p| p.manifest_signature != manifest_signature);
        if manifest_changed {
            update_manifest(&mut tx, db, run_key, &manifest).await?;
        }
        let added_events = insert_events(&mut tx, db, run_key, &tail.events).await?;
        let mut current_node = None;
        let mut budget = None;
        for event in &tail.events {
            derive::apply(&mut tx, db, run_key, event).await?;
            match &event.envelope.event {
                Event::StageStarted { .. } => current_node = event.envelope.node_id.as_deref(),
                Event::RunStarted {
                    max_cost_usd,
                    max_tokens,
                    ..
                } => {
                    budget = Some(Budget {
                        max_cost_usd: *max_cost_usd,
                        max_tokens: *max_tokens,
                    });
                }
                _ => {}
            }
        }
        let mut deferred = None;
        let mut git_changed = false;
        let (git_signature, checkpoint_mark) = match git {
            GitRead::Unchanged => previous
                .as_ref()
                .map(|p| (p.git_signature.clone(), p.checkpoint_mark.clone()))
                .unwrap_or_default(),
            GitRead::Read(history) => {
                replace_checkpoints(&mut tx, db, run_key, &history.entries).await?;
                git_changed = true;
                (git_signature, mark_json(history.mark.as_ref()))
            }
            GitRead::Appended { history, tip_moved } => {
                let first = history
                    .mark
                    .as_ref()
                    .map_or(0, |m| m.count.saturating_sub(history.entries.len()));
                append_checkpoints(&mut tx, db, run_key, first, &history.entries, tip_moved)
                    .await?;
                git_changed = tip_moved || !history.entries.is_empty();
                (git_signature, mark_json(history.mark.as_ref()))
            }
            GitRead::Failed(message) => {
                deferred = Some(StoreError::Checkpoints {
                    run_id: manifest.run_id.clone(),
                    message,
                });
                (None, None)
            }
        };
        match &artifacts {
            ArtifactRead::Unchanged => {}
            ArtifactRead::All(listed) => replace_artifacts(&mut tx, db, run_key, listed).await?,
            ArtifactRead::Stages { stages, listed } => {
                replace_stage_artifacts(&mut tx, db, run_key, stages, listed).await?;
            }
        }
        let progress = folder.join("progress.jsonl");
        let ingest_error = tail.corrupt.as_ref().map(|c| {
            format!(
                "{}:{}: not a run event ({})",
                progress.display(),
                c.line,
                c.message
            )
        });
        update_run(
            &mut tx,
            db,
            &RunUpdate {
                run_key,
                status,
                conclusion: conclusion.as_ref(),
                current_node,
                offset: tail.offset,
                lines: tail.lines,
                git_signature: git_signature.as_deref(),
                checkpoint_mark: checkpoint_mark.as_deref(),
                manifest_signature: manifest_signature.as_deref(),
                ingest_error: ingest_error.as_deref(),
                new_events: added_events,
                budget,
            },
        )
        .await?;
        tx.commit(db).await?;
        let new_events = i64::try_from(tail.events.len()).unwrap_or(i64::MAX);
        let changed = !same_run
            || new_events > 0
            || git_changed
            || manifest_changed
            || ingest_error.is_some()
            || previous
                .as_ref()
                .is_some_and(|p| RunStatus::parse(&p.status) != status);
        if changed {
            self.announce(RunChange {
                run_id: manifest.run_id.clone(),
                status: Some(status),
            })
            .await;
        }
        if let Some(corrupt) = tail.corrupt {
            deferred = Some(StoreError::CorruptEvent {
                file: progress,
                line: corrupt.line,
                message: corrupt.message,
            });
        }
        Ok(Some(match deferred {
            Some(error) => Err(error),
            None => Ok(IngestReport {
                run_id: Some(manifest.run_id),
                new_events,
                status: Some(status),
                changed,
            }),
        }))
    }
}

/// Whether `scanned` adds nothing to what `previous` recorded.
fn unchanged(previous: &Previous, scanned: &Scan) -> bool {
    previous.id == scanned.manifest.run_id
        && !scanned.tail.restarted
        && scanned.tail.events.is_empty()
        && scanned.tail.corrupt.is_none()
        && i64::try_from(scanned.tail.offset).is_ok_and(|o| o == previous.offset)
        && i64::try_from(scanned.tail.lines).is_ok_and(|l| l == previous.lines)
        && matches!(scanned.git, GitRead::Unchanged)
        && matches!(scanned.artifacts, ArtifactRead::Unchanged)
        && scanned.manifest_signature == previous.manifest_signature
        && RunStatus::parse(&previous.status) == scanned.status
}

/// A history mark as the run row keeps it.
fn mark_json(mark: Option<&HistoryMark>) -> Option<String> {
    mark.and_then(|m| serde_json::to_string(m).ok())
}

fn to_u64(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}
