//! Forwards what a provider call streams to the stage's live events.

use std::time::Duration;

use heddle_engine::llm::{LlmEvent, LlmEventSink};
use serde_json::json;

use crate::provider::ChatObserver;

/// A [`ChatObserver`] that emits text deltas and retries as [`LlmEvent`]s.
pub(crate) struct EventObserver<'a> {
    pub(crate) events: &'a dyn LlmEventSink,
    pub(crate) provider: &'a str,
}

impl ChatObserver for EventObserver<'_> {
    fn text_delta(&self, text: &str) {
        if !text.is_empty() {
            self.events.emit(LlmEvent::TextDelta(text.to_owned()));
        }
    }

    fn retrying(&self, attempt: u32, delay: Duration, reason: &str) {
        self.events.emit(LlmEvent::Note {
            kind: "retry".into(),
            details: json!({
                "provider": self.provider,
                "attempt": attempt,
                "delay_ms": u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
                "reason": reason,
            }),
        });
    }
}
