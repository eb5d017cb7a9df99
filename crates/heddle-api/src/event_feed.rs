//! [`EventFeed`]: a run's events from a sequence number on, then followed as the run goes,
//! until it ends. A run whose folder is on this machine is read from its `progress.jsonl`
//! (the source of truth); a run a worker executes on another machine, from the shared run
//! index its worker writes the events to. Either way a subscriber that reconnects with the
//! last seq it saw loses and duplicates nothing.

use serde_json::Value;

use crate::error::ApiError;
use crate::index_feed::IndexFeed;
use crate::progress_feed::ProgressFeed;

/// A run's events, in order, from a sequence number.
#[derive(Debug)]
pub struct EventFeed {
    source: Source,
}

#[derive(Debug)]
enum Source {
    Progress(ProgressFeed),
    Index(IndexFeed),
}

impl EventFeed {
    pub(crate) fn from_progress(feed: ProgressFeed) -> Self {
        EventFeed {
            source: Source::Progress(feed),
        }
    }

    pub(crate) fn from_index(feed: IndexFeed) -> Self {
        EventFeed {
            source: Source::Index(feed),
        }
    }

    /// The feed ends once it has handed out the events written so far (`heddle events`
    /// without `--follow`), rather than waiting for the run to end.
    pub fn until_now(self) -> Self {
        let source = match self.source {
            Source::Progress(feed) => Source::Progress(feed.until_now()),
            Source::Index(feed) => Source::Index(feed.until_now()),
        };
        EventFeed { source }
    }

    /// How many lines of progress.jsonl were skipped because they were not events (the
    /// index skipped them already when the run is read from there).
    pub fn skipped_lines(&self) -> usize {
        match &self.source {
            Source::Progress(feed) => feed.skipped_lines(),
            Source::Index(_) => 0,
        }
    }

    /// The seq of the last event handed out.
    pub fn last_seq(&self) -> u64 {
        match &self.source {
            Source::Progress(feed) => feed.last_seq(),
            Source::Index(feed) => feed.last_seq(),
        }
    }

    /// The next events, waiting for some if there are none yet; `None` once the run has
    /// ended and every event was handed out.
    pub async fn next_batch(&mut self) -> Option<Result<Vec<Value>, ApiError>> {
        match &mut self.source {
            Source::Progress(feed) => feed.next_batch().await,
            Source::Index(feed) => feed.next_batch().await,
        }
    }

    /// Hands every event to `send` until the run ends, or until `send` returns false (the
    /// receiver went away).
    pub async fn forward(mut self, mut send: impl FnMut(Value) -> bool) -> Result<(), ApiError> {
        while let Some(batch) = self.next_batch().await {
            for event in batch? {
                if !send(event) {
                    return Ok(());
                }
            }
        }
        Ok(())
    }
}
