//! Reads Anthropic's streamed events (`message_start`, `content_block_start` / `_delta` /
//! `_stop`, `message_delta`, `message_stop`, `ping`, `error`) into one reply.

use std::collections::BTreeMap;

use heddle_engine::Usage;
use serde_json::{Value as Json, json};

use crate::chat::{Block, ChatResponse, Message, Role, StopReason};
use crate::provider::ChatObserver;
use crate::provider::assembly::{PendingToolCall, ReplyAssembler, count, event_json, str_field};
use crate::provider::failure::{AttemptFailure, from_stream_error};
use crate::provider::sse::SseEvent;

/// A content block while it streams.
#[derive(Debug)]
enum PartialBlock {
    Text(String),
    /// The call, and the `input` its start event carried (used when no deltas follow).
    Tool(PendingToolCall, Json),
    Thinking {
        thinking: String,
        signature: String,
    },
    /// Sent back verbatim.
    Redacted(Json),
    /// A block type Heddle does not use.
    Ignored,
}

/// Assembles one Anthropic reply.
#[derive(Debug)]
pub(crate) struct AnthropicAssembler {
    provider: String,
    model: String,
    usage: Usage,
    blocks: BTreeMap<u64, PartialBlock>,
    stop_reason: Option<String>,
    done: bool,
}

impl AnthropicAssembler {
    /// An assembler for `provider` (the name thinking blocks are tagged with).
    pub(crate) fn new(provider: &str) -> Self {
        AnthropicAssembler {
            provider: provider.to_owned(),
            model: String::new(),
            usage: Usage::default(),
            blocks: BTreeMap::new(),
            stop_reason: None,
            done: false,
        }
    }

    fn read_usage(&mut self, usage: &Json) {
        let fields: [(&str, &mut u64); 4] = [
            ("input_tokens", &mut self.usage.input_tokens),
            ("output_tokens", &mut self.usage.output_tokens),
            ("cache_read_input_tokens", &mut self.usage.cache_read_tokens),
            (
                "cache_creation_input_tokens",
                &mut self.usage.cache_write_tokens,
            ),
        ];
        for (key, slot) in fields {
            if usage.get(key).is_some_and(|v| !v.is_null()) {
                *slot = count(usage, &[key]);
            }
        }
    }

    fn block_start(&mut self, json: &Json, observer: &dyn ChatObserver) {
        let index = count(json, &["index"]);
        let block = &json["content_block"];
        let partial = match str_field(block, "type") {
            "text" => {
                let text = str_field(block, "text");
                if !text.is_empty() {
                    observer.text_delta(text);
                }
                PartialBlock::Text(text.to_owned())
            }
            "tool_use" => PartialBlock::Tool(
                PendingToolCall {
                    id: str_field(block, "id").to_owned(),
                    name: str_field(block, "name").to_owned(),
                    arguments: String::new(),
                },
                block.get("input").cloned().unwrap_or(Json::Null),
            ),
            "thinking" => PartialBlock::Thinking {
                thinking: str_field(block, "thinking").to_owned(),
                signature: str_field(block, "signature").to_owned(),
            },
            "redacted_thinking" => PartialBlock::Redacted(block.clone()),
            _ => PartialBlock::Ignored,
        };
        self.blocks.insert(index, partial);
    }

    fn block_delta(&mut self, json: &Json, observer: &dyn ChatObserver) {
        let index = count(json, &["index"]);
        let delta = &json["delta"];
        let Some(block) = self.blocks.get_mut(&index) else {
            return;
        };
        match (str_field(delta, "type"), block) {
            ("text_delta", PartialBlock::Text(text)) => {
                let piece = str_field(delta, "text");
                observer.text_delta(piece);
                text.push_str(piece);
            }
            ("input_json_delta", PartialBlock::Tool(call, _)) => {
                call.arguments.push_str(str_field(delta, "partial_json"));
            }
            ("thinking_delta", PartialBlock::Thinking { thinking, .. }) => {
                thinking.push_str(str_field(delta, "thinking"));
            }
            ("signature_delta", PartialBlock::Thinking { signature, .. }) => {
                signature.push_str(str_field(delta, "signature"));
            }
            _ => {}
        }
    }

    fn finished_block(&self, partial: PartialBlock) -> Option<Block> {
        match partial {
            PartialBlock::Text(text) if !text.is_empty() => Some(Block::Text { text }),
            PartialBlock::Tool(mut call, start_input) => {
                let has_start_input = start_input.as_object().is_some_and(|o| !o.is_empty());
                if call.arguments.trim().is_empty() && has_start_input {
                    call.arguments = start_input.to_string();
                }
                Some(Block::ToolCall(call.finish()))
            }
            PartialBlock::Thinking {
                thinking,
                signature,
            } => Some(Block::Opaque {
                provider: self.provider.clone(),
                data: json!({"type": "thinking", "thinking": thinking, "signature": signature}),
            }),
            PartialBlock::Redacted(data) => Some(Block::Opaque {
                provider: self.provider.clone(),
                data,
            }),
            PartialBlock::Text(_) | PartialBlock::Ignored => None,
        }
    }
}

impl ReplyAssembler for AnthropicAssembler {
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
        match kind {
            "message_start" => {
                let message = &json["message"];
                self.model = str_field(message, "model").to_owned();
                self.read_usage(&message["usage"]);
            }
            "content_block_start" => self.block_start(&json, observer),
            "content_block_delta" => self.block_delta(&json, observer),
            "message_delta" => {
                if let Some(reason) = json["delta"].get("stop_reason").and_then(Json::as_str) {
                    self.stop_reason = Some(reason.to_owned());
                }
                self.read_usage(&json["usage"]);
            }
            "message_stop" => self.done = true,
            "error" => {
                let error = &json["error"];
                return Err(from_stream_error(
                    &self.provider,
                    str_field(error, "type"),
                    str_field(error, "message"),
                ));
            }
            _ => {} // ping, content_block_stop and event types added later
        }
        Ok(self.done)
    }

    fn finish(mut self: Box<Self>) -> Result<ChatResponse, String> {
        if !self.done {
            return Err("`message_stop`".to_owned());
        }
        let blocks = std::mem::take(&mut self.blocks);
        let content = blocks
            .into_values()
            .filter_map(|partial| self.finished_block(partial))
            .collect();
        let stop = match self.stop_reason.as_deref() {
            Some("end_turn") | Some("stop_sequence") | None => StopReason::EndTurn,
            Some("tool_use") => StopReason::ToolUse,
            Some("max_tokens") => StopReason::MaxTokens,
            Some("refusal") => StopReason::Refusal,
            Some(other) => StopReason::Other(other.to_owned()),
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
