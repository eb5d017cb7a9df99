#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The wire clients against the fake server, when all goes well: streamed text, tool calls
//! split across deltas, conversations with tool results, usage, invalid tool arguments.

#[macro_use]
mod provider_harness;

use heddle_engine::Usage;
use heddle_fake_llm::{FakeLlm, FakeReply};
use heddle_llm::chat::{Block, Message, Role, StopReason, ToolArguments};
use heddle_llm::provider::WireFormat;
use provider_harness::{Wire, call, provider, request};
use serde_json::{Value, json};

wire_tests!(
    text_arguments:
    text_streams_in_order,
    tool_call_arguments_arrive_in_pieces,
    two_tool_calls_in_one_reply,
    tool_results_round_trip,
    usage_and_model_come_through,
    invalid_tool_arguments_are_kept_not_fatal,
);

async fn text_streams_in_order(wire: Wire) {
    let fake = FakeLlm::start();
    let text = "Hello there, this reply streams in pieces \u{2713}";
    fake.push(FakeReply::text(text));
    let (result, recorder) = call(&provider(&fake, wire), &request("Say hello.")).await;
    let response = result.unwrap();

    let deltas = recorder.deltas();
    assert!(deltas.len() >= 3, "{deltas:?}");
    assert_eq!(deltas.concat(), text);
    assert_eq!(response.message.text(), text);
    assert_eq!(response.message.role, Role::Assistant);
    assert_eq!(response.stop, StopReason::EndTurn);
    assert!(recorder.retries().is_empty());

    let sent = fake.requests();
    assert_eq!(sent.len(), 1);
    let sent = &sent[0];
    assert_eq!(sent.path, wire.path);
    assert_eq!(sent.header("x-heddle-test"), Some("1"));
    assert_eq!(sent.body["model"], "test-model");
    assert_eq!(sent.body["stream"], true);
    match wire.format {
        WireFormat::AnthropicMessages => {
            assert_eq!(sent.header("x-api-key"), Some("test-key"));
            assert_eq!(sent.header("anthropic-version"), Some("2023-06-01"));
            assert_eq!(sent.header("authorization"), None);
            assert_eq!(sent.body["system"][0]["text"], "You are a test.");
            assert_eq!(sent.body["max_tokens"], 512);
            assert_eq!(sent.body["tools"][0]["input_schema"]["type"], "object");
        }
        WireFormat::OpenAiResponses => {
            assert_eq!(sent.header("authorization"), Some("Bearer test-key"));
            assert_eq!(sent.body["instructions"], "You are a test.");
            assert_eq!(sent.body["max_output_tokens"], 512);
            assert_eq!(sent.body["tools"][0]["name"], "read_file");
        }
        WireFormat::ChatCompletions => {
            assert_eq!(sent.header("authorization"), Some("Bearer test-key"));
            assert_eq!(
                sent.body["messages"][0],
                json!({"role": "system", "content": "You are a test."})
            );
            assert_eq!(sent.body["stream_options"]["include_usage"], true);
            assert_eq!(sent.body["tools"][0]["function"]["name"], "read_file");
        }
        WireFormat::GeminiGenerateContent => unreachable!("tested in provider_gemini.rs"),
    }
}

async fn tool_call_arguments_arrive_in_pieces(wire: Wire) {
    let fake = FakeLlm::start();
    let arguments = json!({"path": "src/main.rs", "lines": [1, 20], "note": "caf\u{e9}"});
    fake.push(FakeReply::empty().tool_call("read_file", arguments.clone()));
    let (result, recorder) = call(&provider(&fake, wire), &request("Read it.")).await;
    let response = result.unwrap();

    assert!(recorder.deltas().is_empty());
    assert_eq!(response.stop, StopReason::ToolUse);
    let calls: Vec<_> = response.message.tool_calls().collect();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].name, "read_file");
    assert!(!calls[0].id.is_empty());
    assert_eq!(
        calls[0].arguments,
        ToolArguments::Parsed { value: arguments }
    );
}

async fn two_tool_calls_in_one_reply(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(
        FakeReply::text("Reading both.")
            .tool_call("read_file", json!({"path": "a.rs"}))
            .tool_call("read_file", json!({"path": "b.rs"})),
    );
    let (result, recorder) = call(&provider(&fake, wire), &request("Read two.")).await;
    let response = result.unwrap();

    assert_eq!(recorder.deltas().concat(), "Reading both.");
    let calls: Vec<_> = response.message.tool_calls().collect();
    assert_eq!(calls.len(), 2);
    assert_ne!(calls[0].id, calls[1].id);
    assert_eq!(calls[0].arguments.to_value(), json!({"path": "a.rs"}));
    assert_eq!(calls[1].arguments.to_value(), json!({"path": "b.rs"}));
    // Text comes before the calls, as the model sent it.
    assert!(matches!(response.message.content[0], Block::Text { .. }));
}

