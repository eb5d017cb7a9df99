//! SSE framing and the splitting of text into deltas, shared by the three formats.

use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value as Json;

/// One `event:` / `data:` frame, blank line included.
pub(crate) fn frame(event: Option<&str>, data: &Json) -> String {
    match event {
        Some(name) => format!("event: {name}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// `text` cut into `parts` pieces of about equal length (by characters), fewer when it is
/// shorter; empty text gives no pieces.
pub(crate) fn pieces(text: &str, parts: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    let size = chars.len().div_ceil(parts.max(1));
    chars.chunks(size).map(|c| c.iter().collect()).collect()
}

/// Hands out the server's ids: unique and deterministic for one server.
#[derive(Debug, Default)]
pub(crate) struct Ids(AtomicU64);

impl Ids {
    /// The next number (1, 2, ...).
    pub(crate) fn next(&self) -> u64 {
        self.0.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// What every format's writer needs besides the reply.
pub(crate) struct ReplyContext<'a> {
    /// The model the stream reports: the reply's `model`, else the request's.
    pub model: String,
    /// Numbers for the ids and signatures the stream carries (`msg_fake_1`, ...).
    pub ids: &'a Ids,
    /// The request body (some formats send parts only when asked).
    pub request: &'a Json,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_into_pieces() {
        assert_eq!(pieces("abcdefg", 3), vec!["abc", "def", "g"]);
        assert_eq!(pieces("ab", 3), vec!["a", "b"]);
        assert_eq!(pieces("caf\u{e9}!", 2), vec!["caf", "\u{e9}!"]);
        assert!(pieces("", 3).is_empty());
    }
}
