//! Changing workflow files: workflow edits (decided by heddle-workflow, written as
//! heddle-dot's minimal edits: comments, blank lines, ordering and quoting elsewhere stay
//! byte-identical), and
//! saving text to disk atomically, refusing when the file changed on disk since it was read.

use std::path::Path;

use heddle_engine::rundir::replace_file;
use heddle_workflow::{OsFiles, edit_source};

use crate::error::{ApiError, ErrorCode};
use crate::types::{EditWorkflowRequest, OpenedWorkflow, SaveWorkflowRequest};
use crate::workflows::{absolute, check};

/// Applies `req.edits` in order to `req.source` (all or none) and checks the result as the
/// file at `req.path`. Nothing is written. A refused edit answers `invalid_request`, saying
/// which edit and why (naming the node).
pub fn edit_workflow(req: &EditWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    let path = absolute(Path::new(&req.path))?;
    let text = edit_source(&req.source, &req.edits).map_err(|(n, e)| {
        ApiError::new(
            ErrorCode::InvalidRequest,
            format!(
                "{}: edit {} of {}: {e}",
                path.display(),
                n + 1,
                req.edits.len()
            ),
        )
    })?;
    Ok(check(&path, text, &OsFiles))
}

/// Writes `req.source` to `req.path` atomically, keeping its permissions
/// ([`replace_file`]), and returns it checked. With `req.expected_disk`, the save is refused
/// when the file on disk is no longer that text, so a change made elsewhere is never lost.
pub fn save_workflow(req: &SaveWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    let path = absolute(Path::new(&req.path))?;
    if let Some(expected) = &req.expected_disk {
        let on_disk = match std::fs::read_to_string(&path) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(ApiError::from_io(&path, &e)),
        };
        if on_disk.as_deref() != Some(expected.as_str()) {
            return Err(ApiError::new(
                ErrorCode::ChangedOnDisk,
                format!(
                    "{}: the file changed on disk since it was opened; reload it, or save \
                     again to overwrite the change",
                    path.display()
                ),
            ));
        }
    }
    replace_file(&path, req.source.as_bytes(), true).map_err(|e| ApiError::from_io(&path, &e))?;
    Ok(check(&path, req.source.clone(), &OsFiles))
}
