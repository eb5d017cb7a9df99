//! The trust operations of [`RunLibrary`]: `workflow_trust` (what a workflow will do, and
//! whether it is trusted) and the check `start_run` makes before anything runs.

use std::path::{Path, PathBuf};

use crate::error::{ApiError, ErrorCode};
use crate::run_host::blocking;
use crate::run_library::RunLibrary;
use crate::trust::{WorkflowTrust, WorkflowTrustRequest, assess, remember, untrusted};

impl RunLibrary {
    /// What running a workflow will do, and whether it may run without asking.
    pub fn workflow_trust(
        &self,
        request: &WorkflowTrustRequest,
    ) -> Result<WorkflowTrust, ApiError> {
        let path = PathBuf::from(&request.workflow_path);
        let work_dir = work_dir_of(&path, request.work_dir.as_deref());
        let source = std::fs::read_to_string(&path).map_err(|e| ApiError::from_io(&path, &e))?;
        assess(self.home(), &path, &source, &work_dir)
    }

    /// What continuing a run will do (its own `graph.dot`, as the workflow it was started
    /// from, in its work folder), and whether it may run without asking: resume and fork
    /// check it as a new run checks its file.
    pub fn run_trust(&self, run: &str) -> Result<WorkflowTrust, ApiError> {
        let run_dir = self.find(run)?;
        let manifest = run_dir.read_manifest()?;
        let graph = run_dir.graph();
        let source = std::fs::read_to_string(&graph).map_err(|e| ApiError::from_io(&graph, &e))?;
        assess(
            self.home(),
            Path::new(&manifest.workflow_path),
            &source,
            Path::new(&manifest.work_dir),
        )
    }

    /// Reads the workflow a run is about to start and checks it is trusted; with `trust`
    /// an untrusted one is remembered as trusted instead of refused. The text it checked,
    /// for the engine to run.
    pub(crate) async fn trusted_source(
        &self,
        workflow_path: &Path,
        work_dir: &Path,
        trust: bool,
        reviewed_digest: Option<String>,
    ) -> Result<String, ApiError> {
        let home = self.home().clone();
        let (path, work_dir) = (workflow_path.to_path_buf(), work_dir.to_path_buf());
        blocking(move || {
            let source =
                std::fs::read_to_string(&path).map_err(|e| ApiError::from_io(&path, &e))?;
            let verdict = assess(&home, &path, &source, &work_dir)?;
            if !verdict.trusted {
                if !trust {
                    return Err(untrusted(
                        &verdict,
                        "start it again with `trust: true` (the Start run dialog's \"Trust this \
                         workflow and run\")",
                    ));
                }
                if reviewed_digest
                    .as_deref()
                    .is_some_and(|seen| seen != verdict.digest)
                {
                    return Err(ApiError::new(
                        ErrorCode::UntrustedWorkflow,
                        format!(
                            "{} changed after it was reviewed, so nothing ran; review what it \
                             will do now, then trust that",
                            verdict.workflow_path
                        ),
                    ));
                }
                let now = heddle_engine::clock::rfc3339(std::time::SystemTime::now());
                remember(&home, &verdict, &now)?;
            }
            Ok(source)
        })
        .await
    }
}

/// Where a run of `workflow_path` works: `work_dir`, else the workflow's folder.
pub(crate) fn work_dir_of(workflow_path: &Path, work_dir: Option<&str>) -> PathBuf {
    match work_dir {
        Some(dir) => PathBuf::from(dir),
        None => workflow_path
            .parent()
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(".")),
    }
}
