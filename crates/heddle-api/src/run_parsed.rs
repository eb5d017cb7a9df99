//! A run's files that the UI shows as data, parsed here so no client parses them again: a
//! JUnit artifact's report, a patch the run wrote (a stage's `diff.patch`) as files and
//! hunks, and the workflow the run keeps in its folder (`graph.dot`) as the run screen draws it. Blocking (file and
//! git work): the doors call these off their async threads.

use std::sync::Arc;

use heddle_artifacts::{JUnitError, JUnitReport};
use heddle_checkpoint::patch_text::{PatchFiles, read_patch};

use crate::error::{ApiError, ErrorCode};
use crate::run_files::RunFileRequest;
use crate::run_graph_cache::GraphFileStamp;
use crate::run_host::blocking;
use crate::run_library::RunLibrary;
use crate::run_types::RunRef;
use crate::run_workflow::RunWorkflow;
use crate::types::OpenWorkflowRequest;

/// The largest patch file read back as hunks (a stage's `diff.patch` is cut at 4 MB).
pub const MAX_PATCH_BYTES: u64 = 16 * 1024 * 1024;

impl RunLibrary {
    /// The report of a JUnit XML file of the run (`req.area` is normally `artifacts`).
    /// A file that is not well-formed XML, not JUnit, or over the size limit is refused
    /// with a message saying where and why.
    pub fn junit_report(&self, req: &RunFileRequest) -> Result<JUnitReport, ApiError> {
        let served = self.run_file(req)?;
        JUnitReport::parse_file(&served.path).map_err(|error| {
            let code = match &error {
                JUnitError::Io { .. } => ErrorCode::Io,
                JUnitError::TooLarge { .. } => ErrorCode::TooLarge,
                _ => ErrorCode::WrongKind,
            };
            let message = match &error {
                // These name the file themselves.
                JUnitError::Io { .. } | JUnitError::TooLarge { .. } => error.to_string(),
                _ => format!("{}: {error}", req.path),
            };
            ApiError::new(code, message)
        })
    }

    /// A patch file of the run (a stage's `nodes/{stage}/diff.patch`) as files and hunks.
    pub fn run_patch(&self, req: &RunFileRequest) -> Result<PatchFiles, ApiError> {
        let served = self.run_file(req)?;
        if served.size > MAX_PATCH_BYTES {
            return Err(ApiError::new(
                ErrorCode::TooLarge,
                format!(
                    "{}: {} bytes is over the {} MiB a patch is shown up to",
                    req.path,
                    served.size,
                    MAX_PATCH_BYTES / (1024 * 1024)
                ),
            ));
        }
        let bytes = std::fs::read(&served.path).map_err(|e| ApiError::from_io(&served.path, &e))?;
        read_patch(&bytes)
            .map_err(|error| ApiError::new(ErrorCode::WrongKind, format!("{}: {error}", req.path)))
    }

    /// The workflow the run keeps in its folder (`graph.dot`, as the run parsed it), as the
    /// run screen draws it (see [`RunWorkflow`]). A graph parsed lately and unchanged since
    /// is answered from the library's cache of them rather than parsed again.
    /// A run another machine ran is read from the copy fetched from the shared store.
    pub async fn run_graph(&self, req: RunRef) -> Result<RunWorkflow, ApiError> {
        let run = self.readable(&req.run_id).await?;
        let cache = self.graphs().clone();
        blocking(move || {
            let path = run.graph();
            let metadata = std::fs::metadata(&path).map_err(|e| ApiError::from_io(&path, &e))?;
            let stamp = GraphFileStamp::of(&path, &metadata);
            if let Some(graph) = cache.get(&stamp) {
                return Ok(RunWorkflow::clone(&graph));
            }
            let opened = crate::workflows::open_workflow(&OpenWorkflowRequest {
                path: path.display().to_string(),
            })?;
            let graph = RunWorkflow::of(opened);
            cache.put(stamp, Arc::new(graph.clone()));
            Ok(graph)
        })
        .await
    }
}
