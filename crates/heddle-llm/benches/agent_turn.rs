//! Agent-loop overhead per model call, against the loopback fake provider (Anthropic
//! format). Three measurements in one run:
//!
//! - `raw_request`: the baseline — one streaming POST with the same body, read to the end
//!   with reqwest and nothing else (the server's time plus HTTP);
//! - `prompt_turn`: a prompt session's `send` (one model call: request building, SSE
//!   parsing, events, usage and cost);
//! - `agent_tool_turn`: an agent turn with one `read_file` call and a final answer (two
//!   model calls and one real tool run).
//!
//! Overhead per call = `prompt_turn - raw_request`, and
//! `(agent_tool_turn - 2 x raw_request) / 2` with the tool included.

#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::sync::Arc;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use heddle_engine::llm::{LlmConversation, LlmEvent, LlmEventSink};
use heddle_fake_llm::{FakeLlm, FakeReply, Scripted};
use heddle_llm::agent::{AgentSession, AgentSettings, ToolRunner};
use heddle_llm::chat::{ChatRequest, Message};
use heddle_llm::provider::{Endpoint, HttpProvider, HttpSettings, WireFormat};
use heddle_llm::tools::{ToolContext, Toolbox};
use serde_json::json;
use tokio_util::sync::CancellationToken;

struct Discard;

impl LlmEventSink for Discard {
    fn emit(&self, event: LlmEvent) {
        std::hint::black_box(event);
    }
}

const REPLY: &str = "The plan: read the module, change the function, run the tests, and report \
                     what changed. Nothing else needs to move.";

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let fake = FakeLlm::start();
    fake.without_frame_gap();
    let endpoint = Endpoint {
        name: "anthropic".into(),
        format: WireFormat::AnthropicMessages,
        base_url: fake.base_url(),
        api_key: Some("bench-key".into()),
        extra_headers: Vec::new(),
    };
    let provider = Arc::new(HttpProvider::new(endpoint.clone(), HttpSettings::default()).unwrap());
    let work = tempfile::tempdir().unwrap();
    std::fs::write(
        work.path().join("lib.rs"),
        "pub fn add(a: i32, b: i32) -> i32 { a - b }\n",
    )
    .unwrap();
    let toolbox: Arc<dyn ToolRunner> = Arc::new(Toolbox::new(ToolContext {
        work_dir: work.path().to_path_buf(),
        env: Vec::new(),
        pass_env: Vec::new(),
        shell_timeout: Duration::from_secs(30),
        output_limit: 30_000,
    }));
    let settings = AgentSettings::for_model("claude-sonnet-4-5", None, None);
    let reply = || FakeReply::text(REPLY).usage(900, 40, 0, 0);

    let mut group = c.benchmark_group("agent_loop");
    group.sample_size(200);

    // The baseline: the same request body, posted and read to the end.
    let client = reqwest::Client::new();
    let body = provider
        .request_body(&ChatRequest {
            model: settings.model.clone(),
            system: heddle_llm::agent::PROMPT_SYSTEM_PROMPT.into(),
            messages: vec![Message::user_text("Plan the change.")],
            tools: Vec::new(),
            max_output_tokens: settings.max_output_tokens,
            reasoning_effort: None,
        })
        .to_string();
    let url = endpoint.url(&settings.model);
    group.bench_function("raw_request", |b| {
        b.iter_batched(
            || fake.push(Scripted::reply(reply())),
            |()| {
                runtime.block_on(async {
                    let response = client
                        .post(&url)
                        .header("x-api-key", "bench-key")
                        .header("anthropic-version", "2023-06-01")
                        .header("content-type", "application/json")
                        .body(body.clone())
                        .send()
                        .await
                        .unwrap();
                    std::hint::black_box(response.bytes().await.unwrap());
                })
            },
            BatchSize::SmallInput,
        );
    });

    group.bench_function("prompt_turn", |b| {
        b.iter_batched(
            || {
                fake.push(Scripted::reply(reply()));
                AgentSession::new(provider.clone(), None, settings.clone())
            },
            |mut session| {
                runtime.block_on(async {
                    let reply = session
                        .send("Plan the change.", &Discard, &CancellationToken::new())
                        .await
                        .unwrap();
                    std::hint::black_box(reply);
                })
            },
            BatchSize::SmallInput,
        );
    });

    group.bench_function("agent_tool_turn", |b| {
        b.iter_batched(
            || {
                fake.push(Scripted::reply(
                    FakeReply::empty().tool_call("read_file", json!({"path": "lib.rs"})),
                ));
                fake.push(Scripted::reply(reply()));
                AgentSession::new(provider.clone(), Some(toolbox.clone()), settings.clone())
            },
            |mut session| {
                runtime.block_on(async {
                    let reply = session
                        .send("Fix add.", &Discard, &CancellationToken::new())
                        .await
                        .unwrap();
                    std::hint::black_box(reply);
                })
            },
            BatchSize::SmallInput,
        );
    });
    group.finish();
    assert_eq!(fake.remaining(), 0, "every scripted reply was used");
}

criterion_group!(benches, bench);
criterion_main!(benches);
