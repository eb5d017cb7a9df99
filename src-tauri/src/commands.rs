//! The Tauri commands: one per heddle-api operation, each a one-line adapter. Each takes its
//! request as the single argument `req` and returns heddle-api's result unchanged, so the UI
//! sees the same types and error codes as over HTTP. The file-reading ones are `async` so
//! Tauri runs them off the UI thread.

use heddle_api::{
    ApiError, CheckWorkflowRequest, EditWorkflowRequest, LaunchInfo, ListWorkflowsRequest,
    OpenWorkflowRequest, OpenedWorkflow, SaveWorkflowRequest, WorkflowEntry,
};
use tauri::State;

/// What the command line asked the app to show at start-up.
#[tauri::command]
pub fn launch_info(launch: State<'_, LaunchInfo>) -> LaunchInfo {
    launch.inner().clone()
}

/// Reads, parses and validates a workflow file.
#[tauri::command(async)]
pub fn open_workflow(req: OpenWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    heddle_api::open_workflow(&req)
}

/// Parses and validates unsaved workflow text.
#[tauri::command(async)]
pub fn check_workflow(req: CheckWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    heddle_api::check_workflow(&req)
}

/// Lists the workflow files under a folder.
#[tauri::command(async)]
pub fn list_workflows(req: ListWorkflowsRequest) -> Result<Vec<WorkflowEntry>, ApiError> {
    heddle_api::list_workflows(&req)
}

/// Applies structured edits to workflow text (nothing is written).
#[tauri::command(async)]
pub fn edit_workflow(req: EditWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    heddle_api::edit_workflow(&req)
}

/// Saves workflow text to its file, refusing to overwrite a change made on disk.
#[tauri::command(async)]
pub fn save_workflow(req: SaveWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    heddle_api::save_workflow(&req)
}
