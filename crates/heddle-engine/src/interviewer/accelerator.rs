//! Choices from edges, accelerator keys, answers to choices.
//!
//! A gate offers one choice per outgoing edge. A choice's key is the accelerator written in
//! its label (`[A] Approve`, `A) Approve`, `A - Approve`), else the first letter or digit of
//! the label; a derived key that is already taken becomes the next unused letter or digit of
//! the label, else the smallest unused number. An edge with `freeform=true` is not a choice:
//! free-text answers take it (the last such edge, as Fabro does).

use std::collections::HashSet;

use heddle_workflow::{Attrs, Edge, Node, Workflow};
use serde::{Deserialize, Serialize};

use super::{Answer, Choice, Question};
use crate::routing::{normalize_label, split_accelerator};

/// Normalised labels a freeform answer routes to, when a gate has such a choice.
const FREEFORM_LABELS: [&str; 3] = ["freeform", "other", "custom"];

/// Whether `edge` takes a gate's free-text answers (`freeform=true`).
fn is_freeform(edge: &Edge) -> bool {
    edge.attr_bool("freeform") == Some(true)
}

/// The target of the gate's freeform edge (the last one, as Fabro reads several).
pub fn freeform_target(workflow: &Workflow, node: &Node) -> Option<String> {
    workflow
        .outgoing(&node.id)
        .filter(|edge| is_freeform(edge))
        .last()
        .map(|edge| edge.to.clone())
}

/// The choices of a human gate: its outgoing edges but freeform ones, in document order.
pub fn choices_for(workflow: &Workflow, node: &Node) -> Vec<Choice> {
    let edges: Vec<(String, String, Option<String>)> = workflow
        .outgoing(&node.id)
        .filter(|edge| !is_freeform(edge))
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
    /// The chosen edge's label; for an answer along a freeform edge, the text (Fabro's
    /// `human.gate.label`).
    pub label: Option<String>,
    /// The chosen edge's target.
    pub target: String,
    /// Freeform text.
    pub text: Option<String>,
}

