//! One agent (or prompt) conversation: each message the stage sends becomes a turn of model
//! calls and tool runs, ending when the model answers without asking for tools.

use std::sync::Arc;

use async_trait::async_trait;
use heddle_engine::Usage;
use heddle_engine::llm::{
    LlmConversation, LlmError, LlmErrorKind, LlmEvent, LlmEventSink, LlmReply,
};
use serde_json::{Value as Json, json};
use tokio_util::sync::CancellationToken;

use super::compaction::Compaction;
use super::loop_detect::{LoopDetector, LoopVerdict};
use super::observer::EventObserver;
use super::system_prompt::{AGENT_SYSTEM_PROMPT, PROMPT_SYSTEM_PROMPT};
use super::{ToolOutcome, ToolRunner};
use crate::catalog;
use crate::chat::{
    Block, ChatRequest, Message, Role, StopReason, ToolArguments, ToolCall, ToolSpec,
};
use crate::provider::ChatProvider;

/// How many characters of a tool's result the live events carry.
const EVENT_RESULT_CHARS: usize = 2_000;

/// The model calls one turn of an agent may make when the node sets no `max_turns`.
pub const DEFAULT_MAX_TURNS: u32 = 200;

/// How a session calls its model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentSettings {
    /// The model id sent to the provider.
    pub model: String,
    /// The node's `reasoning_effort` (`low`, `medium`, `high`); `None` keeps the model's default.
    pub reasoning_effort: Option<String>,
    /// The most model calls one turn may make.
    pub max_turns: u32,
    /// The reply limit of each call.
    pub max_output_tokens: u32,
    /// The model's context window, for compaction.
    pub context_window: u32,
}

impl AgentSettings {
    /// Settings for `model` from the catalog, with `max_turns` (default
    /// [`DEFAULT_MAX_TURNS`]).
    pub fn for_model(
        model: &str,
        reasoning_effort: Option<String>,
        max_turns: Option<u32>,
    ) -> Self {
        AgentSettings {
            model: model.to_owned(),
            reasoning_effort,
            max_turns: max_turns.unwrap_or(DEFAULT_MAX_TURNS).max(1),
            max_output_tokens: catalog::max_output_tokens(model).min(32_000),
            context_window: catalog::context_window(model),
        }
    }
}

/// A conversation with one provider; with tools it is the coding agent, without them a
/// prompt node.
pub struct AgentSession {
    provider: Arc<dyn ChatProvider>,
    tools: Option<Arc<dyn ToolRunner>>,
    /// The tools' specs, built once: every model call offers them.
    specs: Vec<ToolSpec>,
    system: String,
    settings: AgentSettings,
    history: Vec<Message>,
    loops: LoopDetector,
    files_touched: Vec<String>,
}

/// What one turn has gathered so far.
#[derive(Default)]
struct TurnTotals {
    usage: Usage,
    cost_usd: Option<f64>,
    files_touched: Vec<String>,
    model: Option<String>,
}

impl AgentSession {
    /// A session with `provider`; `tools` makes it an agent, `None` a prompt node.
    pub fn new(
        provider: Arc<dyn ChatProvider>,
        tools: Option<Arc<dyn ToolRunner>>,
        settings: AgentSettings,
    ) -> Self {
        let system = if tools.is_some() {
            AGENT_SYSTEM_PROMPT
        } else {
            PROMPT_SYSTEM_PROMPT
        };
        AgentSession {
            provider,
            specs: tools.as_ref().map(|t| t.specs()).unwrap_or_default(),
            tools,
            system: system.to_owned(),
            settings,
            history: Vec::new(),
            loops: LoopDetector::default(),
            files_touched: Vec::new(),
        }
    }

    /// The conversation so far.
    pub fn history(&self) -> &[Message] {
        &self.history
    }

    fn request(&self) -> ChatRequest {
        ChatRequest {
            model: self.settings.model.clone(),
            system: self.system.clone(),
            messages: self.history.clone(),
            tools: self.specs.clone(),
            max_output_tokens: self.settings.max_output_tokens,
            reasoning_effort: self.settings.reasoning_effort.clone(),
        }
    }

    /// Runs one tool call, telling `events` before and after.
    async fn run_tool(
        &self,
        tools: &dyn ToolRunner,
        call: &ToolCall,
        events: &dyn LlmEventSink,
        cancel: &CancellationToken,
    ) -> ToolOutcome {
        let arguments = match &call.arguments {
            ToolArguments::Parsed { value } => value.clone(),
            ToolArguments::Invalid { raw, .. } => Json::String(raw.clone()),
        };
        events.emit(LlmEvent::ToolCallStarted {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            arguments: arguments.clone(),
        });
        let result = match &call.arguments {
            ToolArguments::Parsed { value } => tools.run(&call.name, value, cancel).await,
            ToolArguments::Invalid { error, .. } => ToolOutcome {
                output: format!(
                    "The arguments of this `{}` call are not valid JSON ({error}), so it was \
                     not run. Call the tool again with a JSON object as its arguments.",
                    call.name
                ),
                is_error: true,
                touched: Vec::new(),
            },
        };
        events.emit(LlmEvent::ToolCallCompleted {
            call_id: call.id.clone(),
            tool: call.name.clone(),
            result: head(&result.output, EVENT_RESULT_CHARS),
            is_error: result.is_error,
        });
        result
    }
}

