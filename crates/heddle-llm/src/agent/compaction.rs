//! Context compaction: when a session's history nears the model's context window, the
//! older turns are summarised by the same model and replaced by that summary; the most
//! recent turns stay word for word.

use std::time::Duration;

use heddle_engine::llm::{LlmError, LlmEvent, LlmEventSink};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::chat::{Block, ChatRequest, Message, Role};
use crate::provider::{ChatObserver, ChatProvider};

/// Compaction starts when the estimated history passes this share of the window.
pub const COMPACT_AT_PERCENT: u64 = 80;

/// Turns (assistant messages with what follows them) kept word for word.
pub const KEEP_RECENT_TURNS: usize = 6;

/// How much of a tool call's arguments or result the summariser sees.
const EXCERPT_CHARS: usize = 500;

/// The summariser's instructions.
const SUMMARY_PROMPT: &str = "\
You condense the earlier part of a coding agent's session so it can continue with less \
context. Write a structured summary with these Markdown sections: Goal (what was asked), \
Progress (what was done, with file paths and key results), Key Decisions (and why), Failed \
Approaches (what was tried and did not work), Open Issues (bugs, edge cases, TODOs), Next \
Steps. Be specific and brief; do not invent anything that is not in the transcript.";

/// Estimated tokens of `system` and `messages`: one token per four characters.
pub fn estimate_tokens(system: &str, messages: &[Message]) -> u64 {
    let mut chars = system.chars().count();
    for message in messages {
        for block in &message.content {
            chars += match block {
                Block::Text { text } => text.chars().count(),
                Block::ToolCall(call) => call.name.len() + call.arguments.to_raw().chars().count(),
                Block::ToolResult { content, .. } => content.chars().count(),
                Block::Opaque { data, .. } => data.to_string().chars().count(),
            };
        }
    }
    u64::try_from(chars / 4).unwrap_or(u64::MAX)
}

/// Where the kept turns begin: the assistant message [`KEEP_RECENT_TURNS`] from the end.
/// `None` when no older turn of the model's is left to summarise.
fn split_point(messages: &[Message]) -> Option<usize> {
    let assistants: Vec<usize> = messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.role == Role::Assistant)
        .map(|(i, _)| i)
        .collect();
    // Only worth it when at least one older turn of the model's goes into the summary.
    let index = assistants.len().checked_sub(KEEP_RECENT_TURNS)?;
    (index > 0).then(|| assistants[index])
}

/// The older turns as text for the summariser.
fn render(messages: &[Message]) -> String {
    let mut out = String::new();
    for message in messages {
        let who = match message.role {
            Role::User => "USER",
            Role::Assistant => "ASSISTANT",
        };
        for block in &message.content {
            match block {
                Block::Text { text } => out.push_str(&format!("{who}: {text}\n")),
                Block::ToolCall(call) => out.push_str(&format!(
                    "TOOL CALL {}: {}\n",
                    call.name,
                    excerpt(&call.arguments.to_raw())
                )),
                Block::ToolResult {
                    content, is_error, ..
                } => {
                    let label = if *is_error {
                        "TOOL ERROR"
                    } else {
                        "TOOL RESULT"
                    };
                    out.push_str(&format!("{label}: {}\n", excerpt(content)));
                }
                Block::Opaque { .. } => {}
            }
        }
    }
    out
}

fn excerpt(text: &str) -> String {
    if text.chars().count() <= EXCERPT_CHARS {
        return text.to_owned();
    }
    let head: String = text.chars().take(EXCERPT_CHARS).collect();
    format!("{head}… [truncated]")
}

/// What a compaction needs from its session.
pub(crate) struct Compaction<'a> {
    pub(crate) provider: &'a dyn ChatProvider,
    pub(crate) model: &'a str,
    pub(crate) system: &'a str,
    pub(crate) context_window: u32,
    pub(crate) files_touched: &'a [String],
    pub(crate) events: &'a dyn LlmEventSink,
}

/// Ignores the summariser's stream.
struct Quiet;

impl ChatObserver for Quiet {
    fn text_delta(&self, _text: &str) {}
    fn retrying(&self, _attempt: u32, _delay: Duration, _reason: &str) {}
}

