//! The Tauri commands: one per heddle-api operation, each a one-line adapter. Each takes its
//! request as the single argument `req` and returns heddle-api's result unchanged, so the UI
//! sees the same types and error codes as over HTTP. The file-reading ones are `async` so
//! Tauri runs them off the UI thread.

use heddle_api::{
    ApiError, CheckExpressionRequest, CheckWorkflowRequest, CreateWorkflowRequest,
    EditWorkflowRequest, ExpressionProblem, LaunchInfo, ListWorkflowsRequest, OpenWorkflowRequest,
    OpenedWorkflow, ReadReferenceRequest, ReferencedFile, SaveLayoutRequest, SaveWorkflowRequest,
    WorkflowEntry, WorkflowLayout, WorkflowPathRequest, WorkflowTemplate,
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

/// Reads a workflow's layout sidecar (the node positions a person set).
#[tauri::command(async)]
pub fn read_layout(req: WorkflowPathRequest) -> Result<WorkflowLayout, ApiError> {
    heddle_api::read_layout(&req)
}

/// Writes a workflow's layout sidecar.
#[tauri::command(async)]
pub fn save_layout(req: SaveLayoutRequest) -> Result<WorkflowLayout, ApiError> {
    heddle_api::save_layout(&req)
}

/// Reads the file an `@path` value refers to, for a preview.
#[tauri::command(async)]
pub fn read_reference(req: ReadReferenceRequest) -> Result<ReferencedFile, ApiError> {
    heddle_api::read_reference(&req)
}

/// Checks a condition or a model stylesheet as it is typed.
#[tauri::command]
pub fn check_expression(req: CheckExpressionRequest) -> Vec<ExpressionProblem> {
    heddle_api::check_expression(&req)
}

/// The templates a new workflow can start from.
#[tauri::command]
pub fn list_templates() -> Vec<WorkflowTemplate> {
    heddle_api::list_templates()
}

/// Creates a workflow file from a template, never overwriting one.
#[tauri::command(async)]
pub fn create_workflow(req: CreateWorkflowRequest) -> Result<OpenedWorkflow, ApiError> {
    heddle_api::create_workflow(&req)
}
