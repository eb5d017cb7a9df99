//! What changes while a run executes, shared by its branches behind one lock: the
//! bookkeeping checkpoint.json records (visits, retries, outcomes, the timeline, failure
//! signatures), why and how the run stopped, the run's own context and the live
//! conversations of `full` fidelity threads. Each branch's context lives apart.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::budget::{Budget, Spent};
use crate::checkpoint::{BranchProgress, Checkpoint, NodeOutcome, StageRecord};
use crate::checkpoint_state::StateChange;
use crate::context::Context;
use crate::llm::LlmConversation;
use crate::outcome::Outcome;

/// Why a run stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum StopReason {
    /// Someone cancelled it.
    Cancelled(String),
    /// Nothing happened for `stall_timeout`.
    Stalled(String),
    /// The run spent more than its budget (`max_cost_usd` / `max_tokens`).
    BudgetExceeded(String),
}

/// Everything about a run that changes while it executes.
pub(crate) struct RunState {
    /// What checkpoint.json records besides the context.
    pub progress: RunProgress,
    /// Why the run was stopped early; the first reason given wins.
    pub stop_reason: Option<StopReason>,
    /// How a run that completed ended when it is worth saying (it stopped at a stage with no
    /// edge that holds), for conclusion.json.
    pub end_note: Option<String>,
    /// The run's own context (branches have copies), for checkpoints saved by branches; set
    /// when the run starts executing.
    pub main_context: Option<Context>,
    /// The open conversations of `full` fidelity threads, by thread id.
    pub threads: HashMap<String, Box<dyn LlmConversation>>,
    /// The first LLM stage after a resume drops `full` fidelity to `summary:high`.
    pub resumed_pending: bool,
    /// The limits the caller gave (the graph's attributes fill the ones left unset).
    pub budget: Budget,
    /// The latest checkpoint when only `head` lines of timeline.jsonl hold it (checkpoint.json
    /// is rewritten every few stages): written to checkpoint.json when the run stops.
    pub unsaved_head: Option<Checkpoint>,
}

impl RunState {
    /// A run about to execute from `progress`; `resumed` when it continues a stopped run.
    pub fn new(progress: RunProgress, resumed: bool) -> Self {
        RunState {
            progress,
            stop_reason: None,
            end_note: None,
            main_context: None,
            threads: HashMap::new(),
            resumed_pending: resumed,
            budget: Budget::default(),
            unsaved_head: None,
        }
    }
}

/// Everything a checkpoint carries besides the context.
#[derive(Debug, Clone, Default)]
pub(crate) struct RunProgress {
    pub completed_nodes: Vec<String>,
    node_retries: BTreeMap<String, u32>,
    node_visits: BTreeMap<String, u32>,
    node_outcomes: BTreeMap<String, NodeOutcome>,
    pub logs: Vec<String>,
    pub loop_failure_signatures: BTreeMap<String, u32>,
    pub restart_failure_signatures: BTreeMap<String, u32>,
    pub timeline: Vec<StageRecord>,
    pub restarts: u32,
    pub last_git_sha: Option<String>,
    pub branches: Vec<BranchProgress>,
    /// How much of the history is in timeline.jsonl already.
    pub written: Written,
    /// What the stages of `timeline` spent (kept as they finish).
    pub spent: Spent,
    /// Nodes whose visits, retries or outcome changed since the last checkpoint.
    changed_nodes: BTreeSet<String>,
    /// Every outcome was dropped (a loop restart) since the last checkpoint.
    outcomes_cleared: bool,
}

/// How much of the history the run has appended to timeline.jsonl.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Written {
    /// Entries of `timeline` written.
    pub stages: usize,
    /// Entries of `logs` written.
    pub logs: usize,
    /// The file's length in bytes (whole lines).
    pub bytes: u64,
    /// The [`crate::Context::id`] of the context whose keyed state timeline.jsonl holds up to
    /// date; `None` before the first `state` line this process wrote (the next one then
    /// holds the whole state).
    pub state_of: Option<u64>,
    /// How many stages checkpoint.json covered when this process last rewrote it; `None`
    /// before its first rewrite.
    pub head_stages: Option<usize>,
}

impl RunProgress {
    /// The progress a checkpoint recorded.
    pub fn from_checkpoint(checkpoint: &Checkpoint) -> Self {
        RunProgress {
            completed_nodes: checkpoint.completed_nodes.clone(),
            node_retries: checkpoint.node_retries.clone(),
            node_visits: checkpoint.node_visits.clone(),
            node_outcomes: checkpoint.node_outcomes.clone(),
            logs: checkpoint.logs.clone(),
            loop_failure_signatures: checkpoint.loop_failure_signatures.clone(),
            restart_failure_signatures: checkpoint.restart_failure_signatures.clone(),
            timeline: checkpoint.timeline.clone(),
            restarts: checkpoint.restarts,
            last_git_sha: checkpoint.git_commit_sha.clone(),
            branches: checkpoint.branches.clone(),
            written: Written::default(),
            spent: Spent::of(&checkpoint.timeline),
            changed_nodes: BTreeSet::new(),
            outcomes_cleared: false,
        }
    }

