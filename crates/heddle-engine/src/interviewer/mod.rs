//! Human gates: the [`Interviewer`] trait and its implementations (terminal prompt,
//! auto-approve, a channel-backed queue the GUI answers through, and a recording wrapper),
//! plus how a gate's choices are derived from its outgoing edges.

mod accelerator;
mod auto;
mod queue;
mod recording;
mod terminal;

pub use accelerator::{Resolved, choices_for, default_answer, freeform_target, resolve_answer};
pub use auto::AutoApprove;
pub use queue::{PendingQuestion, QueueInterviewer};
pub use recording::{Recorded, RecordingInterviewer};
pub use terminal::TerminalInterviewer;

use std::time::Duration;

use async_trait::async_trait;
use serde::{Deserialize, Serialize};

/// One choice of a gate: an outgoing edge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Choice {
    /// The accelerator key (`A` in `[A] Approve`), or the label's first letter.
    pub key: String,
    /// The edge's label as written (the node id of the target when unlabelled).
    pub label: String,
    /// The edge's target node.
    pub target: String,
}

/// A question a human gate asks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Question {
    /// Unique id (answer it by this through a queue).
    pub id: String,
    /// The run whose gate asks it (a manager loop's child asks under its own id).
    pub run_id: String,
    /// The gate's node.
    pub node_id: String,
    /// What to ask (the node's prompt, else its label).
    pub text: String,
    /// The choices, in edge order (freeform edges are not choices).
    pub choices: Vec<Choice>,
    /// Whether a freeform answer is accepted.
    pub allow_freeform: bool,
    /// Where a freeform answer goes: the target of the gate's `freeform=true` edge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub freeform_target: Option<String>,
    /// `human.default_choice`: taken on timeout.
    pub default_choice: Option<String>,
    /// How long the gate waits (node `timeout`).
    pub timeout: Option<Duration>,
}

/// A person's answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Answer {
    /// A choice, by key, label or target id (matched without case).
    Choice(String),
    /// Freeform text.
    Freeform(String),
}

/// Why no answer came.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InterviewError {
    /// Input ended (stdin closed, the GUI went away).
    #[error("no answer: {0}")]
    Closed(String),
    /// The run was cancelled while waiting.
    #[error("cancelled while waiting for an answer")]
    Cancelled,
}

/// Asks people questions.
#[async_trait]
pub trait Interviewer: Send + Sync {
    /// Asks `question` and waits for the answer. The engine applies the timeout.
    async fn ask(&self, question: &Question) -> Result<Answer, InterviewError>;
}
