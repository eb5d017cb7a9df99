//! The output of a command: each stream copied to its log file and to `command.output`
//! events as it arrives ([`pump`]), both up to [`OutputLimits`] so a runaway writer cannot
//! fill the disk or the event log, its last [`KEEP_BYTES`] kept in memory ([`Captured`]),
//! events never split inside a UTF-8 character.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{GRACE, KEEP_BYTES};
use crate::emitter::NodeEvents;
use crate::event::{Event, Stream};

/// How much of each stream (stdout, stderr) a command stage keeps: what goes past the
/// limits is still read (the process never blocks on a full pipe) and counted, and the
/// last [`KEEP_BYTES`] still reach the context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputLimits {
    /// Bytes written to the stream's log file; a closing line says how many more there were.
    pub log_bytes: u64,
    /// Bytes sent live as `command.output` events (these also go to `progress.jsonl`).
    pub event_bytes: u64,
}

impl OutputLimits {
    /// 64 MiB per log file, 4 MiB of live events per stream.
    pub const DEFAULT: OutputLimits = OutputLimits {
        log_bytes: 64 * 1024 * 1024,
        event_bytes: 4 * 1024 * 1024,
    };
}

impl Default for OutputLimits {
    fn default() -> Self {
        OutputLimits::DEFAULT
    }
}

/// What a stream produced: its last bytes, how many there were, how many the log left out.
#[derive(Default)]
pub(super) struct Captured {
    tail: Vec<u8>,
    total: u64,
    /// Bytes past [`OutputLimits::log_bytes`], read but not written to the log.
    pub(super) not_logged: u64,
    pub(super) write_error: Option<String>,
}

impl Captured {
    fn push(&mut self, chunk: &[u8]) {
        self.tail.extend_from_slice(chunk);
        self.total += chunk.len() as u64;
        if self.tail.len() > 2 * KEEP_BYTES {
            self.tail.drain(..self.tail.len() - KEEP_BYTES);
        }
    }

    /// Every byte the stream produced.
    pub(super) fn total(&self) -> u64 {
        self.total
    }

    /// The kept text; when output was cut, a first line says how much and where it all is.
    pub(super) fn text(&self, log_name: &str) -> String {
        let start = self.tail.len().saturating_sub(KEEP_BYTES);
        let start = start
            + self.tail[start..]
                .iter()
                .take_while(|b| **b & 0xC0 == 0x80)
                .count();
        let text = String::from_utf8_lossy(&self.tail[start..]);
        let cut = self.total - (self.tail.len() - start) as u64;
        if cut == 0 {
            text.into_owned()
        } else if self.not_logged == 0 {
            format!("[{cut} bytes cut; the full output is in {log_name}]\n{text}")
        } else {
            let logged = self.total - self.not_logged;
            format!("[{cut} bytes cut; the first {logged} bytes are in {log_name}]\n{text}")
        }
    }
}

/// Length of the longest prefix of `bytes` that does not end inside a UTF-8 character.
fn complete_utf8_len(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let byte = bytes[len - back];
        if byte & 0xC0 == 0x80 {
            continue;
        }
        let needed = match byte {
            0xF0.. => 4,
            0xE0.. => 3,
            0xC0.. => 2,
            _ => 1,
        };
        return if needed > back { len - back } else { len };
    }
    len
}

/// Copies one stream to its log file and to events as it arrives, up to `limits`, keeping
/// its tail.
async fn pump(
    reader: Option<Box<dyn AsyncRead + Unpin + Send>>,
    (mut log, log_path): (std::fs::File, PathBuf),
    stream: Stream,
    limits: OutputLimits,
    events: NodeEvents,
    stop: CancellationToken,
) -> Captured {
    let mut captured = Captured::default();
    let Some(mut reader) = reader else {
        return captured;
    };
    let mut buf = vec![0u8; 16 * 1024];
    let log_name = log_path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut live = LiveEvents::new(stream, limits.event_bytes, log_name, events);
    let mut write = |bytes: &[u8], captured: &mut Captured| {
        if let Err(e) = log.write_all(bytes).and_then(|()| log.flush())
            && captured.write_error.is_none()
        {
            captured.write_error = Some(format!(
                "{}: {}",
                log_path.display(),
                crate::describe_io(&e)
            ));
        }
    };
    loop {
        // The stop comes first: a stream that is always readable (something that escaped
        // the process group and keeps writing) must not keep the reader going.
        let read = tokio::select! {
            biased;
            () = stop.cancelled() => break,
            read = reader.read(&mut buf) => read,
        };
        let chunk = match read {
            Ok(0) | Err(_) => break,
            Ok(n) => &buf[..n],
        };
        let room = limits.log_bytes.saturating_sub(captured.total);
        let logged = chunk.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        if logged > 0 {
            write(&chunk[..logged], &mut captured);
        }
        captured.not_logged += (chunk.len() - logged) as u64;
        captured.push(chunk);
        live.push(chunk);
    }
    live.finish();
    if captured.not_logged > 0 {
        let note = format!(
            "\n[heddle: the log stops at {} bytes; {} more bytes were read and not kept]\n",
            limits.log_bytes, captured.not_logged
        );
        write(note.as_bytes(), &mut captured);
    }
    captured
}

