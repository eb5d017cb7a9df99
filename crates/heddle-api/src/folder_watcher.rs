//! One file-system watcher (one inotify instance on Linux) shared by all of a door's
//! workflow watches: each folder is watched once however many watches need it, and each
//! change is routed to the watches of the file it concerns.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc::UnboundedSender;

/// Where a change to one file is reported.
#[derive(Debug)]
struct Route {
    id: u64,
    target: PathBuf,
    sender: UnboundedSender<()>,
}

/// The watcher (made on first use) and how many watches need each folder.
#[derive(Debug, Default)]
struct Folders {
    watcher: Option<RecommendedWatcher>,
    needed: HashMap<PathBuf, usize>,
}

/// The shared watcher of one door.
#[derive(Debug, Default)]
pub(crate) struct FolderWatcher {
    folders: Mutex<Folders>,
    routes: Arc<Mutex<Vec<Route>>>,
    next_id: AtomicU64,
}

impl FolderWatcher {
    /// Reports each change to `target` (a file in `folder`) to `sender` until
    /// [`FolderWatcher::unsubscribe`] is called with the id returned.
    pub(crate) fn subscribe(
        &self,
        folder: &Path,
        target: PathBuf,
        sender: UnboundedSender<()>,
    ) -> Result<u64, notify::Error> {
        let mut folders = self.folders.lock().unwrap_or_else(PoisonError::into_inner);
        if folders.watcher.is_none() {
            folders.watcher = Some(notify::recommended_watcher(route_to(self.routes.clone()))?);
        }
        let needed = folders.needed.get(folder).copied().unwrap_or(0);
        if needed == 0
            && let Some(watcher) = folders.watcher.as_mut()
        {
            watcher.watch(folder, RecursiveMode::NonRecursive)?;
        }
        folders.needed.insert(folder.to_path_buf(), needed + 1);
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        self.routes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Route { id, target, sender });
        Ok(id)
    }

    /// Stops reporting to the watch `id` of a file in `folder`; the folder is no longer
    /// watched once no watch needs it.
    pub(crate) fn unsubscribe(&self, id: u64, folder: &Path) {
        self.routes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .retain(|route| route.id != id);
        let mut folders = self.folders.lock().unwrap_or_else(PoisonError::into_inner);
        let needed = folders.needed.get(folder).copied().unwrap_or(0);
        if needed > 1 {
            folders.needed.insert(folder.to_path_buf(), needed - 1);
            return;
        }
        folders.needed.remove(folder);
        if let Some(watcher) = folders.watcher.as_mut() {
            // Best effort: the folder may be gone already, which ends its watch anyway.
            let _ = watcher.unwatch(folder);
        }
    }
}

/// The watcher's event handler: each event to the watches it concerns.
fn route_to(routes: Arc<Mutex<Vec<Route>>>) -> impl Fn(notify::Result<notify::Event>) + Send {
    move |event| {
        let routes = routes.lock().unwrap_or_else(PoisonError::into_inner);
        for route in routes.iter() {
            let concerns = match &event {
                // Reading the file (Heddle's own re-read included) is not a change; counting
                // it would make every check trigger the next.
                Ok(event) if event.kind.is_access() => false,
                Ok(event) => event.need_rescan() || event.paths.iter().any(|p| p == &route.target),
                // The watcher lost track; the file may have changed.
                Err(_) => true,
            };
            if concerns {
                // The receiver is gone only while the watch is being dropped.
                let _ = route.sender.send(());
            }
        }
    }
}
