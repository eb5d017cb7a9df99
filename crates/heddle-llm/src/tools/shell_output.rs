//! The output streams of a `shell` command: each read on a task of its own, keeping its
//! first and last bytes (the model is shown the head and the tail of long output anyway),
//! and stopped on request when something outside the process group holds the pipe open.

use std::borrow::Cow;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// What one stream produced: its first and last bytes, and how many there were.
#[derive(Debug, Default)]
pub(crate) struct Captured {
    keep: usize,
    head: Vec<u8>,
    tail: Vec<u8>,
    total: u64,
}

impl Captured {
    /// A capture keeping the first `keep` and the last `keep` bytes.
    pub(crate) fn new(keep: usize) -> Self {
        Captured {
            keep,
            ..Captured::default()
        }
    }

    fn push(&mut self, mut chunk: &[u8]) {
        self.total += chunk.len() as u64;
        let room = self.keep.saturating_sub(self.head.len()).min(chunk.len());
        self.head.extend_from_slice(&chunk[..room]);
        chunk = &chunk[room..];
        self.tail.extend_from_slice(chunk);
        if self.tail.len() > 2 * self.keep {
            self.tail.drain(..self.tail.len() - self.keep);
        }
    }

    /// How many bytes the stream produced in all.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    /// Whether bytes were dropped from the middle.
    pub(crate) fn was_cut(&self) -> bool {
        self.total > self.kept_len()
    }

    fn kept_len(&self) -> u64 {
        (self.head.len() + self.tail.len().min(self.keep)) as u64
    }

    /// The text kept; when bytes were dropped, a line between head and tail says so.
    pub(crate) fn text(&self) -> String {
        if !self.was_cut() {
            let mut all = self.head.clone();
            all.extend_from_slice(&self.tail);
            return String::from_utf8_lossy(&all).into_owned();
        }
        let tail = &self.tail[self.tail.len() - self.tail.len().min(self.keep)..];
        let tail_start = tail.iter().take_while(|b| **b & 0xC0 == 0x80).count();
        format!(
            "{}\n[... {} bytes omitted ...]\n{}",
            complete_prefix(&self.head),
            self.total - self.kept_len(),
            String::from_utf8_lossy(&tail[tail_start..])
        )
    }
}

/// `bytes` as text, without a character cut short at the end.
fn complete_prefix(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(e) if e.error_len().is_none() => String::from_utf8_lossy(&bytes[..e.valid_up_to()]),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Reads `reader` to its end (or until `stop`) on a task of its own.
pub(crate) fn spawn_reader(
    reader: Option<impl AsyncRead + Unpin + Send + 'static>,
    keep: usize,
    stop: CancellationToken,
) -> JoinHandle<Captured> {
    tokio::spawn(async move {
        let mut captured = Captured::new(keep);
        let Some(mut reader) = reader else {
            return captured;
        };
        let mut buf = vec![0u8; 16 * 1024];
        loop {
            let read = tokio::select! {
                biased;
                () = stop.cancelled() => break,
                read = reader.read(&mut buf) => read,
            };
            match read {
                Ok(0) | Err(_) => break,
                Ok(n) => captured.push(&buf[..n]),
            }
        }
        captured
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_head_and_tail() {
        let mut captured = Captured::new(4);
        captured.push(b"ab");
        assert_eq!(captured.text(), "ab");
        captured.push(b"cdef");
        assert_eq!(captured.text(), "abcdef");
        captured.push(b"ghijklmnop");
        assert!(!captured.text().is_empty());
        assert_eq!(captured.text(), "abcd\n[... 8 bytes omitted ...]\nmnop");
        assert_eq!(captured.total(), 16);
    }
}
