//! Watching a workflow file for changes made outside the editor (another editor, `git
//! checkout`, a formatter), so the editor can reload a clean document or offer a choice
//! for a dirty one. The file's folder is watched, not the file, because editors and
//! Heddle itself save by writing a temp file and renaming it over the old one.
//!
//! A door starts its watches through one [`WorkflowWatches`]: they share one file-system
//! watcher (`folder_watcher`; a user has few inotify instances, 128 by default on Linux),
//! and no more than its limit run at once (one more is refused with an error that says so).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::mpsc;

use crate::editor_types::WorkflowChanged;
use crate::error::{ApiError, ErrorCode};
use crate::folder_watcher::FolderWatcher;
use crate::workflows::absolute;

/// Changes within this window are reported once (a save is several file-system events).
const DEBOUNCE: Duration = Duration::from_millis(60);

/// The workflow watches one door (the HTTP server, the desktop app) has running: at most
/// `limit` at once. Clones share the count.
#[derive(Debug, Clone)]
pub struct WorkflowWatches {
    running: Arc<AtomicUsize>,
    limit: usize,
    watcher: Arc<FolderWatcher>,
}

impl Default for WorkflowWatches {
    fn default() -> Self {
        WorkflowWatches::new(WorkflowWatches::DEFAULT_LIMIT)
    }
}

impl WorkflowWatches {
    /// The limit a door uses: an editor tab holds one watch, so this is many tabs, and well
    /// under the 128 inotify instances Linux gives a user by default.
    pub const DEFAULT_LIMIT: usize = 32;

    /// No watch running yet; at most `limit` at once.
    pub fn new(limit: usize) -> Self {
        WorkflowWatches {
            running: Arc::new(AtomicUsize::new(0)),
            limit,
            watcher: Arc::new(FolderWatcher::default()),
        }
    }

    /// How many watches are running.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// Starts watching the workflow file at `path` (which need not exist yet), unless
    /// `limit` watches are running already (`Busy`).
    pub fn watch(&self, path: &str) -> Result<WorkflowWatch, ApiError> {
        let taken = self
            .running
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.limit).then_some(n + 1)
            });
        if taken.is_err() {
            return Err(ApiError::new(
                ErrorCode::Busy,
                format!(
                    "{path}: cannot watch for changes: {} workflow watches are running already, \
                     the most Heddle keeps at once (one per open editor); close an editor tab \
                     and reload this one",
                    self.limit
                ),
            ));
        }
        let slot = WatchSlot(self.running.clone());
        start(path, slot, &self.watcher)
    }
}

/// One place among a door's running watches, given back when the watch is dropped.
#[derive(Debug)]
struct WatchSlot(Arc<AtomicUsize>);

impl Drop for WatchSlot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A file's place among the shared watcher's routes, given back when the watch is dropped.
#[derive(Debug)]
struct Subscription {
    watcher: Arc<FolderWatcher>,
    id: u64,
    folder: PathBuf,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        self.watcher.unsubscribe(self.id, &self.folder);
    }
}

/// A running watch; dropping it stops watching.
#[derive(Debug)]
pub struct WorkflowWatch {
    path: PathBuf,
    changes: mpsc::UnboundedReceiver<()>,
    _subscription: Subscription,
    _slot: WatchSlot,
}

fn start(
    path: &str,
    slot: WatchSlot,
    watcher: &Arc<FolderWatcher>,
) -> Result<WorkflowWatch, ApiError> {
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
    let id = watcher
        .subscribe(&dir, path.clone(), sender)
        .map_err(|e| failed(e.to_string()))?;
    Ok(WorkflowWatch {
        path,
        changes,
        _subscription: Subscription {
            watcher: watcher.clone(),
            id,
            folder: dir,
        },
        _slot: slot,
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn no_more_than_the_limit_run_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let file = |name: &str| dir.path().join(name).display().to_string();
        let watches = WorkflowWatches::new(2);
        let first = watches.watch(&file("a.dot")).unwrap();
        let _second = watches.clone().watch(&file("b.dot")).unwrap();
        assert_eq!(watches.running(), 2);
        let refused = watches.watch(&file("c.dot")).unwrap_err();
        assert_eq!(refused.code, ErrorCode::Busy);
        assert!(
            refused.message.contains("2 workflow watches"),
            "{refused:?}"
        );
        assert!(refused.message.contains("c.dot"), "{refused:?}");
        // A watch that ends gives its place back, and one that fails to start takes none.
        drop(first);
        assert_eq!(watches.running(), 1);
        let missing = dir.path().join("nope/w.dot").display().to_string();
        assert!(watches.watch(&missing).is_err());
        assert_eq!(watches.running(), 1);
        let _third = watches.watch(&file("c.dot")).unwrap();
        assert_eq!(watches.running(), 2);
    }

    /// The inotify instances this process holds.
    #[cfg(target_os = "linux")]
    fn inotify_instances() -> usize {
        std::fs::read_dir("/proc/self/fd")
            .unwrap()
            .filter_map(|fd| std::fs::read_link(fd.ok()?.path()).ok())
            .filter(|target| target.to_string_lossy().contains("inotify"))
            .count()
    }

    async fn next(watch: &mut WorkflowWatch) -> WorkflowChanged {
        let change = tokio::time::timeout(Duration::from_secs(10), watch.next_change());
        change.await.unwrap().unwrap()
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn many_watches_share_one_watcher_and_each_hears_its_own_file() {
        let dir = tempfile::tempdir().unwrap();
        let other = tempfile::tempdir().unwrap();
        let before = inotify_instances();
        let watches = WorkflowWatches::new(8);
        let path = |d: &tempfile::TempDir, name: &str| d.path().join(name);
        let mut a = watches
            .watch(&path(&dir, "a.dot").display().to_string())
            .unwrap();
        let mut b = watches
            .watch(&path(&dir, "b.dot").display().to_string())
            .unwrap();
        let mut c = watches
            .watch(&path(&other, "c.dot").display().to_string())
            .unwrap();
        assert_eq!(inotify_instances(), before + 1, "one watcher for all three");

        std::fs::write(path(&dir, "b.dot"), "digraph B {}").unwrap();
        assert!(next(&mut b).await.path.ends_with("b.dot"));
        std::fs::write(path(&other, "c.dot"), "digraph C {}").unwrap();
        assert!(next(&mut c).await.exists);
        // A watch of the same folder that ends leaves the others working.
        drop(b);
        std::fs::write(path(&dir, "a.dot"), "digraph A {}").unwrap();
        let change = next(&mut a).await;
        assert!(change.path.ends_with("a.dot") && change.exists);
        drop((a, c));
        assert_eq!(watches.running(), 0);
    }
}
