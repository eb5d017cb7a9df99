#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The Gemini client against the fake server speaking `streamGenerateContent?alt=sse`: the
//! request it sends (model in the path, key header, system instruction, function
//! declarations), streamed text, a tool call round trip with its thought signature, usage,
//! a malformed function call, and a rate limit whose wait is in the body.

mod provider_harness;

use std::time::Duration;

use heddle_engine::Usage;
use heddle_engine::llm::LlmErrorKind;
use heddle_fake_llm::{FakeLlm, FakeReply, Scripted};
use heddle_llm::chat::{Block, Message, Role, StopReason};
use provider_harness::{GEMINI, call, provider, request};
use serde_json::json;

#[tokio::test]
async fn text_streams_from_the_models_path_with_googles_request_shape() {
    let fake = FakeLlm::start();
    let text = "Hello there, this reply streams in pieces \u{2713}";
    fake.push(FakeReply::text(text));
    let (result, recorder) = call(&provider(&fake, GEMINI), &request("Say hello.")).await;
    let response = result.unwrap();

    let deltas = recorder.deltas();
    assert!(deltas.len() >= 3, "{deltas:?}");
    assert_eq!(deltas.concat(), text);
    assert_eq!(response.message.text(), text);
    assert_eq!(response.stop, StopReason::EndTurn);
    assert_eq!(response.model, "test-model");

    let sent = &fake.requests()[0];
    assert_eq!(sent.path, "/v1/models/test-model:streamGenerateContent");
    assert_eq!(sent.query, "alt=sse");
    assert_eq!(sent.header("x-goog-api-key"), Some("test-key"));
    assert_eq!(sent.header("authorization"), None);
    assert_eq!(sent.header("x-heddle-test"), Some("1"));
    let body = &sent.body;
    assert!(body.get("model").is_none(), "the model is in the path");
    assert_eq!(
        body["systemInstruction"],
        json!({"parts": [{"text": "You are a test."}]})
    );
    assert_eq!(
        body["contents"],
        json!([{"role": "user", "parts": [{"text": "Say hello."}]}])
    );
    assert_eq!(body["generationConfig"]["maxOutputTokens"], 512);
    let declaration = &body["tools"][0]["functionDeclarations"][0];
    assert_eq!(declaration["name"], "read_file");
    assert_eq!(declaration["parametersJsonSchema"]["type"], "object");
}

