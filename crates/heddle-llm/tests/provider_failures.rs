#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! The wire clients against the fake server when things go wrong: retried statuses,
//! exhausted retries, bad keys, bad requests, truncated, broken and stalled streams, slow
//! headers, stream error events, and cancellation.

#[macro_use]
mod provider_harness;

use std::time::{Duration, Instant};

use heddle_engine::llm::LlmErrorKind;
use heddle_fake_llm::{FakeLlm, FakeReply, Scripted};
use heddle_llm::provider::{ChatProvider, HttpSettings};
use provider_harness::{Recorder, Wire, call, fast_settings, provider, provider_with, request};
use tokio_util::sync::CancellationToken;

wire_tests!(
    rate_limit_then_server_error_then_success,
    exhausted_retries_are_transient_with_the_status,
    unauthorized_names_the_key_to_check,
    bad_request_is_fatal_with_the_providers_message,
    truncated_stream_is_retried_then_fails_clearly,
    broken_connection_is_retried,
    stalled_stream_hits_the_idle_timeout,
    slow_headers_hit_the_request_timeout,
    overloaded_stream_event_is_retried,
    cancel_during_a_stall_returns_promptly,
    cancel_during_backoff_returns_promptly,
    empty_script_fails_clearly,
);

fn text_reply() -> FakeReply {
    FakeReply::text("All good after all.").tool_call("read_file", serde_json::json!({"path": "x"}))
}

async fn rate_limit_then_server_error_then_success(wire: Wire) {
    let fake = FakeLlm::start();
    fake.script([
        Scripted::status_retry_after(429, 0, "Rate limit reached, slow down"),
        Scripted::status(500, "Internal failure"),
        Scripted::reply(text_reply()),
    ]);
    let settings = fast_settings();
    let (result, recorder) = call(&provider(&fake, wire), &request("Go.")).await;
    assert_eq!(result.unwrap().message.text(), "All good after all.");

    let retries = recorder.retries();
    assert_eq!(retries.len(), 2, "{retries:?}");
    assert_eq!(retries[0].0, 1);
    assert_eq!(retries[0].1, Duration::ZERO, "Retry-After: 0 is honoured");
    assert!(retries[0].2.contains("HTTP 429"), "{}", retries[0].2);
    assert!(
        retries[0].2.contains("Rate limit reached"),
        "{}",
        retries[0].2
    );
    assert_eq!(retries[1].0, 2);
    assert_eq!(retries[1].1, settings.backoff(2));
    assert!(retries[1].2.contains("HTTP 500"), "{}", retries[1].2);
    assert_eq!(fake.requests().len(), 3);
}

async fn exhausted_retries_are_transient_with_the_status(wire: Wire) {
    let fake = FakeLlm::start();
    for _ in 0..3 {
        fake.push(Scripted::status(503, "The service is overloaded"));
    }
    let (result, recorder) = call(&provider(&fake, wire), &request("Go.")).await;
    let error = result.unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Transient);
    assert!(
        error.message.contains("after 3 attempts"),
        "{}",
        error.message
    );
    assert!(error.message.contains("HTTP 503"), "{}", error.message);
    assert!(
        error.message.contains("The service is overloaded"),
        "{}",
        error.message
    );
    assert!(error.message.starts_with(wire.name), "{}", error.message);
    assert_eq!(recorder.retries().len(), 2);
    assert_eq!(fake.remaining(), 0);
}

async fn unauthorized_names_the_key_to_check(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(Scripted::status(401, "invalid api key"));
    let (result, recorder) = call(&provider(&fake, wire), &request("Go.")).await;
    let error = result.unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Config);
    assert!(error.message.contains(wire.key_hint), "{}", error.message);
    assert!(
        error.message.contains("invalid api key"),
        "{}",
        error.message
    );
    assert!(error.message.contains("HTTP 401"), "{}", error.message);
    assert!(recorder.retries().is_empty());
    assert_eq!(fake.requests().len(), 1);
}

async fn bad_request_is_fatal_with_the_providers_message(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(Scripted::status(
        400,
        "max_tokens: 999999 > 64000, the maximum",
    ));
    let (result, _) = call(&provider(&fake, wire), &request("Go.")).await;
    let error = result.unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Fatal);
    assert!(error.message.contains("HTTP 400"), "{}", error.message);
    assert!(
        error.message.contains("max_tokens: 999999 > 64000"),
        "{}",
        error.message
    );
    assert_eq!(fake.requests().len(), 1);
}

async fn truncated_stream_is_retried_then_fails_clearly(wire: Wire) {
    let fake = FakeLlm::start();
    fake.script([
        Scripted::truncated(text_reply()),
        Scripted::reply(text_reply()),
    ]);
    let provider = provider(&fake, wire);
    let (result, recorder) = call(&provider, &request("Go.")).await;
    let response = result.unwrap();
    assert_eq!(response.message.text(), "All good after all.");
    let retries = recorder.retries();
    assert_eq!(retries.len(), 1);
    assert!(retries[0].2.contains("ended early"), "{}", retries[0].2);

    for _ in 0..3 {
        fake.push(Scripted::truncated(text_reply()));
    }
    let (result, _) = call(&provider, &request("Go.")).await;
    let error = result.unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Transient);
    assert!(
        error.message.contains("stream ended early"),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("after 3 attempts"),
        "{}",
        error.message
    );
}

