//! Builds the body of `POST /v1/messages` from a [`ChatRequest`]: system prompt, messages
//! with `tool_use` / `tool_result` blocks, tools with `input_schema`, extended thinking for
//! `reasoning_effort`, and prompt-cache breakpoints on the system prompt, the tools and the
//! newest message.

use serde_json::{Value as Json, json};

use crate::chat::{Block, ChatRequest, Message, Role};

/// The thinking budget for a reasoning effort (`low`, `medium`, `high`); other values turn
/// thinking off.
pub(crate) fn thinking_budget(effort: Option<&str>) -> Option<u32> {
    match effort?.trim().to_ascii_lowercase().as_str() {
        "low" => Some(2048),
        "medium" => Some(8192),
        "high" => Some(24576),
        _ => None,
    }
}

/// The request body (always streaming).
pub(crate) fn request_body(request: &ChatRequest, provider: &str) -> Json {
    let budget = thinking_budget(request.reasoning_effort.as_deref());
    let max_tokens = request
        .max_output_tokens
        .saturating_add(budget.unwrap_or(0));
    let mut body = json!({
        "model": request.model,
        "max_tokens": max_tokens,
        "stream": true,
        "messages": messages(&request.messages, provider),
    });
    if !request.system.is_empty() {
        body["system"] = json!([{
            "type": "text",
            "text": request.system,
            "cache_control": {"type": "ephemeral"},
        }]);
    }
    if !request.tools.is_empty() {
        let mut tools: Vec<Json> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "input_schema": tool.parameters,
                })
            })
            .collect();
        if let Some(last) = tools.last_mut() {
            last["cache_control"] = json!({"type": "ephemeral"});
        }
        body["tools"] = Json::Array(tools);
    }
    if let Some(budget) = budget {
        body["thinking"] = json!({"type": "enabled", "budget_tokens": budget});
    }
    body
}

fn messages(messages: &[Message], provider: &str) -> Vec<Json> {
    let mut out: Vec<Json> = messages
        .iter()
        .filter_map(|message| {
            let content = content(message, provider);
            if content.is_empty() {
                return None;
            }
            let role = match message.role {
                Role::User => "user",
                Role::Assistant => "assistant",
            };
            Some(json!({"role": role, "content": content}))
        })
        .collect();
    mark_cache_breakpoint(&mut out);
    out
}

/// The message's blocks in Anthropic's shape. Tool results go first (Anthropic wants them
/// before any text of the same turn); empty text is dropped (Anthropic rejects it).
fn content(message: &Message, provider: &str) -> Vec<Json> {
    let mut results = Vec::new();
    let mut rest = Vec::new();
    for block in &message.content {
        match (block, message.role) {
            (Block::Text { text }, _) if !text.is_empty() => {
                rest.push(json!({"type": "text", "text": text}));
            }
            (Block::ToolCall(call), Role::Assistant) => rest.push(json!({
                "type": "tool_use",
                "id": call.id,
                "name": call.name,
                "input": call.arguments.to_value(),
            })),
            (
                Block::ToolResult {
                    call_id,
                    content,
                    is_error,
                },
                Role::User,
            ) => results.push(json!({
                "type": "tool_result",
                "tool_use_id": call_id,
                "content": content,
                "is_error": is_error,
            })),
            (
                Block::Opaque {
                    provider: from,
                    data,
                },
                _,
            ) if from == provider => {
                rest.push(data.clone());
            }
            _ => {}
        }
    }
    results.extend(rest);
    results
}