impl Compaction<'_> {
    /// Compacts `history` in place when it is over the threshold. A failed summary is
    /// reported and leaves the history as it was; only cancellation is an error.
    pub(crate) async fn run_if_needed(
        &self,
        history: &mut Vec<Message>,
        cancel: &CancellationToken,
    ) -> Result<(), LlmError> {
        let estimated = estimate_tokens(self.system, history);
        let window = u64::from(self.context_window);
        if estimated * 100 < window * COMPACT_AT_PERCENT {
            return Ok(());
        }
        let note = |kind: &str, details: serde_json::Value| {
            self.events.emit(LlmEvent::Note {
                kind: kind.into(),
                details,
            });
        };
        note(
            "context_window_warning",
            json!({"estimated_tokens": estimated, "context_window": window,
                   "usage_percent": estimated * 100 / window.max(1)}),
        );
        let Some(cut) = split_point(history) else {
            return Ok(());
        };
        note(
            "compaction_started",
            json!({"estimated_tokens": estimated, "context_window": window}),
        );
        let request = ChatRequest {
            model: self.model.to_owned(),
            system: SUMMARY_PROMPT.to_owned(),
            messages: vec![Message::user_text(format!(
                "Summarise this session transcript:\n\n{}",
                render(&history[..cut])
            ))],
            tools: Vec::new(),
            max_output_tokens: 4_096,
            reasoning_effort: None,
        };
        let summary = match self.provider.complete(&request, &Quiet, cancel).await {
            Ok(response) => response.message.text(),
            Err(error) if cancel.is_cancelled() => return Err(error),
            Err(error) => {
                note("compaction_failed", json!({"error": error.message}));
                return Ok(());
            }
        };
        let mut text = format!("[Context Summary]\n{summary}");
        if !self.files_touched.is_empty() {
            text.push_str("\n\n## File Operations\n");
            for file in self.files_touched {
                text.push_str(&format!("- {file}\n"));
            }
        }
        let summary_tokens = estimate_tokens("", &[Message::user_text(text.clone())]);
        let original = history.len();
        let kept = history.split_off(cut);
        *history = std::iter::once(Message::user_text(text))
            .chain(kept)
            .collect();
        note(
            "compaction_completed",
            json!({"original_messages": original, "preserved_turns": KEEP_RECENT_TURNS,
                   "summary_token_estimate": summary_tokens,
                   "tracked_file_count": self.files_touched.len()}),
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn assistant(text: &str) -> Message {
        Message {
            role: Role::Assistant,
            content: vec![Block::Text { text: text.into() }],
        }
    }

    #[test]
    fn the_last_six_turns_are_kept() {
        let mut history = vec![Message::user_text("task")];
        for i in 0..8 {
            history.push(assistant(&format!("step {i}")));
            history.push(Message::user_text(format!("result {i}")));
        }
        let cut = split_point(&history).unwrap();
        assert_eq!(history[cut].text(), "step 2");
        assert_eq!(
            history[cut..]
                .iter()
                .filter(|m| m.role == Role::Assistant)
                .count(),
            KEEP_RECENT_TURNS
        );
        assert_eq!(split_point(&history[..=12]), None, "only the task is older");
        assert_eq!(split_point(&history[..=14]), Some(3));
    }

    #[test]
    fn too_short_a_history_has_nothing_to_summarise() {
        let mut history = vec![Message::user_text("task")];
        for i in 0..5 {
            history.push(assistant(&format!("step {i}")));
            history.push(Message::user_text("ok"));
        }
        assert_eq!(split_point(&history), None);
    }

    #[test]
    fn estimates_count_a_token_per_four_characters() {
        let history = vec![Message::user_text("x".repeat(400))];
        assert_eq!(estimate_tokens(&"y".repeat(40), &history), 110);
        let long = "z".repeat(2 * EXCERPT_CHARS);
        let result = Message {
            role: Role::User,
            content: vec![Block::ToolResult {
                call_id: "c".into(),
                content: long,
                is_error: false,
            }],
        };
        let rendered = render(&[result]);
        assert!(rendered.contains("[truncated]"), "{rendered}");
        assert!(rendered.len() < EXCERPT_CHARS + 100);
    }
}
