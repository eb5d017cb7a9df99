//! timeline.jsonl: the growing half of a run's checkpoint. Each finished stage, log line,
//! late correction and change of the keyed state ([`crate::checkpoint_state`]) is one JSON
//! line appended after the stage, so a checkpoint costs the same at stage 20,000 as at stage
//! 1; checkpoint.json names how many bytes of this file it covers
//! ([`crate::Checkpoint::history_bytes`]).
//!
//! Crash safety: lines are appended (and flushed with the checkpoint's fsync) before
//! checkpoint.json is replaced, so a checkpoint never names bytes that were not written.
//! Bytes past the covered length (a crash between the two writes) are ignored and cut off
//! when the run resumes; a torn last line (a partial write) is skipped, never an error.
//! From format 4 on a run ends each stage's append with a `head` line, checkpoint.json as
//! of that stage (with git checkpoints a second one naming the commit follows once it is
//! made): the line is what makes the stage count, and checkpoint.json is rewritten only
//! every [`HEAD_EVERY`] stages and when the run ends or stops. Readers apply the lines past checkpoint.json's covered length up to the last
//! `head` line ([`History::parse_journaled`]).

use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::checkpoint::{Checkpoint, StageRecord};
use crate::checkpoint_state::{KeyedState, StateChange};
use crate::error::EngineError;

/// The file's name in the run directory (next to checkpoint.json).
pub const TIMELINE_FILE: &str = "timeline.jsonl";

/// How many stages a run goes between rewrites of checkpoint.json
/// (its `head` lines in timeline.jsonl carry it meanwhile).
pub const HEAD_EVERY: usize = 64;

/// One line of timeline.jsonl.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HistoryLine {
    /// A finished stage: the next entry of the timeline (its node also counts as completed).
    Stage(Box<StageRecord>),
    /// A human-readable log line of the run (warnings, restarts).
    Log(String),
    /// The files a stage changed, as its git checkpoint found them after the stage's own
    /// line was written; `stage` is the stage's position in the timeline, from 0.
    FilesTouched {
        /// Position of the stage in the timeline, from 0.
        stage: usize,
        /// Paths relative to the work tree.
        files: Vec<String>,
    },
    /// How the keyed state (visits, retries, outcomes, context) changed at a checkpoint
    /// (format 3 on).
    State(Box<StateChange>),
    /// checkpoint.json as of the end of the stage whose lines come before it (format 4 on):
    /// the line that makes a stage's append count, so checkpoint.json need not be rewritten
    /// after every stage ([`History::parse_journaled`]).
    Head(Box<Checkpoint>),
}

/// The last `head` line of timeline.jsonl past what checkpoint.json covers, and where it
/// ends in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct JournaledHead {
    /// The checkpoint's head (no history, no keyed state).
    pub head: Checkpoint,
    /// The file's length up to and with the line.
    pub end: u64,
}

impl JournaledHead {
    /// The checkpoint this head stands for, as checkpoint.json would hold it (covering the
    /// file up to the line).
    pub fn into_checkpoint(self) -> Checkpoint {
        Checkpoint {
            history_bytes: Some(self.end),
            ..self.head
        }
    }
}

/// The groups of lines of `text` past its first `bytes` bytes that a `head` line closes,
/// in order, each with its head. Lines after the last head are left out, and everything
/// from a line that does not parse or does not end.
fn closed_groups(text: &[u8], bytes: u64) -> Vec<(Vec<HistoryLine>, JournaledHead)> {
    let mut start = usize::try_from(bytes).unwrap_or(usize::MAX).min(text.len());
    let mut groups = Vec::new();
    let mut pending = Vec::new();
    while let Some(length) = text[start..].iter().position(|b| *b == b'\n') {
        let end = start + length + 1;
        let line = &text[start..end - 1];
        start = end;
        if line.is_empty() {
            continue;
        }
        match serde_json::from_slice::<HistoryLine>(line) {
            Ok(HistoryLine::Head(head)) => groups.push((
                std::mem::take(&mut pending),
                JournaledHead {
                    head: *head,
                    end: end as u64,
                },
            )),
            Ok(line) => pending.push(line),
            Err(_) => break,
        }
    }
    groups
}

