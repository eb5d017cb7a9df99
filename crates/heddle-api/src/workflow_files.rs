//! Files that live beside a workflow: its layout sidecar (node positions a person set,
//! never written into the `.dot`) and the files its `@path` values refer to (previewed in
//! the inspector).

use std::io::Read;
use std::path::{Path, PathBuf};

use heddle_engine::rundir::replace_file;
use heddle_workflow::resolve_reference;

use crate::editor_types::{
    ReadReferenceRequest, ReferencedFile, SaveLayoutRequest, WorkflowLayout, WorkflowPathRequest,
};
use crate::error::{ApiError, ErrorCode};
use crate::workflows::absolute;

/// What a sidecar's name adds to the workflow's file name.
pub const LAYOUT_SIDECAR_SUFFIX: &str = ".heddle-layout.json";

/// A layout sidecar larger than this is refused (a thousand nodes take about 50 KB).
const MAX_LAYOUT_BYTES: u64 = 4 * 1024 * 1024;

/// How much of a referenced file a preview shows.
pub const REFERENCE_PREVIEW_BYTES: usize = 256 * 1024;

/// The sidecar of the workflow at `workflow`: `review.dot` keeps its positions in
/// `review.dot.heddle-layout.json`.
pub fn layout_sidecar_path(workflow: &Path) -> PathBuf {
    let mut name = workflow.file_name().unwrap_or_default().to_os_string();
    name.push(LAYOUT_SIDECAR_SUFFIX);
    workflow.with_file_name(name)
}

/// Reads a workflow's layout sidecar (no sidecar is not an error).
pub fn read_layout(req: &WorkflowPathRequest) -> Result<WorkflowLayout, ApiError> {
    let sidecar = layout_sidecar_path(&absolute(Path::new(&req.path))?);
    let text = match std::fs::metadata(&sidecar) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(ApiError::from_io(&sidecar, &e)),
        Ok(meta) if meta.len() > MAX_LAYOUT_BYTES => {
            return Err(ApiError::new(
                ErrorCode::TooLarge,
                format!(
                    "{}: {} bytes is too large for a layout file; delete it to lay the \
                     workflow out afresh",
                    sidecar.display(),
                    meta.len()
                ),
            ));
        }
        Ok(_) => {
            Some(std::fs::read_to_string(&sidecar).map_err(|e| ApiError::from_io(&sidecar, &e))?)
        }
    };
    Ok(WorkflowLayout {
        sidecar_path: sidecar.display().to_string(),
        text,
    })
}

/// Writes a workflow's layout sidecar atomically. The text must be a JSON object, so a
/// broken sidecar is never written.
pub fn save_layout(req: &SaveLayoutRequest) -> Result<WorkflowLayout, ApiError> {
    let sidecar = layout_sidecar_path(&absolute(Path::new(&req.path))?);
    match serde_json::from_str::<serde_json::Value>(&req.text) {
        Ok(serde_json::Value::Object(_)) => {}
        Ok(_) => {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!("{}: a layout must be a JSON object", sidecar.display()),
            ));
        }
        Err(e) => {
            return Err(ApiError::new(
                ErrorCode::InvalidRequest,
                format!("{}: the layout is not JSON: {e}", sidecar.display()),
            ));
        }
    }
    replace_file(&sidecar, req.text.as_bytes(), true)
        .map_err(|e| ApiError::from_io(&sidecar, &e))?;
    Ok(WorkflowLayout {
        sidecar_path: sidecar.display().to_string(),
        text: Some(req.text.clone()),
    })
}

/// Reads (the start of) the file an `@path` value refers to, resolved as a run would.
pub fn read_reference(req: &ReadReferenceRequest) -> Result<ReferencedFile, ApiError> {
    let workflow = absolute(Path::new(&req.path))?;
    let reference = req.reference.trim().trim_start_matches('@').trim();
    if reference.is_empty() {
        return Err(ApiError::new(
            ErrorCode::InvalidRequest,
            "an @file reference needs a path after the @",
        ));
    }
    let path = resolve_reference(&workflow, reference);
    let meta = std::fs::metadata(&path).map_err(|e| ApiError::from_io(&path, &e))?;
    if !meta.is_file() {
        return Err(ApiError::new(
            ErrorCode::WrongKind,
            format!("{}: is a folder, not a file", path.display()),
        ));
    }
    let mut bytes = Vec::new();
    let limit = u64::try_from(REFERENCE_PREVIEW_BYTES).unwrap_or(u64::MAX);
    std::fs::File::open(&path)
        .and_then(|file| file.take(limit + 1).read_to_end(&mut bytes))
        .map_err(|e| ApiError::from_io(&path, &e))?;
    let truncated = bytes.len() > REFERENCE_PREVIEW_BYTES;
    bytes.truncate(REFERENCE_PREVIEW_BYTES);
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        // Cut inside a character: keep what decodes.
        Err(e) if truncated && e.utf8_error().error_len().is_none() => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
        Err(_) => {
            return Err(ApiError::new(
                ErrorCode::NotText,
                format!(
                    "{}: not UTF-8 text, so there is nothing to preview",
                    path.display()
                ),
            ));
        }
    };
    Ok(ReferencedFile {
        path: path.display().to_string(),
        text,
        truncated,
    })
}
