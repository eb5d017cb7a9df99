//! Reading the new part of a run's `progress.jsonl`: whole lines only from a byte offset (a
//! half-written last line is left for next time), each read as the engine's own
//! [`Envelope`]. A line that is not one (torn by a crash, or an event this version does not
//! know) is skipped and reported, never fatal.

use std::borrow::Cow;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use heddle_engine::Envelope;
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::error::{Result, StoreError};

/// One event line, read.
#[derive(Debug, Clone)]
pub(crate) struct ParsedEvent {
    /// The line (from 1) it was read from.
    pub line: u64,
    /// The envelope's seq, as the index stores it.
    pub seq: i64,
    /// The line's envelope and typed event.
    pub envelope: Envelope,
    /// The properties object as the line has it, stored as written.
    pub properties: Box<RawValue>,
}

impl ParsedEvent {
    /// The event's name (`stage.started`).
    pub fn name(&self) -> &'static str {
        self.envelope.event.name()
    }
}

/// A line that is not an event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CorruptLine {
    pub line: u64,
    pub message: String,
}

/// What was read past the previous position.
#[derive(Debug, Default)]
pub(crate) struct Tail {
    /// The events, in file order.
    pub events: Vec<ParsedEvent>,
    /// The new byte offset (after the last whole line).
    pub offset: u64,
    /// Whole lines consumed in total.
    pub lines: u64,
    /// The first line that was not an event (skipped).
    pub corrupt: Option<CorruptLine>,
    /// The file was shorter than the previous offset: it was replaced, read from the start.
    pub restarted: bool,
}

/// A line's envelope fields, with the event's name and its properties kept as written: one
/// pass over the line, after which only the properties are read again, into the typed event.
#[derive(Deserialize)]
struct RawLine<'a> {
    id: String,
    ts: String,
    run_id: String,
    seq: u64,
    #[serde(default)]
    node_id: Option<String>,
    #[serde(borrow)]
    event: Cow<'a, str>,
    #[serde(borrow)]
    properties: &'a RawValue,
}

/// The properties of a line, kept as written (the typed [`Envelope`] is read from the
/// same line).
#[derive(Deserialize)]
struct RawProperties<'a> {
    #[serde(borrow)]
    properties: &'a RawValue,
}

/// Reads `path` from byte `offset` (line `lines`), returning every whole new line checked.
/// A missing file reads as empty.
pub(crate) fn read_tail(path: &Path, offset: u64, lines: u64) -> Result<Tail> {
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Tail {
                offset,
                lines,
                ..Tail::default()
            });
        }
        Err(e) => return Err(StoreError::io(path, &e)),
    };
    let len = file.metadata().map_err(|e| StoreError::io(path, &e))?.len();
    let (offset, lines, restarted) = if len < offset {
        (0, 0, true)
    } else {
        (offset, lines, false)
    };
    let mut bytes = Vec::with_capacity(usize::try_from(len - offset).unwrap_or(0));
    file.seek(SeekFrom::Start(offset))
        .and_then(|_| file.read_to_end(&mut bytes))
        .map_err(|e| StoreError::io(path, &e))?;
    let mut tail = parse_lines(&bytes, lines);
    tail.offset += offset;
    tail.restarted = restarted;
    Ok(tail)
}

/// Parses the whole lines of `bytes` (which starts at a line boundary); `lines` is the count
/// of lines before it. The returned offset is relative to `bytes`.
pub(crate) fn parse_lines(bytes: &[u8], lines: u64) -> Tail {
    let mut tail = Tail {
        lines,
        ..Tail::default()
    };
    let mut start = 0usize;
    while let Some(end) = memchr_newline(&bytes[start..]).map(|n| start + n) {
        let raw = &bytes[start..end];
        tail.lines += 1;
        start = end + 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match parse_line(raw, tail.lines) {
            Ok(event) => tail.events.push(event),
            Err(message) => {
                if tail.corrupt.is_none() {
                    tail.corrupt = Some(CorruptLine {
                        line: tail.lines,
                        message,
                    });
                }
            }
        }
    }
    tail.offset = start as u64;
    tail
}

fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

fn parse_line(raw: &[u8], line: u64) -> Result<ParsedEvent, String> {
    let (envelope, properties) = match parse_fast(raw) {
        Some(parsed) => parsed,
        None => parse_whole(raw)?,
    };
    let seq = i64::try_from(envelope.seq)
        .ok()
        .filter(|seq| *seq >= 1)
        .ok_or_else(|| format!("seq {} is not a position from 1", envelope.seq))?;
    Ok(ParsedEvent {
        line,
        seq,
        envelope,
        properties,
    })
}

/// The envelope read in one pass over the line and one over its properties; `None` when the
/// line is not one (then [`parse_whole`] says why).
fn parse_fast(raw: &[u8]) -> Option<(Envelope, Box<RawValue>)> {
    let line: RawLine<'_> = serde_json::from_slice(raw).ok()?;
    // The event as its adjacently tagged form also reads: `[name, properties]`.
    let properties = line.properties.get();
    let mut tagged = Vec::with_capacity(line.event.len() + properties.len() + 8);
    tagged.push(b'[');
    serde_json::to_writer(&mut tagged, &*line.event).ok()?;
    tagged.push(b',');
    tagged.extend_from_slice(properties.as_bytes());
    tagged.push(b']');
    let event = serde_json::from_slice(&tagged).ok()?;
    let envelope = Envelope {
        id: line.id,
        ts: line.ts,
        run_id: line.run_id,
        seq: line.seq,
        node_id: line.node_id,
        event,
    };
    Some((envelope, line.properties.to_owned()))
}

/// The envelope read as the engine's type, then the properties as written.
fn parse_whole(raw: &[u8]) -> Result<(Envelope, Box<RawValue>), String> {
    let envelope: Envelope = serde_json::from_slice(raw).map_err(|e| e.to_string())?;
    // The envelope read, so `properties` is there and is an object.
    let properties = serde_json::from_slice::<RawProperties<'_>>(raw)
        .map(|p| p.properties.to_owned())
        .map_err(|e| e.to_string())?;
    Ok((envelope, properties))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::{parse_fast, parse_whole};

    #[test]
    fn one_pass_reads_what_the_engine_type_reads() {
        let lines = [
            r#"{"id":"01A","ts":"2026-01-01T00:00:00.001Z","run_id":"01R","seq":3,"node_id":"test","event":"stage.completed","properties":{"status":"fail","duration_ms":5,"visit":2,"attempts":1,"stage_dir":"nodes/test-visit_2"}}"#,
            r#"{"id":"01B","ts":"2026-01-01T00:00:00.002Z","run_id":"01R","seq":4,"event":"edge.selected","properties":{"from":"test","to":"fix","label":null,"condition":"outcome=fail","reason":"condition"}}"#,
            r#"{"properties":{"stream":"stdout","text":"a \"quoted\" line\n"},"event":"command.output","seq":5,"run_id":"01R","ts":"t","id":"01C","node_id":"fix"}"#,
        ];
        for line in lines {
            let fast = parse_fast(line.as_bytes()).unwrap();
            let whole = parse_whole(line.as_bytes()).unwrap();
            assert_eq!(fast.0, whole.0);
            assert_eq!(fast.1.get(), whole.1.get());
        }
    }

    #[test]
    fn a_line_one_pass_cannot_read_is_left_to_the_engine_type() {
        let unknown =
            r#"{"id":"01A","ts":"t","run_id":"01R","seq":1,"event":"no.such","properties":{}}"#;
        assert!(parse_fast(unknown.as_bytes()).is_none());
        assert!(parse_whole(unknown.as_bytes()).is_err());
    }
}
