//! What a test scripts: replies ([`FakeReply`]) and how each request is answered
//! ([`Scripted`]): streamed whole, after a delay, as an HTTP error, cut short, or stalled.

use std::time::Duration;

/// Token counts a reply reports, in Anthropic's disjoint buckets. The OpenAI formats report
/// `input + cache_read` as their input (prompt) tokens with `cache_read` as the cached part,
/// and cannot carry `cache_write`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FakeUsage {
    /// Input tokens not read from or written to the cache.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
    /// Input tokens read from the cache.
    pub cache_read: u64,
    /// Input tokens written to the cache.
    pub cache_write: u64,
}

/// A tool call in a [`FakeReply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FakeToolCall {
    /// The tool's name, e.g. `read_file`; the fake does not check it was offered.
    pub name: String,
    /// The argument text exactly as streamed (need not be JSON).
    pub arguments: String,
}

/// One model reply: text, tool calls, reasoning, usage. Built like
/// `FakeReply::text("Hi").tool_call("ls", json!({"path": "."})).usage(10, 5, 0, 0)`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FakeReply {
    /// The assistant text (streamed in several deltas).
    pub text: String,
    /// Reasoning, streamed as an Anthropic thinking block (with a signature), a Responses
    /// reasoning item (with `encrypted_content`), or Chat `reasoning_content` deltas.
    pub reasoning: Option<String>,
    /// Tool calls, each with its arguments split across several deltas.
    pub tool_calls: Vec<FakeToolCall>,
    /// The token counts the stream's usage fields carry.
    pub usage: FakeUsage,
    /// The model reported; the request's `model` when `None`.
    pub model: Option<String>,
    /// Report that the reply hit the output token limit.
    pub max_tokens: bool,
}

impl FakeReply {
    /// A reply of `text`.
    pub fn text(text: impl Into<String>) -> Self {
        FakeReply {
            text: text.into(),
            ..FakeReply::default()
        }
    }

    /// A reply with no text (add tool calls).
    pub fn empty() -> Self {
        FakeReply::default()
    }

    /// Adds a tool call with JSON arguments.
    pub fn tool_call(self, name: impl Into<String>, arguments: serde_json::Value) -> Self {
        self.raw_tool_call(name, arguments.to_string())
    }

    /// Adds a tool call whose argument text is sent as given (for invalid JSON).
    pub fn raw_tool_call(mut self, name: impl Into<String>, arguments: impl Into<String>) -> Self {
        self.tool_calls.push(FakeToolCall {
            name: name.into(),
            arguments: arguments.into(),
        });
        self
    }

    /// Sets the reported usage.
    pub fn usage(mut self, input: u64, output: u64, cache_read: u64, cache_write: u64) -> Self {
        self.usage = FakeUsage {
            input,
            output,
            cache_read,
            cache_write,
        };
        self
    }

    /// Sets the reported model.
    pub fn model(mut self, model: impl Into<String>) -> Self {
        self.model = Some(model.into());
        self
    }

    /// Adds reasoning before the text.
    pub fn reasoning(mut self, reasoning: impl Into<String>) -> Self {
        self.reasoning = Some(reasoning.into());
        self
    }

    /// Marks the reply as cut by the output token limit.
    pub fn hit_max_tokens(mut self) -> Self {
        self.max_tokens = true;
        self
    }
}

/// How the fake answers one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scripted {
    /// Streams the reply whole.
    Reply(FakeReply),
    /// Waits `delay` before sending the response headers, then streams the reply.
    Delayed {
        /// How long the response headers are held back.
        delay: Duration,
        /// The reply streamed after the wait.
        reply: FakeReply,
    },
    /// Answers with an HTTP error status and a provider-shaped error body.
    Status {
        /// The HTTP status, e.g. `429` or `529`.
        status: u16,
        /// The error message in the body.
        message: String,
        /// A `Retry-After` header value (seconds), if any.
        retry_after: Option<String>,
    },
    /// Streams the first `events` events (half the reply when `None`), then ends the body
    /// cleanly without the completion marker.
    Truncated {
        /// The reply whose first events are streamed.
        reply: FakeReply,
        /// How many events to send.
        events: Option<usize>,
    },
    /// Streams the first `events` events (half when `None`), then breaks the connection.
    Disconnect {
        /// The reply whose first events are streamed.
        reply: FakeReply,
        /// How many events to send.
        events: Option<usize>,
    },
    /// Streams the first `events` events (half when `None`), then sends nothing more and
    /// keeps the connection open until the client leaves.
    Stall {
        /// The reply whose first events are streamed.
        reply: FakeReply,
        /// How many events to send.
        events: Option<usize>,
    },
    /// Streams the first `events` events (half when `None`), then the format's error event
    /// (Anthropic `overloaded_error`, Responses `response.failed` with `server_error`, a
    /// Chat chunk with `error`) carrying `message`.
    StreamError {
        /// The reply whose first events are streamed.
        reply: FakeReply,
        /// How many events to send.
        events: Option<usize>,
        /// The error message the error event carries.
        message: String,
    },
}

impl Scripted {
    /// Streams `reply` whole.
    pub fn reply(reply: FakeReply) -> Self {
        Scripted::Reply(reply)
    }

    /// Streams `reply` after holding the response headers back for `delay`.
    pub fn delayed(delay: Duration, reply: FakeReply) -> Self {
        Scripted::Delayed { delay, reply }
    }

    /// An HTTP error `status` whose body carries `message`.
    pub fn status(status: u16, message: impl Into<String>) -> Self {
        Scripted::Status {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// An HTTP error `status` with `Retry-After: seconds`.
    pub fn status_retry_after(status: u16, seconds: u64, message: impl Into<String>) -> Self {
        Scripted::Status {
            status,
            message: message.into(),
            retry_after: Some(seconds.to_string()),
        }
    }

    /// Half of `reply`, then a clean end of the body without the completion marker.
    pub fn truncated(reply: FakeReply) -> Self {
        Scripted::Truncated {
            reply,
            events: None,
        }
    }

    /// Half of `reply`, then a broken connection.
    pub fn disconnect(reply: FakeReply) -> Self {
        Scripted::Disconnect {
            reply,
            events: None,
        }
    }

    /// Half of `reply`, then silence.
    pub fn stall(reply: FakeReply) -> Self {
        Scripted::Stall {
            reply,
            events: None,
        }
    }

    /// Half of `reply`, then the format's "overloaded" stream error event.
    pub fn stream_error(reply: FakeReply, message: impl Into<String>) -> Self {
        Scripted::StreamError {
            reply,
            events: None,
            message: message.into(),
        }
    }
}

impl From<FakeReply> for Scripted {
    fn from(reply: FakeReply) -> Self {
        Scripted::Reply(reply)
    }
}
