//! Reads the Responses API's semantic events (`response.output_item.added` / `.done`,
//! `response.output_text.delta`, `response.function_call_arguments.delta` / `.done`,
//! `response.completed`, `response.incomplete`, `response.failed`, `error`) into one reply.

use std::collections::BTreeMap;

use heddle_engine::Usage;
use serde_json::Value as Json;

use crate::chat::{Block, ChatResponse, Message, Role, StopReason};
use crate::provider::ChatObserver;
use crate::provider::assembly::{PendingToolCall, ReplyAssembler, count, event_json, str_field};
use crate::provider::failure::{AttemptFailure, from_stream_error};
use crate::provider::sse::SseEvent;

/// An output item while it streams.
#[derive(Debug)]
enum PartialItem {
    /// Assistant text; `streamed` once any delta was forwarded to the observer.
    Message {
        text: String,
        streamed: bool,
    },
    Call(PendingToolCall),
    /// The finished item, once `response.output_item.done` carried it.
    Reasoning(Option<Json>),
    Ignored,
}

/// Assembles one Responses API reply.
#[derive(Debug)]
pub(crate) struct ResponsesAssembler {
    provider: String,
    model: String,
    usage: Usage,
    items: BTreeMap<u64, PartialItem>,
    refused: bool,
    incomplete_reason: Option<String>,
    done: bool,
}

impl ResponsesAssembler {
    /// An assembler for `provider` (the name reasoning items are tagged with).
    pub(crate) fn new(provider: &str) -> Self {
        ResponsesAssembler {
            provider: provider.to_owned(),
            model: String::new(),
            usage: Usage::default(),
            items: BTreeMap::new(),
            refused: false,
            incomplete_reason: None,
            done: false,
        }
    }

    fn read_response(&mut self, response: &Json) {
        let model = str_field(response, "model");
        if !model.is_empty() {
            self.model = model.to_owned();
        }
        let usage = &response["usage"];
        if usage.is_object() {
            let cached = count(usage, &["input_tokens_details", "cached_tokens"]);
            self.usage = Usage {
                input_tokens: count(usage, &["input_tokens"]).saturating_sub(cached),
                output_tokens: count(usage, &["output_tokens"]),
                cache_read_tokens: cached,
                cache_write_tokens: 0,
            };
        }
    }

    fn item_added(&mut self, index: u64, item: &Json) {
        let partial = match str_field(item, "type") {
            "message" => PartialItem::Message {
                text: String::new(),
                streamed: false,
            },
            "function_call" => PartialItem::Call(PendingToolCall {
                id: str_field(item, "call_id").to_owned(),
                name: str_field(item, "name").to_owned(),
                arguments: str_field(item, "arguments").to_owned(),
            }),
            "reasoning" => PartialItem::Reasoning(None),
            _ => PartialItem::Ignored,
        };
        self.items.insert(index, partial);
    }

    fn text_delta(&mut self, index: u64, piece: &str, observer: &dyn ChatObserver) {
        observer.text_delta(piece);
        let entry = self.items.entry(index).or_insert(PartialItem::Message {
            text: String::new(),
            streamed: false,
        });
        if let PartialItem::Message { text, streamed } = entry {
            text.push_str(piece);
            *streamed = true;
        }
    }

    fn item_done(&mut self, index: u64, item: &Json, observer: &dyn ChatObserver) {
        match str_field(item, "type") {
            "function_call" => {
                let call = PendingToolCall {
                    id: str_field(item, "call_id").to_owned(),
                    name: str_field(item, "name").to_owned(),
                    arguments: str_field(item, "arguments").to_owned(),
                };
                self.items.insert(index, PartialItem::Call(call));
            }
            "message" => {
                let mut full = String::new();
                for part in item["content"].as_array().into_iter().flatten() {
                    match str_field(part, "type") {
                        "output_text" => full.push_str(str_field(part, "text")),
                        "refusal" => {
                            self.refused = true;
                            full.push_str(str_field(part, "refusal"));
                        }
                        _ => {}
                    }
                }
                let streamed = matches!(
                    self.items.get(&index),
                    Some(PartialItem::Message { streamed: true, .. })
                );
                if !streamed && !full.is_empty() {
                    observer.text_delta(&full);
                }
                self.items.insert(
                    index,
                    PartialItem::Message {
                        text: full,
                        streamed: true,
                    },
                );
            }
            "reasoning" => {
                self.items
                    .insert(index, PartialItem::Reasoning(Some(item.clone())));
            }
            _ => {}
        }
    }
}

