//! [`EventFeed`]: a run's events from a sequence number on, read from its `progress.jsonl`
//! (the source of truth, so a subscriber that reconnects with the last seq it saw loses and
//! duplicates nothing), then followed as the run writes more, until the run ends.

use std::io::{Read, Seek, SeekFrom};
use std::time::Duration;

use heddle_engine::{RunDir, RunStatus};
use serde_json::Value;
use tokio::sync::watch;

use crate::error::{ApiError, ErrorCode};

/// How often a run executing in another process is polled for new events.
const POLL: Duration = Duration::from_millis(200);

/// Events that end a run's stream.
const FINAL_EVENTS: &[&str] = &["run.completed", "run.failed", "run.cancelled"];

/// A run's events, in order, from a sequence number.
#[derive(Debug)]
pub struct EventFeed {
    run_dir: RunDir,
    after_seq: u64,
    offset: u64,
    /// The in-process run's latest seq (closed when it ends); `None` for other runs.
    live: Option<watch::Receiver<u64>>,
    /// Lines of progress.jsonl that were not events (a line torn by a crash or a full disk),
    /// skipped as the run index skips them.
    skipped_lines: usize,
    /// Whether the last event read ends the run.
    final_seen: bool,
    ended: bool,
}

impl EventFeed {
    pub(crate) fn new(run_dir: RunDir, after_seq: u64, live: Option<watch::Receiver<u64>>) -> Self {
        EventFeed {
            run_dir,
            after_seq,
            offset: 0,
            live,
            skipped_lines: 0,
            final_seen: false,
            ended: false,
        }
    }

    /// How many lines of progress.jsonl were skipped because they were not events.
    pub fn skipped_lines(&self) -> usize {
        self.skipped_lines
    }

    /// The seq of the last event handed out.
    pub fn last_seq(&self) -> u64 {
        self.after_seq
    }

    /// The next events, waiting for some if there are none yet; `None` once the run has
    /// ended and every event was handed out.
    pub async fn next_batch(&mut self) -> Option<Result<Vec<Value>, ApiError>> {
        loop {
            if self.ended {
                return None;
            }
            let run_dir = self.run_dir.clone();
            let offset = self.offset;
            let elsewhere = self.live.is_none();
            let read = tokio::task::spawn_blocking(move || {
                // Asked before reading: a run that had stopped then wrote everything first.
                let stopped = elsewhere && run_dir.status() != RunStatus::Running;
                read_from(&run_dir.progress(), offset).map(|(lines, at)| (lines, at, stopped))
            })
            .await;
            let (lines, offset, stopped) = match read {
                Ok(Ok(found)) => found,
                Ok(Err(error)) => return Some(Err(error)),
                Err(error) => return Some(Err(ApiError::new(ErrorCode::Io, error.to_string()))),
            };
            self.offset = offset;
            let mut batch = Vec::new();
            for line in lines {
                if line.trim().is_empty() {
                    continue;
                }
                // A line cut short by a crash (the next writer ends it with a newline and
                // goes on) is not an event: skipped, never the end of the stream.
                let Ok(event) = serde_json::from_str::<Value>(&line) else {
                    self.skipped_lines += 1;
                    continue;
                };
                let seq = event["seq"].as_u64().unwrap_or(0);
                self.final_seen = event["event"]
                    .as_str()
                    .is_some_and(|name| FINAL_EVENTS.contains(&name));
                if seq > self.after_seq {
                    self.after_seq = seq;
                    batch.push(event);
                }
            }
            // A run that ended (and is not executing here again) has nothing more to say, nor
            // has one whose process stopped without ending it (killed; resuming it starts a
            // new stream).
            let running_here = self.live.as_ref().is_some_and(|l| l.has_changed().is_ok());
            if (self.final_seen && !running_here) || stopped {
                self.ended = true;
            }
            if !batch.is_empty() {
                return Some(Ok(batch));
            }
            if self.ended {
                return None;
            }
            self.wait().await;
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

    /// Waits until the run may have written more.
    async fn wait(&mut self) {
        match &mut self.live {
            Some(live) => {
                let changed = tokio::time::timeout(POLL * 5, live.changed()).await;
                if matches!(changed, Ok(Err(_))) {
                    // The run's task ended: one more read picks up its last events.
                    self.live = None;
                }
            }
            None => tokio::time::sleep(POLL).await,
        }
    }
}

/// Whole lines of `path` from byte `offset` (a half-written last line is left for later);
/// the offset after them.
fn read_from(path: &std::path::Path, offset: u64) -> Result<(Vec<String>, u64), ApiError> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((Vec::new(), offset)),
        Err(e) => return Err(ApiError::from_io(path, &e)),
    };
    file.seek(SeekFrom::Start(offset))
        .map_err(|e| ApiError::from_io(path, &e))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)
        .map_err(|e| ApiError::from_io(path, &e))?;
    let Some(end) = bytes.iter().rposition(|b| *b == b'\n') else {
        return Ok((Vec::new(), offset));
    };
    let text = String::from_utf8_lossy(&bytes[..end]);
    let lines = text.split('\n').map(str::to_string).collect();
    Ok((lines, offset + end as u64 + 1))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_torn_line_is_skipped_and_later_events_still_arrive() {
        let tmp = tempfile::tempdir().unwrap();
        let run_dir = RunDir::at(tmp.path());
        let event = |seq: u64, name: &str| format!("{{\"seq\":{seq},\"event\":\"{name}\"}}\n");
        let text = [
            event(1, "run.started"),
            // Killed mid-write; the resumed run ended the line and went on.
            "{\"seq\":2,\"event\":\"stage.sta\n".to_owned(),
            event(3, "stage.started"),
            event(4, "run.completed"),
        ]
        .concat();
        std::fs::write(run_dir.progress(), text).unwrap();
        let mut feed = EventFeed::new(run_dir, 0, None);
        let mut seqs = Vec::new();
        while let Some(batch) = feed.next_batch().await {
            for event in batch.unwrap() {
                seqs.push(event["seq"].as_u64().unwrap());
            }
        }
        assert_eq!(seqs, vec![1, 3, 4]);
        assert_eq!(feed.skipped_lines(), 1);
    }
}