/// The first `limit` characters of `text`, with a note when cut.
fn head(text: &str, limit: usize) -> String {
    let total = text.chars().count();
    if total <= limit {
        return text.to_owned();
    }
    let kept: String = text.chars().take(limit).collect();
    format!("{kept}\n[... {} more characters]", total - limit)
}

/// Moves `file` to the end of `files` (the order files were last touched).
fn touch(files: &mut Vec<String>, file: &str) {
    files.retain(|f| f != file);
    files.push(file.to_owned());
}

#[async_trait]
impl LlmConversation for AgentSession {
    async fn send(
        &mut self,
        message: &str,
        events: &dyn LlmEventSink,
        cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError> {
        self.history.push(Message::user_text(message));
        let mut totals = TurnTotals::default();
        let observer = EventObserver {
            events,
            provider: self.provider.name(),
        };
        for call_number in 0..self.settings.max_turns {
            if call_number > 0 {
                Compaction {
                    provider: self.provider.as_ref(),
                    model: &self.settings.model,
                    system: &self.system,
                    context_window: self.settings.context_window,
                    files_touched: &self.files_touched,
                    events,
                }
                .run_if_needed(&mut self.history, cancel)
                .await?;
            }
            let response = self
                .provider
                .complete(&self.request(), &observer, cancel)
                .await?;
            totals.usage.add(&response.usage);
            if let Some(cost) = catalog::cost_usd(&self.settings.model, &response.usage) {
                totals.cost_usd = Some(totals.cost_usd.unwrap_or(0.0) + cost);
            }
            let model = if response.model.is_empty() {
                self.settings.model.clone()
            } else {
                response.model.clone()
            };
            events.emit(LlmEvent::Usage {
                model: model.clone(),
                usage: response.usage,
            });
            totals.model = Some(model);
            let calls: Vec<ToolCall> = response.message.tool_calls().cloned().collect();
            let text = response.message.text();
            self.history.push(response.message);
            let tools = match (&self.tools, calls.is_empty()) {
                (Some(tools), false) => tools.clone(),
                _ => return finish(text, response.stop, totals),
            };
            let mut results = Vec::new();
            let mut warning = None;
            let mut stop = None;
            for call in &calls {
                if cancel.is_cancelled() {
                    return Err(LlmError::new(
                        LlmErrorKind::Cancelled,
                        "cancelled between tool calls",
                    ));
                }
                let result = self.run_tool(tools.as_ref(), call, events, cancel).await;
                for file in &result.touched {
                    touch(&mut totals.files_touched, file);
                    touch(&mut self.files_touched, file);
                }
                match self.loops.record(&call.name, &call.arguments.to_value()) {
                    LoopVerdict::Fine => {}
                    LoopVerdict::Warn(pattern) => {
                        events.emit(LlmEvent::Note {
                            kind: "loop_detected".into(),
                            details: json!({"pattern": pattern, "action": "warned"}),
                        });
                        warning = Some(pattern);
                    }
                    LoopVerdict::Stop(pattern) => stop = Some(pattern),
                }
                results.push(Block::ToolResult {
                    call_id: call.id.clone(),
                    content: result.output,
                    is_error: result.is_error,
                });
            }
            if let Some(pattern) = warning {
                results.push(Block::Text {
                    text: format!(
                        "Heddle: you are repeating the same tool calls ({pattern}). That is \
                         not making progress: try a different approach, or finish the stage \
                         and explain what blocks you."
                    ),
                });
            }
            self.history.push(Message {
                role: Role::User,
                content: results,
            });
            if let Some(pattern) = stop {
                events.emit(LlmEvent::Note {
                    kind: "loop_detected".into(),
                    details: json!({"pattern": pattern, "action": "stopped"}),
                });
                return Err(LlmError::new(
                    LlmErrorKind::Fatal,
                    format!(
                        "the agent kept repeating the same tool calls after a warning \
                         ({pattern}), so the stage was stopped"
                    ),
                ));
            }
        }
        Err(LlmError::new(
            LlmErrorKind::Fatal,
            format!(
                "the agent made {} model calls without finishing (max_turns); raise \
                 `max_turns` on the node or split the task",
                self.settings.max_turns
            ),
        ))
    }
}

/// The reply that ends a turn.
fn finish(text: String, stop: StopReason, totals: TurnTotals) -> Result<LlmReply, LlmError> {
    if stop == StopReason::Refusal {
        return Err(LlmError::new(
            LlmErrorKind::Fatal,
            format!("the model refused to answer: {}", head(&text, 500)),
        ));
    }
    Ok(LlmReply {
        text,
        model: totals.model.unwrap_or_default(),
        usage: totals.usage,
        cost_usd: totals.cost_usd,
        files_touched: totals.files_touched,
        simulated: false,
    })
}
