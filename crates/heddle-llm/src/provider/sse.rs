//! Server-sent events: turns the bytes of a `text/event-stream` body, cut into chunks
//! anywhere (mid-line, mid-character, between `\r` and `\n`), into whole events.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field, empty when the event had none.
    pub event: String,
    /// The `data:` lines joined with `\n`.
    pub data: String,
}

/// Incremental SSE parser: feed it chunks with [`SseDecoder::push`], then call
/// [`SseDecoder::finish`] when the body ends.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of the line being read (not yet terminated).
    line: Vec<u8>,
    /// The previous chunk ended with `\r`: a `\n` starting the next chunk belongs to it.
    after_cr: bool,
    /// The `event:` name of the event being built (empty when the stream sends none).
    event: String,
    data: String,
    has_data: bool,
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    pub fn new() -> Self {
        SseDecoder::default()
    }

    /// Feeds one chunk and returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut events = Vec::new();
        for &byte in chunk {
            if self.after_cr {
                self.after_cr = false;
                if byte == b'\n' {
                    continue;
                }
            }
            match byte {
                b'\n' => self.end_line(&mut events),
                b'\r' => {
                    self.after_cr = true;
                    self.end_line(&mut events);
                }
                other => self.line.push(other),
            }
        }
        events
    }

    /// The stream ended: completes a last line that had no terminator and dispatches a last
    /// event that had no blank line after it.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut events = Vec::new();
        if !self.line.is_empty() {
            self.end_line(&mut events);
        }
        self.dispatch(&mut events);
        events
    }

    fn end_line(&mut self, events: &mut Vec<SseEvent>) {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            self.dispatch(events);
            return;
        }
        let line = String::from_utf8_lossy(&line);
        if line.starts_with(':') {
            return; // a comment (keep-alive)
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "event" => self.event = value.to_owned(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            _ => {} // `id`, `retry` and unknown fields do not matter here
        }
    }

    fn dispatch(&mut self, events: &mut Vec<SseEvent>) {
        let event = std::mem::take(&mut self.event);
        if !self.has_data {
            return;
        }
        self.has_data = false;
        events.push(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
        });
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;

    fn event(name: &str, data: &str) -> SseEvent {
        SseEvent {
            event: name.to_owned(),
            data: data.to_owned(),
        }
    }

    fn decode_in_pieces(text: &[u8], size: usize) -> Vec<SseEvent> {
        let mut decoder = SseDecoder::new();
        let mut events = Vec::new();
        for chunk in text.chunks(size) {
            events.extend(decoder.push(chunk));
        }
        events.extend(decoder.finish());
        events
    }

    const STREAM: &str = ": keep-alive\r\n\
        event: message_start\r\n\
        data: {\"a\":1}\r\n\
        \r\n\
        data: first line\n\
        data: second line\n\
        id: 7\n\
        retry: 100\n\
        \n\
        event: ping\r\
        data:no space, caf\u{e9} \u{2713}\r\
        \r\
        event: without data\n\
        \n\
        data: [DONE]\n\n";

    fn expected() -> Vec<SseEvent> {
        vec![
            event("message_start", "{\"a\":1}"),
            event("", "first line\nsecond line"),
            event("ping", "no space, caf\u{e9} \u{2713}"),
            event("", "[DONE]"),
        ]
    }

    #[test]
    fn decodes_whole_stream() {
        assert_eq!(
            decode_in_pieces(STREAM.as_bytes(), STREAM.len()),
            expected()
        );
    }

    #[test]
    fn decodes_stream_cut_at_every_size() {
        for size in 1..12 {
            assert_eq!(
                decode_in_pieces(STREAM.as_bytes(), size),
                expected(),
                "chunk size {size}"
            );
        }
    }

    #[test]
    fn crlf_split_between_chunks_is_one_line_end() {
        let mut decoder = SseDecoder::new();
        assert!(decoder.push(b"data: x\r").is_empty());
        // Were the `\n` a line end of its own, it would end the event here.
        assert!(decoder.push(b"\ndata: y\r").is_empty());
        assert_eq!(decoder.push(b"\n\r\n"), vec![event("", "x\ny")]);
    }

    #[test]
    fn finish_dispatches_unterminated_event() {
        let mut decoder = SseDecoder::new();
        assert!(decoder.push(b"event: a\ndata: {\"x\"").is_empty());
        assert_eq!(decoder.finish(), vec![event("a", "{\"x\"")]);
    }

    #[test]
    fn empty_data_field_still_dispatches() {
        let events = decode_in_pieces(b"data:\n\n", 3);
        assert_eq!(events, vec![event("", "")]);
    }
}
