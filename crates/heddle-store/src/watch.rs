//! Watching the runs folder: a notify watcher on `runs/` and on each run folder (not
//! recursive: a run's `worktree/` can be a whole checkout), feeding a tokio task that
//! coalesces changes per run folder over [`DEBOUNCE`] and ingests them. New run folders are
//! watched as they appear; an overflowed or failed watcher falls back to a rescan of every
//! run folder; runs indexed as running are checked every [`TICK`] so a process that died
//! (which changes no file) is seen as interrupted. Manager-loop child runs are ingested
//! with their parent (whose events mark every observation of the child).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::Store;
use crate::db::on_reader;
use crate::error::{Result, StoreError};
use crate::ingest::folder_key;
use crate::scan::{child_runs, is_live, run_folders};
use crate::types::RunChange;

/// Changes to one run folder within this window are ingested together.
const DEBOUNCE: Duration = Duration::from_millis(75);

/// How often runs indexed as running are checked for a live process (and folders that
/// could not be watched are read again).
const TICK: Duration = Duration::from_secs(1);

/// A running watcher; dropping it stops the watcher.
#[derive(Debug)]
pub struct WatchHandle {
    store: Store,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<()>>,
}

impl WatchHandle {
    /// Runs whose index changes from now on (the same stream as [`Store::subscribe`]).
    pub fn subscribe(&self) -> broadcast::Receiver<RunChange> {
        self.store.subscribe()
    }

