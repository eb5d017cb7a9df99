//! Choices from edges, accelerator keys, answers to choices. (stub; being written)

use heddle_workflow::{Node, Workflow};

use super::{Answer, Choice, Question};

/// The choices of a human gate: its outgoing edges.
pub fn choices_for(workflow: &Workflow, node: &Node) -> Vec<Choice> {
    let _ = (workflow, node);
    Vec::new()
}

/// What an answer means for a question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// `human.gate.selected`: the key, or `freeform`.
    pub selected: String,
    /// The chosen edge's label.
    pub label: Option<String>,
    /// The chosen edge's target.
    pub target: String,
    /// Freeform text.
    pub text: Option<String>,
}

/// Matches `answer` against `question`'s choices.
pub fn resolve_answer(question: &Question, answer: &Answer) -> Result<Resolved, String> {
    let _ = (question, answer);
    Err("not yet".into())
}