async fn tool_results_round_trip(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(
        FakeReply::text("Let me look.")
            .reasoning("The user wants a file.")
            .tool_call("read_file", json!({"path": "a.rs"}))
            .raw_tool_call("read_file", "{\"path\": "),
    );
    fake.push(FakeReply::text("It says hi."));
    let provider = provider(&fake, wire);

    let mut request = request("What is in a.rs?");
    request.reasoning_effort = Some("low".to_owned());
    let (first, _) = call(&provider, &request).await;
    let first = first.unwrap();
    let ids: Vec<String> = first.message.tool_calls().map(|c| c.id.clone()).collect();
    assert_eq!(ids.len(), 2);
    request.messages.push(first.message.clone());
    request.messages.push(Message {
        role: Role::User,
        content: vec![
            Block::ToolResult {
                call_id: ids[0].clone(),
                content: "fn main() { println!(\"hi\") }".to_owned(),
                is_error: false,
            },
            Block::ToolResult {
                call_id: ids[1].clone(),
                content: "the arguments were not valid JSON".to_owned(),
                is_error: true,
            },
        ],
    });
    let (second, _) = call(&provider, &request).await;
    assert_eq!(second.unwrap().message.text(), "It says hi.");

    let sent = fake.requests();
    assert_eq!(sent.len(), 2);
    let body = &sent[1].body;
    match wire.format {
        WireFormat::AnthropicMessages => check_anthropic_round_trip(body, &ids),
        WireFormat::OpenAiResponses => check_responses_round_trip(body, &ids),
        WireFormat::ChatCompletions => check_chat_round_trip(body, &ids),
        WireFormat::GeminiGenerateContent => unreachable!("tested in provider_gemini.rs"),
    }
}

fn check_anthropic_round_trip(body: &Value, ids: &[String]) {
    assert_eq!(body["thinking"]["type"], "enabled");
    assert_eq!(body["max_tokens"], 512 + 2048);
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    let assistant = &messages[1]["content"];
    assert_eq!(assistant[0]["type"], "thinking");
    assert_eq!(assistant[0]["thinking"], "The user wants a file.");
    assert!(
        assistant[0]["signature"]
            .as_str()
            .unwrap()
            .starts_with("fake-signature-")
    );
    assert_eq!(
        assistant[1],
        json!({"type": "text", "text": "Let me look."})
    );
    assert_eq!(
        assistant[2],
        json!({"type": "tool_use", "id": ids[0], "name": "read_file", "input": {"path": "a.rs"}})
    );
    assert_eq!(assistant[3]["input"], json!({}));
    let results = &messages[2]["content"];
    assert_eq!(results[0]["type"], "tool_result");
    assert_eq!(results[0]["tool_use_id"], json!(ids[0]));
    assert_eq!(results[0]["is_error"], false);
    assert_eq!(results[1]["tool_use_id"], json!(ids[1]));
    assert_eq!(results[1]["is_error"], true);
}

fn check_responses_round_trip(body: &Value, ids: &[String]) {
    assert_eq!(body["reasoning"]["effort"], "low");
    let input = body["input"].as_array().unwrap();
    let kinds: Vec<&str> = input
        .iter()
        .map(|item| item["type"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        kinds,
        vec![
            "message",
            "reasoning",
            "message",
            "function_call",
            "function_call",
            "function_call_output",
            "function_call_output"
        ]
    );
    assert!(
        input[1]["encrypted_content"]
            .as_str()
            .unwrap()
            .starts_with("fake-encrypted-")
    );
    assert_eq!(input[3]["call_id"], json!(ids[0]));
    assert_eq!(input[3]["arguments"], "{\"path\":\"a.rs\"}");
    assert_eq!(input[4]["arguments"], "{\"path\": ");
    assert_eq!(input[5]["call_id"], json!(ids[0]));
    assert_eq!(input[6]["call_id"], json!(ids[1]));
    assert_eq!(
        input[6]["output"],
        "Error: the arguments were not valid JSON"
    );
}

fn check_chat_round_trip(body: &Value, ids: &[String]) {
    assert_eq!(body["reasoning_effort"], "low");
    let messages = body["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(roles, vec!["system", "user", "assistant", "tool", "tool"]);
    let assistant = &messages[2];
    assert_eq!(assistant["content"], "Let me look.");
    assert_eq!(assistant["tool_calls"][0]["id"], json!(ids[0]));
    assert_eq!(
        assistant["tool_calls"][0]["function"]["arguments"],
        "{\"path\":\"a.rs\"}"
    );
    assert_eq!(
        assistant["tool_calls"][1]["function"]["arguments"],
        "{\"path\": "
    );
    assert_eq!(messages[3]["tool_call_id"], json!(ids[0]));
    assert_eq!(messages[4]["tool_call_id"], json!(ids[1]));
}

async fn usage_and_model_come_through(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(
        FakeReply::text("Counted.")
            .usage(100, 20, 300, 40)
            .model("reported-model-2025"),
    );
    let (result, _) = call(&provider(&fake, wire), &request("Count.")).await;
    let response = result.unwrap();
    assert_eq!(response.model, "reported-model-2025");
    // The OpenAI formats have no cache-write count.
    let cache_write = if wire.format == WireFormat::AnthropicMessages {
        40
    } else {
        0
    };
    assert_eq!(
        response.usage,
        Usage {
            input_tokens: 100,
            output_tokens: 20,
            cache_read_tokens: 300,
            cache_write_tokens: cache_write,
        }
    );
}

async fn invalid_tool_arguments_are_kept_not_fatal(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(FakeReply::empty().raw_tool_call("read_file", "{not json"));
    let (result, _) = call(&provider(&fake, wire), &request("Read.")).await;
    let response = result.unwrap();
    let call = response.message.tool_calls().next().unwrap();
    match &call.arguments {
        ToolArguments::Invalid { raw, error } => {
            assert_eq!(raw, "{not json");
            assert!(!error.is_empty());
        }
        other => panic!("expected invalid arguments, got {other:?}"),
    }
}
