//! Reads Gemini's streamed `GenerateContentResponse` chunks (`alt=sse`: one JSON object per
//! `data:` line) into one reply: text parts as deltas, whole `functionCall` parts, thought
//! signatures, the last `usageMetadata`, `modelVersion`, and the candidate's
//! `finishReason`, which marks the end (the stream has no other completion event).

use heddle_engine::Usage;
use serde_json::{Value as Json, json};

use super::{LOCAL_CALL_ID_PREFIX, SIGNATURE_KEY};
use crate::chat::{Block, ChatResponse, Message, Role, StopReason, ToolArguments, ToolCall};
use crate::provider::ChatObserver;
use crate::provider::assembly::{ReplyAssembler, count, event_json, str_field};
use crate::provider::failure::{AttemptFailure, from_stream_error};
use crate::provider::sse::SseEvent;

/// Assembles one Gemini reply.
#[derive(Debug)]
pub(crate) struct GeminiAssembler {
    provider: String,
    model: String,
    usage: Usage,
    content: Vec<Block>,
    calls: usize,
    /// The `responseId`, which makes the ids of calls sent without one unique.
    response_id: String,
    finish_reason: Option<String>,
}

impl GeminiAssembler {
    /// An assembler for `provider` (the name thought signatures are tagged with).
    pub(crate) fn new(provider: &str) -> Self {
        GeminiAssembler {
            provider: provider.to_owned(),
            model: String::new(),
            usage: Usage::default(),
            content: Vec::new(),
            calls: 0,
            response_id: String::new(),
            finish_reason: None,
        }
    }

    /// `usageMetadata` counts the whole call so far; the last one wins. The prompt count
    /// includes the cached tokens, and thinking is billed as output.
    fn read_usage(&mut self, usage: &Json) {
        let prompt = count(usage, &["promptTokenCount"]);
        let cached = count(usage, &["cachedContentTokenCount"]);
        self.usage = Usage {
            input_tokens: prompt.saturating_sub(cached),
            output_tokens: count(usage, &["candidatesTokenCount"])
                + count(usage, &["thoughtsTokenCount"]),
            cache_read_tokens: cached,
            cache_write_tokens: 0,
        };
    }

    fn read_part(&mut self, part: &Json, observer: &dyn ChatObserver) {
        if let Some(signature) = part.get(SIGNATURE_KEY).and_then(Json::as_str) {
            self.content.push(Block::Opaque {
                provider: self.provider.clone(),
                data: json!({SIGNATURE_KEY: signature}),
            });
        }
        if let Some(call) = part.get("functionCall") {
            self.calls += 1;
            let id = match (str_field(call, "id"), self.response_id.as_str()) {
                ("", "") => format!("{LOCAL_CALL_ID_PREFIX}{}", self.calls),
                ("", response) => format!("{LOCAL_CALL_ID_PREFIX}{response}-{}", self.calls),
                (id, _) => id.to_owned(),
            };
            let arguments = match call.get("args") {
                Some(args) if args.is_object() => ToolArguments::Parsed {
                    value: args.clone(),
                },
                _ => ToolArguments::from_raw(""),
            };
            self.content.push(Block::ToolCall(ToolCall {
                id,
                name: str_field(call, "name").to_owned(),
                arguments,
            }));
            return;
        }
        let thought = part.get("thought").and_then(Json::as_bool) == Some(true);
        let text = str_field(part, "text");
        if thought || text.is_empty() {
            return;
        }
        observer.text_delta(text);
        match self.content.last_mut() {
            Some(Block::Text { text: so_far }) => so_far.push_str(text),
            _ => self.content.push(Block::Text {
                text: text.to_owned(),
            }),
        }
    }
}

impl ReplyAssembler for GeminiAssembler {
    fn on_event(
        &mut self,
        event: &SseEvent,
        observer: &dyn ChatObserver,
    ) -> Result<bool, AttemptFailure> {
        let json = event_json(&self.provider, event)?;
        if let Some(error) = json.get("error") {
            return Err(from_stream_error(
                &self.provider,
                str_field(error, "status"),
                str_field(error, "message"),
            ));
        }
        if let Some(model) = json.get("modelVersion").and_then(Json::as_str) {
            self.model = model.to_owned();
        }
        if let Some(id) = json.get("responseId").and_then(Json::as_str) {
            self.response_id = id.to_owned();
        }
        if let Some(usage) = json.get("usageMetadata") {
            self.read_usage(usage);
        }
        if let Some(reason) = json["promptFeedback"]
            .get("blockReason")
            .and_then(Json::as_str)
        {
            self.finish_reason = Some(format!("PROMPT_{reason}"));
        }
        let Some(candidate) = json["candidates"].get(0) else {
            return Ok(false);
        };
        if let Some(parts) = candidate["content"]["parts"].as_array() {
            for part in parts {
                self.read_part(part, observer);
            }
        }
        if let Some(reason) = candidate.get("finishReason").and_then(Json::as_str) {
            if reason == "MALFORMED_FUNCTION_CALL" {
                return Err(AttemptFailure::retry(format!(
                    "{} sent a malformed function call (MALFORMED_FUNCTION_CALL): {}",
                    self.provider,
                    str_field(candidate, "finishMessage")
                )));
            }
            self.finish_reason = Some(reason.to_owned());
        }
        // The usage of the last chunk may follow the finish reason: read to the end.
        Ok(false)
    }

    fn finish(self: Box<Self>) -> Result<ChatResponse, String> {
        let Some(reason) = self.finish_reason else {
            return Err("a `finishReason`".to_owned());
        };
        let stop = match reason.as_str() {
            "STOP" if self.calls > 0 => StopReason::ToolUse,
            "STOP" | "FINISH_REASON_UNSPECIFIED" => StopReason::EndTurn,
            "MAX_TOKENS" => StopReason::MaxTokens,
            "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII"
            | "IMAGE_SAFETY" => StopReason::Refusal,
            prompt if prompt.starts_with("PROMPT_") => StopReason::Refusal,
            other => StopReason::Other(other.to_owned()),
        };
        Ok(ChatResponse {
            model: self.model,
            message: Message {
                role: Role::Assistant,
                content: self.content,
            },
            usage: self.usage,
            stop,
        })
    }
}

#[cfg(test)]
#[path = "stream_tests.rs"]
mod tests;
