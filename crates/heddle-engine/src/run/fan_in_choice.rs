//! A fan-in with a `prompt` asks the model which branch is best, as Fabro does: the node's
//! prompt, then the branches' results as JSON, then a request for the id of the best one.
//! The call goes through the LLM stage machinery (one call, no tools; `prompt.md` and
//! `response.md` in the stage folder, usage and `response.{node}` recorded). The reply picks
//! a branch by `context_updates` setting `parallel.fan_in.best_id` in a routing directive,
//! else by being a branch id, else by the branch id it mentions first. A reply that names no
//! branch, a failed call, or a dry run's simulated reply leaves the choice to the ranking.

use std::path::Path;

use heddle_workflow::HandlerKind;
use serde_json::Value as Json;

use super::dispatch::{node_llm_request, node_prompt};
use super::shared::Shared;
use super::stage::StageCall;
use crate::context::keys;
use crate::handlers::llm_stage::{LlmStage, run_llm_stage};
use crate::llm::extract_directive;
use crate::outcome::{FailureClass, Outcome, StageStatus};

/// What asking the model gave.
pub(super) struct Asked {
    /// The branch the model chose, if its reply names one.
    pub branch: Option<String>,
    /// The LLM stage's outcome (usage, model, `response.{node}`); its status is the fan-in's
    /// to decide.
    pub outcome: Outcome,
    /// How the choice was made, for the stage's notes.
    pub note: String,
    /// The run was cancelled while asking: `outcome` is the stage's.
    pub cancelled: bool,
}

/// Asks the model which of `ids` (the branches of `results`) is best.
pub(super) async fn ask_model(
    shared: &Shared,
    call: &StageCall<'_>,
    stage_dir: &Path,
    results: &[Json],
    ids: &[String],
) -> Asked {
    let node = call.node;
    let instructions = match node_prompt(shared, node) {
        Ok(text) => text,
        Err(outcome) => {
            return Asked {
                branch: None,
                note: format!(
                    "could not ask the model ({}); ranked the branches",
                    outcome.failure_reason.as_deref().unwrap_or("no prompt")
                ),
                outcome: Outcome::success(),
                cancelled: false,
            };
        }
    };
    let listed = serde_json::to_string_pretty(results).unwrap_or_default();
    let prompt = format!(
        "{instructions}\n\n---\n\nThe parallel branches ended like this (`parallel.results`):\n\n\
         ```json\n{listed}\n```\n\nReply with the id of the best branch: one of {}.",
        ids.iter()
            .map(|id| format!("`{id}`"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let request = node_llm_request(shared, node, HandlerKind::Prompt);
    let stage = LlmStage {
        request,
        prompt,
        stage_dir: stage_dir.to_path_buf(),
        output_schema: None,
        output_retries: 0,
        conversation: None,
    };
    let backend = shared.spec.engine.services.llm.clone();
    let events = shared
        .emitter
        .for_node(&node.id)
        .simulated(backend.simulated());
    let (outcome, _) = run_llm_stage(backend.as_ref(), stage, &events, call.cancel).await;
    if outcome.status == StageStatus::Fail {
        let cancelled = outcome.failure_class == Some(FailureClass::Cancelled);
        let note = format!(
            "the model could not choose ({}); ranked the branches",
            outcome.failure_reason.as_deref().unwrap_or("failed")
        );
        return Asked {
            branch: None,
            note,
            cancelled,
            outcome: if cancelled {
                outcome
            } else {
                keep_llm_facts(outcome)
            },
        };
    }
    let reply = outcome
        .context_updates
        .get(&keys::response(&node.id))
        .and_then(Json::as_str)
        .unwrap_or_default()
        .to_string();
    let simulated = outcome.simulated;
    let outcome = keep_llm_facts(outcome);
    if simulated {
        return Asked {
            branch: None,
            outcome,
            note: "dry run: the simulated model chose nothing; ranked the branches".into(),
            cancelled: false,
        };
    }
    match chosen_branch(&reply, ids) {
        Some(branch) => Asked {
            note: format!("the model chose `{branch}`"),
            branch: Some(branch),
            outcome,
            cancelled: false,
        },
        None => Asked {
            branch: None,
            outcome,
            note: "the model's reply names no branch; ranked the branches".into(),
            cancelled: false,
        },
    }
}

/// The LLM stage's outcome without its routing: usage, model, cost and the response keys
/// stay, the directive's status, labels and other updates go (the fan-in decides those).
fn keep_llm_facts(llm: Outcome) -> Outcome {
    let mut outcome = Outcome::success();
    outcome.model = llm.model;
    outcome.usage = llm.usage;
    outcome.cost_usd = llm.cost_usd;
    outcome.simulated = llm.simulated;
    outcome.context_updates = llm
        .context_updates
        .into_iter()
        .filter(|(key, _)| key.starts_with("response.") || key == keys::LAST_RESPONSE)
        .collect();
    outcome
}

/// The branch `reply` chooses among `ids`: a routing directive setting
/// `parallel.fan_in.best_id`, else the whole reply (trimmed of quotes, backticks and
/// punctuation) being an id, else the id that appears first as a whole word (the longest
/// when two start at the same place).
pub(super) fn chosen_branch(reply: &str, ids: &[String]) -> Option<String> {
    if let Some(directive) = extract_directive(reply)
        && let Some(Json::String(id)) = directive.context_updates.get(keys::FAN_IN_BEST_ID)
        && ids.contains(id)
    {
        return Some(id.clone());
    }
    let bare = reply.trim().trim_matches(|c: char| {
        c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '.' | '*' | ':')
    });
    if let Some(id) = ids.iter().find(|id| id.as_str() == bare) {
        return Some(id.clone());
    }
    ids.iter()
        .filter_map(|id| first_word_match(reply, id).map(|at| (at, id)))
        .min_by(|(a, x), (b, y)| a.cmp(b).then(y.len().cmp(&x.len())))
        .map(|(_, id)| id.clone())
}

/// Where `word` first appears in `text` not inside a longer identifier.
fn first_word_match(text: &str, word: &str) -> Option<usize> {
    if word.is_empty() {
        return None;
    }
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).map(|(at, _)| at).find(|&at| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn the_reply_names_the_branch() {
        let ids = ids(&["fast", "fast_path", "careful"]);
        assert_eq!(chosen_branch("careful", &ids).as_deref(), Some("careful"));
        assert_eq!(chosen_branch(" `fast`.\n", &ids).as_deref(), Some("fast"));
        assert_eq!(
            chosen_branch("I pick fast_path: it is simpler than careful.", &ids).as_deref(),
            Some("fast_path")
        );
        assert_eq!(
            chosen_branch("Best: careful (fast was sloppy)", &ids).as_deref(),
            Some("careful")
        );
        assert_eq!(
            chosen_branch(
                r#"fast looks fine, but {"context_updates": {"parallel.fan_in.best_id": "careful"}}"#,
                &ids
            )
            .as_deref(),
            Some("careful")
        );
        assert_eq!(chosen_branch("breakfast is served", &ids), None);
        assert_eq!(chosen_branch("none of them", &ids), None);
    }
}
