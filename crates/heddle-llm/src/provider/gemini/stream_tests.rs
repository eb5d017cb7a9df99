#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use heddle_engine::Usage;
use heddle_engine::llm::LlmErrorKind;
use serde_json::json;

use super::GeminiAssembler;
use crate::chat::{Block, StopReason, ToolArguments};
use crate::provider::failure::AttemptFailure;
use crate::provider::stream_replay::{Replay, replay, replay_all_sizes};

fn assembler() -> Box<GeminiAssembler> {
    Box::new(GeminiAssembler::new("gemini"))
}

const TOOL_STREAM: &str = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"I need to \",\"thought\": true}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 1200,\"totalTokenCount\": 1200},\"modelVersion\": \"gemini-3-flash-preview\"}\r\n\r\n\
data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Let me \"}],\"role\": \"model\"},\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 1200,\"candidatesTokenCount\": 2},\"modelVersion\": \"gemini-3-flash-preview\"}\r\n\r\n\
data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"check \u{2713}.\"}],\"role\": \"model\"},\"index\": 0}],\"modelVersion\": \"gemini-3-flash-preview\"}\r\n\r\n\
data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"read_file\",\"args\": {\"path\": \"src/main.rs\"}},\"thoughtSignature\": \"c2lnLTE=\"},{\"functionCall\": {\"name\": \"list\",\"args\": {}, \"id\": \"fc_7\"}}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 1200,\"cachedContentTokenCount\": 1000,\"candidatesTokenCount\": 40,\"thoughtsTokenCount\": 25,\"totalTokenCount\": 1265},\"modelVersion\": \"gemini-3-flash-preview\",\"responseId\": \"r1\"}\r\n\r\n";

#[test]
fn assembles_text_calls_signatures_and_usage_at_any_chunking() {
    let (response, streamed) = replay_all_sizes(|| assembler(), TOOL_STREAM);
    assert_eq!(streamed, "Let me check \u{2713}.");
    assert_eq!(response.model, "gemini-3-flash-preview");
    assert_eq!(response.stop, StopReason::ToolUse);
    assert_eq!(
        response.usage,
        Usage {
            input_tokens: 200,
            output_tokens: 65,
            cache_read_tokens: 1000,
            cache_write_tokens: 0,
        }
    );
    let content = &response.message.content;
    assert_eq!(content.len(), 4, "{content:?}");
    assert_eq!(
        content[0],
        Block::Text {
            text: "Let me check \u{2713}.".to_owned()
        }
    );
    assert_eq!(
        content[1],
        Block::Opaque {
            provider: "gemini".to_owned(),
            data: json!({"thoughtSignature": "c2lnLTE="}),
        }
    );
    let calls: Vec<_> = response.message.tool_calls().collect();
    // Made unique by the response's id, since Gemini sent none.
    assert_eq!(calls[0].id, "heddle-gemini-call-r1-1");
    assert_eq!(calls[0].name, "read_file");
    assert_eq!(
        calls[0].arguments,
        ToolArguments::Parsed {
            value: json!({"path": "src/main.rs"})
        }
    );
    assert_eq!(calls[1].id, "fc_7");
    assert_eq!(calls[1].arguments.to_value(), json!({}));
}

#[test]
fn finish_reasons_map_to_stop_reasons() {
    let stream = |reason: &str| {
        format!(
            "data: {{\"candidates\": [{{\"content\": {{\"parts\": [{{\"text\": \"x\"}}]}}, \
             \"finishReason\": \"{reason}\"}}]}}\n\n"
        )
    };
    let stop = |reason: &str| replay(assembler(), &stream(reason), 7).reply().0.stop;
    assert_eq!(stop("STOP"), StopReason::EndTurn);
    assert_eq!(stop("MAX_TOKENS"), StopReason::MaxTokens);
    assert_eq!(stop("SAFETY"), StopReason::Refusal);
    assert_eq!(stop("RECITATION"), StopReason::Refusal);
    assert_eq!(stop("LANGUAGE"), StopReason::Other("LANGUAGE".to_owned()));
}

#[test]
fn a_blocked_prompt_is_a_refusal() {
    let stream = "data: {\"promptFeedback\": {\"blockReason\": \"SAFETY\"},\
                  \"usageMetadata\": {\"promptTokenCount\": 9}}\n\n";
    let (response, text) = replay(assembler(), stream, 5).reply();
    assert_eq!(response.stop, StopReason::Refusal);
    assert_eq!(text, "");
    assert_eq!(response.usage.input_tokens, 9);
}

#[test]
fn a_stream_without_a_finish_reason_is_truncated() {
    let cut = TOOL_STREAM
        .split("data: ")
        .take(3)
        .collect::<Vec<_>>()
        .join("data: ");
    match replay(assembler(), &cut, 11) {
        Replay::Truncated(missing) => assert!(missing.contains("finishReason"), "{missing}"),
        other => panic!("expected a truncated stream, got {other:?}"),
    }
}

#[test]
fn malformed_function_calls_are_retried() {
    let stream = "data: {\"candidates\": [{\"finishReason\": \"MALFORMED_FUNCTION_CALL\",\
                  \"finishMessage\": \"Malformed function call: read_file(path=\"}]}\n\n";
    match replay(assembler(), stream, 9) {
        Replay::Failed(AttemptFailure::Retryable { reason, .. }) => {
            assert!(reason.contains("MALFORMED_FUNCTION_CALL"), "{reason}");
            assert!(reason.contains("read_file(path="), "{reason}");
        }
        other => panic!("expected a retryable failure, got {other:?}"),
    }
}

#[test]
fn error_chunks_are_classified_by_status() {
    let error = |status: &str| {
        format!(
            "data: {{\"error\": {{\"code\": 0, \"message\": \"went wrong\", \"status\": \
             \"{status}\"}}}}\n\n"
        )
    };
    match replay(assembler(), &error("UNAVAILABLE"), 6) {
        Replay::Failed(AttemptFailure::Retryable { reason, .. }) => {
            assert!(reason.contains("went wrong"), "{reason}");
        }
        other => panic!("expected a retry, got {other:?}"),
    }
    match replay(assembler(), &error("INVALID_ARGUMENT"), 6) {
        Replay::Failed(AttemptFailure::Final(error)) => {
            assert_eq!(error.kind, LlmErrorKind::Fatal);
        }
        other => panic!("expected a final failure, got {other:?}"),
    }
    match replay(assembler(), &error("PERMISSION_DENIED"), 6) {
        Replay::Failed(AttemptFailure::Final(error)) => {
            assert_eq!(error.kind, LlmErrorKind::Config);
        }
        other => panic!("expected a final failure, got {other:?}"),
    }
}