/// The `command.output` events of one stream: whole UTF-8 characters, at most `limit`
/// bytes, then one line saying the live output stops there.
struct LiveEvents {
    stream: Stream,
    limit: u64,
    log_name: String,
    sent: u64,
    pending: Vec<u8>,
    stopped: bool,
    events: NodeEvents,
}

impl LiveEvents {
    fn new(stream: Stream, limit: u64, log_name: String, events: NodeEvents) -> LiveEvents {
        LiveEvents {
            stream,
            limit,
            log_name,
            sent: 0,
            pending: Vec::new(),
            stopped: false,
            events,
        }
    }

    fn emit(&self, text: String) {
        self.events.emit(Event::CommandOutput {
            stream: self.stream,
            text,
        });
    }

    fn push(&mut self, chunk: &[u8]) {
        if self.stopped {
            return;
        }
        let room = self
            .limit
            .saturating_sub(self.sent + self.pending.len() as u64);
        let taken = chunk.len().min(usize::try_from(room).unwrap_or(usize::MAX));
        self.pending.extend_from_slice(&chunk[..taken]);
        let complete = complete_utf8_len(&self.pending);
        if complete > 0 {
            self.emit(String::from_utf8_lossy(&self.pending[..complete]).into_owned());
            self.sent += complete as u64;
            self.pending.drain(..complete);
        }
        if taken < chunk.len() {
            self.stopped = true;
            self.pending.clear();
            self.emit(format!(
                "\n[heddle: live output stops after {} bytes; the rest is in {}]\n",
                self.limit, self.log_name
            ));
        }
    }

    fn finish(self) {
        if !self.pending.is_empty() {
            self.emit(String::from_utf8_lossy(&self.pending).into_owned());
        }
    }
}

/// Starts [`pump`] on a task of its own for `reader` (a child's stdout or stderr), copying
/// to `log` (the open file and its path).
pub(super) fn spawn_pump(
    reader: Option<impl AsyncRead + Unpin + Send + 'static>,
    log: (std::fs::File, PathBuf),
    stream: Stream,
    limits: OutputLimits,
    events: &NodeEvents,
    stop: &CancellationToken,
) -> JoinHandle<Captured> {
    let reader = reader.map(|r| Box::new(r) as Box<dyn AsyncRead + Unpin + Send>);
    tokio::spawn(pump(
        reader,
        log,
        stream,
        limits,
        events.clone(),
        stop.clone(),
    ))
}

/// What both readers captured. They get [`GRACE`] to reach the end of their streams, then
/// are stopped: something that escaped the group may hold a pipe open.
pub(super) async fn collect(
    out: JoinHandle<Captured>,
    err: JoinHandle<Captured>,
    stop: &CancellationToken,
) -> (Captured, Captured) {
    if tokio::time::timeout(GRACE, async {
        while !(out.is_finished() && err.is_finished()) {
            tokio::time::sleep(Duration::from_millis(10)).await
        }
    })
    .await
    .is_err()
    {
        stop.cancel();
    }
    (finish(out).await, finish(err).await)
}

/// A reader's capture; one that does not stop within [`GRACE`] after being told to is
/// aborted rather than waited for.
async fn finish(handle: JoinHandle<Captured>) -> Captured {
    let abort = handle.abort_handle();
    match tokio::time::timeout(GRACE, handle).await {
        Ok(joined) => joined.unwrap_or_default(),
        Err(_) => {
            abort.abort();
            Captured::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_prefix_stops_before_a_partial_character() {
        let euro = "€".as_bytes(); // 3 bytes
        assert_eq!(complete_utf8_len(b"abc"), 3);
        assert_eq!(complete_utf8_len(&[b'a', euro[0]]), 1);
        assert_eq!(complete_utf8_len(&[b'a', euro[0], euro[1]]), 1);
        assert_eq!(complete_utf8_len(&[b'a', euro[0], euro[1], euro[2]]), 4);
        assert_eq!(complete_utf8_len(&[0x80, 0x80, 0x80, 0x80]), 4);
        assert_eq!(complete_utf8_len(&[]), 0);
    }

    #[test]
    fn captured_keeps_the_tail_and_says_what_was_cut() {
        let mut captured = Captured::default();
        captured.push(b"short");
        assert_eq!(captured.text("stdout.log"), "short");
        for _ in 0..300 {
            captured.push(&[b'x'; 1024]);
        }
        captured.push("é!".as_bytes());
        let text = captured.text("stdout.log");
        let (first, rest) = text.split_once('\n').unwrap_or_default();
        assert!(
            first.contains("bytes cut") && first.contains("stdout.log"),
            "{first}"
        );
        assert!(rest.ends_with("é!"));
        assert_eq!(rest.len(), KEEP_BYTES);
        let cut: u64 = first
            .trim_start_matches('[')
            .split(' ')
            .next()
            .unwrap_or("")
            .parse()
            .unwrap_or(0);
        assert_eq!(cut + KEEP_BYTES as u64, captured.total);
    }
}
