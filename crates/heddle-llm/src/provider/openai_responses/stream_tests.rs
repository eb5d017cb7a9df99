#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_engine::Usage;
use heddle_engine::llm::LlmErrorKind;
use serde_json::json;

use super::ResponsesAssembler;
use crate::chat::{Block, StopReason, ToolArguments};
use crate::provider::failure::AttemptFailure;
use crate::provider::stream_replay::{Replay, replay, replay_all_sizes};

fn assembler() -> Box<ResponsesAssembler> {
    Box::new(ResponsesAssembler::new("openai"))
}

const TOOL_STREAM: &str = "event: response.created\n\
data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_1\",\"status\":\"in_progress\",\"model\":\"gpt-test-2025\",\"output\":[]}}\n\n\
event: response.output_item.added\n\
data: {\"type\":\"response.output_item.added\",\"output_index\":0,\"item\":{\"id\":\"rs_1\",\"type\":\"reasoning\",\"summary\":[]}}\n\n\
event: response.output_item.done\n\
data: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"id\":\"rs_1\",\"type\":\"reasoning\",\"summary\":[],\"encrypted_content\":\"gAAA\"}}\n\n\
event: response.output_item.added\n\
data: {\"type\":\"response.output_item.added\",\"output_index\":1,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]}}\n\n\
event: response.output_text.delta\n\
data: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\"Checking \"}\n\n\
event: response.output_text.delta\n\
data: {\"type\":\"response.output_text.delta\",\"item_id\":\"msg_1\",\"output_index\":1,\"content_index\":0,\"delta\":\"caf\u{e9}.\"}\n\n\
event: response.output_item.done\n\
data: {\"type\":\"response.output_item.done\",\"output_index\":1,\"item\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"output_text\",\"text\":\"Checking caf\u{e9}.\",\"annotations\":[]}]}}\n\n\
event: response.output_item.added\n\
data: {\"type\":\"response.output_item.added\",\"output_index\":2,\"item\":{\"id\":\"fc_1\",\"type\":\"function_call\",\"call_id\":\"call_A\",\"name\":\"read_file\",\"arguments\":\"\"}}\n\n\
event: response.function_call_arguments.delta\n\
data: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"output_index\":2,\"delta\":\"{\\\"pa\"}\n\n\
event: response.function_call_arguments.delta\n\
data: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_1\",\"output_index\":2,\"delta\":\"th\\\":\\\"a.rs\\\"}\"}\n\n\
event: response.function_call_arguments.done\n\
data: {\"type\":\"response.function_call_arguments.done\",\"item_id\":\"fc_1\",\"output_index\":2,\"arguments\":\"{\\\"path\\\":\\\"a.rs\\\"}\"}\n\n\
event: response.output_item.added\n\
data: {\"type\":\"response.output_item.added\",\"output_index\":3,\"item\":{\"id\":\"fc_2\",\"type\":\"function_call\",\"call_id\":\"call_B\",\"name\":\"grep\",\"arguments\":\"\"}}\n\n\
event: response.function_call_arguments.delta\n\
data: {\"type\":\"response.function_call_arguments.delta\",\"item_id\":\"fc_2\",\"output_index\":3,\"delta\":\"{not json\"}\n\n\
event: response.output_item.done\n\
data: {\"type\":\"response.output_item.done\",\"output_index\":3,\"item\":{\"id\":\"fc_2\",\"type\":\"function_call\",\"call_id\":\"call_B\",\"name\":\"grep\",\"arguments\":\"{not json\"}}\n\n\
event: response.completed\n\
data: {\"type\":\"response.completed\",\"response\":{\"id\":\"resp_1\",\"status\":\"completed\",\"model\":\"gpt-test-2025\",\"usage\":{\"input_tokens\":500,\"input_tokens_details\":{\"cached_tokens\":300},\"output_tokens\":40,\"output_tokens_details\":{\"reasoning_tokens\":12},\"total_tokens\":540}}}\n\n";

#[test]
fn assembles_reasoning_text_and_calls_at_any_chunking() {
    let (response, streamed) = replay_all_sizes(|| assembler(), TOOL_STREAM);
    assert_eq!(streamed, "Checking caf\u{e9}.");
    assert_eq!(response.model, "gpt-test-2025");
    assert_eq!(response.stop, StopReason::ToolUse);
    assert_eq!(
        response.usage,
        Usage {
            input_tokens: 200,
            output_tokens: 40,
            cache_read_tokens: 300,
            cache_write_tokens: 0,
        }
    );
    let content = &response.message.content;
    assert_eq!(
        content[0],
        Block::Opaque {
            provider: "openai".to_owned(),
            data: json!({"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": "gAAA"}),
        }
    );
    assert_eq!(response.message.text(), "Checking caf\u{e9}.");
    let calls: Vec<_> = response.message.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_eq!(calls[0].id, "call_A");
    assert_eq!(
        calls[0].arguments,
        ToolArguments::Parsed {
            value: json!({"path": "a.rs"})
        }
    );
    assert_eq!(calls[1].name, "grep");
    assert!(matches!(calls[1].arguments, ToolArguments::Invalid { .. }));
}

#[test]
fn missing_completed_is_truncation() {
    let cut = TOOL_STREAM.find("event: response.completed").unwrap();
    match replay(assembler(), &TOOL_STREAM[..cut], 13) {
        Replay::Truncated(missing) => assert_eq!(missing, "`response.completed`"),
        other => panic!("expected truncation, got {other:?}"),
    }
}

#[test]
fn incomplete_means_max_tokens_and_text_only_in_done_is_still_streamed() {
    let text = "data: {\"type\":\"response.output_item.done\",\"output_index\":0,\"item\":{\"type\":\"message\",\"content\":[{\"type\":\"output_text\",\"text\":\"Partial\"}]}}\n\n\
data: {\"type\":\"response.incomplete\",\"response\":{\"model\":\"m\",\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"},\"usage\":{\"input_tokens\":3,\"output_tokens\":9}}}\n\n";
    let (response, streamed) = replay_all_sizes(|| assembler(), text);
    assert_eq!(streamed, "Partial");
    assert_eq!(response.stop, StopReason::MaxTokens);
    assert_eq!(response.usage.output_tokens, 9);
}

#[test]
fn failed_and_error_events() {
    let failed = "event: response.failed\n\
data: {\"type\":\"response.failed\",\"response\":{\"status\":\"failed\",\"error\":{\"code\":\"server_error\",\"message\":\"The model failed.\"}}}\n\n";
    match replay(assembler(), failed, 4) {
        Replay::Failed(AttemptFailure::Retryable { reason, .. }) => {
            assert_eq!(
                reason,
                "openai reported `server_error` mid-stream: The model failed."
            );
        }
        other => panic!("expected a retryable failure, got {other:?}"),
    }
    let error = "event: error\n\
data: {\"type\":\"error\",\"code\":\"invalid_prompt\",\"message\":\"Bad prompt.\",\"param\":null}\n\n";
    match replay(assembler(), error, 4) {
        Replay::Failed(AttemptFailure::Final(error)) => {
            assert_eq!(error.kind, LlmErrorKind::Fatal);
            assert!(error.message.contains("Bad prompt."));
        }
        other => panic!("expected a final failure, got {other:?}"),
    }
}