/// Puts a cache breakpoint on the newest message's last text or tool result, so the next
/// call of an agent loop reads the whole conversation so far from the cache.
fn mark_cache_breakpoint(messages: &mut [Json]) {
    let Some(blocks) = messages
        .last_mut()
        .and_then(|message| message.get_mut("content"))
        .and_then(Json::as_array_mut)
    else {
        return;
    };
    if let Some(block) = blocks.last_mut() {
        let kind = block.get("type").and_then(Json::as_str).unwrap_or("");
        if kind == "text" || kind == "tool_result" {
            block["cache_control"] = json!({"type": "ephemeral"});
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use serde_json::json;

    use super::*;
    use crate::chat::{ToolArguments, ToolCall, ToolSpec};

    fn request() -> ChatRequest {
        ChatRequest {
            model: "claude-test".to_owned(),
            system: "Be brief.".to_owned(),
            messages: vec![
                Message::user_text("List the files."),
                Message {
                    role: Role::Assistant,
                    content: vec![
                        Block::Opaque {
                            provider: "anthropic".to_owned(),
                            data: json!({"type": "thinking", "thinking": "hm", "signature": "s1"}),
                        },
                        Block::Opaque {
                            provider: "openai".to_owned(),
                            data: json!({"type": "reasoning", "id": "rs_1"}),
                        },
                        Block::Text {
                            text: String::new(),
                        },
                        Block::Text {
                            text: "Looking.".to_owned(),
                        },
                        Block::ToolCall(ToolCall {
                            id: "toolu_1".to_owned(),
                            name: "ls".to_owned(),
                            arguments: ToolArguments::from_raw(r#"{"path":"."}"#),
                        }),
                        Block::ToolCall(ToolCall {
                            id: "toolu_2".to_owned(),
                            name: "ls".to_owned(),
                            arguments: ToolArguments::from_raw("{oops"),
                        }),
                    ],
                },
                Message {
                    role: Role::User,
                    content: vec![
                        Block::Text {
                            text: "Also this.".to_owned(),
                        },
                        Block::ToolResult {
                            call_id: "toolu_1".to_owned(),
                            content: "a.txt".to_owned(),
                            is_error: false,
                        },
                        Block::ToolResult {
                            call_id: "toolu_2".to_owned(),
                            content: "bad arguments".to_owned(),
                            is_error: true,
                        },
                    ],
                },
            ],
            tools: vec![ToolSpec {
                name: "ls".to_owned(),
                description: "Lists files.".to_owned(),
                parameters: json!({"type": "object", "properties": {"path": {"type": "string"}}}),
            }],
            max_output_tokens: 1000,
            reasoning_effort: None,
        }
    }

    #[test]
    fn maps_the_whole_conversation() {
        let body = request_body(&request(), "anthropic");
        let expected = json!({
            "model": "claude-test",
            "max_tokens": 1000,
            "stream": true,
            "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
            "tools": [{
                "name": "ls",
                "description": "Lists files.",
                "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
                "cache_control": {"type": "ephemeral"},
            }],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "List the files."}]},
                {"role": "assistant", "content": [
                    {"type": "thinking", "thinking": "hm", "signature": "s1"},
                    {"type": "text", "text": "Looking."},
                    {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {"path": "."}},
                    {"type": "tool_use", "id": "toolu_2", "name": "ls", "input": {}},
                ]},
                {"role": "user", "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt", "is_error": false},
                    {"type": "tool_result", "tool_use_id": "toolu_2", "content": "bad arguments", "is_error": true},
                    {"type": "text", "text": "Also this.", "cache_control": {"type": "ephemeral"}},
                ]},
            ],
        });
        assert_eq!(body, expected);
    }

    #[test]
    fn reasoning_effort_turns_on_thinking_and_raises_max_tokens() {
        let mut request = request();
        request.reasoning_effort = Some("high".to_owned());
        request.system.clear();
        request.tools.clear();
        let body = request_body(&request, "anthropic");
        assert_eq!(
            body["thinking"],
            json!({"type": "enabled", "budget_tokens": 24576})
        );
        assert_eq!(body["max_tokens"], json!(1000 + 24576));
        assert!(body.get("system").is_none());
        assert!(body.get("tools").is_none());
        assert_eq!(thinking_budget(Some("low")), Some(2048));
        assert_eq!(thinking_budget(Some("Medium")), Some(8192));
        assert_eq!(thinking_budget(Some("none")), None);
    }

    #[test]
    fn thinking_from_another_provider_is_skipped() {
        let body = request_body(&request(), "my-proxy");
        let assistant = &body["messages"][1]["content"];
        assert_eq!(assistant[0], json!({"type": "text", "text": "Looking."}));
    }
}