#[tokio::test]
async fn a_tool_call_round_trip_carries_names_ids_and_the_thought_signature() {
    let fake = FakeLlm::start();
    fake.push(
        FakeReply::text("Let me look.")
            .reasoning("The user wants two files.")
            .tool_call("read_file", json!({"path": "a.rs"}))
            .tool_call("read_file", json!({"path": "b.rs"})),
    );
    fake.push(FakeReply::text("Both say hi."));
    let provider = provider(&fake, GEMINI);
    let mut request = request("What is in a.rs and b.rs?");
    request.model = "gemini-3-flash-preview".to_owned();
    request.reasoning_effort = Some("high".to_owned());

    let (first, recorder) = call(&provider, &request).await;
    let first = first.unwrap();
    assert_eq!(recorder.deltas().concat(), "Let me look.");
    assert_eq!(first.stop, StopReason::ToolUse);
    let calls: Vec<_> = first.message.tool_calls().cloned().collect();
    assert_eq!(calls.len(), 2);
    assert_ne!(calls[0].id, calls[1].id);
    assert_eq!(calls[1].arguments.to_value(), json!({"path": "b.rs"}));
    assert!(
        first
            .message
            .content
            .iter()
            .any(|block| matches!(block, Block::Opaque { provider, .. } if provider == "gemini")),
        "{:?}",
        first.message.content
    );

    request.messages.push(first.message.clone());
    request.messages.push(Message {
        role: Role::User,
        content: vec![
            Block::ToolResult {
                call_id: calls[0].id.clone(),
                content: "fn a() {}".to_owned(),
                is_error: false,
            },
            Block::ToolResult {
                call_id: calls[1].id.clone(),
                content: "no such file".to_owned(),
                is_error: true,
            },
        ],
    });
    let (second, _) = call(&provider, &request).await;
    assert_eq!(second.unwrap().message.text(), "Both say hi.");

    let sent = fake.requests();
    assert_eq!(
        sent[1].path,
        "/v1/models/gemini-3-flash-preview:streamGenerateContent"
    );
    let body = &sent[1].body;
    assert_eq!(
        body["generationConfig"]["thinkingConfig"],
        json!({"thinkingLevel": "high"})
    );
    let contents = body["contents"].as_array().unwrap();
    let roles: Vec<&str> = contents
        .iter()
        .map(|c| c["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, vec!["user", "model", "user"]);
    let model = contents[1]["parts"].as_array().unwrap();
    assert_eq!(model[0], json!({"text": "Let me look."}));
    assert_eq!(
        model[1]["functionCall"],
        json!({"name": "read_file", "args": {"path": "a.rs"}})
    );
    assert!(
        model[1]["thoughtSignature"]
            .as_str()
            .unwrap()
            .starts_with("fake-thought-signature-"),
        "{model:?}"
    );
    assert!(model[2].get("thoughtSignature").is_none(), "{model:?}");
    assert_eq!(
        contents[2]["parts"],
        json!([
            {"functionResponse": {"name": "read_file", "response": {"output": "fn a() {}"}}},
            {"functionResponse": {"name": "read_file", "response": {"error": "no such file"}}},
        ])
    );
}

#[tokio::test]
async fn usage_counts_cached_prompt_tokens_apart() {
    let fake = FakeLlm::start();
    fake.push(
        FakeReply::text("Counted.")
            .usage(100, 20, 300, 0)
            .model("gemini-3-flash-preview-11-2026"),
    );
    let (result, _) = call(&provider(&fake, GEMINI), &request("Count.")).await;
    let response = result.unwrap();
    assert_eq!(response.model, "gemini-3-flash-preview-11-2026");
    assert_eq!(
        response.usage,
        Usage {
            input_tokens: 100,
            output_tokens: 20,
            cache_read_tokens: 300,
            cache_write_tokens: 0,
        }
    );
}

#[tokio::test]
async fn hitting_max_tokens_is_reported() {
    let fake = FakeLlm::start();
    fake.push(FakeReply::text("Cut sho").hit_max_tokens());
    let (result, _) = call(&provider(&fake, GEMINI), &request("Go.")).await;
    assert_eq!(result.unwrap().stop, StopReason::MaxTokens);
}

#[tokio::test]
async fn a_malformed_function_call_is_retried() {
    let fake = FakeLlm::start();
    fake.script([
        Scripted::reply(FakeReply::empty().raw_tool_call("read_file", "{\"path\": ")),
        Scripted::reply(FakeReply::empty().tool_call("read_file", json!({"path": "a.rs"}))),
    ]);
    let (result, recorder) = call(&provider(&fake, GEMINI), &request("Read.")).await;
    let response = result.unwrap();
    assert_eq!(response.message.tool_calls().count(), 1);
    let retries = recorder.retries();
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert!(
        retries[0].2.contains("MALFORMED_FUNCTION_CALL"),
        "{}",
        retries[0].2
    );
}

#[tokio::test]
async fn a_rate_limit_waits_as_long_as_the_retry_info_says() {
    let fake = FakeLlm::start();
    fake.script([
        Scripted::status_retry_after(429, 0, "Resource has been exhausted (e.g. check quota)."),
        Scripted::reply(FakeReply::text("Done.")),
    ]);
    let (result, recorder) = call(&provider(&fake, GEMINI), &request("Go.")).await;
    assert_eq!(result.unwrap().message.text(), "Done.");
    let retries = recorder.retries();
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].1, Duration::ZERO, "retryDelay 0s is honoured");
    assert!(retries[0].2.contains("Resource has been exhausted"));
    // The fake sent the wait only in the body, as Google does.
    let sent = fake.requests();
    assert_eq!(sent.len(), 2);
}

#[tokio::test]
async fn a_context_that_is_too_long_fails_with_googles_message() {
    let fake = FakeLlm::start();
    fake.push(Scripted::status(
        400,
        "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
    ));
    let (result, recorder) = call(&provider(&fake, GEMINI), &request("Go.")).await;
    let error = result.unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Fatal);
    assert!(
        error.message.contains("exceeds the maximum"),
        "{}",
        error.message
    );
    assert!(recorder.retries().is_empty());
}

#[tokio::test]
async fn calls_without_ids_get_ids_unique_across_replies() {
    let fake = FakeLlm::start();
    fake.push(FakeReply::empty().tool_call("read_file", json!({"path": "a.rs"})));
    fake.push(FakeReply::empty().tool_call("read_file", json!({"path": "b.rs"})));
    let provider = provider(&fake, GEMINI);
    let (first, _) = call(&provider, &request("Read a.")).await;
    let (second, _) = call(&provider, &request("Read b.")).await;
    let id = |response: heddle_llm::chat::ChatResponse| {
        response.message.tool_calls().next().unwrap().id.clone()
    };
    let (first, second) = (id(first.unwrap()), id(second.unwrap()));
    assert_ne!(first, second);
    // Ids Heddle made up are not sent back to Gemini as if they were Gemini's.
    assert!(first.starts_with("heddle-gemini-call-"), "{first}");
}