impl ReplyAssembler for ResponsesAssembler {
    fn on_event(
        &mut self,
        event: &SseEvent,
        observer: &dyn ChatObserver,
    ) -> Result<bool, AttemptFailure> {
        let json = event_json(&self.provider, event)?;
        let kind = match str_field(&json, "type") {
            "" => event.event.as_str(),
            kind => kind,
        };
        let index = count(&json, &["output_index"]);
        match kind {
            "response.created" | "response.in_progress" => self.read_response(&json["response"]),
            "response.output_item.added" => self.item_added(index, &json["item"]),
            "response.output_text.delta" => {
                self.text_delta(index, str_field(&json, "delta"), observer);
            }
            "response.refusal.delta" => {
                self.refused = true;
                self.text_delta(index, str_field(&json, "delta"), observer);
            }
            "response.function_call_arguments.delta" => {
                if let Some(PartialItem::Call(call)) = self.items.get_mut(&index) {
                    call.arguments.push_str(str_field(&json, "delta"));
                }
            }
            "response.function_call_arguments.done" => {
                if let Some(PartialItem::Call(call)) = self.items.get_mut(&index)
                    && let Some(arguments) = json.get("arguments").and_then(Json::as_str)
                {
                    call.arguments = arguments.to_owned();
                }
            }
            "response.output_item.done" => self.item_done(index, &json["item"], observer),
            "response.completed" => {
                self.read_response(&json["response"]);
                self.done = true;
            }
            "response.incomplete" => {
                let response = &json["response"];
                self.read_response(response);
                let reason = str_field(&response["incomplete_details"], "reason");
                self.incomplete_reason = Some(reason.to_owned());
                self.done = true;
            }
            "response.failed" => {
                let error = &json["response"]["error"];
                return Err(from_stream_error(
                    &self.provider,
                    str_field(error, "code"),
                    str_field(error, "message"),
                ));
            }
            "error" => {
                let error = json.get("error").filter(|e| e.is_object()).unwrap_or(&json);
                let code = match str_field(error, "code") {
                    "" => str_field(error, "type"),
                    code => code,
                };
                return Err(from_stream_error(
                    &self.provider,
                    code,
                    str_field(error, "message"),
                ));
            }
            _ => {}
        }
        Ok(self.done)
    }

    fn finish(self: Box<Self>) -> Result<ChatResponse, String> {
        if !self.done {
            return Err("`response.completed`".to_owned());
        }
        let mut has_calls = false;
        let mut content = Vec::new();
        for item in self.items.into_values() {
            match item {
                PartialItem::Message { text, .. } if !text.is_empty() => {
                    content.push(Block::Text { text });
                }
                PartialItem::Call(call) => {
                    has_calls = true;
                    content.push(Block::ToolCall(call.finish()));
                }
                PartialItem::Reasoning(Some(data)) => content.push(Block::Opaque {
                    provider: self.provider.clone(),
                    data,
                }),
                _ => {}
            }
        }
        let stop = match self.incomplete_reason.as_deref() {
            Some("max_output_tokens") => StopReason::MaxTokens,
            Some("content_filter") => StopReason::Refusal,
            Some(other) => StopReason::Other(other.to_owned()),
            None if self.refused => StopReason::Refusal,
            None if has_calls => StopReason::ToolUse,
            None => StopReason::EndTurn,
        };
        Ok(ChatResponse {
            model: self.model,
            message: Message {
                role: Role::Assistant,
                content,
            },
            usage: self.usage,
            stop,
        })
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