async fn broken_connection_is_retried(wire: Wire) {
    let fake = FakeLlm::start();
    fake.script([
        Scripted::disconnect(text_reply()),
        Scripted::reply(text_reply()),
    ]);
    let (result, recorder) = call(&provider(&fake, wire), &request("Go.")).await;
    assert_eq!(result.unwrap().message.text(), "All good after all.");
    let retries = recorder.retries();
    assert_eq!(retries.len(), 1);
    let reason = &retries[0].2;
    assert!(
        reason.contains("broke mid-stream") || reason.contains("ended early"),
        "{reason}"
    );
}

async fn stalled_stream_hits_the_idle_timeout(wire: Wire) {
    let fake = FakeLlm::start();
    fake.script([Scripted::stall(text_reply()), Scripted::stall(text_reply())]);
    let settings = HttpSettings {
        max_retries: 1,
        ..fast_settings()
    };
    let started = Instant::now();
    let (result, recorder) = call(&provider_with(&fake, wire, settings), &request("Go.")).await;
    let error = result.unwrap_err();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(error.kind, LlmErrorKind::Transient);
    assert!(
        error.message.contains("went silent for 200 ms"),
        "{}",
        error.message
    );
    assert_eq!(recorder.retries().len(), 1);
    // The text that arrived before the stall was shown.
    assert!(!recorder.deltas().is_empty());
}

async fn slow_headers_hit_the_request_timeout(wire: Wire) {
    let fake = FakeLlm::start();
    fake.script([
        Scripted::delayed(Duration::from_millis(600), text_reply()),
        Scripted::reply(text_reply()),
    ]);
    let settings = HttpSettings {
        request_timeout: Duration::from_millis(150),
        ..fast_settings()
    };
    let (result, recorder) = call(&provider_with(&fake, wire, settings), &request("Go.")).await;
    assert!(result.is_ok(), "{result:?}");
    let retries = recorder.retries();
    assert_eq!(retries.len(), 1);
    assert!(retries[0].2.contains("no response"), "{}", retries[0].2);
    assert!(retries[0].2.contains("150 ms"), "{}", retries[0].2);
}

async fn overloaded_stream_event_is_retried(wire: Wire) {
    let fake = FakeLlm::start();
    fake.script([
        Scripted::stream_error(text_reply(), "Overloaded right now"),
        Scripted::reply(text_reply()),
    ]);
    let (result, recorder) = call(&provider(&fake, wire), &request("Go.")).await;
    assert!(result.is_ok(), "{result:?}");
    let retries = recorder.retries();
    assert_eq!(retries.len(), 1);
    assert!(
        retries[0].2.contains("Overloaded right now"),
        "{}",
        retries[0].2
    );
    assert!(retries[0].2.contains("mid-stream"), "{}", retries[0].2);
}

async fn cancel_during_a_stall_returns_promptly(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(Scripted::stall(text_reply()));
    let settings = HttpSettings {
        stream_idle_timeout: Duration::from_secs(30),
        ..fast_settings()
    };
    let provider = provider_with(&fake, wire, settings);
    let cancel = CancellationToken::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        canceller.cancel();
    });
    let recorder = Recorder::default();
    let started = Instant::now();
    let error = provider
        .complete(&request("Go."), &recorder, &cancel)
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Cancelled);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(
        !recorder.deltas().is_empty(),
        "the stall came after some text"
    );
}

async fn cancel_during_backoff_returns_promptly(wire: Wire) {
    let fake = FakeLlm::start();
    fake.push(Scripted::status_retry_after(429, 30, "slow down"));
    let settings = HttpSettings {
        max_retry_after: Duration::from_secs(30),
        ..fast_settings()
    };
    let provider = provider_with(&fake, wire, settings);
    let cancel = CancellationToken::new();
    let canceller = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        canceller.cancel();
    });
    let recorder = Recorder::default();
    let started = Instant::now();
    let error = provider
        .complete(&request("Go."), &recorder, &cancel)
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Cancelled);
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let retries = recorder.retries();
    assert_eq!(retries.len(), 1);
    assert_eq!(retries[0].1, Duration::from_secs(30));
}

async fn empty_script_fails_clearly(wire: Wire) {
    let fake = FakeLlm::start();
    let settings = HttpSettings {
        max_retries: 0,
        ..fast_settings()
    };
    let (result, _) = call(&provider_with(&fake, wire, settings), &request("Go.")).await;
    let error = result.unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Transient);
    assert!(
        error.message.contains("after 1 attempt:"),
        "{}",
        error.message
    );
    assert!(
        error.message.contains("no scripted reply was left"),
        "{}",
        error.message
    );
}
