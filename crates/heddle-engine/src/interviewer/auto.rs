//! Auto-approve: answers every gate without asking (`--auto-approve`, unattended runs).

use async_trait::async_trait;

use super::accelerator::find_choice;
use super::{Answer, Choice, InterviewError, Interviewer, Question};
use crate::routing::normalize_label;

/// Normalised labels that mean "go ahead", in no particular order.
const APPROVING_LABELS: [&str; 9] = [
    "approve", "approved", "yes", "ok", "accept", "continue", "lgtm", "proceed", "ship",
];

/// Answers every gate without asking: the default choice if set, else the first choice
/// labelled like an approval (`Approve`, `Yes`, `OK`, `LGTM`, ...), else the first choice;
/// a gate that only takes free text (a `freeform=true` edge and no choices) gets
/// [`AUTO_APPROVE_TEXT`].
#[derive(Debug, Default, Clone, Copy)]
pub struct AutoApprove;

/// The free text auto-approve answers a gate without choices with.
pub const AUTO_APPROVE_TEXT: &str = "approved (auto-approve)";

impl AutoApprove {
    /// The choice auto-approve takes for `question`, if it has any.
    pub fn pick(question: &Question) -> Option<&Choice> {
        question
            .default_choice
            .as_deref()
            .and_then(|d| find_choice(question, d))
            .or_else(|| {
                question
                    .choices
                    .iter()
                    .find(|c| APPROVING_LABELS.contains(&normalize_label(&c.label).as_str()))
            })
            .or_else(|| question.choices.first())
    }
}

#[async_trait]
impl Interviewer for AutoApprove {
    async fn ask(&self, question: &Question) -> Result<Answer, InterviewError> {
        if let Some(choice) = AutoApprove::pick(question) {
            return Ok(Answer::Choice(choice.key.clone()));
        }
        if question.freeform_target.is_some() {
            return Ok(Answer::Freeform(AUTO_APPROVE_TEXT.to_string()));
        }
        Err({
            InterviewError::Closed(format!(
                "auto-approve: gate `{}` has no choices",
                question.node_id
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::accelerator::tests::{choices, question};
    use super::*;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    async fn auto(q: &Question) -> Result<Answer, InterviewError> {
        AutoApprove.ask(q).await
    }

    #[tokio::test]
    async fn auto_approve_prefers_default_then_approving_label_then_first() -> TestResult {
        let src = r#"digraph W { gate [shape=hexagon]
          gate -> a [label="Rework"]  gate -> b [label="LGTM"]  gate -> c [label="[Y] Yes"] }"#;
        let mut q = question(choices(src)?);
        assert_eq!(auto(&q).await, Ok(Answer::Choice("L".into())));
        q.default_choice = Some("rework".into());
        assert_eq!(auto(&q).await, Ok(Answer::Choice("R".into())));
        q.default_choice = Some("nonsense".into());
        assert_eq!(auto(&q).await, Ok(Answer::Choice("L".into())));
        q.choices.retain(|c| c.target != "b" && c.target != "c");
        assert_eq!(auto(&q).await, Ok(Answer::Choice("R".into())));
        q.choices.clear();
        assert!(matches!(auto(&q).await, Err(InterviewError::Closed(_))));
        q.freeform_target = Some("notes".into());
        q.allow_freeform = true;
        assert_eq!(
            auto(&q).await,
            Ok(Answer::Freeform(AUTO_APPROVE_TEXT.into()))
        );
        Ok(())
    }
}
