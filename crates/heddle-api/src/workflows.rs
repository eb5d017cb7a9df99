//! Workflow file operations: open, check unsaved text, list a folder's workflows.

use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use heddle_engine::Budget;
use heddle_workflow::template::{Inputs, input_names};
use heddle_workflow::{
    FileSource, OsFiles, Severity, WORKFLOW_DOT_FOLDERS, find_run_config, is_workflow_path,
    load_source_with,
};

use crate::error::{ApiError, ErrorCode};
use crate::types::{
    CheckWorkflowRequest, ListWorkflowsRequest, OpenWorkflowRequest, OpenedWorkflow, WorkflowEntry,
    WorkflowInput,
};

/// Files larger than this are refused rather than parsed (a workflow is a few KB).
pub const MAX_WORKFLOW_BYTES: u64 = 64 * 1024 * 1024;

/// Folders never scanned for workflows.
const SKIPPED_DIRS: &[&str] = &["node_modules", "target", "dist"];

/// Reads, parses and validates a workflow file.
pub fn open_workflow(req: &OpenWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    let path = absolute(Path::new(&req.path))?;
    let meta = std::fs::metadata(&path).map_err(|e| ApiError::from_io(&path, &e))?;
    if !meta.is_file() {
        return Err(ApiError::new(
            ErrorCode::WrongKind,
            format!("{}: is a folder, not a workflow file", path.display()),
        ));
    }
    if meta.len() > MAX_WORKFLOW_BYTES {
        return Err(ApiError::new(
            ErrorCode::TooLarge,
            format!(
                "{}: {} bytes is over the {} MiB limit for a workflow file",
                path.display(),
                meta.len(),
                MAX_WORKFLOW_BYTES / (1024 * 1024)
            ),
        ));
    }
    let source = OsFiles
        .read_to_string(&path)
        .map_err(|e| ApiError::from_io(&path, &e))?;
    Ok(check(&path, source, &OsFiles))
}

/// Parses and validates unsaved text as if it were the file at `req.path`.
pub fn check_workflow(req: &CheckWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    let path = absolute(Path::new(&req.path))?;
    Ok(check(&path, req.source.clone(), &OsFiles))
}

/// Validates `source`. With a run config beside the workflow, its `[run.inputs]` are the
/// values a run will get, so an input it lacks is a warning; without one, each input is a
/// note saying how to give it.
pub(crate) fn check(path: &Path, source: String, files: &dyn FileSource) -> OpenedWorkflow {
    let config = find_run_config(path, files).and_then(Result::ok);
    let inputs = match &config {
        Some(config) => Inputs::Given {
            values: config.inputs.clone(),
            missing: Severity::Warning,
        },
        None => Inputs::Unknown,
    };
    let loaded = load_source_with(&source, path, files, &inputs);
    let values = inputs.values();
    let config_budget = config
        .as_ref()
        .map_or_else(Budget::default, |config| Budget {
            max_cost_usd: config.max_cost_usd,
            max_tokens: config.max_tokens,
        });
    let budget = loaded
        .workflow
        .as_ref()
        .map_or(config_budget, |w| config_budget.over_graph(w));
    let inputs = loaded
        .workflow
        .as_ref()
        .map(|w| input_names(w, files))
        .unwrap_or_default()
        .into_iter()
        .map(|name| WorkflowInput {
            value: values.get(&name).cloned(),
            name,
        })
        .collect();
    OpenedWorkflow {
        path: path.display().to_string(),
        source,
        workflow: loaded.workflow,
        diagnostics: loaded.diagnostics,
        inputs,
        default_max_cost_usd: budget.max_cost_usd,
        default_max_tokens: budget.max_tokens,
    }
}

/// Lists workflow files (`.dot`, `.fabro`) under a folder, most recently modified first.
/// Hidden folders are skipped except Fabro's `.fabro`, where a repository keeps its workflows.
pub fn list_workflows(req: &ListWorkflowsRequest) -> Result<Vec<WorkflowEntry>, ApiError> {
    let root = absolute(Path::new(&req.dir))?;
    let meta = std::fs::metadata(&root).map_err(|e| ApiError::from_io(&root, &e))?;
    if !meta.is_dir() {
        return Err(ApiError::new(
            ErrorCode::WrongKind,
            format!("{}: is a file, not a folder", root.display()),
        ));
    }
    let mut found = Vec::new();
    let mut pending = vec![root.clone()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| ApiError::from_io(&dir, &e))?;
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                let hidden =
                    name.starts_with('.') && !WORKFLOW_DOT_FOLDERS.contains(&name.as_str());
                if !hidden && !SKIPPED_DIRS.contains(&name.as_str()) {
                    pending.push(path);
                }
            } else if kind.is_file() && is_workflow_path(&path) {
                found.push(entry_for(&root, path));
            }
        }
    }
    found.sort_by(|a, b| {
        b.modified_ms
            .cmp(&a.modified_ms)
            .then_with(|| a.relative_path.cmp(&b.relative_path))
    });
    Ok(found)
}

fn entry_for(root: &Path, path: PathBuf) -> WorkflowEntry {
    let modified_ms = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    let relative_path = path
        .strip_prefix(root)
        .unwrap_or(&path)
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/");
    WorkflowEntry {
        path: path.display().to_string(),
        relative_path,
        modified_ms,
    }
}

pub(crate) fn absolute(path: &Path) -> Result<PathBuf, ApiError> {
    if path.as_os_str().is_empty() {
        return Err(ApiError::new(ErrorCode::InvalidRequest, "no path given"));
    }
    std::path::absolute(path).map_err(|e| ApiError::from_io(path, &e))
}
