#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! Stopping an ACP agent: cancelling a turn sends `session/cancel`, gives the agent a grace
//! period, then kills its process group; dropping a turn or the conversation does the same.

// Each test binary uses a part of the shared helpers.
#[allow(dead_code)]
mod support;

use std::time::{Duration, Instant};

use heddle_engine::llm::LlmErrorKind;
use heddle_llm::external::{AcpConversation, CANCEL_GRACE};
use tokio_util::sync::CancellationToken;

use support::{Agent, Events, alive, send, wait_until};

#[tokio::test]
async fn cancellation_sends_session_cancel_then_kills_the_agent() {
    let agent = Agent::new();
    let mut conversation = agent.open("hang").await;
    let pid = agent.pid();
    let events = Events::default();
    let cancel = CancellationToken::new();
    let canceller = async {
        wait_until("the agent is working", || events.text() == "working").await;
        cancel.cancel();
        Instant::now()
    };
    let (result, cancelled_at) = tokio::join!(conversation.send("go", &events, &cancel), canceller);
    assert!(cancelled_at.elapsed() < Duration::from_secs(1));
    assert_eq!(result.unwrap_err().kind, LlmErrorKind::Cancelled);
    assert!(agent.marker().is_file());
    wait_until("the agent is gone", || !alive(pid)).await;

    let later = send(conversation.as_mut(), "go", &Events::default())
        .await
        .unwrap_err();
    assert!(
        later.message.contains("no longer running"),
        "{}",
        later.message
    );
}

#[tokio::test]
async fn an_agent_that_ignores_session_cancel_is_killed_after_the_grace() {
    let agent = Agent::new();
    let mut conversation = agent.open("stubborn").await;
    let pid = agent.pid();
    let events = Events::default();
    let cancel = CancellationToken::new();
    let canceller = async {
        wait_until("the agent is working", || events.text() == "working").await;
        cancel.cancel();
        Instant::now()
    };
    let (result, cancelled_at) = tokio::join!(conversation.send("go", &events, &cancel), canceller);
    let waited = cancelled_at.elapsed();
    assert!(
        waited >= CANCEL_GRACE - Duration::from_millis(100),
        "{waited:?}"
    );
    assert!(waited < CANCEL_GRACE + Duration::from_secs(2), "{waited:?}");
    assert_eq!(result.unwrap_err().kind, LlmErrorKind::Cancelled);
    assert!(agent.marker().is_file());
    wait_until("the agent is gone", || !alive(pid)).await;
}

#[tokio::test]
async fn dropping_a_turn_cancels_it_and_kills_the_agent() {
    let agent = Agent::new();
    let mut conversation = agent.open("hang").await;
    let pid = agent.pid();
    let events = Events::default();
    let cancel = CancellationToken::new();
    tokio::select! {
        _ = conversation.send("go", &events, &cancel) => panic!("the turn ended"),
        () = wait_until("the agent is working", || events.text() == "working") => {}
    }
    drop(conversation);
    wait_until("the agent got session/cancel", || agent.marker().is_file()).await;
    wait_until("the agent is gone", || !alive(pid)).await;
}

#[tokio::test]
async fn dropping_an_idle_conversation_kills_the_agent() {
    let agent = Agent::new();
    let mut conversation = AcpConversation::open(
        &agent.request(Some(Agent::command("echo"))),
        &agent.env(),
        &support::work_tree(),
    )
    .await
    .unwrap();
    assert_eq!(conversation.session_id(), "fake-session-1");
    send(&mut conversation, "hi", &Events::default())
        .await
        .unwrap();
    let pid = agent.pid();
    assert!(alive(pid));
    drop(conversation);
    wait_until("the agent is gone", || !alive(pid)).await;
}
