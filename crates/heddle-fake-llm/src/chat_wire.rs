//! The Chat Completions stream: `chat.completion.chunk`s with content, reasoning and
//! `tool_calls` deltas by index, a finish chunk, the usage chunk (only when the request asks
//! with `stream_options.include_usage`), then `data: [DONE]`.

use serde_json::{Value as Json, json};

use crate::script::FakeReply;
use crate::sse_frame::{ReplyContext, frame, pieces};

/// The SSE frames of `reply`.
pub(crate) fn frames(reply: &FakeReply, ctx: &ReplyContext<'_>) -> Vec<String> {
    let id = format!("chatcmpl-fake-{}", ctx.ids.next());
    let chunk = |delta: Json, finish: Json| {
        json!({
            "id": id,
            "object": "chat.completion.chunk",
            "created": 1_700_000_000,
            "model": ctx.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        })
    };
    let mut chunks = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Json::Null,
    )];
    if let Some(reasoning) = &reply.reasoning {
        for piece in pieces(reasoning, 2) {
            chunks.push(chunk(json!({"reasoning_content": piece}), Json::Null));
        }
    }
    for piece in pieces(&reply.text, 3) {
        chunks.push(chunk(json!({"content": piece}), Json::Null));
    }
    for (index, call) in reply.tool_calls.iter().enumerate() {
        let call_id = format!("call_fake_{}", ctx.ids.next());
        chunks.push(chunk(
            json!({"tool_calls": [{"index": index, "id": call_id, "type": "function",
                "function": {"name": call.name, "arguments": ""}}]}),
            Json::Null,
        ));
        for piece in pieces(&call.arguments, 4) {
            chunks.push(chunk(
                json!({"tool_calls": [{"index": index, "function": {"arguments": piece}}]}),
                Json::Null,
            ));
        }
    }
    let finish = if reply.max_tokens {
        "length"
    } else if reply.tool_calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    chunks.push(chunk(json!({}), json!(finish)));
    let wants_usage = ctx.request["stream_options"]["include_usage"] == json!(true);
    if wants_usage {
        let usage = &reply.usage;
        let prompt = usage.input + usage.cache_read;
        let mut last = chunk(json!({}), Json::Null);
        last["choices"] = json!([]);
        last["usage"] = json!({
            "prompt_tokens": prompt,
            "completion_tokens": usage.output,
            "total_tokens": prompt + usage.output,
            "prompt_tokens_details": {"cached_tokens": usage.cache_read},
        });
        chunks.push(last);
    }
    let mut out: Vec<String> = chunks.iter().map(|c| frame(None, c)).collect();
    out.push("data: [DONE]\n\n".to_owned());
    out
}

/// The chunk a server sends when it fails mid-stream.
pub(crate) fn stream_error(message: &str) -> String {
    frame(
        None,
        &json!({"error": {"message": message, "type": "server_error", "param": null, "code": null}}),
    )
}
