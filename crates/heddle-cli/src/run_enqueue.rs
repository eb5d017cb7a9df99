//! `heddle run --queue`: a run queued for a worker, its workflow named by its path in the
//! git repository workers clone.

use std::path::Path;
use std::time::SystemTime;

use heddle_api::RunLibrary;
use heddle_api::index::QueueEntry;
use heddle_api::run_queue::QueuedRun;
use heddle_engine::OsEntropy;
use heddle_engine::entropy::new_ulid;

/// Queues `run` of the workflow file `workflow`, as a new entry.
pub async fn enqueue(
    library: &RunLibrary,
    workflow: &Path,
    run: QueuedRun,
) -> Result<QueueEntry, String> {
    let now = SystemTime::now();
    let id = new_ulid(now, &OsEntropy::new());
    library
        .enqueue_workflow(workflow, &id, run, now)
        .await
        .map_err(|e| e.message)
}