/// The history timeline.jsonl holds, with its corrections applied.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// Every stage executed, in order.
    pub timeline: Vec<StageRecord>,
    /// The run's log lines, in order.
    pub logs: Vec<String>,
    /// The keyed state the `state` lines add up to; `None` when there were none (format 2:
    /// checkpoint.json holds it).
    pub state: Option<KeyedState>,
}

impl History {
    /// Applies one line.
    pub fn apply(&mut self, line: HistoryLine) {
        match line {
            HistoryLine::Stage(record) => self.timeline.push(*record),
            HistoryLine::Log(message) => self.logs.push(message),
            HistoryLine::FilesTouched { stage, files } => {
                if let Some(record) = self.timeline.get_mut(stage) {
                    record.files_touched = files;
                }
            }
            HistoryLine::State(change) => self.state.get_or_insert_default().apply(*change),
            // What a head says is read by `parse_journaled`.
            HistoryLine::Head(_) => {}
        }
    }

    /// [`History::parse`], then the lines past `bytes` in groups: each group a `head` line
    /// closes is applied, and the last such head is returned with where it ends. Lines
    /// after the last head (a stage whose append was cut short) are ignored, as is
    /// everything from a line that does not parse or does not end.
    pub fn parse_journaled(text: &[u8], bytes: u64) -> (History, Option<JournaledHead>) {
        let mut history = History::parse(text, bytes);
        let mut last = None;
        for (lines, head) in closed_groups(text, bytes) {
            for line in lines {
                history.apply(line);
            }
            last = Some(head);
        }
        (history, last)
    }

    /// The last `head` line of `text` past its first `bytes` bytes that closes a group, as
    /// [`History::parse_journaled`] finds it, without reading the history before.
    pub fn last_head(text: &[u8], bytes: u64) -> Option<JournaledHead> {
        closed_groups(text, bytes).pop().map(|(_, head)| head)
    }

    /// Reads the first `bytes` bytes of the history text `text` (the whole text when
    /// shorter). A line that does not parse ends the history there: it can only be the
    /// torn last line of an interrupted write.
    pub fn parse(text: &[u8], bytes: u64) -> History {
        let end = usize::try_from(bytes).unwrap_or(usize::MAX).min(text.len());
        let mut history = History::default();
        for line in text[..end].split(|b| *b == b'\n') {
            if line.is_empty() {
                continue;
            }
            match serde_json::from_slice::<HistoryLine>(line) {
                Ok(parsed) => history.apply(parsed),
                Err(_) => break,
            }
        }
        history
    }

    /// Reads the file at `path` as [`History::parse_journaled`] does; a missing file reads
    /// as an empty history.
    pub fn read_journaled(
        path: &Path,
        bytes: u64,
    ) -> Result<(History, Option<JournaledHead>), EngineError> {
        match std::fs::read(path) {
            Ok(text) => Ok(History::parse_journaled(&text, bytes)),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok((History::default(), None)),
            Err(e) => Err(EngineError::io(path, &e)),
        }
    }

    /// History as timeline.jsonl text: stages, then log lines, then the state change
    /// when there is one.
    pub fn to_text(
        timeline: &[StageRecord],
        logs: &[String],
        state: Option<StateChange>,
    ) -> Result<Vec<u8>, EngineError> {
        let mut text = Vec::new();
        for record in timeline {
            push_line(&mut text, &HistoryLine::Stage(Box::new(record.clone())))?;
        }
        for message in logs {
            push_line(&mut text, &HistoryLine::Log(message.clone()))?;
        }
        if let Some(change) = state {
            push_line(&mut text, &HistoryLine::State(Box::new(change)))?;
        }
        Ok(text)
    }
}

/// Appends `line` as one JSON line to `text`.
pub fn push_line(text: &mut Vec<u8>, line: &HistoryLine) -> Result<(), EngineError> {
    serde_json::to_writer(&mut *text, line).map_err(|e| EngineError::Io {
        path: TIMELINE_FILE.into(),
        message: e.to_string(),
    })?;
    text.push(b'\n');
    Ok(())
}

