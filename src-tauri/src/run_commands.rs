//! The run commands that need the window: `save_run_file` (the desktop's Downloads folder)
//! and `follow_events` (a run's events streamed to a channel). The other run operations are
//! expanded from heddle-api's operation table in `commands`.

use heddle_api::{ApiError, ErrorCode, EventsRequest, RunFileRequest, RunHost, SavedRunFile};
use tauri::State;
use tauri::ipc::Channel;

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
    host.events(&req.run_id, req.after_seq)
        .await?
        .forward(|event| on_event.send(event).is_ok())
        .await
}
