//! Watching a workflow file for changes made outside the editor (another editor, `git
//! checkout`, a formatter), so the editor can reload a clean document or offer a choice
//! for a dirty one. The file's folder is watched, not the file, because editors and
//! Heddle itself save by writing a temp file and renaming it over the old one.

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

use crate::editor_types::WorkflowChanged;
use crate::error::{ApiError, ErrorCode};
use crate::workflows::absolute;

/// Changes within this window are reported once (a save is several file-system events).
const DEBOUNCE: Duration = Duration::from_millis(60);

/// A running watch; dropping it stops watching.
#[derive(Debug)]
pub struct WorkflowWatch {
    path: PathBuf,
    changes: mpsc::UnboundedReceiver<()>,
    _watcher: RecommendedWatcher,
}

/// Starts watching the workflow file at `path` (which need not exist yet).
pub fn watch_workflow(path: &str) -> Result<WorkflowWatch, ApiError> {
    let path = absolute(Path::new(path))?;
    let failed = |message: String| {
        ApiError::new(
            ErrorCode::Io,
            format!("{}: cannot watch for changes: {message}", path.display()),
        )
    };
    let dir = path
        .parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| failed("it has no folder".to_owned()))?;
    let (sender, changes) = mpsc::unbounded_channel();
    let target = path.clone();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let concerns_target = match &event {
            // Reading the file (Heddle's own re-read included) is not a change; counting it
            // would make every check trigger the next.
            Ok(event) if event.kind.is_access() => false,
            Ok(event) => event.need_rescan() || event.paths.iter().any(|p| p == &target),
            // The watcher lost track; the file may have changed.
            Err(_) => true,
        };
        if concerns_target {
            // The receiver is gone only while the watch is being dropped.
            let _ = sender.send(());
        }
    })
    .map_err(|e| failed(e.to_string()))?;
    watcher
        .watch(&dir, RecursiveMode::NonRecursive)
        .map_err(|e| failed(e.to_string()))?;
    Ok(WorkflowWatch {
        path,
        changes,
        _watcher: watcher,
    })
}

impl WorkflowWatch {
    /// The file being watched.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Waits for the next change to the file, then for it to settle, and reports it.
    pub async fn next_change(&mut self) -> Option<WorkflowChanged> {
        self.changes.recv().await?;
        loop {
            match tokio::time::timeout(DEBOUNCE, self.changes.recv()).await {
                Ok(Some(())) => continue,
                Ok(None) => return None,
                Err(_quiet) => break,
            }
        }
        Some(WorkflowChanged {
            path: self.path.display().to_string(),
            exists: self.path.is_file(),
        })
    }
}