/// Appends `text` (whole lines) to the file at `path`, which must be `at` bytes long (it is
/// cut back to `at` first when a crash left more); flushed to disk when `sync`. Returns the
/// new length.
pub fn append(path: &Path, at: u64, text: &[u8], sync: bool) -> Result<u64, EngineError> {
    let io = |e: std::io::Error| EngineError::io(path, &e);
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    if len != at {
        file.set_len(at.min(len)).map_err(io)?;
    }
    let start = at.min(len);
    std::io::Seek::seek(&mut file, std::io::SeekFrom::Start(start)).map_err(io)?;
    file.write_all(text).map_err(io)?;
    if sync {
        file.sync_data().map_err(io)?;
    }
    Ok(start + text.len() as u64)
}

/// Flushes the file at `path` to disk (appends made without `sync`).
pub fn flush(path: &Path) -> Result<(), EngineError> {
    OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|file| file.sync_data())
        .map_err(|e| EngineError::io(path, &e))
}

/// The length of the file at `path` cut back to `bytes` (a resumed run continues from the
/// checkpoint's end of history) and to its last whole line; 0 when it is missing.
pub fn reopen(path: &Path, bytes: u64) -> Result<u64, EngineError> {
    let io = |e: std::io::Error| EngineError::io(path, &e);
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(io(e)),
    };
    let end = usize::try_from(bytes).unwrap_or(usize::MAX).min(text.len());
    let whole = text[..end]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i + 1);
    if whole != text.len() {
        let file = OpenOptions::new().write(true).open(path).map_err(io)?;
        file.set_len(whole as u64).map_err(io)?;
    }
    Ok(whole as u64)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn log(text: &str) -> Vec<u8> {
        let mut out = Vec::new();
        push_line(&mut out, &HistoryLine::Log(text.into())).unwrap();
        out
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_bytes_past_the_checkpoint_are_ignored() {
        let mut text = log("one");
        let covered = text.len() as u64;
        text.extend(log("two"));
        assert_eq!(History::parse(&text, covered).logs, ["one"]);
        assert_eq!(History::parse(&text, u64::MAX).logs, ["one", "two"]);
        text.extend_from_slice(b"{\"log\":\"thr");
        assert_eq!(History::parse(&text, u64::MAX).logs, ["one", "two"]);
    }

    fn head(node: &str) -> Vec<u8> {
        let mut checkpoint: Checkpoint = serde_json::from_str(
            r#"{"run_id":"r","timestamp":"t","current_node":null,"next_node_id":null}"#,
        )
        .unwrap();
        checkpoint.current_node = Some(node.into());
        let mut out = Vec::new();
        push_line(
            &mut out,
            &HistoryLine::Head(Box::new(checkpoint.head_line())),
        )
        .unwrap();
        out
    }

    #[test]
    fn past_the_checkpoint_only_what_a_head_line_closes_counts() {
        let mut text = log("one");
        let covered = text.len() as u64;
        text.extend(log("two"));
        text.extend(head("b"));
        let closed = text.len() as u64;
        // A stage whose append was cut short: its lines, no head.
        text.extend(log("three"));
        let (history, last) = History::parse_journaled(&text, covered);
        assert_eq!(history.logs, ["one", "two"]);
        let last = last.unwrap();
        assert_eq!(last.head.current_node.as_deref(), Some("b"));
        assert_eq!(last.end, closed);
        // A torn head line closes nothing.
        let mut torn = text.clone();
        let next = head("c");
        torn.extend_from_slice(&next[..next.len() - 5]);
        assert_eq!(
            History::parse_journaled(&torn, covered),
            History::parse_journaled(&text, covered)
        );
        // Nothing past the checkpoint: the checkpoint stands.
        let (history, last) = History::parse_journaled(&log("one"), covered);
        assert_eq!(history.logs, ["one"]);
        assert!(last.is_none());
    }

    #[test]
    fn reopening_cuts_to_the_checkpoint_and_to_whole_lines() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join(TIMELINE_FILE);
        let first = append(&path, 0, &log("one"), false).unwrap();
        append(&path, first, b"{\"log\":\"to", false).unwrap();
        assert_eq!(reopen(&path, u64::MAX).unwrap(), first);
        assert_eq!(std::fs::read(&path).unwrap(), log("one"));
        let next = append(&path, first, &log("two"), true).unwrap();
        assert_eq!(
            History::read_journaled(&path, next).unwrap().0.logs,
            ["one".to_string(), "two".to_string()]
        );
    }
}
