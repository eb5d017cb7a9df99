//! Test support for the stream parsers: plays hand-written SSE text, cut into chunks of a
//! given size, through an assembler and records what the observer saw.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Mutex;
use std::time::Duration;

use super::ChatObserver;
use super::assembly::ReplyAssembler;
use super::failure::AttemptFailure;
use super::sse::SseDecoder;
use crate::chat::ChatResponse;

/// Records text deltas.
#[derive(Default)]
pub(crate) struct Deltas(pub Mutex<Vec<String>>);

impl ChatObserver for Deltas {
    fn text_delta(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_owned());
    }

    fn retrying(&self, _attempt: u32, _delay: Duration, _reason: &str) {}
}

/// How a replay ended.
#[derive(Debug)]
pub(crate) enum Replay {
    /// The assembler produced a reply; `text` is the deltas joined.
    Reply(ChatResponse, String),
    /// An event was an error.
    Failed(AttemptFailure),
    /// The stream ended before its completion marker; the text says which.
    Truncated(String),
}

impl Replay {
    /// The reply, or a panic naming what happened instead.
    pub(crate) fn reply(self) -> (ChatResponse, String) {
        match self {
            Replay::Reply(response, text) => (response, text),
            other => panic!("expected a reply, got {other:?}"),
        }
    }
}

/// Plays `text` through `assembler` in chunks of `chunk` bytes.
pub(crate) fn replay(assembler: Box<dyn ReplyAssembler>, text: &str, chunk: usize) -> Replay {
    let mut assembler = assembler;
    let observer = Deltas::default();
    let mut decoder = SseDecoder::new();
    let mut done = false;
    'read: for piece in text.as_bytes().chunks(chunk) {
        for event in decoder.push(piece) {
            match assembler.on_event(&event, &observer) {
                Ok(true) => {
                    done = true;
                    break 'read;
                }
                Ok(false) => {}
                Err(failure) => return Replay::Failed(failure),
            }
        }
    }
    if !done {
        for event in decoder.finish() {
            if let Err(failure) = assembler.on_event(&event, &observer) {
                return Replay::Failed(failure);
            }
        }
    }
    match assembler.finish() {
        Ok(response) => Replay::Reply(response, observer.0.lock().unwrap().concat()),
        Err(missing) => Replay::Truncated(missing),
    }
}

/// Plays `text` at every chunk size from 1 to 40 bytes and checks each run gives the same
/// reply; returns it.
pub(crate) fn replay_all_sizes(
    make: impl Fn() -> Box<dyn ReplyAssembler>,
    text: &str,
) -> (ChatResponse, String) {
    let whole = replay(make(), text, text.len().max(1)).reply();
    for size in 1..40 {
        let cut = replay(make(), text, size).reply();
        assert_eq!(cut, whole, "chunk size {size}");
    }
    whole
}