/// Matches `answer` against `question`'s choices.
///
/// A choice answer matches, trimmed and without case, a key, then a label (normalised), then
/// a target id, then a 1-based number. A freeform answer goes along the gate's
/// `freeform=true` edge; without one, to the choice labelled `freeform`, `other` or
/// `custom`, else to the default choice, else to the first choice.
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
            if let Some(target) = &question.freeform_target {
                return Ok(Resolved {
                    selected: "freeform".to_string(),
                    label: Some(text.clone()),
                    target: target.clone(),
                    text: Some(text.clone()),
                });
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
pub(super) mod tests {
    use std::error::Error;
    use std::path::Path;

    use super::*;

    type TestResult = Result<(), Box<dyn Error>>;

    /// A gate with derived, colliding, explicit and missing labels.
    pub(crate) const GATE: &str = r#"digraph W {
      gate [shape=hexagon]
      gate -> ship [label="[A] Approve"]
      gate -> fix [label="Revise"]
      gate -> redo [label="Retry"]
      gate -> rework
      gate -> abort [label="x) Abort"]
      gate -> xylo [label="Xylo"]
      gate -> note [label="Other"]
    }"#;

    /// The choices of node `gate` in `src`.
    pub(crate) fn choices(src: &str) -> Result<Vec<Choice>, Box<dyn Error>> {
        let loaded = heddle_workflow::load_source(
            src,
            Path::new("w.dot"),
            &heddle_workflow::MemoryFiles::new(),
        );
        let workflow = loaded.workflow.ok_or("no workflow")?;
        let node = workflow.node("gate").ok_or("no gate")?;
        Ok(choices_for(&workflow, node))
    }

    /// A question of gate `gate` offering `choices`.
    pub(crate) fn question(choices: Vec<Choice>) -> Question {
        Question {
            id: "q1".into(),
            run_id: "r".into(),
            node_id: "gate".into(),
            text: "Ship it?".into(),
            choices,
            allow_freeform: false,
            freeform_target: None,
            default_choice: None,
            timeout: None,
        }
    }

    fn keys(choices: &[Choice]) -> Vec<(&str, &str, &str)> {
        choices
            .iter()
            .map(|c| (c.key.as_str(), c.label.as_str(), c.target.as_str()))
            .collect()
    }

    fn pick(q: &Question, answer: &str) -> Result<String, String> {
        resolve_answer(q, &Answer::Choice(answer.into())).map(|r| r.target)
    }

    #[test]
    fn choices_follow_edges_with_derived_and_explicit_keys() -> TestResult {
        let choices = choices(GATE)?;
        assert_eq!(
            keys(&choices),
            vec![
                ("A", "[A] Approve", "ship"),
                ("R", "Revise", "fix"),
                ("E", "Retry", "redo"),
                ("W", "rework", "rework"),
                ("X", "x) Abort", "abort"),
                ("Y", "Xylo", "xylo"),
                ("O", "Other", "note"),
            ]
        );
        Ok(())
    }

    #[test]
    fn keys_fall_back_to_numbers() -> TestResult {
        let src = r#"digraph W { gate [shape=hexagon]
          gate -> p [label="A"]  gate -> q [label="a"]  gate -> r [label="[1] One"]  gate -> s [label="!"] }"#;
        let choices = choices(src)?;
        assert_eq!(
            keys(&choices),
            vec![
                ("A", "A", "p"),
                ("2", "a", "q"),
                ("1", "[1] One", "r"),
                ("3", "!", "s"),
            ]
        );
        Ok(())
    }

    #[test]
    fn choice_answers_resolve_by_key_label_target_then_number() -> TestResult {
        let q = question(choices(GATE)?);
        assert_eq!(pick(&q, "a")?, "ship");
        assert_eq!(pick(&q, " approve ")?, "ship");
        assert_eq!(pick(&q, "[A] APPROVE")?, "ship");
        assert_eq!(pick(&q, "REVISE")?, "fix");
        assert_eq!(pick(&q, "Redo")?, "redo");
        assert_eq!(pick(&q, "abort")?, "abort");
        assert_eq!(pick(&q, "4")?, "rework");
        let resolved = resolve_answer(&q, &Answer::Choice("e".into()))?;
        assert_eq!(
            resolved,
            Resolved {
                selected: "E".into(),
                label: Some("Retry".into()),
                target: "redo".into(),
                text: None,
            }
        );
        let error = pick(&q, "launch")
            .err()
            .ok_or("resolved an unknown choice")?;
        assert!(
            error.contains("launch") && error.contains("A, R, E, W, X, Y, O"),
            "{error}"
        );
        assert!(pick(&q, "8").is_err());
        assert!(pick(&q, "").is_err());
        Ok(())
    }

    #[test]
    fn freeform_routes_to_other_then_default_then_first() -> TestResult {
        let mut q = question(choices(GATE)?);
        let free = Answer::Freeform("ship on Friday".into());
        let error = resolve_answer(&q, &free).err().ok_or("freeform accepted")?;
        assert!(error.contains("freeform"), "{error}");

        q.allow_freeform = true;
        q.default_choice = Some("revise".into());
        let resolved = resolve_answer(&q, &free)?;
        assert_eq!(resolved.selected, "freeform");
        assert_eq!(resolved.target, "note");
        assert_eq!(resolved.label.as_deref(), Some("Other"));
        assert_eq!(resolved.text.as_deref(), Some("ship on Friday"));

        q.choices.retain(|c| c.target != "note");
        assert_eq!(resolve_answer(&q, &free)?.target, "fix");
        q.default_choice = None;
        assert_eq!(resolve_answer(&q, &free)?.target, "ship");
        Ok(())
    }

    #[test]
    fn a_freeform_edge_is_no_choice_and_takes_free_text() -> TestResult {
        let src = r#"digraph W { gate [shape=hexagon]
          gate -> ship [label="[A] Approve"]
          gate -> note [label="Other"]
          gate -> early [freeform=true]
          gate -> revise [label="Tell us more", freeform=true] }"#;
        let loaded = heddle_workflow::load_source(
            src,
            Path::new("w.dot"),
            &heddle_workflow::MemoryFiles::new(),
        );
        let workflow = loaded.workflow.ok_or("no workflow")?;
        let node = workflow.node("gate").ok_or("no gate")?;
        let mut q = question(choices_for(&workflow, node));
        assert_eq!(
            keys(&q.choices),
            vec![("A", "[A] Approve", "ship"), ("O", "Other", "note")]
        );
        q.freeform_target = freeform_target(&workflow, node);
        assert_eq!(q.freeform_target.as_deref(), Some("revise"));
        q.allow_freeform = true;
        // The freeform edge wins over a choice labelled "Other"; the text is the label.
        let resolved = resolve_answer(&q, &Answer::Freeform("Approve".into()))?;
        assert_eq!(
            resolved,
            Resolved {
                selected: "freeform".into(),
                label: Some("Approve".into()),
                target: "revise".into(),
                text: Some("Approve".into()),
            }
        );
        // Choices still resolve as choices; the freeform edge is not one.
        assert_eq!(pick(&q, "a")?, "ship");
        assert!(pick(&q, "revise").is_err());
        Ok(())
    }

    #[test]
    fn derive_key_skips_used_letters_then_numbers() {
        let used: HashSet<String> = ["A", "B"].iter().map(|s| (*s).to_string()).collect();
        assert_eq!(derive_key("ab", &used), "1");
        assert_eq!(derive_key("abc", &used), "C");
        assert_eq!(derive_key("-- x", &HashSet::new()), "X");
    }

    #[test]
    fn default_answer_and_display_label() -> TestResult {
        let mut q = question(choices(GATE)?);
        assert_eq!(default_answer(&q), None);
        q.default_choice = Some("abort".into());
        let default = default_answer(&q).ok_or("no default")?;
        assert_eq!(
            (default.selected.as_str(), default.target.as_str()),
            ("X", "abort")
        );
        q.default_choice = Some("nowhere".into());
        assert_eq!(default_answer(&q), None);
        assert_eq!(display_label(&q.choices[0]), "Approve");
        assert_eq!(display_label(&q.choices[3]), "rework");
        Ok(())
    }
}
