//! The worker's side of a run it executes for the queue, relayed through the shared run
//! index every [`TICK`]: the run's new events (and state) are ingested, so any server
//! streams them; the gates it waits at are published, so any client lists them; and the
//! requests left for it (gate answers, cancels, see `run_elsewhere`) are taken and applied;
//! and, when a store shares run files, its folder's changes are sent there every two
//! seconds and once it stops.
//! An answer that arrives before its gate asks again (a worker that took the run over is
//! still replaying it) is kept for a while rather than refused.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::time::Duration;

use heddle_artifacts::shared::UploadMarks;
use heddle_artifacts::{BlobStore, SharedFiles};
use heddle_engine::control::{ControlRequest, GateBoard};
use heddle_engine::interviewer::Answer;
use heddle_engine::{CancelHandle, PreparedRun};
use heddle_store::Store;

/// How often the relay runs.
pub(crate) const TICK: Duration = Duration::from_millis(250);

/// How many ticks an answer whose gate is not waiting is kept (half a minute).
const KEEP_TICKS: u32 = 120;

/// Every how many ticks the run's files are sent to the shared store (two seconds).
const SHARE_EVERY: u32 = 8;

/// Where the run's files are shared.
pub(crate) struct Sharing {
    /// The store.
    pub files: SharedFiles,
    /// The blob store the run's blob refs point into.
    pub blobs: BlobStore,
}

/// An answer kept until its gate waits.
struct KeptAnswer {
    question_id: String,
    answer: Answer,
    ticks_left: u32,
}

/// Relays one run between its worker and the index.
pub(crate) struct Relay {
    index: Store,
    worker: String,
    run_id: String,
    folder: PathBuf,
    board: GateBoard,
    cancel: CancelHandle,
    /// The question ids published as waiting.
    published: BTreeSet<String>,
    kept: Vec<KeptAnswer>,
    sharing: Option<(Sharing, UploadMarks)>,
    ticks: u32,
}

impl Relay {
    /// The relay of `prepared`, executed by `worker`. Gates an earlier worker published
    /// for the run are withdrawn: they wait only if this worker's run asks them again.
    pub(crate) async fn start(
        index: Store,
        worker: &str,
        prepared: &PreparedRun,
        sharing: Option<Sharing>,
    ) -> Relay {
        let run_id = prepared.run_id().to_string();
        if let Err(error) = index.gates_closed(&run_id).await {
            tracing::warn!(run = %run_id, %error, "cannot withdraw the run's earlier gates");
        }
        Relay {
            index,
            worker: worker.to_string(),
            run_id,
            folder: prepared.run_dir().root().to_path_buf(),
            board: prepared.gates(),
            cancel: prepared.cancel_handle(),
            published: BTreeSet::new(),
            kept: Vec::new(),
            sharing: sharing.map(|s| (s, UploadMarks::default())),
            ticks: 0,
        }
    }

    /// One round: events to the index, gates published, requests applied. A failure is
    /// logged and tried again next round; the run goes on.
    pub(crate) async fn tick(&mut self) {
        if let Err(error) = self.index.ingest_run(&self.folder).await {
            tracing::warn!(run = %self.run_id, %error, "cannot index the run's progress");
        }
        self.publish_gates().await;
        self.apply_requests().await;
        self.ticks += 1;
        if self.ticks.is_multiple_of(SHARE_EVERY) {
            self.share_files().await;
        }
    }

    /// Sends what changed in the run's folder (and the blobs it names) to the shared store.
    async fn share_files(&mut self) {
        let Some((sharing, marks)) = &mut self.sharing else {
            return;
        };
        let sent = sharing
            .files
            .upload_run(&self.run_id, &self.folder, &sharing.blobs, marks)
            .await;
        if let Err(error) = sent {
            tracing::warn!(run = %self.run_id, %error, "cannot share the run's files");
        }
    }

    /// Withdraws the run's gates (it stopped executing here) and shares its last files; its
    /// last events are indexed by the caller.
    pub(crate) async fn finish(mut self) {
        self.share_files().await;
        if let Err(error) = self.index.gates_closed(&self.run_id).await {
            tracing::warn!(run = %self.run_id, %error, "cannot withdraw the run's gates");
        }
    }

    async fn publish_gates(&mut self) {
        let waiting = self.board.waiting();
        let now: BTreeSet<String> = waiting.iter().map(|q| q.id.clone()).collect();
        let new: Vec<_> = waiting
            .iter()
            .filter(|q| !self.published.contains(&q.id))
            .collect();
        for question in new {
            let published = match serde_json::to_string(question) {
                Ok(text) => {
                    self.index
                        .gate_waiting(&self.run_id, &self.worker, &question.id, &text)
                        .await
                }
                Err(error) => {
                    tracing::warn!(run = %self.run_id, %error, "cannot write the gate's question");
                    continue;
                }
            };
            match published {
                Ok(()) => {
                    self.published.insert(question.id.clone());
                }
                Err(error) => tracing::warn!(run = %self.run_id, %error, "cannot publish a gate"),
            }
        }
        let gone: Vec<String> = self.published.difference(&now).cloned().collect();
        for question_id in gone {
            match self.index.gate_closed(&self.run_id, &question_id).await {
                Ok(()) => {
                    self.published.remove(&question_id);
                }
                Err(error) => tracing::warn!(run = %self.run_id, %error, "cannot withdraw a gate"),
            }
        }
    }

    async fn apply_requests(&mut self) {
        let taken = match self.index.take_requests(&self.run_id).await {
            Ok(taken) => taken,
            Err(error) => {
                tracing::warn!(run = %self.run_id, %error, "cannot read the run's requests");
                Vec::new()
            }
        };
        let mut answers = std::mem::take(&mut self.kept);
        for request in taken {
            match serde_json::from_str::<ControlRequest>(&request.request) {
                Ok(ControlRequest::Answer {
                    question_id,
                    answer,
                }) => answers.push(KeptAnswer {
                    question_id,
                    answer,
                    ticks_left: KEEP_TICKS,
                }),
                Ok(ControlRequest::Cancel { reason }) => self.cancel.cancel(&reason),
                Err(error) => {
                    tracing::warn!(run = %self.run_id, %error, "a request for the run is unreadable");
                }
            }
        }
        for kept in answers {
            let waits = self
                .board
                .waiting()
                .iter()
                .any(|q| q.id == kept.question_id);
            if waits {
                if let Err(why) = self.board.answer(&kept.question_id, kept.answer) {
                    tracing::warn!(run = %self.run_id, why, "an answer from another machine was refused");
                }
            } else if kept.ticks_left > 0 {
                self.kept.push(KeptAnswer {
                    ticks_left: kept.ticks_left - 1,
                    ..kept
                });
            } else {
                tracing::warn!(
                    run = %self.run_id,
                    question = %kept.question_id,
                    "an answer from another machine was dropped: its gate never waited here"
                );
            }
        }
    }
}
