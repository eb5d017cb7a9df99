//! Builds the body of `POST models/{model}:streamGenerateContent` from a [`ChatRequest`]:
//! `systemInstruction`, `contents` of `user` and `model` turns with `functionCall` and
//! `functionResponse` parts, `tools` as function declarations (with their JSON Schema as
//! `parametersJsonSchema`), and `generationConfig` (`maxOutputTokens`, `thinkingConfig`).
//! The model is not in the body: it is part of the URL.

use std::collections::HashMap;

use serde_json::{Value as Json, json};

use super::{LOCAL_CALL_ID_PREFIX, SIGNATURE_KEY};
use crate::chat::{Block, ChatRequest, Message, Role};

/// The value Google documents for a function call whose thought signature is unknown (a
/// conversation begun with another provider); it tells Gemini 3 not to check it.
const UNCHECKED_SIGNATURE: &str = "skip_thought_signature_validator";

/// The request body.
pub(crate) fn request_body(request: &ChatRequest, provider: &str) -> Json {
    let mut body = json!({
        "contents": contents(&request.messages, provider),
        "generationConfig": generation_config(request),
    });
    if !request.system.is_empty() {
        body["systemInstruction"] = json!({"parts": [{"text": request.system}]});
    }
    if !request.tools.is_empty() {
        let declarations: Vec<Json> = request
            .tools
            .iter()
            .map(|tool| {
                json!({
                    "name": tool.name,
                    "description": tool.description,
                    "parametersJsonSchema": tool.parameters,
                })
            })
            .collect();
        body["tools"] = json!([{"functionDeclarations": declarations}]);
    }
    body
}

fn generation_config(request: &ChatRequest) -> Json {
    let mut config = json!({"maxOutputTokens": request.max_output_tokens});
    if let Some(thinking) = thinking_config(&request.model, request.reasoning_effort.as_deref()) {
        config["thinkingConfig"] = thinking;
    }
    config
}

/// `thinkingConfig` for a reasoning effort: a token budget for Gemini 2.x models, a
/// thinking level (`minimal`, `low`, `medium`, `high`) for later ones; other efforts leave
/// the model's default.
pub(crate) fn thinking_config(model: &str, effort: Option<&str>) -> Option<Json> {
    let effort = effort?.trim().to_ascii_lowercase();
    let budget = match effort.as_str() {
        "minimal" => 0,
        "low" => 1024,
        "medium" => 8192,
        "high" => 24576,
        _ => return None,
    };
    if model.trim().starts_with("gemini-2") {
        (budget > 0).then(|| json!({"thinkingBudget": budget}))
    } else {
        Some(json!({"thinkingLevel": effort}))
    }
}

/// The conversation as `contents`. Tool results name the function they answer, so the
/// names of the calls seen so far are kept by call id.
fn contents(messages: &[Message], provider: &str) -> Vec<Json> {
    let mut call_names: HashMap<&str, &str> = HashMap::new();
    let mut out = Vec::new();
    for message in messages {
        let (role, parts) = match message.role {
            Role::Assistant => ("model", model_parts(message, provider, &mut call_names)),
            Role::User => ("user", user_parts(message, &call_names)),
        };
        if !parts.is_empty() {
            out.push(json!({"role": role, "parts": parts}));
        }
    }
    out
}

/// A model turn: text and `functionCall` parts in order, each thought signature on the
/// part after it (or on an empty text part when nothing follows).
fn model_parts<'a>(
    message: &'a Message,
    provider: &str,
    call_names: &mut HashMap<&'a str, &'a str>,
) -> Vec<Json> {
    let mut parts = Vec::new();
    let mut signature: Option<&str> = None;
    for block in &message.content {
        let part = match block {
            Block::Opaque {
                provider: from,
                data,
            } if from == provider => {
                if let Some(new) = data.get(SIGNATURE_KEY).and_then(Json::as_str)
                    && let Some(unused) = signature.replace(new)
                {
                    parts.push(json!({"text": "", SIGNATURE_KEY: unused}));
                }
                continue;
            }
            Block::Text { text } if !text.is_empty() => json!({"text": text}),
            Block::ToolCall(call) => {
                call_names.insert(&call.id, &call.name);
                let mut function_call = json!({
                    "name": call.name,
                    "args": call.arguments.to_value(),
                });
                if !call.id.starts_with(LOCAL_CALL_ID_PREFIX) {
                    function_call["id"] = json!(call.id);
                }
                json!({"functionCall": function_call})
            }
            _ => continue,
        };
        parts.push(part);
        if let (Some(signature), Some(last)) = (signature.take(), parts.last_mut()) {
            last[SIGNATURE_KEY] = json!(signature);
        }
    }
    if let Some(signature) = signature {
        parts.push(json!({"text": "", SIGNATURE_KEY: signature}));
    }
    let signed = parts.iter().any(|part| part.get(SIGNATURE_KEY).is_some());
    if !signed && let Some(first_call) = parts.iter_mut().find(|p| p.get("functionCall").is_some())
    {
        first_call[SIGNATURE_KEY] = json!(UNCHECKED_SIGNATURE);
    }
    parts
}

