//! Edge selection: which edge a run follows after a stage, and why.
//!
//! In order: (1) edges whose condition holds, heaviest first, then by target id; (2) the
//! outcome's preferred label against unconditional edges' labels, normalised; (3) the
//! outcome's suggested next ids, in order; (4) unconditional edges by weight, then target id.
//! The same order applies after a failure (as in the Attractor spec and Fabro), except that a
//! human gate that failed without an answer skips step 4. Only when no edge is chosen does
//! the run loop try the retry targets.

use heddle_workflow::{ConditionContext, Edge};

use crate::event::EdgeReason;
use crate::outcome::{Outcome, StageStatus};

/// Splits an accelerator prefix off a label: `[K] Label`, `K) Label` and `K - Label` give
/// `(Some("K"), "Label")`; anything else gives `(None, label)`. The key is one letter or
/// digit (up to three inside brackets).
pub fn split_accelerator(label: &str) -> (Option<&str>, &str) {
    let text = label.trim_start();
    if let Some(rest) = text.strip_prefix('[')
        && let Some(close) = rest.find(']')
    {
        let key = &rest[..close];
        let after = &rest[close + 1..];
        if (1..=3).contains(&key.chars().count())
            && key.chars().all(char::is_alphanumeric)
            && (after.is_empty() || after.starts_with(char::is_whitespace))
        {
            return (Some(key), after.trim_start());
        }
    }
    let mut chars = text.char_indices();
    if let Some((_, first)) = chars.next()
        && first.is_alphanumeric()
    {
        let rest = &text[first.len_utf8()..];
        if let Some(after) = rest.strip_prefix(')')
            && (after.is_empty() || after.starts_with(char::is_whitespace))
        {
            return (Some(&text[..first.len_utf8()]), after.trim_start());
        }
        if let Some(after) = rest.strip_prefix(" - ") {
            return (Some(&text[..first.len_utf8()]), after.trim_start());
        }
    }
    (None, label)
}

/// A label as compared: accelerator removed, trimmed, lowercased.
pub fn normalize_label(label: &str) -> String {
    split_accelerator(label.trim()).1.trim().to_lowercase()
}

/// What was asked of the edges besides the outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EdgeChoice {
    /// The stage is a human gate: one that failed without an answer does not fall through
    /// to its unconditional edges (an unanswered approval is not an approval).
    pub human_gate: bool,
}

/// Picks the edge to follow among `edges` (a node's outgoing edges) after `outcome`, with
/// conditions evaluated against `context`. `None` when no edge qualifies.
pub fn select_edge<'w>(
    edges: &[&'w Edge],
    outcome: &Outcome,
    context: &dyn ConditionContext,
    choice: EdgeChoice,
) -> Option<(&'w Edge, EdgeReason)> {
    let conditional = edges
        .iter()
        .copied()
        .filter(|e| e.condition.is_some())
        .filter(|e| {
            e.parsed_condition
                .as_ref()
                .is_some_and(|c| c.evaluate(context))
        })
        .min_by(|a, b| heavier_first(a, b));
    if let Some(edge) = conditional {
        return Some((edge, EdgeReason::Condition));
    }
    let unconditional: Vec<&'w Edge> = edges
        .iter()
        .copied()
        .filter(|e| e.condition.is_none())
        .collect();
    if let Some(preferred) = outcome.preferred_label.as_deref() {
        let wanted = normalize_label(preferred);
        if !wanted.is_empty()
            && let Some(edge) = unconditional
                .iter()
                .copied()
                .filter(|e| {
                    e.label
                        .as_deref()
                        .is_some_and(|l| normalize_label(l) == wanted)
                })
                .min_by(|a, b| heavier_first(a, b))
        {
            return Some((edge, EdgeReason::Label));
        }
    }
    for id in &outcome.suggested_next_ids {
        if let Some(edge) = unconditional
            .iter()
            .copied()
            .filter(|e| &e.to == id)
            .min_by(|a, b| heavier_first(a, b))
        {
            return Some((edge, EdgeReason::Suggestion));
        }
    }
    let unanswered_gate = choice.human_gate
        && outcome.status == StageStatus::Fail
        && outcome.preferred_label.is_none()
        && outcome.suggested_next_ids.is_empty();
    if unanswered_gate {
        return None;
    }
    unconditional
        .into_iter()
        .min_by(|a, b| heavier_first(a, b))
        .map(|edge| (edge, EdgeReason::Weight))
}

/// Heavier edges first, then by target id, then document order.
fn heavier_first(a: &Edge, b: &Edge) -> std::cmp::Ordering {
    b.weight
        .total_cmp(&a.weight)
        .then_with(|| a.to.cmp(&b.to))
        .then_with(|| a.occurrence.cmp(&b.occurrence))
}
