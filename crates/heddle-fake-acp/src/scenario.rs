//! What the fake agent does with a prompt, by scenario.

use std::io::{BufRead, Write};

use serde_json::json;

use crate::rpc::Channel;

/// The scenarios, by the name given as the first argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// `echo`: streams "turn N: " and the prompt in chunks (N counts the session's prompts),
    /// after a thought.
    Echo,
    /// `tool`: writes `notes.txt` in its cwd (and appends to `tracked.txt` if it exists),
    /// reporting it as a tool call that completes, then a second tool call that fails.
    Tool,
    /// `permission`: asks permission twice (once with allowing options, once with only
    /// rejecting ones), calls an unknown client method, and replies with what it got.
    Permission,
    /// `crash`: sends a chunk, then exits with status 3 and a message on stderr.
    Crash,
    /// `hang`: sends a chunk and never ends the turn, until `session/cancel`, which it
    /// records (`FAKE_ACP_CANCEL_MARKER`) and answers with stop reason `cancelled`.
    Hang,
    /// `stubborn`: like `hang`, but ignores `session/cancel` (after recording it).
    Stubborn,
    /// `refuse`: ends the turn with stop reason `refusal`.
    Refuse,
    /// `error`: answers the prompt with a JSON-RPC error.
    Error,
    /// `exit-on-init`: exits with status 2 and a message on stderr on `initialize`.
    ExitOnInit,
}

/// How a turn ends.
pub enum TurnEnd {
    /// The prompt's answer, with this stop reason.
    Stop(&'static str),
    /// A JSON-RPC error answer (code -32603) with this message.
    Error(String),
    /// No answer until `session/cancel` (then `cancelled`; `Stubborn` never answers).
    Pending,
    /// The agent exits with this status.
    Exit(u8),
}

impl Scenario {
    /// The scenario names.
    pub const NAMES: [&'static str; 9] = [
        "echo",
        "tool",
        "permission",
        "crash",
        "hang",
        "stubborn",
        "refuse",
        "error",
        "exit-on-init",
    ];

    /// The scenario called `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "echo" => Scenario::Echo,
            "tool" => Scenario::Tool,
            "permission" => Scenario::Permission,
            "crash" => Scenario::Crash,
            "hang" => Scenario::Hang,
            "stubborn" => Scenario::Stubborn,
            "refuse" => Scenario::Refuse,
            "error" => Scenario::Error,
            "exit-on-init" => Scenario::ExitOnInit,
            _ => return None,
        })
    }

    /// Acts out prompt number `count` (`text`) of session `session`.
    pub fn act<R: BufRead, W: Write>(
        self,
        channel: &mut Channel<R, W>,
        session: &str,
        count: u32,
        text: &str,
    ) -> TurnEnd {
        match self {
            Scenario::Echo => {
                channel.update(
                    session,
                    json!({"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "reading the prompt"}}),
                );
                channel.chunk(session, &format!("turn {count}: "));
                let middle = text.char_indices().nth(text.chars().count() / 2);
                let (first, second) = text.split_at(middle.map_or(text.len(), |(at, _)| at));
                channel.chunk(session, first);
                channel.chunk(session, second);
                TurnEnd::Stop("end_turn")
            }
            Scenario::Tool => tool(channel, session),
            Scenario::Permission => permission(channel, session),
            Scenario::Crash => {
                channel.chunk(session, "partial answer");
                eprintln!("fake acp: starting turn");
                eprintln!("fake acp: out of credits, exiting");
                TurnEnd::Exit(3)
            }
            Scenario::Hang | Scenario::Stubborn => {
                channel.chunk(session, "working");
                TurnEnd::Pending
            }
            Scenario::Refuse => TurnEnd::Stop("refusal"),
            Scenario::Error => TurnEnd::Error("the fake model failed".to_string()),
            Scenario::ExitOnInit => TurnEnd::Exit(2),
        }
    }
}

fn tool<R: BufRead, W: Write>(channel: &mut Channel<R, W>, session: &str) -> TurnEnd {
    channel.update(
        session,
        json!({
            "sessionUpdate": "tool_call", "toolCallId": "call-1", "title": "Write notes.txt",
            "kind": "edit", "status": "pending", "rawInput": {"path": "notes.txt"}
        }),
    );
    channel.update(
        session,
        json!({"sessionUpdate": "tool_call_update", "toolCallId": "call-1", "status": "in_progress"}),
    );
    let mut wrote = std::fs::write("notes.txt", "notes from the fake agent\n").is_ok();
    if std::path::Path::new("tracked.txt").exists() {
        let edited = std::fs::read_to_string("tracked.txt")
            .map(|text| text + "a line from the fake agent\n")
            .and_then(|text| std::fs::write("tracked.txt", text));
        wrote &= edited.is_ok();
    }
    channel.update(
        session,
        json!({
            "sessionUpdate": "tool_call_update", "toolCallId": "call-1",
            "status": if wrote { "completed" } else { "failed" },
            "content": [{"type": "content", "content": {"type": "text", "text": "wrote notes.txt"}}]
        }),
    );
    channel.update(
        session,
        json!({
            "sessionUpdate": "tool_call", "toolCallId": "call-2", "title": "Run the linter",
            "kind": "execute", "status": "in_progress"
        }),
    );
    channel.update(
        session,
        json!({
            "sessionUpdate": "tool_call_update", "toolCallId": "call-2", "status": "failed",
            "content": [{"type": "content", "content": {"type": "text", "text": "linter: not found"}}]
        }),
    );
    channel.chunk(session, "done");
    TurnEnd::Stop("end_turn")
}

fn permission<R: BufRead, W: Write>(channel: &mut Channel<R, W>, session: &str) -> TurnEnd {
    channel.update(
        session,
        json!({
            "sessionUpdate": "tool_call", "toolCallId": "call-1", "title": "Delete build/",
            "kind": "delete", "status": "pending"
        }),
    );
    let ask = |channel: &mut Channel<R, W>, kinds: &[&str]| {
        let options: Vec<_> = kinds
            .iter()
            .map(|kind| json!({"optionId": format!("opt-{kind}"), "name": kind.replace('_', " "), "kind": kind}))
            .collect();
        let answer = channel.call(
            "session/request_permission",
            json!({"sessionId": session, "toolCall": {"toolCallId": "call-1", "title": "Delete build/"}, "options": options}),
        );
        let outcome = answer
            .map(|a| a["result"]["outcome"].clone())
            .unwrap_or_default();
        match outcome["outcome"].as_str() {
            Some("selected") => format!("selected {}", outcome["optionId"].as_str().unwrap_or("?")),
            Some(other) => other.to_string(),
            None => format!("no outcome ({outcome})"),
        }
    };
    let first = ask(channel, &["reject_once", "allow_once", "allow_always"]);
    let second = ask(channel, &["reject_once", "reject_always"]);
    let unknown = channel
        .call(
            "fs/read_text_file",
            json!({"sessionId": session, "path": "/etc/hostname"}),
        )
        .map(|a| a["error"]["code"].as_i64().unwrap_or_default())
        .unwrap_or_default();
    channel.update(
        session,
        json!({"sessionUpdate": "tool_call_update", "toolCallId": "call-1", "status": "completed"}),
    );
    channel.chunk(
        session,
        &format!("first: {first}; second: {second}; fs: error {unknown}"),
    );
    TurnEnd::Stop("end_turn")
}
