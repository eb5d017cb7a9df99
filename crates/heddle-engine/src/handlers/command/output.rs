//! The output of a command: each stream copied to its log file and to `command.output`
//! events as it arrives ([`pump`]), its last [`KEEP_BYTES`] kept in memory ([`Captured`]),
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

/// What a stream produced: its last bytes and how many there were.
#[derive(Default)]
pub(super) struct Captured {
    tail: Vec<u8>,
    total: u64,
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
        } else {
            format!("[{cut} bytes cut; the full output is in {log_name}]\n{text}")
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

/// Copies one stream to its log file and to events as it arrives, keeping its tail.
async fn pump(
    reader: Option<Box<dyn AsyncRead + Unpin + Send>>,
    mut log: std::fs::File,
    log_path: PathBuf,
    stream: Stream,
    events: NodeEvents,
    stop: CancellationToken,
) -> Captured {
    let mut captured = Captured::default();
    let Some(mut reader) = reader else {
        return captured;
    };
    let mut buf = vec![0u8; 16 * 1024];
    let mut pending = Vec::new();
    let emit = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        events.emit(Event::CommandOutput { stream, text });
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
        if let Err(e) = log.write_all(chunk).and_then(|()| log.flush())
            && captured.write_error.is_none()
        {
            captured.write_error = Some(format!(
                "{}: {}",
                log_path.display(),
                crate::describe_io(&e)
            ));
        }
        captured.push(chunk);
        pending.extend_from_slice(chunk);
        let complete = complete_utf8_len(&pending);
        if complete > 0 {
            emit(&pending[..complete]);
            pending.drain(..complete);
        }
    }
    if !pending.is_empty() {
        emit(&pending);
    }
    captured
}

/// Starts [`pump`] on a task of its own for `reader` (a child's stdout or stderr), copying
/// to `log` (the open file and its path).
pub(super) fn spawn_pump(
    reader: Option<impl AsyncRead + Unpin + Send + 'static>,
    (log, log_path): (std::fs::File, PathBuf),
    stream: Stream,
    events: &NodeEvents,
    stop: &CancellationToken,
) -> JoinHandle<Captured> {
    let reader = reader.map(|r| Box::new(r) as Box<dyn AsyncRead + Unpin + Send>);
    tokio::spawn(pump(
        reader,
        log,
        log_path,
        stream,
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
