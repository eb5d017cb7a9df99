//! What the three stream parsers share: the [`ReplyAssembler`] interface the transport feeds
//! events into, and the pieces of a reply they build up.

use serde_json::Value as Json;

use super::ChatObserver;
use super::failure::AttemptFailure;
use super::sse::SseEvent;
use crate::chat::{ChatResponse, ToolArguments, ToolCall};

/// Builds one [`ChatResponse`] from a provider's stream of events.
pub(crate) trait ReplyAssembler: Send {
    /// Takes one event, forwarding text to `observer`. `Ok(true)` once the stream's
    /// completion marker arrived (nothing more needs reading).
    fn on_event(
        &mut self,
        event: &SseEvent,
        observer: &dyn ChatObserver,
    ) -> Result<bool, AttemptFailure>;

    /// The reply, once the stream is over. `Err` says what was missing when the stream
    /// ended before it was whole.
    fn finish(self: Box<Self>) -> Result<ChatResponse, String>;
}

/// Parses an event's data as JSON; a malformed event is worth another attempt (a proxy or
/// the connection garbled it).
pub(crate) fn event_json(provider: &str, event: &SseEvent) -> Result<Json, AttemptFailure> {
    serde_json::from_str(&event.data).map_err(|error| {
        let mut sample: String = event.data.chars().take(120).collect();
        if sample.len() < event.data.len() {
            sample.push_str("...");
        }
        AttemptFailure::retry(format!(
            "{provider} sent a stream event that is not valid JSON ({error}): {sample}"
        ))
    })
}

/// A string field of `json`, or `""`.
pub(crate) fn str_field<'a>(json: &'a Json, key: &str) -> &'a str {
    json.get(key).and_then(Json::as_str).unwrap_or("")
}

/// A number field of `json` at `path`, or 0.
pub(crate) fn count(json: &Json, path: &[&str]) -> u64 {
    let mut at = json;
    for key in path {
        match at.get(key) {
            Some(next) => at = next,
            None => return 0,
        }
    }
    at.as_u64().unwrap_or(0)
}

/// A tool call whose arguments are still arriving.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PendingToolCall {
    /// The provider's id for it.
    pub id: String,
    pub name: String,
    /// The argument text so far.
    pub arguments: String,
}

impl PendingToolCall {
    /// The finished call; arguments that are not JSON become [`ToolArguments::Invalid`].
    pub(crate) fn finish(self) -> ToolCall {
        ToolCall {
            id: self.id,
            name: self.name,
            arguments: ToolArguments::from_raw(&self.arguments),
        }
    }
}
