#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
//! heddle-llm's ACP client (`backend="acp"`) against the scripted fake agent: streamed
//! replies, a session that remembers, tool calls, permissions, files touched (from git),
//! crashes and errors.

// Each test binary uses a part of the shared helpers.
#[allow(dead_code)]
mod support;

use std::path::Path;

use heddle_engine::llm::{LlmErrorKind, LlmEvent};
use heddle_llm::external::open_external;
use serde_json::json;

use support::{Agent, Events, send};

#[tokio::test]
async fn the_reply_streams_as_text_deltas_and_the_session_remembers() {
    let agent = Agent::new();
    let mut conversation = agent.open("echo").await;
    let events = Events::default();
    let reply = send(conversation.as_mut(), "hello there", &events)
        .await
        .unwrap();
    assert_eq!(reply.text, "turn 1: hello there");
    assert_eq!(events.text(), reply.text);
    let deltas = events
        .all()
        .iter()
        .filter(|e| matches!(e, LlmEvent::TextDelta(_)))
        .count();
    assert_eq!(deltas, 3);
    assert_eq!(reply.model, "acp");
    assert!(reply.files_touched.is_empty());
    assert_eq!(events.notes("acp.agent_thought_chunk").len(), 1);

    // The same agent process, the same session.
    let pid = agent.pid();
    let again = send(conversation.as_mut(), "and again", &Events::default())
        .await
        .unwrap();
    assert_eq!(again.text, "turn 2: and again");
    assert_eq!(agent.pid(), pid);
}

#[tokio::test]
async fn tool_calls_start_and_complete() {
    let agent = Agent::new();
    let mut conversation = agent.open("tool").await;
    let events = Events::default();
    let reply = send(conversation.as_mut(), "write notes", &events)
        .await
        .unwrap();
    assert_eq!(reply.text, "done");
    assert!(agent.work_dir.path().join("notes.txt").is_file());
    let tools: Vec<LlmEvent> = events
        .all()
        .into_iter()
        .filter(|e| {
            matches!(
                e,
                LlmEvent::ToolCallStarted { .. } | LlmEvent::ToolCallCompleted { .. }
            )
        })
        .collect();
    assert_eq!(
        tools,
        vec![
            LlmEvent::ToolCallStarted {
                call_id: "call-1".into(),
                tool: "Write notes.txt".into(),
                arguments: json!({"path": "notes.txt"}),
            },
            LlmEvent::ToolCallCompleted {
                call_id: "call-1".into(),
                tool: "Write notes.txt".into(),
                result: "wrote notes.txt".into(),
                is_error: false,
            },
            LlmEvent::ToolCallStarted {
                call_id: "call-2".into(),
                tool: "Run the linter".into(),
                arguments: json!({"title": "Run the linter", "kind": "execute"}),
            },
            LlmEvent::ToolCallCompleted {
                call_id: "call-2".into(),
                tool: "Run the linter".into(),
                result: "linter: not found".into(),
                is_error: true,
            },
        ]
    );
    assert_eq!(events.notes("acp.tool_call_update").len(), 1);
}

#[tokio::test]
async fn files_touched_come_from_git() {
    let agent = Agent::new();
    let dir = agent.work_dir.path();
    let repo = git2::Repository::init(dir).unwrap();
    std::fs::write(dir.join("tracked.txt"), "committed\n").unwrap();
    std::fs::write(dir.join("dirty.txt"), "committed\n").unwrap();
    let mut index = repo.index().unwrap();
    index.add_path(Path::new("tracked.txt")).unwrap();
    index.add_path(Path::new("dirty.txt")).unwrap();
    index.write().unwrap();
    let tree = repo.find_tree(index.write_tree().unwrap()).unwrap();
    let who = git2::Signature::now("Test", "test@example.com").unwrap();
    repo.commit(Some("HEAD"), &who, &who, "initial", &tree, &[])
        .unwrap();
    std::fs::write(dir.join("dirty.txt"), "changed before the turn\n").unwrap();

    let mut conversation = agent.open("tool").await;
    let reply = send(conversation.as_mut(), "go", &Events::default())
        .await
        .unwrap();
    assert_eq!(reply.files_touched, ["notes.txt", "tracked.txt"]);
}

#[tokio::test]
async fn permission_is_granted_with_the_first_allowing_option() {
    let agent = Agent::new();
    let mut conversation = agent.open("permission").await;
    let events = Events::default();
    let reply = send(conversation.as_mut(), "clean up", &events)
        .await
        .unwrap();
    assert_eq!(
        reply.text,
        "first: selected opt-allow_once; second: cancelled; fs: error -32601"
    );
    let notes = events.notes("acp.permission");
    assert_eq!(notes.len(), 2);
    assert_eq!(notes[0]["allowed"], true);
    assert_eq!(notes[0]["tool"], "Delete build/");
    assert_eq!(notes[1]["allowed"], false);
    assert_eq!(events.notes("acp.unsupported_request").len(), 1);
}

#[tokio::test]
async fn a_crash_mid_turn_fails_with_the_end_of_stderr() {
    let agent = Agent::new();
    let mut conversation = agent.open("crash").await;
    let error = send(conversation.as_mut(), "go", &Events::default())
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Transient);
    assert!(
        error.message.contains("exited mid-turn with status 3"),
        "{}",
        error.message
    );
    assert!(
        error
            .message
            .ends_with("fake acp: starting turn | fake acp: out of credits, exiting"),
        "{}",
        error.message
    );
    // The conversation is over; it says so.
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
async fn an_agent_that_fails_to_start_a_session_says_why() {
    let agent = Agent::new();
    let error = agent.try_open("exit-on-init").await.err().unwrap();
    assert_eq!(error.kind, LlmErrorKind::Fatal);
    assert!(
        error.message.contains("during initialize"),
        "{}",
        error.message
    );
    assert!(
        error.message.ends_with("no configuration found, giving up"),
        "{}",
        error.message
    );

    let error = open_external(
        &agent.request(Some("heddle-no-such-agent --acp".into())),
        &agent.env(),
        &support::work_tree(),
    )
    .await
    .err()
    .unwrap();
    assert_eq!(error.kind, LlmErrorKind::Config);
    assert!(
        error.message.contains("heddle-no-such-agent --acp"),
        "{}",
        error.message
    );
    assert!(error.message.contains("not found"), "{}", error.message);

    let error = open_external(&agent.request(None), &agent.env(), &support::work_tree())
        .await
        .err()
        .unwrap();
    assert_eq!(error.kind, LlmErrorKind::Config);
    assert!(error.message.contains("`coder`"), "{}", error.message);
    assert!(error.message.contains("acp.command"), "{}", error.message);
}

#[tokio::test]
async fn stop_reasons_and_agent_errors_become_errors() {
    let agent = Agent::new();
    let mut conversation = agent.open("refuse").await;
    let error = send(conversation.as_mut(), "go", &Events::default())
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Fatal);
    assert!(error.message.contains("refusal"), "{}", error.message);

    let agent = Agent::new();
    let mut conversation = agent.open("error").await;
    let error = send(conversation.as_mut(), "go", &Events::default())
        .await
        .unwrap_err();
    assert_eq!(error.kind, LlmErrorKind::Fatal);
    assert!(
        error.message.contains("the fake model failed"),
        "{}",
        error.message
    );
    // The agent is still there for the next message.
    let again = send(conversation.as_mut(), "go", &Events::default())
        .await
        .unwrap_err();
    assert!(
        again.message.contains("the fake model failed"),
        "{}",
        again.message
    );
}
