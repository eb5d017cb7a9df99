//! Which paths of the work tree changed since the last checkpoint, from a filesystem
//! watcher, so a checkpoint costs what changed rather than what the tree holds.
//!
//! Correctness never depends on the watcher: whenever it is unsure (it could not start,
//! the kernel queue overflowed, an error arrived, or its events did not catch up in time)
//! the answer is [`Changes::Everything`] and the caller rescans the whole tree. To know
//! it has every event up to "now", [`Tracker::take`] renames a barrier file in a folder the
//! same watcher observes to its next name (`b1`, `b2`, …) and waits for the event naming it:
//! events arrive in order. One file is renamed rather than a new one created each time: a
//! stage then allocates no inode for it, which on a file system without a journal costs a
//! search past every inode freed in the last minutes.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use notify::event::{CreateKind, EventKind, ModifyKind};
use notify::{RecommendedWatcher, RecursiveMode, Watcher};

/// How long to wait for the barrier's event before falling back to a full scan.
const BARRIER_WAIT: Duration = Duration::from_secs(2);

/// What changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Changes {
    /// Unknown: rescan everything.
    Everything,
    /// These paths (files, links, or folders that were renamed or removed) and these
    /// folders (created: rescan their whole content), relative to the work tree.
    Paths {
        /// Paths to update.
        paths: BTreeSet<PathBuf>,
        /// Folders to rescan.
        dirs: BTreeSet<PathBuf>,
    },
}

#[derive(Debug, Default)]
struct Pending {
    paths: BTreeSet<PathBuf>,
    dirs: BTreeSet<PathBuf>,
    unsure: bool,
    barrier: u64,
}

type Shared = Arc<(Mutex<Pending>, Condvar)>;

/// Watches one work tree.
pub struct Tracker {
    shared: Shared,
    watcher: Option<RecommendedWatcher>,
    sync_dir: PathBuf,
    next_barrier: u64,
}

impl Tracker {
    /// Starts watching `work_tree`, with barrier files in `sync_dir` (outside the work
    /// tree). The first [`Tracker::take`] always answers [`Changes::Everything`].
    pub fn start(work_tree: &Path, sync_dir: &Path) -> Tracker {
        let shared: Shared = Arc::new((
            Mutex::new(Pending {
                unsure: true,
                ..Pending::default()
            }),
            Condvar::new(),
        ));
        let watcher = watch(work_tree, sync_dir, &shared);
        Tracker {
            shared,
            watcher,
            sync_dir: sync_dir.to_path_buf(),
            next_barrier: 0,
        }
    }

    /// A tracker without a watcher: every answer is [`Changes::Everything`].
    pub fn disabled() -> Tracker {
        Tracker {
            shared: Arc::new((Mutex::new(Pending::default()), Condvar::new())),
            watcher: None,
            sync_dir: PathBuf::new(),
            next_barrier: 0,
        }
    }

    /// The barrier file's name after `n` takes.
    fn barrier_path(&self, n: u64) -> PathBuf {
        self.sync_dir.join(format!("b{n}"))
    }

    /// The changes since the last call.
    pub fn take(&mut self) -> Changes {
        if self.watcher.is_none() {
            return Changes::Everything;
        }
        let previous = self.barrier_path(self.next_barrier);
        self.next_barrier += 1;
        let barrier = self.barrier_path(self.next_barrier);
        let written =
            std::fs::rename(&previous, &barrier).is_ok() || std::fs::write(&barrier, b"").is_ok();
        let (lock, signal) = &*self.shared;
        let mut pending = lock.lock().unwrap_or_else(PoisonError::into_inner);
        if written {
            let (guard, timeout) = signal
                .wait_timeout_while(pending, BARRIER_WAIT, |p| p.barrier < self.next_barrier)
                .unwrap_or_else(PoisonError::into_inner);
            pending = guard;
            if timeout.timed_out() {
                pending.unsure = true;
            }
        } else {
            pending.unsure = true;
        }
        let taken = std::mem::take(&mut *pending);
        pending.barrier = taken.barrier;
        drop(pending);
        if taken.unsure {
            Changes::Everything
        } else {
            Changes::Paths {
                paths: taken.paths,
                dirs: taken.dirs,
            }
        }
    }
}

impl Drop for Tracker {
    fn drop(&mut self) {
        if self.watcher.is_some() {
            let _ = std::fs::remove_file(self.barrier_path(self.next_barrier));
        }
    }
}

fn watch(work_tree: &Path, sync_dir: &Path, shared: &Shared) -> Option<RecommendedWatcher> {
    std::fs::create_dir_all(sync_dir).ok()?;
    let root = work_tree.to_path_buf();
    let sync = sync_dir.to_path_buf();
    let state = shared.clone();
    let mut watcher = notify::recommended_watcher(move |result: notify::Result<notify::Event>| {
        let (lock, signal) = &*state;
        let mut pending = lock.lock().unwrap_or_else(PoisonError::into_inner);
        match result {
            Ok(event) => record(&mut pending, &event, &root, &sync),
            Err(_) => pending.unsure = true,
        }
        drop(pending);
        signal.notify_all();
    })
    .ok()?;
    watcher.watch(sync_dir, RecursiveMode::NonRecursive).ok()?;
    watcher.watch(work_tree, RecursiveMode::Recursive).ok()?;
    Some(watcher)
}

fn record(pending: &mut Pending, event: &notify::Event, root: &Path, sync: &Path) {
    if event.need_rescan() {
        pending.unsure = true;
        return;
    }
    if matches!(event.kind, EventKind::Access(_)) {
        return;
    }
    for path in &event.paths {
        if let Ok(name) = path.strip_prefix(sync) {
            let n = name
                .to_str()
                .and_then(|n| n.strip_prefix('b'))
                .and_then(|n| n.parse::<u64>().ok());
            if let Some(n) = n {
                pending.barrier = pending.barrier.max(n);
            }
            continue;
        }
        let Ok(relative) = path.strip_prefix(root) else {
            continue;
        };
        if relative.as_os_str().is_empty() {
            // The root itself (its own metadata, or the watch going away).
            if matches!(event.kind, EventKind::Remove(_) | EventKind::Other) {
                pending.unsure = true;
            }
            continue;
        }
        match event.kind {
            EventKind::Create(CreateKind::Folder) => {
                pending.dirs.insert(relative.to_path_buf());
            }
            // Could be a folder moved in: rescan it whole if it is one.
            EventKind::Modify(ModifyKind::Name(_)) | EventKind::Create(_) if path.is_dir() => {
                pending.dirs.insert(relative.to_path_buf());
            }
            _ => {
                pending.paths.insert(relative.to_path_buf());
            }
        }
    }
}
