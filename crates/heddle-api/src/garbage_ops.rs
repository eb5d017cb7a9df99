//! `collect_garbage` (`heddle gc`): what deleted runs leave behind goes. In every checkpoint
//! repository the refs of runs whose folder is gone are deleted, and each Heddle-owned
//! shadow repository is rewritten as one pack of what is still reachable (the user's own
//! repository keeps its objects for `git gc`); then the blobs no run references leave the
//! blob store. Refused, before anything changes, while a run is live.

use std::path::PathBuf;
use std::time::SystemTime;

use heddle_checkpoint::gc::{GcError, GcOptions, RepositoryGc, collect_garbage, live_message};
use heddle_checkpoint::gc_runs::RunFolders;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ApiError, ErrorCode};
use crate::maintenance_ops::GcReport;
use crate::run_host::blocking;
use crate::run_library::RunLibrary;

/// Collect what deleted runs left behind.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct GarbageRequest {
    /// Only report what would go.
    #[serde(default)]
    pub dry_run: bool,
    /// Further git repositories (any folder inside one) to delete deleted runs' refs from,
    /// besides the shadow repositories and those the remaining runs name.
    #[serde(default)]
    pub repositories: Vec<String>,
}

/// What a collection removed (or, in a dry run, would remove).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
pub struct GarbageReport {
    /// Nothing was changed; the report says what would go.
    pub dry_run: bool,
    /// Each checkpoint repository visited, in git-dir order.
    pub repositories: Vec<RepositoryGc>,
    /// The blob store.
    pub blobs: GcReport,
}

impl From<GcError> for ApiError {
    fn from(error: GcError) -> Self {
        match error {
            GcError::Live { runs } => ApiError::new(ErrorCode::Busy, live_message(&runs)),
            GcError::Checkpoint(inner) => inner.into(),
        }
    }
}

impl RunLibrary {
    /// Collects the checkpoint repositories, then the blob store (see the module doc).
    pub async fn collect_garbage(
        &self,
        request: GarbageRequest,
    ) -> Result<GarbageReport, ApiError> {
        let home = self.home().clone();
        let dry_run = request.dry_run;
        let options = GcOptions {
            heddle_home: home.root().to_path_buf(),
            runs_root: home.runs(),
            extra_repositories: request.repositories.iter().map(PathBuf::from).collect(),
            dry_run,
            started: SystemTime::now(),
        };
        let repositories = blocking(move || {
            // Any live run, not only those in a repository: its newest blobs may not be
            // referenced yet, so the blob store could not be collected after the refs.
            let live = RunFolders::scan(&options.runs_root)?
                .map(|runs| runs.live())
                .unwrap_or_default();
            if !live.is_empty() && !options.dry_run {
                return Err(GcError::Live { runs: live }.into());
            }
            Ok(collect_garbage(&options)?)
        })
        .await?;
        let blobs = self.collect_blobs(dry_run).await?;
        Ok(GarbageReport {
            dry_run,
            repositories,
            blobs,
        })
    }
}
