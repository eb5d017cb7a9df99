//! Changing workflow files: structured edits applied to the text with heddle-dot's minimal
//! edits (comments, blank lines, ordering and quoting elsewhere stay byte-identical), and
//! saving text to disk atomically, refusing when the file changed on disk since it was read.

use std::io::Write;
use std::path::Path;

use heddle_workflow::OsFiles;

use crate::error::{ApiError, ErrorCode};
use crate::types::{EditWorkflowRequest, OpenedWorkflow, SaveWorkflowRequest};
use crate::workflows::{absolute, check};

/// Applies `req.edits` in order to `req.source` (all or none) and checks the result as the
/// file at `req.path`. Nothing is written.
pub fn edit_workflow(req: &EditWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    let path = absolute(Path::new(&req.path))?;
    let mut document = heddle_dot::parse(&req.source).document;
    for (n, edit) in req.edits.iter().enumerate() {
        document.apply(edit).map_err(|e| {
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
    }
    Ok(check(&path, document.text(), &OsFiles))
}

/// Writes `req.source` to `req.path` (a temporary file in the same folder, synced, then
/// renamed over it) and returns it checked. With `req.expected_disk`, the save is refused
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
    write_atomically(&path, req.source.as_bytes())?;
    Ok(check(&path, req.source.clone(), &OsFiles))
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), ApiError> {
    let folder = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = folder.join(format!(".{name}.heddle-save"));
    let written = std::fs::File::create(&temp).and_then(|mut file| {
        file.write_all(bytes)?;
        file.sync_all()
    });
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(ApiError::from_io(&temp, &e));
    }
    if let Ok(meta) = std::fs::metadata(path) {
        // Keep the file's permissions (an executable bit, a read-only group…).
        let _ = std::fs::set_permissions(&temp, meta.permissions());
    }
    std::fs::rename(&temp, path).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        ApiError::from_io(path, &e)
    })
}
