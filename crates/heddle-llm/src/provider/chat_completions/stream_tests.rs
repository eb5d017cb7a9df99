#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_engine::Usage;
use serde_json::json;

use super::ChatAssembler;
use crate::chat::{StopReason, ToolArguments};
use crate::provider::failure::AttemptFailure;
use crate::provider::stream_replay::{Replay, replay, replay_all_sizes};

fn assembler() -> Box<ChatAssembler> {
    Box::new(ChatAssembler::new("openai"))
}

const TOOL_STREAM: &str = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"One \"},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"moment \u{2713}\"},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_X\",\"type\":\"function\",\"function\":{\"name\":\"read_file\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"{\\\"pa\"}}]},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":\"call_Y\",\"type\":\"function\",\"function\":{\"name\":\"grep\",\"arguments\":\"{\\\"q\\\":\"}}]},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"th\\\":\\\"x\\\"}\"}}]},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{\"arguments\":\"\\\"fn\\\"}\"}}]},\"finish_reason\":null}]}\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n\
: a comment between chunks\n\n\
data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":20,\"total_tokens\":120,\"prompt_tokens_details\":{\"cached_tokens\":64}}}\n\n\
data: [DONE]\n\n";

#[test]
fn assembles_text_and_interleaved_calls_at_any_chunking() {
    let (response, streamed) = replay_all_sizes(|| assembler(), TOOL_STREAM);
    assert_eq!(streamed, "One moment \u{2713}");
    assert_eq!(response.model, "gpt-test");
    assert_eq!(response.stop, StopReason::ToolUse);
    assert_eq!(
        response.usage,
        Usage {
            input_tokens: 36,
            output_tokens: 20,
            cache_read_tokens: 64,
            cache_write_tokens: 0,
        }
    );
    let calls: Vec<_> = response.message.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("call_X", "read_file")
    );
    assert_eq!(
        calls[0].arguments,
        ToolArguments::Parsed {
            value: json!({"path": "x"})
        }
    );
    assert_eq!(
        calls[1].arguments,
        ToolArguments::Parsed {
            value: json!({"q": "fn"})
        }
    );
}

#[test]
fn finish_reason_and_usage_without_done_is_whole() {
    let cut = TOOL_STREAM.find("data: [DONE]").unwrap();
    let (response, _) = replay_all_sizes(|| assembler(), &TOOL_STREAM[..cut]);
    assert_eq!(response.usage.output_tokens, 20);
}

#[test]
fn stream_without_finish_is_truncation() {
    let cut = TOOL_STREAM
        .find("data: {\"id\":\"c1\",\"model\":\"gpt-test\",\"choices\":[{\"index\":0,\"delta\":{},")
        .unwrap();
    match replay(assembler(), &TOOL_STREAM[..cut], 9) {
        Replay::Truncated(missing) => assert_eq!(missing, "`data: [DONE]`"),
        other => panic!("expected truncation, got {other:?}"),
    }
}

#[test]
fn servers_without_indexes_or_ids() {
    let text = "data: {\"model\":\"llama\",\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":{\"name\":\"a\",\"arguments\":\"{}\"}},{\"function\":{\"name\":\"b\",\"arguments\":\"{\\\"x\\\":1}\"}}]},\"finish_reason\":\"stop\"}]}\n\n\
data: [DONE]\n\n";
    let (response, _) = replay_all_sizes(|| assembler(), text);
    let calls: Vec<_> = response.message.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(
        (calls[0].id.as_str(), calls[0].name.as_str()),
        ("call_0", "a")
    );
    assert_eq!(
        (calls[1].id.as_str(), calls[1].name.as_str()),
        ("call_1", "b")
    );
    assert_eq!(response.stop, StopReason::ToolUse);
    assert_eq!(response.usage, Usage::default());
}

#[test]
fn error_chunk_fails_the_attempt() {
    let text =
        "data: {\"error\":{\"message\":\"upstream overloaded\",\"type\":\"server_error\"}}\n\n";
    match replay(assembler(), text, 6) {
        Replay::Failed(AttemptFailure::Retryable { reason, .. }) => {
            assert_eq!(
                reason,
                "openai reported `server_error` mid-stream: upstream overloaded"
            );
        }
        other => panic!("expected a retryable failure, got {other:?}"),
    }
}
