//! Builds the body of `POST /v1/chat/completions` from a [`ChatRequest`]: a system message,
//! user and assistant messages with `tool_calls`, `role: "tool"` results, function tools,
//! `max_tokens`, `reasoning_effort`, and `stream_options.include_usage`.
//!
//! Chat Completions has nothing to carry provider-specific items, so every
//! [`crate::chat::Block::Opaque`] is skipped, and no field marks a tool result as an error (the result
//! text has to say so).

use serde_json::{Value as Json, json};

use crate::chat::{ChatRequest, Message, Role};
use crate::provider::split_user_message;

/// The request body (always streaming, with usage in the last chunk).
pub(crate) fn request_body(request: &ChatRequest) -> Json {
    let mut messages = Vec::new();
    if !request.system.is_empty() {
        messages.push(json!({"role": "system", "content": request.system}));
    }
    for message in &request.messages {
        match message.role {
            Role::User => user_messages(message, &mut messages),
            Role::Assistant => assistant_message(message, &mut messages),
        }
    }
    let mut body = json!({
        "model": request.model,
        "stream": true,
        "stream_options": {"include_usage": true},
        "messages": messages,
        "max_tokens": request.max_output_tokens,
    });
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.parameters,
                    },
                })
            })
            .collect();
    }
    if let Some(effort) = &request.reasoning_effort {
        body["reasoning_effort"] = json!(effort);
    }
    body
}

/// Tool results first (they must follow the assistant's `tool_calls` directly), then the
/// text as a user message.
fn user_messages(message: &Message, out: &mut Vec<Json>) {
    let (results, text) = split_user_message(message);
    for (call_id, output) in results {
        out.push(json!({"role": "tool", "tool_call_id": call_id, "content": output}));
    }
    if !text.is_empty() {
        out.push(json!({"role": "user", "content": text}));
    }
}

fn assistant_message(message: &Message, out: &mut Vec<Json>) {
    let text = message.text();
    let calls: Vec<Json> = message
        .tool_calls()
        .map(|call| {
            json!({
                "id": call.id,
                "type": "function",
                "function": {"name": call.name, "arguments": call.arguments.to_raw()},
            })
        })
        .collect();
    if text.is_empty() && calls.is_empty() {
        return;
    }
    let mut entry = json!({
        "role": "assistant",
        "content": if text.is_empty() { Json::Null } else { Json::String(text) },
    });
    if !calls.is_empty() {
        entry["tool_calls"] = Json::Array(calls);
    }
    out.push(entry);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use serde_json::json;

    use super::*;
    use crate::chat::{Block, ToolArguments, ToolCall, ToolSpec};

    fn request() -> ChatRequest {
        ChatRequest {
            model: "llama-test".to_owned(),
            system: "Be brief.".to_owned(),
            messages: vec![
                Message::user_text("List the files."),
                Message {
                    role: Role::Assistant,
                    content: vec![
                        Block::Opaque {
                            provider: "ollama".to_owned(),
                            data: json!({"anything": true}),
                        },
                        Block::ToolCall(ToolCall {
                            id: "call_1".to_owned(),
                            name: "ls".to_owned(),
                            arguments: ToolArguments::from_raw(r#"{"path":"."}"#),
                        }),
                        Block::ToolCall(ToolCall {
                            id: "call_2".to_owned(),
                            name: "ls".to_owned(),
                            arguments: ToolArguments::from_raw("{oops"),
                        }),
                    ],
                },
                Message {
                    role: Role::User,
                    content: vec![
                        Block::Text {
                            text: "Go on.".to_owned(),
                        },
                        Block::ToolResult {
                            call_id: "call_1".to_owned(),
                            content: "a.txt".to_owned(),
                            is_error: false,
                        },
                        Block::ToolResult {
                            call_id: "call_2".to_owned(),
                            content: "bad arguments".to_owned(),
                            is_error: true,
                        },
                    ],
                },
                Message {
                    role: Role::Assistant,
                    content: vec![Block::Text {
                        text: "Done.".to_owned(),
                    }],
                },
            ],
            tools: vec![ToolSpec {
                name: "ls".to_owned(),
                description: "Lists files.".to_owned(),
                parameters: json!({"type": "object"}),
            }],
            max_output_tokens: 1000,
            reasoning_effort: Some("medium".to_owned()),
        }
    }

    #[test]
    fn maps_the_whole_conversation() {
        let body = request_body(&request());
        let expected = json!({
            "model": "llama-test",
            "stream": true,
            "stream_options": {"include_usage": true},
            "max_tokens": 1000,
            "reasoning_effort": "medium",
            "tools": [{
                "type": "function",
                "function": {"name": "ls", "description": "Lists files.", "parameters": {"type": "object"}},
            }],
            "messages": [
                {"role": "system", "content": "Be brief."},
                {"role": "user", "content": "List the files."},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{\"path\":\".\"}"}},
                    {"id": "call_2", "type": "function", "function": {"name": "ls", "arguments": "{oops"}},
                ]},
                {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"},
                {"role": "tool", "tool_call_id": "call_2", "content": "Error: bad arguments"},
                {"role": "user", "content": "Go on."},
                {"role": "assistant", "content": "Done."},
            ],
        });
        assert_eq!(body, expected);
    }

    #[test]
    fn no_system_tools_or_effort() {
        let mut request = request();
        request.system.clear();
        request.tools.clear();
        request.reasoning_effort = None;
        let body = request_body(&request);
        assert_eq!(body["messages"][0]["role"], "user");
        assert!(body.get("tools").is_none());
        assert!(body.get("reasoning_effort").is_none());
    }
}
