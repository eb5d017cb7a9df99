//! [`IndexFeed`]: the events of a run executed on another machine, read from the shared run
//! index its worker writes them to as they happen, then followed (woken by the index's
//! change notices, which reach every process on PostgreSQL) until the run ends.

use std::time::Duration;

use heddle_engine::RunStatus;
use heddle_store::{EventRecord, RunChange, Store};
use serde_json::Value;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use crate::error::ApiError;

/// How many events one read of the index hands out at most.
const BATCH: u32 = 1000;

/// How long the feed waits for a change notice before it looks at the index again.
const POLL: Duration = Duration::from_secs(1);

/// A run's events from the index, in order, from a sequence number.
#[derive(Debug)]
pub(crate) struct IndexFeed {
    index: Store,
    run_id: String,
    after_seq: u64,
    changes: broadcast::Receiver<RunChange>,
    ended: bool,
    until_now: bool,
}

impl IndexFeed {
    /// The events of run `run_id` (its full id) after `after_seq`.
    pub(crate) fn new(index: Store, run_id: String, after_seq: u64) -> Self {
        let changes = index.subscribe();
        IndexFeed {
            index,
            run_id,
            after_seq,
            changes,
            ended: false,
            until_now: false,
        }
    }

    /// Ends once the events indexed so far are handed out.
    pub(crate) fn until_now(mut self) -> Self {
        self.until_now = true;
        self
    }

    /// The seq of the last event handed out.
    pub(crate) fn last_seq(&self) -> u64 {
        self.after_seq
    }

    /// The next events, waiting for some if there are none yet; `None` once the run has
    /// ended and every event was handed out.
    pub(crate) async fn next_batch(&mut self) -> Option<Result<Vec<Value>, ApiError>> {
        loop {
            if self.ended {
                return None;
            }
            // Asked before reading: a run that had stopped then had every event indexed.
            let status = match self.index.run(&self.run_id).await {
                Ok(record) => record.status,
                Err(error) => return Some(Err(error.into())),
            };
            let after = i64::try_from(self.after_seq).unwrap_or(i64::MAX);
            let records = match self.index.events(&self.run_id, after, BATCH).await {
                Ok(records) => records,
                Err(error) => return Some(Err(error.into())),
            };
            let more = records.len() == BATCH as usize;
            if let Some(last) = records.last() {
                self.after_seq = u64::try_from(last.seq).unwrap_or(self.after_seq);
            }
            if !more && (status != RunStatus::Running || self.until_now) {
                self.ended = true;
            }
            if !records.is_empty() {
                let batch = records
                    .into_iter()
                    .map(|record| envelope_of(&self.run_id, record))
                    .collect();
                return Some(Ok(batch));
            }
            if self.ended {
                return None;
            }
            self.wait().await;
        }
    }

    /// Waits until the run may have more events indexed: a change notice for it, or
    /// [`POLL`] without one.
    async fn wait(&mut self) {
        let run_id = self.run_id.clone();
        let changes = &mut self.changes;
        let _ = tokio::time::timeout(POLL, async move {
            loop {
                match changes.recv().await {
                    Ok(change) if change.run_id == run_id => return,
                    Ok(_) => {}
                    Err(RecvError::Lagged(_)) => return,
                    Err(RecvError::Closed) => std::future::pending::<()>().await,
                }
            }
        })
        .await;
    }
}

/// An indexed event as the engine's envelope serializes it (what a run's progress.jsonl
/// line holds), so readers of the index and of the file get the same shape.
pub(crate) fn envelope_of(run_id: &str, record: EventRecord) -> Value {
    let mut envelope = serde_json::json!({
        "id": record.id,
        "ts": record.ts,
        "run_id": run_id,
        "seq": record.seq,
        "event": record.event,
        "properties": record.properties,
    });
    if let Some(node) = record.node_id {
        envelope["node_id"] = Value::String(node);
    }
    envelope
}
