//! Builds the body of `POST /v1/responses` from a [`ChatRequest`]: `instructions`, `input`
//! items (messages, `function_call`, `function_call_output`, reasoning items sent back),
//! function tools, `max_output_tokens` and `reasoning.effort`.
//!
//! Calls are stateless (`store: false`): the whole conversation goes with every call. So
//! reasoning items can only go back with their `encrypted_content`, which is asked for
//! (`include`) whenever a reasoning effort is set; items without it are skipped.

use serde_json::{Value as Json, json};

use crate::chat::{Block, ChatRequest, Message, Role};
use crate::provider::split_user_message;

/// The request body (always streaming).
pub(crate) fn request_body(request: &ChatRequest, provider: &str) -> Json {
    let mut body = json!({
        "model": request.model,
        "stream": true,
        "store": false,
        "input": input(&request.messages, provider),
        "max_output_tokens": request.max_output_tokens,
    });
    if !request.system.is_empty() {
        body["instructions"] = json!(request.system);
    }
    if !request.tools.is_empty() {
        body["tools"] = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "type": "function",
                    "name": tool.name,
                    "description": tool.description,
                    "parameters": tool.parameters,
                    // Responses defaults to strict schemas, which most tool schemas are not.
                    "strict": false,
                })
            })
            .collect();
    }
    if let Some(effort) = &request.reasoning_effort {
        body["reasoning"] = json!({"effort": effort});
        body["include"] = json!(["reasoning.encrypted_content"]);
    }
    body
}

fn input(messages: &[Message], provider: &str) -> Vec<Json> {
    let mut items = Vec::new();
    for message in messages {
        match message.role {
            Role::User => user_items(message, &mut items),
            Role::Assistant => assistant_items(message, provider, &mut items),
        }
    }
    items
}

/// Tool outputs first (they answer the previous turn's calls), then the text.
fn user_items(message: &Message, items: &mut Vec<Json>) {
    let (results, text) = split_user_message(message);
    for (call_id, output) in results {
        items.push(json!({"type": "function_call_output", "call_id": call_id, "output": output}));
    }
    if !text.is_empty() {
        items.push(json!({"type": "message", "role": "user", "content": text}));
    }
}

/// In order: reasoning items, text (runs of text joined into one message), calls.
fn assistant_items(message: &Message, provider: &str, items: &mut Vec<Json>) {
    let mut text = String::new();
    let flush = |text: &mut String, items: &mut Vec<Json>| {
        if !text.is_empty() {
            let content = std::mem::take(text);
            items.push(json!({"type": "message", "role": "assistant", "content": content}));
        }
    };
    for block in &message.content {
        match block {
            Block::Text { text: piece } => text.push_str(piece),
            Block::ToolCall(call) => {
                flush(&mut text, items);
                items.push(json!({
                    "type": "function_call",
                    "call_id": call.id,
                    "name": call.name,
                    "arguments": call.arguments.to_raw(),
                }));
            }
            Block::Opaque {
                provider: from,
                data,
            } if from == provider && can_send_back(data) => {
                flush(&mut text, items);
                items.push(data.clone());
            }
            _ => {}
        }
    }
    flush(&mut text, items);
}

/// Reasoning items need their encrypted content when nothing is stored server-side.
fn can_send_back(item: &Json) -> bool {
    if item.get("type").and_then(Json::as_str) != Some("reasoning") {
        return true;
    }
    item.get("encrypted_content")
        .and_then(Json::as_str)
        .is_some_and(|content| !content.is_empty())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use serde_json::json;

    use super::*;
    use crate::chat::{ToolArguments, ToolCall, ToolSpec};

    fn request() -> ChatRequest {
        ChatRequest {
            model: "gpt-test".to_owned(),
            system: "Be brief.".to_owned(),
            messages: vec![
                Message::user_text("List the files."),
                Message {
                    role: Role::Assistant,
                    content: vec![
                        Block::Opaque {
                            provider: "openai".to_owned(),
                            data: json!({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"}),
                        },
                        Block::Opaque {
                            provider: "openai".to_owned(),
                            data: json!({"type": "reasoning", "id": "rs_2", "summary": []}),
                        },
                        Block::Opaque {
                            provider: "anthropic".to_owned(),
                            data: json!({"type": "thinking"}),
                        },
                        Block::Text {
                            text: "Looking.".to_owned(),
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
            ],
            tools: vec![ToolSpec {
                name: "ls".to_owned(),
                description: "Lists files.".to_owned(),
                parameters: json!({"type": "object"}),
            }],
            max_output_tokens: 1000,
            reasoning_effort: Some("low".to_owned()),
        }
    }

    #[test]
    fn maps_the_whole_conversation() {
        let body = request_body(&request(), "openai");
        let expected = json!({
            "model": "gpt-test",
            "stream": true,
            "store": false,
            "instructions": "Be brief.",
            "max_output_tokens": 1000,
            "reasoning": {"effort": "low"},
            "include": ["reasoning.encrypted_content"],
            "tools": [{
                "type": "function",
                "name": "ls",
                "description": "Lists files.",
                "parameters": {"type": "object"},
                "strict": false,
            }],
            "input": [
                {"type": "message", "role": "user", "content": "List the files."},
                {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"},
                {"type": "message", "role": "assistant", "content": "Looking."},
                {"type": "function_call", "call_id": "call_1", "name": "ls", "arguments": "{\"path\":\".\"}"},
                {"type": "function_call", "call_id": "call_2", "name": "ls", "arguments": "{oops"},
                {"type": "function_call_output", "call_id": "call_1", "output": "a.txt"},
                {"type": "function_call_output", "call_id": "call_2", "output": "Error: bad arguments"},
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
        let body = request_body(&request, "openai");
        for key in ["instructions", "tools", "reasoning", "include"] {
            assert!(body.get(key).is_none(), "{key}");
        }
    }
}
