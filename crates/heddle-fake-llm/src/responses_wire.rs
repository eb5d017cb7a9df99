//! The OpenAI Responses stream: `response.created`, output items (reasoning, message,
//! function calls) with their deltas and `.done` events, then `response.completed` (or
//! `response.incomplete`); and OpenAI-shaped error bodies.

use serde_json::{Value as Json, json};

use crate::script::FakeReply;
use crate::sse_frame::{ReplyContext, frame, pieces};

/// The SSE frames of `reply`.
pub(crate) fn frames(reply: &FakeReply, ctx: &ReplyContext<'_>) -> Vec<String> {
    let response_id = format!("resp_fake_{}", ctx.ids.next());
    let shell = |status: &str| json!({"id": response_id, "object": "response", "status": status, "model": ctx.model, "output": []});
    let mut events: Vec<Json> = vec![
        json!({"type": "response.created", "response": shell("in_progress")}),
        json!({"type": "response.in_progress", "response": shell("in_progress")}),
    ];
    let mut output: Vec<Json> = Vec::new();

    if let Some(reasoning) = &reply.reasoning {
        let index = output.len();
        let id = format!("rs_fake_{}", ctx.ids.next());
        let done = json!({
            "id": id,
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": reasoning}],
            "encrypted_content": format!("fake-encrypted-{id}"),
        });
        events.push(
            json!({"type": "response.output_item.added", "output_index": index,
            "item": {"id": id, "type": "reasoning", "summary": []}}),
        );
        events.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": done}),
        );
        output.push(done);
    }

    if !reply.text.is_empty() {
        let index = output.len();
        let id = format!("msg_fake_{}", ctx.ids.next());
        let part = json!({"type": "output_text", "text": reply.text, "annotations": []});
        events.push(json!({"type": "response.output_item.added", "output_index": index,
            "item": {"id": id, "type": "message", "status": "in_progress", "role": "assistant", "content": []}}));
        events.push(
            json!({"type": "response.content_part.added", "item_id": id, "output_index": index,
            "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}),
        );
        for piece in pieces(&reply.text, 3) {
            events.push(json!({"type": "response.output_text.delta", "item_id": id,
                "output_index": index, "content_index": 0, "delta": piece}));
        }
        events.push(
            json!({"type": "response.output_text.done", "item_id": id, "output_index": index,
            "content_index": 0, "text": reply.text}),
        );
        events.push(
            json!({"type": "response.content_part.done", "item_id": id, "output_index": index,
            "content_index": 0, "part": part}),
        );
        let done = json!({"id": id, "type": "message", "status": "completed", "role": "assistant",
            "content": [part]});
        events.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": done}),
        );
        output.push(done);
    }

    for call in &reply.tool_calls {
        let index = output.len();
        let n = ctx.ids.next();
        let (id, call_id) = (format!("fc_fake_{n}"), format!("call_fake_{n}"));
        events.push(
            json!({"type": "response.output_item.added", "output_index": index,
            "item": {"id": id, "type": "function_call", "status": "in_progress", "call_id": call_id,
                "name": call.name, "arguments": ""}}),
        );
        for piece in pieces(&call.arguments, 4) {
            events.push(
                json!({"type": "response.function_call_arguments.delta", "item_id": id,
                "output_index": index, "delta": piece}),
            );
        }
        events.push(
            json!({"type": "response.function_call_arguments.done", "item_id": id,
            "output_index": index, "arguments": call.arguments}),
        );
        let done = json!({"id": id, "type": "function_call", "status": "completed", "call_id": call_id,
            "name": call.name, "arguments": call.arguments});
        events.push(
            json!({"type": "response.output_item.done", "output_index": index, "item": done}),
        );
        output.push(done);
    }

    let usage = &reply.usage;
    let input = usage.input + usage.cache_read;
    let mut last = shell(if reply.max_tokens {
        "incomplete"
    } else {
        "completed"
    });
    last["output"] = Json::Array(output);
    last["usage"] = json!({
        "input_tokens": input,
        "input_tokens_details": {"cached_tokens": usage.cache_read},
        "output_tokens": usage.output,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": input + usage.output,
    });
    if reply.max_tokens {
        last["incomplete_details"] = json!({"reason": "max_output_tokens"});
        events.push(json!({"type": "response.incomplete", "response": last}));
    } else {
        events.push(json!({"type": "response.completed", "response": last}));
    }

    events
        .into_iter()
        .enumerate()
        .map(|(sequence, mut event)| {
            event["sequence_number"] = json!(sequence);
            let name = event["type"].as_str().unwrap_or("").to_owned();
            frame(Some(&name), &event)
        })
        .collect()
}

/// The body of an HTTP error response (OpenAI's shape, also used for Chat Completions).
pub(crate) fn error_body(status: u16, message: &str) -> Json {
    let (kind, code) = match status {
        400 | 404 | 413 | 422 => ("invalid_request_error", Json::Null),
        401 => ("invalid_request_error", json!("invalid_api_key")),
        403 => (
            "invalid_request_error",
            json!("unsupported_country_region_territory"),
        ),
        429 => ("requests", json!("rate_limit_exceeded")),
        _ => ("server_error", Json::Null),
    };
    json!({"error": {"message": message, "type": kind, "param": null, "code": code}})
}

/// The `response.failed` frame of a stream the server gave up on.
pub(crate) fn stream_error(message: &str) -> String {
    frame(
        Some("response.failed"),
        &json!({
            "type": "response.failed",
            "response": {"status": "failed", "error": {"code": "server_error", "message": message}},
        }),
    )
}
