//! `session/update` notifications as [`LlmEvent`]s: message chunks are the reply text, tool
//! calls start and complete, everything else (thoughts, plans, modes, commands) is a note.

use std::collections::{HashMap, HashSet};

use heddle_engine::llm::LlmEvent;
use serde_json::{Map, Value as Json};

/// Characters of a tool result kept in an event.
const RESULT_CHARS: usize = 2000;

/// What a turn has gathered from its updates.
#[derive(Debug, Default)]
pub(super) struct TurnUpdates {
    /// The reply text so far.
    pub reply: String,
    /// Tool name (title, else kind) by call id.
    tools: HashMap<String, String>,
    /// Calls already reported complete.
    completed: HashSet<String>,
}

impl TurnUpdates {
    /// The events of one update (the `update` object of a `session/update`).
    pub fn apply(&mut self, update: &Json) -> Vec<LlmEvent> {
        let kind = update["sessionUpdate"].as_str().unwrap_or_default();
        match kind {
            "agent_message_chunk" => match content_text(&update["content"]) {
                Some(text) => {
                    self.reply.push_str(text);
                    vec![LlmEvent::TextDelta(text.to_string())]
                }
                None => vec![note(kind, update)],
            },
            "tool_call" => {
                let call_id = call_id(update);
                let tool = self.name(&call_id, update);
                let mut events = vec![LlmEvent::ToolCallStarted {
                    call_id: call_id.clone(),
                    tool,
                    arguments: arguments(update),
                }];
                events.extend(self.completion(&call_id, update));
                events
            }
            "tool_call_update" => {
                let call_id = call_id(update);
                self.name(&call_id, update);
                match self.completion(&call_id, update) {
                    Some(completion) => vec![completion],
                    None => vec![note(kind, update)],
                }
            }
            _ => vec![note(kind, update)],
        }
    }

    /// The call's tool name, updated from `update` when it has a title or kind.
    fn name(&mut self, call_id: &str, update: &Json) -> String {
        let given = update["title"]
            .as_str()
            .or_else(|| update["kind"].as_str())
            .filter(|n| !n.is_empty());
        let name = match given {
            Some(name) => name.to_string(),
            None => self
                .tools
                .get(call_id)
                .cloned()
                .unwrap_or_else(|| "tool".to_string()),
        };
        self.tools.insert(call_id.to_string(), name.clone());
        name
    }

    /// `ToolCallCompleted` when `update` finishes the call (status completed or failed) for
    /// the first time.
    fn completion(&mut self, call_id: &str, update: &Json) -> Option<LlmEvent> {
        let status = update["status"].as_str()?;
        if !matches!(status, "completed" | "failed") || !self.completed.insert(call_id.into()) {
            return None;
        }
        Some(LlmEvent::ToolCallCompleted {
            call_id: call_id.to_string(),
            tool: self
                .tools
                .get(call_id)
                .cloned()
                .unwrap_or_else(|| "tool".to_string()),
            result: result_text(update),
            is_error: status == "failed",
        })
    }
}

fn call_id(update: &Json) -> String {
    update["toolCallId"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The text of a text content block.
fn content_text(content: &Json) -> Option<&str> {
    (content["type"] == "text").then(|| content["text"].as_str())?
}

/// `rawInput` when given, else what describes the call (title, kind, locations).
fn arguments(update: &Json) -> Json {
    if let Some(input) = update.get("rawInput").filter(|i| !i.is_null()) {
        return input.clone();
    }
    let described: Map<String, Json> = ["title", "kind", "locations"]
        .into_iter()
        .filter_map(|key| Some((key.to_string(), update.get(key)?.clone())))
        .collect();
    Json::Object(described)
}

/// The call's content as text (text blocks, diffs and terminals by name), else its
/// `rawOutput`; cut to [`RESULT_CHARS`].
fn result_text(update: &Json) -> String {
    let mut parts: Vec<String> = Vec::new();
    for item in update["content"].as_array().into_iter().flatten() {
        match item["type"].as_str() {
            Some("content") => {
                if let Some(text) = content_text(&item["content"]) {
                    parts.push(text.to_string());
                }
            }
            Some("diff") => parts.push(format!(
                "(edited {})",
                item["path"].as_str().unwrap_or("a file")
            )),
            Some("terminal") => parts.push(format!(
                "(terminal {})",
                item["terminalId"].as_str().unwrap_or_default()
            )),
            _ => {}
        }
    }
    let text = if parts.is_empty() {
        match update.get("rawOutput") {
            Some(Json::String(text)) => text.clone(),
            Some(output) if !output.is_null() => output.to_string(),
            _ => String::new(),
        }
    } else {
        parts.join("\n")
    };
    if text.chars().count() > RESULT_CHARS {
        let mut cut: String = text.chars().take(RESULT_CHARS).collect();
        cut.push('…');
        cut
    } else {
        text
    }
}

fn note(kind: &str, update: &Json) -> LlmEvent {
    let kind = if kind.is_empty() { "unknown" } else { kind };
    LlmEvent::Note {
        kind: format!("acp.{kind}"),
        details: update.clone(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn message_chunks_make_the_reply() {
        let mut updates = TurnUpdates::default();
        for text in ["Hel", "lo"] {
            let events = updates.apply(&json!({
                "sessionUpdate": "agent_message_chunk",
                "content": {"type": "text", "text": text}
            }));
            assert_eq!(events, vec![LlmEvent::TextDelta(text.to_string())]);
        }
        assert_eq!(updates.reply, "Hello");
    }

    #[test]
    fn tool_calls_start_and_complete_once() {
        let mut updates = TurnUpdates::default();
        let started = updates.apply(&json!({
            "sessionUpdate": "tool_call", "toolCallId": "c1", "title": "Write a.txt",
            "kind": "edit", "status": "pending", "rawInput": {"path": "a.txt"}
        }));
        assert_eq!(
            started,
            vec![LlmEvent::ToolCallStarted {
                call_id: "c1".into(),
                tool: "Write a.txt".into(),
                arguments: json!({"path": "a.txt"})
            }]
        );
        let progress = updates.apply(&json!({
            "sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "in_progress"
        }));
        assert!(
            matches!(&progress[..], [LlmEvent::Note { kind, .. }] if kind == "acp.tool_call_update")
        );
        let done = json!({
            "sessionUpdate": "tool_call_update", "toolCallId": "c1", "status": "failed",
            "content": [{"type": "content", "content": {"type": "text", "text": "x".repeat(3000)}}]
        });
        let completed = updates.apply(&done);
        let [
            LlmEvent::ToolCallCompleted {
                tool,
                result,
                is_error,
                ..
            },
        ] = &completed[..]
        else {
            unreachable!("expected one completion, got {completed:?}");
        };
        assert_eq!(tool, "Write a.txt");
        assert!(*is_error);
        assert_eq!(result.chars().count(), RESULT_CHARS + 1);
        assert!(matches!(&updates.apply(&done)[..], [LlmEvent::Note { .. }]));
    }

    #[test]
    fn other_updates_are_notes() {
        let mut updates = TurnUpdates::default();
        let events = updates.apply(&json!({
            "sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "hmm"}
        }));
        assert!(
            matches!(&events[..], [LlmEvent::Note { kind, .. }] if kind == "acp.agent_thought_chunk")
        );
        assert!(updates.reply.is_empty());
    }
}
