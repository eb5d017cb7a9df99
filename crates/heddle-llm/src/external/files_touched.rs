//! The files an external agent touched in one turn: a snapshot of its work folder before
//! the turn and a comparison after, through the [`WorkTreeWatch`] heddle-api hands in (git
//! status, from heddle-checkpoint), off the async threads.

use std::path::PathBuf;
use std::sync::Arc;

use heddle_engine::work_tree::{WorkTreeSnapshot, WorkTreeWatch};

/// One agent's work folder and how to snapshot it.
#[derive(Debug, Clone)]
pub(crate) struct FolderWatch {
    watch: Arc<dyn WorkTreeWatch>,
    work_dir: PathBuf,
}

impl FolderWatch {
    /// Watches `work_dir` with `watch`.
    pub fn new(watch: Arc<dyn WorkTreeWatch>, work_dir: PathBuf) -> Self {
        FolderWatch { watch, work_dir }
    }

    /// The folder's changed files now; `None` outside a git repository.
    pub async fn snapshot(&self) -> Option<WorkTreeSnapshot> {
        let this = self.clone();
        tokio::task::spawn_blocking(move || this.watch.snapshot(&this.work_dir))
            .await
            .ok()
            .flatten()
    }

    /// The files touched since `before`, sorted; empty outside a git repository.
    pub async fn touched_since(&self, before: Option<WorkTreeSnapshot>) -> Vec<String> {
        let this = self.clone();
        tokio::task::spawn_blocking(move || {
            this.watch.touched_since(before.as_ref(), &this.work_dir)
        })
        .await
        .unwrap_or_default()
    }
}
