//! The Gemini `streamGenerateContent?alt=sse` stream: one `GenerateContentResponse` per
//! `data:` frame (text in pieces, then the function calls whole, then a last chunk with the
//! `finishReason` and the full `usageMetadata`), thought signatures when the reply has
//! reasoning, `MALFORMED_FUNCTION_CALL` for tool arguments that are not a JSON object; and
//! Google-shaped error bodies.

use serde_json::{Value as Json, json};

use crate::script::FakeReply;
use crate::sse_frame::{ReplyContext, frame, pieces};

/// The SSE frames of `reply`.
pub(crate) fn frames(reply: &FakeReply, ctx: &ReplyContext<'_>) -> Vec<String> {
    let response_id = format!("fake-response-{}", ctx.ids.next());
    let usage = &reply.usage;
    let prompt = usage.input + usage.cache_read;
    let chunk = |parts: Vec<Json>, finish: Option<&str>, usage: Json| {
        let mut candidate = json!({"content": {"parts": parts, "role": "model"}, "index": 0});
        if let Some(reason) = finish {
            candidate["finishReason"] = json!(reason);
        }
        json!({
            "candidates": [candidate],
            "usageMetadata": usage,
            "modelVersion": ctx.model,
            "responseId": response_id,
        })
    };
    let running = json!({"promptTokenCount": prompt, "totalTokenCount": prompt});
    let mut signature = reply
        .reasoning
        .as_ref()
        .map(|_| format!("fake-thought-signature-{}", ctx.ids.next()));
    let mut chunks = Vec::new();
    for piece in pieces(&reply.text, 3) {
        chunks.push(chunk(vec![json!({"text": piece})], None, running.clone()));
    }

    let mut calls = Vec::new();
    let mut malformed = None;
    for call in &reply.tool_calls {
        match serde_json::from_str::<Json>(&call.arguments) {
            Ok(args) if args.is_object() => {
                let mut part = json!({"functionCall": {"name": call.name, "args": args}});
                if let Some(signature) = signature.take() {
                    part["thoughtSignature"] = json!(signature);
                }
                calls.push(part);
            }
            _ => malformed = Some(format!("Malformed function call: {}", call.arguments)),
        }
    }
    if let Some(message) = malformed {
        let mut last = chunk(Vec::new(), Some("MALFORMED_FUNCTION_CALL"), running);
        last["candidates"][0]["finishMessage"] = json!(message);
        chunks.push(last);
        return chunks.iter().map(|c| frame(None, c)).collect();
    }
    if !calls.is_empty() {
        chunks.push(chunk(calls, None, running));
    }

    let mut usage_metadata = json!({
        "promptTokenCount": prompt,
        "candidatesTokenCount": usage.output,
        "totalTokenCount": prompt + usage.output,
    });
    if usage.cache_read > 0 {
        usage_metadata["cachedContentTokenCount"] = json!(usage.cache_read);
    }
    let finish = if reply.max_tokens {
        "MAX_TOKENS"
    } else {
        "STOP"
    };
    let mut last_part = json!({"text": ""});
    if let Some(signature) = signature {
        last_part["thoughtSignature"] = json!(signature);
    }
    chunks.push(chunk(vec![last_part], Some(finish), usage_metadata));
    chunks.iter().map(|c| frame(None, c)).collect()
}

/// The Google status name of an HTTP status.
fn status_name(status: u16) -> &'static str {
    match status {
        400 | 413 => "INVALID_ARGUMENT",
        401 => "UNAUTHENTICATED",
        403 => "PERMISSION_DENIED",
        404 => "NOT_FOUND",
        429 => "RESOURCE_EXHAUSTED",
        503 => "UNAVAILABLE",
        504 => "DEADLINE_EXCEEDED",
        _ => "INTERNAL",
    }
}

/// The body of an HTTP error response. Google sends no `Retry-After` header: the wait is a
/// `RetryInfo` detail.
pub(crate) fn error_body(status: u16, message: &str, retry_after: Option<&str>) -> Json {
    let mut error = json!({"code": status, "message": message, "status": status_name(status)});
    if let Some(seconds) = retry_after {
        error["details"] = json!([
            {"@type": "type.googleapis.com/google.rpc.QuotaFailure", "violations": []},
            {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": format!("{seconds}s")},
        ]);
    }
    json!({"error": error})
}

/// The frame a server sends when it gives up mid-stream.
pub(crate) fn stream_error(message: &str) -> String {
    frame(
        None,
        &json!({"error": {"code": 503, "message": message, "status": "UNAVAILABLE"}}),
    )
}
