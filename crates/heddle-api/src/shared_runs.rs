//! Run files shared through the store a team configures (`HEDDLE_RUN_FILES_URL`): a worker
//! sends a copy of each run it executes there (see `run_relay`), and any other machine
//! fetches a copy of a run it shows into `$HEDDLE_HOME/shared-runs/`, so what reads a run's
//! folder (its graph, stage files, artifacts, reports) works for runs other machines ran. A
//! fetched copy is only read: controlling, resuming, forking or rolling back a run still
//! needs its own folder or its worker.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use heddle_artifacts::shared::DownloadMarks;
use heddle_artifacts::{BlobStore, SharedFiles};
use heddle_engine::RunDir;
use heddle_engine::runs::find_run;
use heddle_store::RunRecord;
use tokio::sync::Mutex;

use crate::error::{ApiError, ErrorCode};
use crate::run_elsewhere::Located;
use crate::run_library::RunLibrary;

/// The shared store, and what this process fetched from it so far.
#[derive(Debug, Clone)]
pub(crate) struct SharedRuns {
    files: SharedFiles,
    /// Per run id: the versions of its files fetched, so a fetch brings only what changed.
    fetched: Arc<Mutex<HashMap<String, DownloadMarks>>>,
}

impl SharedRuns {
    pub(crate) fn new(files: SharedFiles) -> Self {
        SharedRuns {
            files,
            fetched: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The store.
    pub(crate) fn files(&self) -> &SharedFiles {
        &self.files
    }
}

impl RunLibrary {
    /// The folder to read run `run` from: its own on this machine, else a copy fetched
    /// from the shared store, brought up to date first.
    pub async fn readable(&self, run: &str) -> Result<RunDir, ApiError> {
        match self.locate(run).await? {
            Located::Here(run_dir) => Ok(run_dir),
            Located::Elsewhere(record) => self.fetch_shared(&record).await,
        }
    }

    /// [`RunLibrary::find`], then the copies fetched from the shared store: for reading a
    /// run another machine ran, once [`RunLibrary::readable`] fetched it.
    pub fn find_readable(&self, run: &str) -> Result<RunDir, ApiError> {
        match self.find(run) {
            Err(error) if error.code == ErrorCode::NotFound => {
                find_run(&self.home().shared_runs(), run).map_err(|_| error)
            }
            found => found,
        }
    }

    /// Brings this machine's copy of `record`'s run (ran elsewhere) up to date from the
    /// shared store.
    pub(crate) async fn fetch_shared(&self, record: &RunRecord) -> Result<RunDir, ApiError> {
        let Some(shared) = self.shared() else {
            return Err(ApiError::new(
                ErrorCode::NotFound,
                format!(
                    "run {} ran on another machine (in {}); its files are there, not here. \
                     Set HEDDLE_RUN_FILES_URL on every machine to share run files \
                     (docs/team.md)",
                    record.id, record.folder
                ),
            ));
        };
        let name = Path::new(&record.folder)
            .file_name()
            .map_or_else(|| record.id.clone(), |n| n.to_string_lossy().into_owned());
        let into = self.home().shared_runs().join(name);
        let blobs = BlobStore::new(self.home().blobs());
        let mut fetched = shared.fetched.lock().await;
        let marks = fetched.entry(record.id.clone()).or_default();
        let report = shared
            .files
            .download_run(&record.id, &into, &blobs, marks)
            .await?;
        if report.listed == 0 {
            return Err(ApiError::new(
                ErrorCode::NotFound,
                format!(
                    "run {} ran on another machine and its files are not in the shared store \
                     ({}) yet",
                    record.id,
                    shared.files.url()
                ),
            ));
        }
        tracing::debug!(run = %record.id, files = report.files, blobs = report.blobs, "fetched a shared run");
        Ok(RunDir::at(into))
    }
}