    /// Each node id's outcome at its latest visit (since the last loop restart).
    pub fn node_outcomes(&self) -> &BTreeMap<String, NodeOutcome> {
        &self.node_outcomes
    }

    /// Counts a visit of `node` and returns its number (from 1).
    pub fn visit(&mut self, node: &str) -> u32 {
        self.changed_nodes.insert(node.to_string());
        let visits = self.node_visits.entry(node.to_string()).or_insert(0);
        *visits += 1;
        *visits
    }

    /// Takes back the visit of `node` that did not complete (a resume runs it again).
    pub fn unvisit(&mut self, node: &str) {
        if let Some(visits) = self.node_visits.get_mut(node) {
            *visits = visits.saturating_sub(1);
            self.changed_nodes.insert(node.to_string());
        }
    }

    /// Drops every node's outcome (a loop restart).
    pub fn clear_outcomes(&mut self) {
        self.node_outcomes.clear();
        self.outcomes_cleared = true;
    }

    /// Records a finished stage.
    pub fn record(&mut self, node: &str, outcome: &Outcome, retries: u32, record: StageRecord) {
        self.completed_nodes.push(node.to_string());
        self.changed_nodes.insert(node.to_string());
        if retries > 0 {
            *self.node_retries.entry(node.to_string()).or_insert(0) += retries;
        }
        self.node_outcomes.insert(
            node.to_string(),
            NodeOutcome {
                status: outcome.status,
                preferred_label: outcome.preferred_label.clone(),
                failure_reason: outcome.failure_reason.clone(),
            },
        );
        self.spent = self.spent.plus(&record);
        self.timeline.push(record);
    }

    /// How the nodes' visits, retries and outcomes changed since the last call (all of them,
    /// as a whole state, when `whole`), and starts noting afresh.
    pub fn take_node_changes(&mut self, whole: bool) -> StateChange {
        let changed = std::mem::take(&mut self.changed_nodes);
        let cleared = std::mem::take(&mut self.outcomes_cleared);
        if whole {
            return StateChange {
                whole: true,
                node_visits: self.node_visits.clone(),
                node_retries: self.node_retries.clone(),
                node_outcomes: self.node_outcomes.clone(),
                ..StateChange::default()
            };
        }
        let pick = |map: &BTreeMap<String, u32>| -> BTreeMap<String, u32> {
            changed
                .iter()
                .filter_map(|n| map.get(n).map(|v| (n.clone(), *v)))
                .collect()
        };
        StateChange {
            outcomes_cleared: cleared,
            node_visits: pick(&self.node_visits),
            node_retries: pick(&self.node_retries),
            node_outcomes: changed
                .iter()
                .filter_map(|n| self.node_outcomes.get(n).map(|o| (n.clone(), o.clone())))
                .collect(),
            ..StateChange::default()
        }
    }

    /// Counts one more occurrence of a failure signature; returns the count.
    pub fn count_failure(&mut self, signature: &str) -> u32 {
        let count = self
            .loop_failure_signatures
            .entry(signature.to_string())
            .or_insert(0);
        *count += 1;
        *count
    }
}

/// A failure signature: node, class and the reason with numbers, hex ids and spacing
/// normalised, so the same failure repeating is recognised even when timings differ.
pub(crate) fn failure_signature(node: &str, class: &str, reason: &str) -> String {
    let mut normalized = String::with_capacity(reason.len().min(200));
    let mut last_space = false;
    let mut last_digit = false;
    for c in reason.chars() {
        if normalized.len() >= 200 {
            break;
        }
        if c.is_ascii_digit() {
            if !last_digit {
                normalized.push('#');
            }
            last_digit = true;
            last_space = false;
            continue;
        }
        last_digit = false;
        if c.is_whitespace() {
            if !last_space {
                normalized.push(' ');
            }
            last_space = true;
            continue;
        }
        last_space = false;
        normalized.extend(c.to_lowercase());
    }
    format!("{node}|{class}|{}", normalized.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_ignore_numbers_and_spacing() {
        let a = failure_signature("test", "deterministic", "exit code 1: took 12 ms");
        let b = failure_signature("test", "deterministic", "exit code 1:  took 873 ms");
        assert_eq!(a, b);
        assert_eq!(a, "test|deterministic|exit code #: took # ms");
        let c = failure_signature("test", "deterministic", "exit code 1: other error");
        assert_ne!(a, c);
    }
}
