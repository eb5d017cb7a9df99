//! The end of an agent's stderr, kept for error messages: the agent's own explanation of a
//! failure is usually its last few lines.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::task::JoinHandle;

/// Bytes of stderr kept.
const KEEP_BYTES: usize = 8 * 1024;
/// Lines shown in a message.
const SHOW_LINES: usize = 12;
/// Characters shown in a message.
const SHOW_CHARS: usize = 1500;

/// The last [`KEEP_BYTES`] an agent wrote to stderr.
#[derive(Debug, Default)]
pub(crate) struct StderrTail {
    bytes: Vec<u8>,
}

impl StderrTail {
    /// Appends output, dropping what falls out of the window.
    pub fn push(&mut self, chunk: &[u8]) {
        self.bytes.extend_from_slice(chunk);
        if self.bytes.len() > KEEP_BYTES {
            let cut = self.bytes.len() - KEEP_BYTES;
            self.bytes.drain(..cut);
        }
    }

    /// The last non-empty lines, trimmed, joined with " | " (empty when there are none).
    pub fn text(&self) -> String {
        let text = String::from_utf8_lossy(&self.bytes);
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let start = lines.len().saturating_sub(SHOW_LINES);
        let joined = lines[start..].join(" | ");
        let count = joined.chars().count();
        if count > SHOW_CHARS {
            let skipped: String = joined.chars().skip(count - SHOW_CHARS).collect();
            format!("…{skipped}")
        } else {
            joined
        }
    }
}

/// A [`StderrTail`] filled by a background reader.
#[derive(Debug, Clone, Default)]
pub(crate) struct SharedTail(Arc<Mutex<StderrTail>>);

impl SharedTail {
    /// Starts reading `stderr` to its end into a new tail.
    pub fn read_from(stderr: impl AsyncRead + Unpin + Send + 'static) -> (Self, JoinHandle<()>) {
        let tail = SharedTail::default();
        let writer = tail.clone();
        let task = tokio::spawn(async move {
            let mut stderr = stderr;
            let mut buffer = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buffer).await {
                if n == 0 {
                    break;
                }
                writer.push(&buffer[..n]);
            }
        });
        (tail, task)
    }

    fn push(&self, chunk: &[u8]) {
        match self.0.lock() {
            Ok(mut tail) => tail.push(chunk),
            Err(poisoned) => poisoned.into_inner().push(chunk),
        }
    }

    /// See [`StderrTail::text`].
    pub fn text(&self) -> String {
        match self.0.lock() {
            Ok(tail) => tail.text(),
            Err(poisoned) => poisoned.into_inner().text(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_lines() {
        let mut tail = StderrTail::default();
        tail.push(b"first\n\n  second  \nthi");
        tail.push(b"rd\n");
        assert_eq!(tail.text(), "first | second | third");
        for i in 0..50 {
            tail.push(format!("line {i}\n").as_bytes());
        }
        assert!(tail.text().starts_with("line 38 | "));
        assert!(tail.text().ends_with("line 49"));
        tail.push(&[b'x'; 20_000]);
        assert!(tail.text().starts_with('…'));
        assert_eq!(tail.text().chars().count(), SHOW_CHARS + 1);
        assert!(StderrTail::default().text().is_empty());
    }
}
