//! [`ProgressFeed`]: a run's events from a sequence number on, read from its `progress.jsonl`
//! (the source of truth, so a subscriber that reconnects with the last seq it saw loses and
//! duplicates nothing), then followed as the run writes more, until the run ends.

use std::io::{Read, Seek, SeekFrom};
use std::time::Duration;

use heddle_engine::{Envelope, RunDir, RunStatus};
use serde_json::Value;
use tokio::sync::watch;

use crate::error::{ApiError, ErrorCode};

/// How often a run executing in another process is polled for new events.
const POLL: Duration = Duration::from_millis(200);

/// A run's events, in order, from a sequence number.
#[derive(Debug)]
pub(crate) struct ProgressFeed {
    run_dir: RunDir,
    after_seq: u64,
    offset: u64,
    /// The in-process run's latest seq (closed when it ends); `None` for other runs.
    live: Option<watch::Receiver<u64>>,
    /// Lines of progress.jsonl that were not events (a line torn by a crash or a full disk,
    /// or an event this version does not know), skipped as the run index skips them.
    skipped_lines: usize,
    /// Whether the last event read ends the run.
    final_seen: bool,
    ended: bool,
    /// End after handing out what the file holds now, instead of following the run.
    until_now: bool,
}

impl ProgressFeed {
    pub(crate) fn new(run_dir: RunDir, after_seq: u64, live: Option<watch::Receiver<u64>>) -> Self {
        ProgressFeed {
            run_dir,
            after_seq,
            offset: 0,
            live,
            skipped_lines: 0,
            final_seen: false,
            ended: false,
            until_now: false,
        }
    }

    /// The feed ends once it has handed out the events written so far (`heddle events`
    /// without `--follow`), rather than waiting for the run to end.
    pub(crate) fn until_now(mut self) -> Self {
        self.until_now = true;
        self
    }

    /// How many lines of progress.jsonl were skipped because they were not events.
    pub(crate) fn skipped_lines(&self) -> usize {
        self.skipped_lines
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
            let last = lines.len().saturating_sub(1);
            for (i, line) in lines.into_iter().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                // A line before `after_seq` is passed over without parsing it (following a
                // long run's tail from its 100,000th event reads the file once, cheaply);
                // the last line is always read, as it may end the run.
                if i < last && stated_seq(&line).is_some_and(|seq| seq <= self.after_seq) {
                    continue;
                }
                // A line cut short by a crash (the next writer ends it with a newline and
                // goes on), or an event this version does not know, is skipped, never the
                // end of the stream. What is handed out is the engine's own envelope, so
                // subscribers get exactly the shape of the generated `RunEvent` type.
                let Some((envelope, value)) = typed(&line) else {
                    self.skipped_lines += 1;
                    continue;
                };
                self.final_seen = envelope.event.ends_run();
                if envelope.seq > self.after_seq {
                    self.after_seq = envelope.seq;
                    batch.push(value);
                }
            }
            // A run that ended (and is not executing here again) has nothing more to say, nor
            // has one whose process stopped without ending it (killed; resuming it starts a
            // new stream).
            let running_here = self.live.as_ref().is_some_and(|l| l.has_changed().is_ok());
            if (self.final_seen && !running_here) || stopped || self.until_now {
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

/// The `seq` an event line states (its first `"seq":` key: the envelope's, which the engine
/// writes before the event's properties), read without parsing the line.
fn stated_seq(line: &str) -> Option<u64> {
    let start = line.find("\"seq\":")? + "\"seq\":".len();
    let rest = line[start..].trim_start();
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// The line read as the engine's envelope, and as the JSON it serializes to.
fn typed(line: &str) -> Option<(Envelope, Value)> {
    let envelope: Envelope = serde_json::from_str(line).ok()?;
    let value = serde_json::to_value(&envelope).ok()?;
    Some((envelope, value))
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
    use heddle_engine::Event;

    use super::*;

    /// Event `seq` of run "R" as the engine writes it, a line of progress.jsonl.
    fn line(seq: u64, event: Event) -> String {
        let envelope = Envelope {
            id: format!("E{seq}"),
            ts: "2026-01-01T00:00:00.000Z".into(),
            run_id: "R".into(),
            seq,
            node_id: None,
            event,
        };
        format!("{}\n", serde_json::to_string(&envelope).unwrap())
    }

    fn warning() -> Event {
        Event::Warning {
            message: "m".into(),
        }
    }

    #[tokio::test]
    async fn a_torn_line_is_skipped_and_later_events_still_arrive() {
        let tmp = tempfile::tempdir().unwrap();
        let run_dir = RunDir::at(tmp.path());
        let text = [
            line(1, warning()),
            // Killed mid-write; the resumed run ended the line and went on.
            "{\"seq\":2,\"event\":\"stage.sta\n".to_owned(),
            // Written by a newer version: an event this one does not know.
            "{\"id\":\"E3\",\"ts\":\"t\",\"run_id\":\"R\",\"seq\":3,\"event\":\"stage.paused\",\"properties\":{}}\n"
                .to_owned(),
            line(4, warning()),
            line(
                5,
                Event::RunCompleted {
                    duration_ms: 1,
                    stages: 0,
                },
            ),
        ]
        .concat();
        std::fs::write(run_dir.progress(), text).unwrap();
        let mut feed = ProgressFeed::new(run_dir, 0, None);
        let mut seqs = Vec::new();
        while let Some(batch) = feed.next_batch().await {
            for event in batch.unwrap() {
                seqs.push(event["seq"].as_u64().unwrap());
            }
        }
        assert_eq!(seqs, vec![1, 4, 5]);
        assert_eq!(feed.skipped_lines(), 2);
    }

    #[test]
    fn the_seq_a_line_states_is_read_without_parsing_it() {
        let line = r#"{"id":"E","ts":"t","run_id":"R","seq":1234,"event":"warning","properties":{"message":"\"seq\":9"}}"#;
        assert_eq!(stated_seq(line), Some(1234));
        assert_eq!(stated_seq(r#"{"seq": 7}"#), Some(7));
        assert_eq!(stated_seq(r#"{"seq":"x"}"#), None);
        assert_eq!(stated_seq("torn"), None);
    }

    #[tokio::test]
    async fn a_feed_from_a_seq_hands_out_only_later_events_and_ends_with_the_run() {
        let tmp = tempfile::tempdir().unwrap();
        let run_dir = RunDir::at(tmp.path());
        let mut text: String = (1..=500).map(|seq| line(seq, warning())).collect();
        text.push_str(&line(
            501,
            Event::RunCompleted {
                duration_ms: 1,
                stages: 0,
            },
        ));
        std::fs::write(run_dir.progress(), &text).unwrap();
        // The tail after the 498th: the last three, the run's end among them.
        let mut feed = ProgressFeed::new(run_dir.clone(), 498, None).until_now();
        let mut seqs = Vec::new();
        while let Some(batch) = feed.next_batch().await {
            seqs.extend(batch.unwrap().iter().map(|e| e["seq"].as_u64().unwrap()));
        }
        assert_eq!(seqs, vec![499, 500, 501]);
        // From the last event on: nothing, and the feed still ends (the run did).
        let mut feed = ProgressFeed::new(run_dir, 501, Some(tokio::sync::watch::channel(501).1));
        let next = tokio::time::timeout(Duration::from_secs(5), feed.next_batch()).await;
        assert!(matches!(next, Ok(None)), "{next:?}");
    }
}