/// A user turn: the `functionResponse`s first (they answer the previous turn's calls), then
/// the text.
fn user_parts(message: &Message, call_names: &HashMap<&str, &str>) -> Vec<Json> {
    let mut results = Vec::new();
    let mut texts = Vec::new();
    for block in &message.content {
        match block {
            Block::ToolResult {
                call_id,
                content,
                is_error,
            } => {
                let name = call_names
                    .get(call_id.as_str())
                    .copied()
                    .unwrap_or("unknown");
                let key = if *is_error { "error" } else { "output" };
                let mut response = json!({"name": name, "response": {key: content}});
                if !call_id.starts_with(LOCAL_CALL_ID_PREFIX) {
                    response["id"] = json!(call_id);
                }
                results.push(json!({"functionResponse": response}));
            }
            Block::Text { text } if !text.is_empty() => texts.push(json!({"text": text})),
            _ => {}
        }
    }
    results.extend(texts);
    results
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use serde_json::json;

    use super::*;
    use crate::chat::{ToolArguments, ToolCall, ToolSpec};

    fn call(id: &str, name: &str, raw: &str) -> Block {
        Block::ToolCall(ToolCall {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: ToolArguments::from_raw(raw),
        })
    }

    fn signature(provider: &str, value: &str) -> Block {
        Block::Opaque {
            provider: provider.to_owned(),
            data: json!({"thoughtSignature": value}),
        }
    }

    fn request() -> ChatRequest {
        ChatRequest {
            model: "gemini-3-flash-preview".to_owned(),
            system: "Be brief.".to_owned(),
            messages: vec![
                Message::user_text("List the files."),
                Message {
                    role: Role::Assistant,
                    content: vec![
                        Block::Text {
                            text: "Looking.".to_owned(),
                        },
                        signature("gemini", "sig-1"),
                        call("heddle-gemini-call-1", "ls", r#"{"path":"."}"#),
                        call("call-from-gemini", "read_file", "{oops"),
                        signature("anthropic", "not-for-gemini"),
                    ],
                },
                Message {
                    role: Role::User,
                    content: vec![
                        Block::Text {
                            text: "Also this.".to_owned(),
                        },
                        Block::ToolResult {
                            call_id: "heddle-gemini-call-1".to_owned(),
                            content: "a.txt".to_owned(),
                            is_error: false,
                        },
                        Block::ToolResult {
                            call_id: "call-from-gemini".to_owned(),
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
            reasoning_effort: Some("low".to_owned()),
        }
    }

    #[test]
    fn maps_the_whole_conversation() {
        let body = request_body(&request(), "gemini");
        let expected = json!({
            "systemInstruction": {"parts": [{"text": "Be brief."}]},
            "generationConfig": {"maxOutputTokens": 1000, "thinkingConfig": {"thinkingLevel": "low"}},
            "tools": [{"functionDeclarations": [{
                "name": "ls",
                "description": "Lists files.",
                "parametersJsonSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
            }]}],
            "contents": [
                {"role": "user", "parts": [{"text": "List the files."}]},
                {"role": "model", "parts": [
                    {"text": "Looking."},
                    {"functionCall": {"name": "ls", "args": {"path": "."}}, "thoughtSignature": "sig-1"},
                    {"functionCall": {"name": "read_file", "args": {}, "id": "call-from-gemini"}},
                ]},
                {"role": "user", "parts": [
                    {"functionResponse": {"name": "ls", "response": {"output": "a.txt"}}},
                    {"functionResponse": {"name": "read_file", "id": "call-from-gemini",
                        "response": {"error": "bad arguments"}}},
                    {"text": "Also this."},
                ]},
            ],
        });
        assert_eq!(body, expected);
    }

    #[test]
    fn calls_without_a_signature_get_the_unchecked_placeholder() {
        let mut request = request();
        request.messages[1].content.remove(1);
        let body = request_body(&request, "gemini");
        let model = &body["contents"][1]["parts"];
        assert_eq!(model[1]["thoughtSignature"], UNCHECKED_SIGNATURE);
        assert!(model[2].get("thoughtSignature").is_none());
        assert!(model[0].get("thoughtSignature").is_none());
    }

    #[test]
    fn a_trailing_signature_goes_on_an_empty_text_part() {
        let mut request = request();
        request.messages[1].content = vec![
            Block::Text {
                text: "Done.".to_owned(),
            },
            signature("gemini", "sig-end"),
        ];
        let body = request_body(&request, "gemini");
        assert_eq!(
            body["contents"][1]["parts"],
            json!([{"text": "Done."}, {"text": "", "thoughtSignature": "sig-end"}])
        );
    }

    #[test]
    fn reasoning_effort_by_model_generation() {
        assert_eq!(
            thinking_config("gemini-2.5-pro", Some("high")),
            Some(json!({"thinkingBudget": 24576}))
        );
        assert_eq!(thinking_config("gemini-2.5-flash", Some("minimal")), None);
        assert_eq!(
            thinking_config("gemini-3.1-pro-preview", Some("Medium")),
            Some(json!({"thinkingLevel": "medium"}))
        );
        assert_eq!(thinking_config("gemini-3-flash-preview", Some("max")), None);
        assert_eq!(thinking_config("gemini-3-flash-preview", None), None);
        let mut request = request();
        request.reasoning_effort = None;
        request.system.clear();
        request.tools.clear();
        let body = request_body(&request, "gemini");
        assert_eq!(body["generationConfig"], json!({"maxOutputTokens": 1000}));
        assert!(body.get("systemInstruction").is_none());
        assert!(body.get("tools").is_none());
    }
}
