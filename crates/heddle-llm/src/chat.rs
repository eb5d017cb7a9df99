//! The provider-neutral conversation: what the agent loop keeps and every wire client
//! translates to and from its provider's format.

use heddle_engine::Usage;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// Who said a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The person (the stage prompt, repair turns) and tool results.
    User,
    /// The model's replies: text, tool calls and opaque blocks.
    Assistant,
}

/// One message of a conversation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// Who said it.
    pub role: Role,
    /// What it holds, in order.
    pub content: Vec<Block>,
}

impl Message {
    /// A user message of plain text.
    pub fn user_text(text: impl Into<String>) -> Self {
        Message {
            role: Role::User,
            content: vec![Block::Text { text: text.into() }],
        }
    }

    /// The message's text blocks joined.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for block in &self.content {
            if let Block::Text { text } = block {
                out.push_str(text);
            }
        }
        out
    }

    /// The tool calls the message makes.
    pub fn tool_calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.content.iter().filter_map(|block| match block {
            Block::ToolCall(call) => Some(call),
            _ => None,
        })
    }
}

/// A piece of a message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// Plain text: the prompt, or what the model wrote.
    Text {
        /// The text as sent or received.
        text: String,
    },
    /// The model asks for a tool to run (assistant messages only).
    ToolCall(ToolCall),
    /// Provider-specific content that must go back to the same provider verbatim on later
    /// calls (Anthropic thinking blocks with their signature, OpenAI reasoning items); other
    /// providers skip it.
    Opaque {
        /// The provider's [`crate::provider::ChatProvider::name`].
        provider: String,
        /// The item as the provider sent it.
        data: Json,
    },
    /// What a tool returned (user messages only), answering the call with `call_id`.
    ToolResult {
        /// [`ToolCall::id`] of the call this answers.
        call_id: String,
        /// The tool's output, already truncated.
        content: String,
        /// Whether the tool failed.
        is_error: bool,
    },
}

/// A tool call the model made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The provider's id for the call.
    pub id: String,
    /// The tool's name as the model wrote it; normally one of the offered [`ToolSpec`]s.
    pub name: String,
    /// The arguments, parsed, or the raw text when it is not valid JSON.
    pub arguments: ToolArguments,
}

/// A tool call's arguments as the model sent them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolArguments {
    /// Valid JSON.
    Parsed {
        /// The arguments (`{}` when the model sent none).
        value: Json,
    },
    /// Text that is not valid JSON; the loop answers with an error so the model can retry.
    Invalid {
        /// The text as received.
        raw: String,
        /// What the JSON parser said.
        error: String,
    },
}

impl ToolArguments {
    /// Parses `raw` (an empty string counts as `{}`).
    pub fn from_raw(raw: &str) -> Self {
        if raw.trim().is_empty() {
            return ToolArguments::Parsed {
                value: Json::Object(serde_json::Map::new()),
            };
        }
        match serde_json::from_str(raw) {
            Ok(value) => ToolArguments::Parsed { value },
            Err(error) => ToolArguments::Invalid {
                raw: raw.to_owned(),
                error: error.to_string(),
            },
        }
    }

    /// The arguments as JSON text, the way OpenAI's formats send them back.
    pub fn to_raw(&self) -> String {
        match self {
            ToolArguments::Parsed { value } => value.to_string(),
            ToolArguments::Invalid { raw, .. } => raw.clone(),
        }
    }

    /// The arguments as a JSON value: invalid arguments become `{}` (Anthropic wants an
    /// object back).
    pub fn to_value(&self) -> Json {
        match self {
            ToolArguments::Parsed { value } => value.clone(),
            ToolArguments::Invalid { .. } => Json::Object(serde_json::Map::new()),
        }
    }
}

/// A tool the model may call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// What the model calls it by, e.g. `read_file`.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// JSON Schema of its arguments (an object schema).
    pub parameters: Json,
}

/// One call to a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    /// The model id, as the provider knows it.
    pub model: String,
    /// The system prompt (may be empty).
    pub system: String,
    /// The conversation so far; the last message is the user's.
    pub messages: Vec<Message>,
    /// Tools offered (empty for prompt nodes).
    pub tools: Vec<ToolSpec>,
    /// The most tokens the reply may have.
    pub max_output_tokens: u32,
    /// `low`, `medium` or `high`, for models that reason.
    pub reasoning_effort: Option<String>,
}

/// Why the model stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// It finished its reply.
    EndTurn,
    /// It wants tools run.
    ToolUse,
    /// It hit `max_output_tokens`.
    MaxTokens,
    /// It refused (content filter, safety).
    Refusal,
    /// Anything else the provider said.
    Other(String),
}

/// A model's complete reply to one [`ChatRequest`].
#[derive(Debug, Clone, PartialEq)]
pub struct ChatResponse {
    /// The model that answered (as the provider reports it).
    pub model: String,
    /// The reply: an assistant message of text, tool calls and opaque blocks.
    pub message: Message,
    /// Tokens used by this call.
    pub usage: Usage,
    /// Why the model stopped; `ToolUse` when the message holds calls to run.
    pub stop: StopReason,
}
