//! The keyed half of a checkpoint (each node's visits, retries and last outcome; the run
//! context) as timeline.jsonl records it: a `state` line per checkpoint holding only the
//! entries that changed, so a checkpoint costs the same after 20,000 distinct nodes as after
//! one. The first checkpoint a process writes for a run holds the whole state; a reader adds
//! the lines up ([`KeyedState::apply`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

use crate::checkpoint::{Checkpoint, NodeOutcome};

/// How the keyed state changed at one checkpoint (one `state` line of timeline.jsonl).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StateChange {
    /// Everything recorded before is dropped first: the line holds the whole state.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub whole: bool,
    /// Every node's outcome is dropped first (a `loop_restart`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub outcomes_cleared: bool,
    /// The context is emptied first (a `loop_restart`'s fresh context).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub context_cleared: bool,
    /// Visits of the nodes whose count changed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_visits: BTreeMap<String, u32>,
    /// Retries of the nodes whose count changed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_retries: BTreeMap<String, u32>,
    /// Outcomes of the nodes that finished a visit.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub node_outcomes: BTreeMap<String, NodeOutcome>,
    /// Context keys set or changed, with their values.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub context_set: BTreeMap<String, Json>,
    /// Context keys removed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub context_removed: Vec<String>,
}

impl StateChange {
    /// Whether applying it changes nothing.
    pub fn is_empty(&self) -> bool {
        *self == StateChange::default()
    }
}

/// What a run's `state` lines add up to: the keyed fields of [`Checkpoint`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct KeyedState {
    /// See [`Checkpoint::node_visits`].
    pub node_visits: BTreeMap<String, u32>,
    /// See [`Checkpoint::node_retries`].
    pub node_retries: BTreeMap<String, u32>,
    /// See [`Checkpoint::node_outcomes`].
    pub node_outcomes: BTreeMap<String, NodeOutcome>,
    /// See [`Checkpoint::context_values`].
    pub context_values: BTreeMap<String, Json>,
}

impl KeyedState {
    /// The keyed fields of `checkpoint`.
    pub fn of(checkpoint: &Checkpoint) -> Self {
        KeyedState {
            node_visits: checkpoint.node_visits.clone(),
            node_retries: checkpoint.node_retries.clone(),
            node_outcomes: checkpoint.node_outcomes.clone(),
            context_values: checkpoint.context_values.clone(),
        }
    }

    /// The line that records this whole state.
    pub fn whole(&self) -> StateChange {
        StateChange {
            whole: true,
            outcomes_cleared: false,
            context_cleared: false,
            node_visits: self.node_visits.clone(),
            node_retries: self.node_retries.clone(),
            node_outcomes: self.node_outcomes.clone(),
            context_set: self.context_values.clone(),
            context_removed: Vec::new(),
        }
    }

    /// Applies one line.
    pub fn apply(&mut self, change: StateChange) {
        if change.whole {
            *self = KeyedState::default();
        }
        if change.outcomes_cleared {
            self.node_outcomes.clear();
        }
        if change.context_cleared {
            self.context_values.clear();
        }
        self.node_visits.extend(change.node_visits);
        self.node_retries.extend(change.node_retries);
        self.node_outcomes.extend(change.node_outcomes);
        for key in &change.context_removed {
            self.context_values.remove(key);
        }
        self.context_values.extend(change.context_set);
    }

    /// Puts this state into `checkpoint`'s keyed fields.
    pub fn fill(self, checkpoint: &mut Checkpoint) {
        checkpoint.node_visits = self.node_visits;
        checkpoint.node_retries = self.node_retries;
        checkpoint.node_outcomes = self.node_outcomes;
        checkpoint.context_values = self.context_values;
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::outcome::StageStatus;
    use serde_json::json;

    fn outcome(status: StageStatus) -> NodeOutcome {
        NodeOutcome {
            status,
            preferred_label: None,
            failure_reason: None,
        }
    }

    #[test]
    fn lines_add_up_to_the_state_and_a_whole_line_starts_over() {
        let mut state = KeyedState::default();
        let first = StateChange {
            whole: true,
            node_visits: [("a".to_string(), 1)].into(),
            node_outcomes: [("a".to_string(), outcome(StageStatus::Fail))].into(),
            context_set: [("x".to_string(), json!(1)), ("y".to_string(), json!(2))].into(),
            ..StateChange::default()
        };
        state.apply(first);
        let text = serde_json::to_string(&StateChange {
            node_visits: [("b".to_string(), 1)].into(),
            node_retries: [("b".to_string(), 2)].into(),
            outcomes_cleared: true,
            context_removed: vec!["x".into()],
            context_set: [("y".to_string(), json!(3))].into(),
            ..StateChange::default()
        })
        .unwrap();
        state.apply(serde_json::from_str(&text).unwrap());
        assert_eq!(state.node_visits, [("a".into(), 1), ("b".into(), 1)].into());
        assert_eq!(state.node_retries, [("b".into(), 2)].into());
        assert!(state.node_outcomes.is_empty());
        assert_eq!(state.context_values, [("y".into(), json!(3))].into());

        let again = state.whole();
        let mut other = KeyedState::default();
        other.context_values.insert("stale".into(), json!(true));
        other.apply(again);
        assert_eq!(other, state);
    }
}
