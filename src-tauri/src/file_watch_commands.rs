//! Watching workflow files from the window: `watch_workflow` streams changes made outside
//! the editor to a channel until `unwatch_workflow` stops it (a Tauri channel cannot tell
//! when the page stops listening, so the page names each watch and ends it). At most
//! `WorkflowWatches::DEFAULT_LIMIT` run at once; one more is refused (`busy`).

use std::collections::HashMap;
use std::sync::Mutex;

use heddle_api::{ApiError, WatchWorkflowRequest, WorkflowChanged, WorkflowWatches};
use tauri::State;
use tauri::ipc::Channel;
use tokio::sync::oneshot;

/// The watches running for the window, by the page's watch id.
#[derive(Debug, Default)]
pub struct FileWatches {
    stops: Mutex<HashMap<String, oneshot::Sender<()>>>,
    running: WorkflowWatches,
}

impl FileWatches {
    fn insert(&self, id: String, stop: oneshot::Sender<()>) {
        if let Ok(mut watches) = self.stops.lock() {
            // A watch with the same id is replaced; dropping its sender stops it.
            watches.insert(id, stop);
        }
    }

    fn remove(&self, id: &str) {
        if let Ok(mut watches) = self.stops.lock() {
            watches.remove(id);
        }
    }
}

/// Streams changes to a workflow file to `on_change` until unwatched.
#[tauri::command]
pub async fn watch_workflow(
    watches: State<'_, FileWatches>,
    req: WatchWorkflowRequest,
    on_change: Channel<WorkflowChanged>,
) -> Result<(), ApiError> {
    let mut watch = watches.running.watch(&req.path)?;
    let (stop, mut stopped) = oneshot::channel();
    watches.insert(req.watch_id.clone(), stop);
    loop {
        tokio::select! {
            _ = &mut stopped => break,
            change = watch.next_change() => {
                let Some(change) = change else { break };
                if on_change.send(change).is_err() {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Stops a watch started by `watch_workflow`.
#[tauri::command]
pub fn unwatch_workflow(watches: State<'_, FileWatches>, req: WatchWorkflowRequest) {
    watches.remove(&req.watch_id);
}
