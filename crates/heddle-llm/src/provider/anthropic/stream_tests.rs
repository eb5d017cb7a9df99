#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_engine::Usage;
use heddle_engine::llm::LlmErrorKind;
use serde_json::json;

use super::AnthropicAssembler;
use crate::chat::{Block, StopReason, ToolArguments};
use crate::provider::failure::AttemptFailure;
use crate::provider::stream_replay::{Replay, replay, replay_all_sizes};

fn assembler() -> Box<AnthropicAssembler> {
    Box::new(AnthropicAssembler::new("anthropic"))
}

const TOOL_STREAM: &str = "event: message_start\n\
data: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-test\",\"stop_reason\":null,\"usage\":{\"input_tokens\":120,\"cache_creation_input_tokens\":30,\"cache_read_input_tokens\":900,\"output_tokens\":1}}}\n\n\
event: content_block_start\n\
data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"Need to \"}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"look.\"}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"sig==\"}}\n\n\
event: content_block_stop\n\
data: {\"type\":\"content_block_stop\",\"index\":0}\n\n\
event: content_block_start\n\
data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
event: ping\n\
data: {\"type\": \"ping\"}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Let me \"}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"check \u{2713}.\"}}\n\n\
event: content_block_stop\n\
data: {\"type\":\"content_block_stop\",\"index\":1}\n\n\
event: content_block_start\n\
data: {\"type\":\"content_block_start\",\"index\":2,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_01\",\"name\":\"read_file\",\"input\":{}}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"pa\"}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"th\\\": \\\"src/ma\"}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":2,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"in.rs\\\"}\"}}\n\n\
event: content_block_stop\n\
data: {\"type\":\"content_block_stop\",\"index\":2}\n\n\
event: content_block_start\n\
data: {\"type\":\"content_block_start\",\"index\":3,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_02\",\"name\":\"list\",\"input\":{}}}\n\n\
event: content_block_delta\n\
data: {\"type\":\"content_block_delta\",\"index\":3,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"dir\\\": \"}}\n\n\
event: content_block_stop\n\
data: {\"type\":\"content_block_stop\",\"index\":3}\n\n\
event: message_delta\n\
data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":89}}\n\n\
event: message_stop\n\
data: {\"type\":\"message_stop\"}\n\n";

#[test]
fn assembles_thinking_text_and_tool_calls_at_any_chunking() {
    let (response, streamed) = replay_all_sizes(|| assembler(), TOOL_STREAM);
    assert_eq!(streamed, "Let me check \u{2713}.");
    assert_eq!(response.model, "claude-sonnet-test");
    assert_eq!(response.stop, StopReason::ToolUse);
    assert_eq!(
        response.usage,
        Usage {
            input_tokens: 120,
            output_tokens: 89,
            cache_read_tokens: 900,
            cache_write_tokens: 30,
        }
    );
    let content = &response.message.content;
    assert_eq!(content.len(), 4);
    assert_eq!(
        content[0],
        Block::Opaque {
            provider: "anthropic".to_owned(),
            data: json!({"type": "thinking", "thinking": "Need to look.", "signature": "sig=="}),
        }
    );
    assert_eq!(response.message.text(), "Let me check \u{2713}.");
    let calls: Vec<_> = response.message.tool_calls().collect();
    assert_eq!(calls[0].id, "toolu_01");
    assert_eq!(calls[0].name, "read_file");
    assert_eq!(
        calls[0].arguments,
        ToolArguments::Parsed {
            value: json!({"path": "src/main.rs"})
        }
    );
    assert_eq!(calls[1].id, "toolu_02");
    assert!(
        matches!(&calls[1].arguments, ToolArguments::Invalid { raw, .. } if raw == "{\"dir\": "),
        "{:?}",
        calls[1].arguments
    );
}

#[test]
fn missing_message_stop_is_truncation() {
    let cut = TOOL_STREAM.find("event: message_stop").unwrap();
    match replay(assembler(), &TOOL_STREAM[..cut], 7) {
        Replay::Truncated(missing) => assert_eq!(missing, "`message_stop`"),
        other => panic!("expected truncation, got {other:?}"),
    }
}

#[test]
fn overloaded_error_event_is_retryable() {
    let text = "event: message_start\n\
data: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":1}}}\n\n\
event: error\n\
data: {\"type\": \"error\", \"error\": {\"type\": \"overloaded_error\", \"message\": \"Overloaded\"}}\n\n";
    match replay(assembler(), text, 5) {
        Replay::Failed(AttemptFailure::Retryable { reason, .. }) => {
            assert_eq!(
                reason,
                "anthropic reported `overloaded_error` mid-stream: Overloaded"
            );
        }
        other => panic!("expected a retryable failure, got {other:?}"),
    }
    let text = "event: error\n\
data: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad\"}}\n\n";
    match replay(assembler(), text, 5) {
        Replay::Failed(AttemptFailure::Final(error)) => assert_eq!(error.kind, LlmErrorKind::Fatal),
        other => panic!("expected a final failure, got {other:?}"),
    }
}

#[test]
fn max_tokens_and_tool_input_given_at_start() {
    let text = "event: message_start\n\
data: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":5,\"output_tokens\":0}}}\n\n\
event: content_block_start\n\
data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{\"a\":1}}}\n\n\
event: message_delta\n\
data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"max_tokens\"},\"usage\":{\"output_tokens\":7}}\n\n\
event: message_stop\n\
data: {\"type\":\"message_stop\"}\n\n";
    let (response, streamed) = replay_all_sizes(|| assembler(), text);
    assert_eq!(streamed, "");
    assert_eq!(response.stop, StopReason::MaxTokens);
    assert_eq!(response.usage.output_tokens, 7);
    let call = response.message.tool_calls().next().unwrap();
    assert_eq!(
        call.arguments,
        ToolArguments::Parsed {
            value: json!({"a": 1})
        }
    );
}
