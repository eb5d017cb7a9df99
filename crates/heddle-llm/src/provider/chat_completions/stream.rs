//! Reads streamed `chat.completion.chunk`s into one reply: content deltas, tool calls whose
//! id, name and argument pieces arrive by `index`, the `finish_reason`, the usage chunk, and
//! `data: [DONE]`.

use std::collections::BTreeMap;

use heddle_engine::Usage;
use serde_json::Value as Json;

use crate::chat::{Block, ChatResponse, Message, Role, StopReason};
use crate::provider::ChatObserver;
use crate::provider::assembly::{PendingToolCall, ReplyAssembler, count, event_json, str_field};
use crate::provider::failure::{AttemptFailure, from_stream_error};
use crate::provider::sse::SseEvent;

/// Assembles one Chat Completions reply.
#[derive(Debug)]
pub(crate) struct ChatAssembler {
    provider: String,
    model: String,
    text: String,
    calls: BTreeMap<u64, PendingToolCall>,
    finish_reason: Option<String>,
    usage: Option<Usage>,
    done: bool,
}

impl ChatAssembler {
    /// An assembler for `provider` (named in error messages).
    pub(crate) fn new(provider: &str) -> Self {
        ChatAssembler {
            provider: provider.to_owned(),
            model: String::new(),
            text: String::new(),
            calls: BTreeMap::new(),
            finish_reason: None,
            usage: None,
            done: false,
        }
    }

    fn tool_call_delta(&mut self, position: usize, delta: &Json) {
        let id = str_field(delta, "id");
        // Servers that leave out `index` send each call whole, or repeat its id.
        let key = match delta.get("index").and_then(Json::as_u64) {
            Some(index) => index,
            None => self
                .calls
                .iter()
                .find(|(_, call)| !id.is_empty() && call.id == id)
                .map(|(key, _)| *key)
                .unwrap_or_else(|| self.calls.len().max(position) as u64),
        };
        let call = self.calls.entry(key).or_default();
        if call.id.is_empty() && !id.is_empty() {
            call.id = id.to_owned();
        }
        let function = &delta["function"];
        let name = str_field(function, "name");
        if call.name.is_empty() && !name.is_empty() {
            call.name = name.to_owned();
        }
        call.arguments.push_str(str_field(function, "arguments"));
    }
}

impl ReplyAssembler for ChatAssembler {
    fn on_event(
        &mut self,
        event: &SseEvent,
        observer: &dyn ChatObserver,
    ) -> Result<bool, AttemptFailure> {
        if event.data.trim() == "[DONE]" {
            self.done = true;
            return Ok(true);
        }
        let json = event_json(&self.provider, event)?;
        if let Some(error) = json.get("error").filter(|e| !e.is_null()) {
            let (kind, message) = match error.as_str() {
                Some(message) => ("", message),
                None => {
                    let kind = match error.get("code").and_then(Json::as_str) {
                        Some(code) => code,
                        None => str_field(error, "type"),
                    };
                    (kind, str_field(error, "message"))
                }
            };
            return Err(from_stream_error(&self.provider, kind, message));
        }
        let model = str_field(&json, "model");
        if self.model.is_empty() && !model.is_empty() {
            self.model = model.to_owned();
        }
        let choice = json["choices"]
            .as_array()
            .and_then(|choices| {
                choices
                    .iter()
                    .find(|c| c.get("index").and_then(Json::as_u64).unwrap_or(0) == 0)
            })
            .cloned()
            .unwrap_or(Json::Null);
        let delta = &choice["delta"];
        let piece = str_field(delta, "content");
        if !piece.is_empty() {
            observer.text_delta(piece);
            self.text.push_str(piece);
        }
        for (position, call) in delta["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            self.tool_call_delta(position, call);
        }
        if let Some(reason) = choice.get("finish_reason").and_then(Json::as_str) {
            self.finish_reason = Some(reason.to_owned());
        }
        let usage = &json["usage"];
        if usage.is_object() {
            let cached = count(usage, &["prompt_tokens_details", "cached_tokens"]);
            self.usage = Some(Usage {
                input_tokens: count(usage, &["prompt_tokens"]).saturating_sub(cached),
                output_tokens: count(usage, &["completion_tokens"]),
                cache_read_tokens: cached,
                cache_write_tokens: 0,
            });
        }
        Ok(false)
    }

    fn finish(self: Box<Self>) -> Result<ChatResponse, String> {
        let whole = self.done || (self.finish_reason.is_some() && self.usage.is_some());
        if !whole {
            return Err("`data: [DONE]`".to_owned());
        }
        let mut content = Vec::new();
        if !self.text.is_empty() {
            content.push(Block::Text { text: self.text });
        }
        let has_calls = !self.calls.is_empty();
        for (key, mut call) in self.calls {
            if call.id.is_empty() {
                call.id = format!("call_{key}");
            }
            content.push(Block::ToolCall(call.finish()));
        }
        let stop = match self.finish_reason.as_deref() {
            Some("length") => StopReason::MaxTokens,
            Some("content_filter") => StopReason::Refusal,
            Some("tool_calls") | Some("function_call") => StopReason::ToolUse,
            Some("stop") | None if has_calls => StopReason::ToolUse,
            Some("stop") | None => StopReason::EndTurn,
            Some(other) => StopReason::Other(other.to_owned()),
        };
        Ok(ChatResponse {
            model: self.model,
            message: Message {
                role: Role::Assistant,
                content,
            },
            usage: self.usage.unwrap_or_default(),
            stop,
        })
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