    /// Stops the watcher and waits until it has (an ingest under way finishes first).
    pub async fn stop(mut self) {
        self.stop.take();
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for WatchHandle {
    fn drop(&mut self) {
        // Dropping the sender wakes the task, which ends after any ingest under way.
        self.stop.take();
    }
}

impl Store {
    /// Starts watching `runs_root` (created when missing) from within a tokio runtime:
    /// every run folder is indexed now and again whenever it changes, until the handle is
    /// dropped. Changed runs are announced on [`Store::subscribe`].
    pub fn watch(&self, runs_root: &Path) -> Result<WatchHandle> {
        let root = folder_key(runs_root);
        let failed = |message: String| StoreError::Watch {
            path: root.clone(),
            message,
        };
        let runtime = tokio::runtime::Handle::try_current()
            .map_err(|e| failed(format!("no tokio runtime to watch from: {e}")))?;
        std::fs::create_dir_all(&root).map_err(|e| failed(heddle_engine::describe_io(&e)))?;
        let (events, receiver) = mpsc::unbounded_channel();
        let mut watcher = notify::recommended_watcher(move |event| {
            // The task is gone only when the watcher is being dropped.
            let _ = events.send(event);
        })
        .map_err(|e| failed(e.to_string()))?;
        watcher
            .watch(&root, RecursiveMode::NonRecursive)
            .map_err(|e| failed(e.to_string()))?;
        let (stop, stopped) = oneshot::channel();
        let task = Task {
            store: self.clone(),
            root,
            watcher,
            watched: HashSet::new(),
            unwatched: HashSet::new(),
            pending: HashMap::new(),
            rescan: Some(Instant::now()),
            next_tick: Instant::now() + TICK,
        };
        let task = runtime.spawn(task.run(receiver, stopped));
        Ok(WatchHandle {
            store: self.clone(),
            stop: Some(stop),
            task: Some(task),
        })
    }
}

struct Task {
    store: Store,
    root: PathBuf,
    watcher: RecommendedWatcher,
    /// Run folders with a watch.
    watched: HashSet<PathBuf>,
    /// Run folders whose watch could not be added (read every tick instead).
    unwatched: HashSet<PathBuf>,
    /// Run folders to ingest, with when.
    pending: HashMap<PathBuf, Instant>,
    /// When to rescan every folder.
    rescan: Option<Instant>,
    next_tick: Instant,
}

type Received = notify::Result<notify::Event>;

impl Task {
    async fn run(
        mut self,
        mut events: mpsc::UnboundedReceiver<Received>,
        mut stop: oneshot::Receiver<()>,
    ) {
        loop {
            let due = self
                .pending
                .values()
                .copied()
                .chain(self.rescan)
                .fold(self.next_tick, Instant::min);
            tokio::select! {
                _ = &mut stop => break,
                received = events.recv() => match received {
                    Some(event) => self.note(event),
                    None => break,
                },
                () = tokio::time::sleep_until(due) => {}
            }
            // Take everything already queued before ingesting.
            while let Ok(event) = events.try_recv() {
                self.note(event);
            }
            self.work().await;
        }
    }

    /// Records what a watcher event means: which run folder to ingest, or a rescan.
    fn note(&mut self, received: Received) {
        let soon = Instant::now() + DEBOUNCE;
        let event = match received {
            Ok(event) if !event.need_rescan() => event,
            _ => {
                self.rescan.get_or_insert(soon);
                return;
            }
        };
        for path in &event.paths {
            let Ok(relative) = path.strip_prefix(&self.root) else {
                continue;
            };
            let Some(first) = relative.components().next() else {
                // The runs folder itself changed (moved, removed): start over.
                self.rescan.get_or_insert(soon);
                continue;
            };
            let folder = self.root.join(first);
            if !self.watched.contains(&folder) && relative.components().count() == 1 {
                self.add_watch(&folder);
            }
            self.pending.entry(folder).or_insert(soon);
        }
    }

    fn add_watch(&mut self, folder: &Path) {
        if !folder.is_dir() {
            return;
        }
        match self.watcher.watch(folder, RecursiveMode::NonRecursive) {
            Ok(()) => {
                self.unwatched.remove(folder);
                self.watched.insert(folder.to_path_buf());
            }
            Err(_) => {
                self.unwatched.insert(folder.to_path_buf());
            }
        }
    }

    /// Does what is due.
    async fn work(&mut self) {
        let now = Instant::now();
        if self.rescan.is_some_and(|at| at <= now) {
            self.rescan = None;
            self.pending.clear();
            self.watch_all().await;
            // Failures stay recorded on the runs; the next change retries.
            let _ = self.store.rescan(&self.root).await;
        }
        if self.next_tick <= now {
            self.next_tick = now + TICK;
            self.check_running().await;
            let polled: Vec<PathBuf> = self.unwatched.iter().cloned().collect();
            for folder in polled {
                self.pending.entry(folder).or_insert(now);
            }
        }
        let due: Vec<PathBuf> = self
            .pending
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(folder, _)| folder.clone())
            .collect();
        for folder in due {
            self.pending.remove(&folder);
            self.ingest(&folder).await;
        }
    }

    /// Watches every run folder there is now (after an overflow, some may be new).
    async fn watch_all(&mut self) {
        let root = self.root.clone();
        let folders = tokio::task::spawn_blocking(move || run_folders(&root))
            .await
            .ok()
            .and_then(std::result::Result::ok)
            .unwrap_or_default();
        self.watched.retain(|f| f.is_dir());
        for folder in folders {
            if !self.watched.contains(&folder) {
                self.add_watch(&folder);
            }
        }
    }

    async fn ingest(&mut self, folder: &Path) {
        // Failures stay recorded on the run, or are met again at the next change.
        let _ = self.store.ingest_run(folder).await;
        if !folder.is_dir() {
            self.watched.remove(folder);
            self.unwatched.remove(folder);
            return;
        }
        let parent = folder.to_path_buf();
        let children = tokio::task::spawn_blocking(move || child_runs(&parent))
            .await
            .unwrap_or_default();
        for child in children {
            let _ = self.store.ingest_run(&child).await;
        }
    }

    /// Queues runs indexed as running whose process is gone.
    async fn check_running(&mut self) {
        let db = &self.store.inner.db;
        let Ok(rows) = on_reader!(db, |pool| sqlx::query_scalar::<_, String>(
            "SELECT folder FROM runs WHERE status = 'running'"
        )
        .fetch_all(pool)
        .await) else {
            return;
        };
        let root = self.root.clone();
        let stopped = tokio::task::spawn_blocking(move || {
            rows.into_iter()
                .map(PathBuf::from)
                .filter(|folder| folder.starts_with(&root) && !is_live(folder))
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
        let now = Instant::now();
        for folder in stopped {
            // A child run is ingested with its parent folder.
            let top = folder
                .strip_prefix(&self.root)
                .ok()
                .and_then(|r| r.components().next())
                .map(|first| self.root.join(first));
            if let Some(top) = top {
                self.pending.entry(top).or_insert(now);
            }
        }
    }
}
