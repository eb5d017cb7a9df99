//! The Anthropic Messages stream: `message_start`, content blocks (thinking, text,
//! `tool_use`) with their deltas, `message_delta` with the stop reason and usage,
//! `message_stop`; and Anthropic-shaped error bodies.

use serde_json::{Value as Json, json};

use crate::script::FakeReply;
use crate::sse_frame::{ReplyContext, frame, pieces};

/// The SSE frames of `reply`.
pub(crate) fn frames(reply: &FakeReply, ctx: &ReplyContext<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let usage = &reply.usage;
    out.push(frame(
        Some("message_start"),
        &json!({
            "type": "message_start",
            "message": {
                "id": format!("msg_fake_{}", ctx.ids.next()),
                "type": "message",
                "role": "assistant",
                "content": [],
                "model": ctx.model,
                "stop_reason": null,
                "stop_sequence": null,
                "usage": {
                    "input_tokens": usage.input,
                    "cache_creation_input_tokens": usage.cache_write,
                    "cache_read_input_tokens": usage.cache_read,
                    "output_tokens": 1,
                },
            },
        }),
    ));
    out.push(frame(Some("ping"), &json!({"type": "ping"})));
    let mut index = 0;
    if let Some(reasoning) = &reply.reasoning {
        let start = json!({"type": "thinking", "thinking": "", "signature": ""});
        let mut deltas: Vec<Json> = pieces(reasoning, 2)
            .into_iter()
            .map(|piece| json!({"type": "thinking_delta", "thinking": piece}))
            .collect();
        let signature = format!("fake-signature-{}", ctx.ids.next());
        deltas.push(json!({"type": "signature_delta", "signature": signature}));
        block(&mut out, index, start, deltas);
        index += 1;
    }
    if !reply.text.is_empty() {
        let deltas = pieces(&reply.text, 3)
            .into_iter()
            .map(|piece| json!({"type": "text_delta", "text": piece}))
            .collect();
        block(&mut out, index, json!({"type": "text", "text": ""}), deltas);
        index += 1;
    }
    for call in &reply.tool_calls {
        let start = json!({
            "type": "tool_use",
            "id": format!("toolu_fake_{}", ctx.ids.next()),
            "name": call.name,
            "input": {},
        });
        let mut deltas = vec![json!({"type": "input_json_delta", "partial_json": ""})];
        deltas.extend(
            pieces(&call.arguments, 4)
                .into_iter()
                .map(|piece| json!({"type": "input_json_delta", "partial_json": piece})),
        );
        block(&mut out, index, start, deltas);
        index += 1;
    }
    let stop = if reply.max_tokens {
        "max_tokens"
    } else if reply.tool_calls.is_empty() {
        "end_turn"
    } else {
        "tool_use"
    };
    out.push(frame(
        Some("message_delta"),
        &json!({
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": null},
            "usage": {"output_tokens": usage.output},
        }),
    ));
    out.push(frame(
        Some("message_stop"),
        &json!({"type": "message_stop"}),
    ));
    out
}

fn block(out: &mut Vec<String>, index: usize, start: Json, deltas: Vec<Json>) {
    out.push(frame(
        Some("content_block_start"),
        &json!({"type": "content_block_start", "index": index, "content_block": start}),
    ));
    for delta in deltas {
        out.push(frame(
            Some("content_block_delta"),
            &json!({"type": "content_block_delta", "index": index, "delta": delta}),
        ));
    }
    out.push(frame(
        Some("content_block_stop"),
        &json!({"type": "content_block_stop", "index": index}),
    ));
}

/// The body of an HTTP error response.
pub(crate) fn error_body(status: u16, message: &str) -> Json {
    let kind = match status {
        400 | 413 => "invalid_request_error",
        401 => "authentication_error",
        403 => "permission_error",
        404 => "not_found_error",
        429 => "rate_limit_error",
        529 => "overloaded_error",
        _ => "api_error",
    };
    json!({"type": "error", "error": {"type": kind, "message": message}})
}

/// The `event: error` frame of an overloaded stream.
pub(crate) fn stream_error(message: &str) -> String {
    frame(
        Some("error"),
        &json!({"type": "error", "error": {"type": "overloaded_error", "message": message}}),
    )
}
