//! The run operations as Tauri commands, each a one-line adapter over the app's
//! [`RunHost`]. `follow_events` streams a run's events to the window through a channel.

use heddle_api::ListRunsRequest;
use heddle_api::checkpoint::{CheckpointDiff, CheckpointEntry, RollbackReport, TreeFile};
use heddle_api::index::{RunPage, RunRecord, Timeline};
use heddle_api::{
    AnswerGateRequest, ApiError, CheckpointFile, CheckpointFileRequest, CheckpointRef,
    CheckpointState, DiffRequest, ErrorCode, EventsRequest, ForkRequest, PendingGate,
    RollbackRequest, RunFileRequest, RunHost, RunRef, RunStarted, SavedRunFile, StartRunRequest,
    WorkflowTrust, WorkflowTrustRequest,
};
use tauri::State;
use tauri::ipc::Channel;

/// Starts a run of a workflow file.
#[tauri::command]
pub async fn start_run(
    host: State<'_, RunHost>,
    req: StartRunRequest,
) -> Result<RunStarted, ApiError> {
    host.start(req).await
}

/// What running a workflow will do, and whether it is trusted to run.
#[tauri::command(async)]
pub fn workflow_trust(
    host: State<'_, RunHost>,
    req: WorkflowTrustRequest,
) -> Result<WorkflowTrust, ApiError> {
    host.workflow_trust(&req)
}

/// Continues a stopped run.
#[tauri::command]
pub async fn resume_run(host: State<'_, RunHost>, req: RunRef) -> Result<RunStarted, ApiError> {
    host.resume(req).await
}

/// Starts a new run from a checkpoint of another.
#[tauri::command]
pub async fn fork_run(host: State<'_, RunHost>, req: ForkRequest) -> Result<RunStarted, ApiError> {
    host.fork(req).await
}

/// Cancels a run executing in the app.
#[tauri::command]
pub fn cancel_run(host: State<'_, RunHost>, req: RunRef) -> Result<(), ApiError> {
    host.cancel(&req)
}

/// The human gates of a run waiting for an answer.
#[tauri::command]
pub fn pending_gates(host: State<'_, RunHost>, req: RunRef) -> Result<Vec<PendingGate>, ApiError> {
    host.pending_gates(&req)
}

/// Answers a waiting gate.
#[tauri::command]
pub fn answer_gate(host: State<'_, RunHost>, req: AnswerGateRequest) -> Result<(), ApiError> {
    host.answer_gate(&req)
}

/// Runs from the index, newest first, filtered and paged.
#[tauri::command]
pub async fn list_runs(
    host: State<'_, RunHost>,
    req: ListRunsRequest,
) -> Result<RunPage, ApiError> {
    host.list_runs(req).await
}

/// One run from the index.
#[tauri::command]
pub async fn get_run(host: State<'_, RunHost>, req: RunRef) -> Result<RunRecord, ApiError> {
    host.run(req).await
}

/// Workflows opened recently, newest first.
#[tauri::command]
pub async fn recent_workflows(
    host: State<'_, RunHost>,
    req: heddle_api::RecentWorkflowsRequest,
) -> Result<Vec<heddle_api::index::RecentWorkflow>, ApiError> {
    host.recent_workflows(req).await
}

/// A run's timeline from the index.
#[tauri::command]
pub async fn run_timeline(host: State<'_, RunHost>, req: RunRef) -> Result<Timeline, ApiError> {
    host.timeline(req).await
}

/// A run's checkpoints across every timeline.
#[tauri::command(async)]
pub fn run_checkpoints(
    host: State<'_, RunHost>,
    req: RunRef,
) -> Result<Vec<CheckpointEntry>, ApiError> {
    host.checkpoints(&req)
}

/// The files at a checkpoint.
#[tauri::command(async)]
pub fn checkpoint_files(
    host: State<'_, RunHost>,
    req: CheckpointRef,
) -> Result<Vec<TreeFile>, ApiError> {
    host.checkpoint_files(&req)
}

/// The run's saved state at a checkpoint (next node, completed nodes, context).
#[tauri::command(async)]
pub fn checkpoint_state(
    host: State<'_, RunHost>,
    req: CheckpointRef,
) -> Result<CheckpointState, ApiError> {
    host.checkpoint_state(&req)
}

/// One file at a checkpoint.
#[tauri::command(async)]
pub fn checkpoint_file(
    host: State<'_, RunHost>,
    req: CheckpointFileRequest,
) -> Result<CheckpointFile, ApiError> {
    host.checkpoint_file(&req)
}

/// The diff between two checkpoints.
#[tauri::command(async)]
pub fn checkpoint_diff(
    host: State<'_, RunHost>,
    req: DiffRequest,
) -> Result<CheckpointDiff, ApiError> {
    host.diff(&req)
}

/// Rolls a stopped run back to a checkpoint.
#[tauri::command]
pub async fn rollback_run(
    host: State<'_, RunHost>,
    req: RollbackRequest,
) -> Result<RollbackReport, ApiError> {
    host.rollback(req).await
}

/// A run's captured artifacts.
#[tauri::command(async)]
pub fn run_artifacts(
    host: State<'_, RunHost>,
    req: RunRef,
) -> Result<Vec<heddle_api::ListedArtifact>, ApiError> {
    host.artifacts(&req)
}

/// The parsed report of a run's JUnit XML file.
#[tauri::command(async)]
pub fn junit_report(
    host: State<'_, RunHost>,
    req: RunFileRequest,
) -> Result<heddle_api::JUnitReport, ApiError> {
    host.junit_report(&req)
}

/// A patch file of the run (a stage's `diff.patch`) as files and hunks.
#[tauri::command(async)]
pub fn run_patch(
    host: State<'_, RunHost>,
    req: RunFileRequest,
) -> Result<heddle_api::checkpoint::PatchFiles, ApiError> {
    host.run_patch(&req)
}

/// The workflow the run keeps in its folder, as the run parsed it.
#[tauri::command(async)]
pub fn run_graph(
    host: State<'_, RunHost>,
    req: RunRef,
) -> Result<heddle_api::OpenedWorkflow, ApiError> {
    host.run_graph(&req)
}

/// Saves a copy of a run's file into the user's Downloads folder (`$HOME/Downloads` when
/// the desktop names none): the window's Download, since a link to another scheme would
/// only navigate there.
#[tauri::command(async)]
pub fn save_run_file<R: tauri::Runtime>(
    app: tauri::AppHandle<R>,
    host: State<'_, RunHost>,
    req: RunFileRequest,
) -> Result<SavedRunFile, ApiError> {
    use tauri::Manager;
    let folder = app
        .path()
        .download_dir()
        .or_else(|_| app.path().home_dir().map(|home| home.join("Downloads")))
        .map_err(|e| {
            ApiError::new(
                ErrorCode::NotFound,
                format!(
                    "cannot find your Downloads folder ({e}); set HOME, or XDG_DOWNLOAD_DIR in \
                     ~/.config/user-dirs.dirs"
                ),
            )
        })?;
    host.save_run_file(&req, &folder)
}

/// Streams a run's events after `req.after_seq` to `on_event` until the run ends.
#[tauri::command]
pub async fn follow_events(
    host: State<'_, RunHost>,
    req: EventsRequest,
    on_event: Channel<serde_json::Value>,
) -> Result<(), ApiError> {
    host.events(&req.run_id, req.after_seq)?
        .forward(|event| on_event.send(event).is_ok())
        .await
}
