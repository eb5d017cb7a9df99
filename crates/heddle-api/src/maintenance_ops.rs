//! Looking after Heddle's data folder: re-hashing the blob store, removing blobs no run
//! references, and writing a run's outputs out to a folder (`heddle dump`).

use std::path::Path;

use heddle_artifacts::{BlobStore, referenced_blobs};
pub use heddle_artifacts::{DumpReport, GcReport, VerifyReport};
use heddle_store::{PageRequest, RunFilter, RunStatus};

use crate::error::{ApiError, ErrorCode};
use crate::run_host::blocking;
use crate::run_library::RunLibrary;

impl RunLibrary {
    /// Re-hashes every blob; the report lists corrupt, unreadable, misnamed and leftover
    /// temporary files. Blocking (reads every blob).
    pub fn verify_blobs(&self) -> VerifyReport {
        BlobStore::new(self.home().blobs()).verify()
    }

    /// Removes the blobs no run references (with `dry_run`, only lists them). Refused while
    /// a run is running, unless `dry_run`: its newest blobs may not be referenced yet.
    pub async fn collect_blobs(&self, dry_run: bool) -> Result<GcReport, ApiError> {
        self.catch_up().await?;
        let running = self
            .index()
            .list_runs(
                &RunFilter {
                    status: vec![RunStatus::Running],
                    include_children: true,
                    ..RunFilter::default()
                },
                &PageRequest {
                    limit: 1000,
                    after: None,
                },
            )
            .await?;
        if !running.items.is_empty() && !dry_run {
            let ids: Vec<&str> = running.items.iter().map(|r| r.id.as_str()).collect();
            return Err(ApiError::new(
                ErrorCode::Busy,
                format!(
                    "{} run(s) are running ({}); their newest blobs may not be referenced \
                     yet. Collect when they end, or ask for a dry run to see what would go",
                    ids.len(),
                    ids.join(", ")
                ),
            ));
        }
        let home = self.home().clone();
        blocking(move || {
            let referenced = referenced_blobs(&home.runs());
            Ok(BlobStore::new(home.blobs()).gc(&referenced, dry_run)?)
        })
        .await
    }

    /// Writes run `run`'s outputs to `out` (new or empty): one folder per stage visit, in
    /// order, with its files and artifacts. Blocking (copies files).
    pub fn dump_run(&self, run: &str, out: &Path) -> Result<DumpReport, ApiError> {
        let run_dir = self.find(run)?;
        Ok(heddle_artifacts::dump_run(&run_dir, out)?)
    }
}
