//! Choices from edges, accelerator keys, answers to choices.
//!
//! A gate offers one choice per outgoing edge. A choice's key is the accelerator written in
//! its label (`[A] Approve`, `A) Approve`, `A - Approve`), else the first letter or digit of
//! the label; a derived key that is already taken becomes the next unused letter or digit of
//! the label, else the smallest unused number.

use std::collections::HashSet;

use heddle_workflow::{Node, Workflow};
use serde::{Deserialize, Serialize};

use super::{Answer, Choice, Question};
use crate::routing::{normalize_label, split_accelerator};

/// Normalised labels a freeform answer routes to, when a gate has such a choice.
const FREEFORM_LABELS: [&str; 3] = ["freeform", "other", "custom"];

/// The choices of a human gate: its outgoing edges, in document order.
pub fn choices_for(workflow: &Workflow, node: &Node) -> Vec<Choice> {
    let edges: Vec<(String, String, Option<String>)> = workflow
        .outgoing(&node.id)
        .map(|edge| {
            let label = edge
                .label
                .as_deref()
                .filter(|l| !l.trim().is_empty())
                .unwrap_or(&edge.to)
                .to_string();
            let explicit = split_accelerator(&label).0.map(str::to_uppercase);
            (label, edge.to.clone(), explicit)
        })
        .collect();
    let mut used: HashSet<String> = edges.iter().filter_map(|(_, _, k)| k.clone()).collect();
    edges
        .into_iter()
        .map(|(label, target, explicit)| {
            let key = match explicit {
                Some(key) => key,
                None => {
                    let key = derive_key(&label, &used);
                    used.insert(key.clone());
                    key
                }
            };
            Choice { key, label, target }
        })
        .collect()
}

/// The first letter or digit of `label` not in `used` (uppercased), else the smallest unused
/// number.
fn derive_key(label: &str, used: &HashSet<String>) -> String {
    label
        .chars()
        .filter(|c| c.is_alphanumeric())
        .map(|c| c.to_uppercase().collect::<String>())
        .find(|k| !used.contains(k))
        .unwrap_or_else(|| {
            (1..)
                .map(|n: u32| n.to_string())
                .find(|k| !used.contains(k))
                .unwrap_or_default()
        })
}

/// What an answer means for a question.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
///
/// A choice answer matches, trimmed and without case, a key, then a label (normalised), then
/// a target id, then a 1-based number. A freeform answer routes to the choice labelled
/// `freeform`, `other` or `custom`, else to the default choice, else to the first choice.
pub fn resolve_answer(question: &Question, answer: &Answer) -> Result<Resolved, String> {
    match answer {
        Answer::Choice(text) => find_choice(question, text)
            .map(|choice| Resolved {
                selected: choice.key.clone(),
                label: Some(choice.label.clone()),
                target: choice.target.clone(),
                text: None,
            })
            .ok_or_else(|| {
                format!(
                    "unknown choice `{}`; answer with one of {} (or a label, target id or number)",
                    text.trim(),
                    valid_keys(question)
                )
            }),
        Answer::Freeform(text) => {
            if !question.allow_freeform {
                return Err(format!(
                    "gate `{}` does not accept freeform answers; answer with one of {}",
                    question.node_id,
                    valid_keys(question)
                ));
            }
            let choice = question
                .choices
                .iter()
                .find(|c| FREEFORM_LABELS.contains(&normalize_label(&c.label).as_str()))
                .or_else(|| {
                    question
                        .default_choice
                        .as_deref()
                        .and_then(|d| find_choice(question, d))
                })
                .or_else(|| question.choices.first())
                .ok_or_else(|| {
                    format!(
                        "gate `{}` has no choices to route a freeform answer to",
                        question.node_id
                    )
                })?;
            Ok(Resolved {
                selected: "freeform".to_string(),
                label: Some(choice.label.clone()),
                target: choice.target.clone(),
                text: Some(text.clone()),
            })
        }
    }
}

/// The question's default choice (`human.default_choice`), resolved like a choice answer;
/// `None` when unset or when it matches no choice.
pub fn default_answer(question: &Question) -> Option<Resolved> {
    let default = question.default_choice.as_deref()?;
    resolve_answer(question, &Answer::Choice(default.to_string())).ok()
}

/// The choice `text` names: by key, label, target id, then 1-based number.
pub(crate) fn find_choice<'q>(question: &'q Question, text: &str) -> Option<&'q Choice> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let lower = text.to_lowercase();
    let normalized = normalize_label(text);
    let choices = &question.choices;
    choices
        .iter()
        .find(|c| c.key.to_lowercase() == lower)
        .or_else(|| {
            choices
                .iter()
                .find(|c| !normalized.is_empty() && normalize_label(&c.label) == normalized)
        })
        .or_else(|| choices.iter().find(|c| c.target.to_lowercase() == lower))
        .or_else(|| {
            text.parse::<usize>()
                .ok()
                .and_then(|n| n.checked_sub(1))
                .and_then(|i| choices.get(i))
        })
}

/// The keys, for error messages: `A, R`.
fn valid_keys(question: &Question) -> String {
    if question.choices.is_empty() {
        return "(no choices)".to_string();
    }
    question
        .choices
        .iter()
        .map(|c| c.key.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The label as shown next to its key: without its accelerator prefix.
pub(crate) fn display_label(choice: &Choice) -> &str {
    split_accelerator(&choice.label).1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn question(choices: &[(&str, &str, &str)]) -> Question {
        Question {
            id: "q1".into(),
            run_id: "r".into(),
            node_id: "gate".into(),
            text: "Ship it?".into(),
            choices: choices
                .iter()
                .map(|(k, l, t)| Choice {
                    key: (*k).into(),
                    label: (*l).into(),
                    target: (*t).into(),
                })
                .collect(),
            allow_freeform: false,
            default_choice: None,
            timeout: None,
        }
    }

    #[test]
    fn derive_key_skips_used_letters_then_numbers() {
        let used: HashSet<String> = ["A", "B"].iter().map(|s| (*s).to_string()).collect();
        assert_eq!(derive_key("ab", &used), "1");
        assert_eq!(derive_key("abc", &used), "C");
        assert_eq!(derive_key("-- x", &HashSet::new()), "X");
    }

    #[test]
    fn blank_answer_matches_nothing() {
        let q = question(&[("A", "Approve", "ship")]);
        assert!(find_choice(&q, "  ").is_none());
        assert!(find_choice(&q, "0").is_none());
        assert!(find_choice(&q, "2").is_none());
        assert_eq!(
            find_choice(&q, " 1 ").map(|c| c.target.as_str()),
            Some("ship")
        );
    }

    #[test]
    fn display_label_drops_accelerator() {
        let q = question(&[("A", "[A] Approve", "ship")]);
        assert_eq!(display_label(&q.choices[0]), "Approve");
    }
}
