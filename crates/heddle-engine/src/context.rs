//! The run context: a thread-safe map from keys to JSON values that carries data between
//! stages, and the names of the keys the engine manages.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

use serde_json::Value as Json;

/// Keys the engine sets (see docs/engine.md for what each holds).
pub mod keys {
    /// Node id of the stage that just completed.
    pub const LAST_STAGE: &str = "last_stage";
    /// First 200 characters of the last LLM response.
    pub const LAST_RESPONSE: &str = "last_response";
    /// Status of the last completed stage.
    pub const OUTCOME: &str = "outcome";
    /// Label preferred by the last stage (human choice, agent directive).
    pub const PREFERRED_LABEL: &str = "preferred_label";
    /// Why the last stage failed.
    pub const FAILURE_REASON: &str = "failure_reason";
    /// Class of the last failure.
    pub const FAILURE_CLASS: &str = "failure_class";
    /// Deduplication signature of the last failure.
    pub const FAILURE_SIGNATURE: &str = "failure_signature";
    /// The node now running.
    pub const CURRENT_NODE: &str = "current_node";
    /// A command stage's stdout.
    pub const COMMAND_OUTPUT: &str = "command.output";
    /// A command stage's stdout under the Attractor spec's name (the same text as
    /// `command.output`).
    pub const TOOL_OUTPUT: &str = "tool.output";
    /// A command stage's stderr.
    pub const COMMAND_STDERR: &str = "command.stderr";
    /// The accelerator key a person chose, or `freeform`.
    pub const HUMAN_SELECTED: &str = "human.gate.selected";
    /// The label of the edge a person chose.
    pub const HUMAN_LABEL: &str = "human.gate.label";
    /// A person's freeform answer.
    pub const HUMAN_TEXT: &str = "human.gate.text";
    /// Results of the last parallel node's branches.
    pub const PARALLEL_RESULTS: &str = "parallel.results";
    /// How the last parallel node's join went: `policy`, `error_policy`, `needed`,
    /// `succeeded`, `total`, `met`.
    pub const PARALLEL_JOIN: &str = "parallel.join";
    /// Branch that ranked best at the fan-in.
    pub const FAN_IN_BEST_ID: &str = "parallel.fan_in.best_id";
    /// Status of that branch.
    pub const FAN_IN_BEST_OUTCOME: &str = "parallel.fan_in.best_outcome";
    /// Git head of that branch (with git checkpoints).
    pub const FAN_IN_BEST_HEAD_SHA: &str = "parallel.fan_in.best_head_sha";
    /// The run id.
    pub const RUN_ID: &str = "internal.run_id";
    /// The work dir.
    pub const WORK_DIR: &str = "internal.work_dir";
    /// Resolved fidelity of the current stage.
    pub const FIDELITY: &str = "internal.fidelity";
    /// Thread of the current stage (or null).
    pub const THREAD_ID: &str = "internal.thread_id";
    /// Visits of the current node so far, this one included.
    pub const NODE_VISIT_COUNT: &str = "internal.node_visit_count";

    /// `response.{node}`: an LLM stage's full response.
    pub fn response(node: &str) -> String {
        format!("response.{node}")
    }

    /// `output.{node}`: an LLM stage's schema-validated JSON output.
    pub fn output(node: &str) -> String {
        format!("output.{node}")
    }

    /// `internal.retry_count.{node}`.
    pub fn retry_count(node: &str) -> String {
        format!("internal.retry_count.{node}")
    }

    /// Whether `key` is engine bookkeeping left out of preambles.
    pub fn is_internal(key: &str) -> bool {
        key == CURRENT_NODE
            || ["internal.", "graph.", "thread.", "response."]
                .iter()
                .any(|prefix| key.starts_with(prefix))
    }
}

/// The shared context of a run (or of one parallel branch). Clones share the same map;
/// [`Context::deep_copy`] makes an independent one. It notes which keys change, so a
/// checkpoint can record only those ([`Context::take_changes`]).
#[derive(Debug, Clone)]
pub struct Context {
    values: Arc<RwLock<Values>>,
}

#[derive(Debug)]
struct Values {
    map: BTreeMap<String, Json>,
    changes: ContextChanges,
    id: u64,
}

/// What changed in a context since the last [`Context::take_changes`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextChanges {
    /// Every value was replaced ([`Context::replace`]); `keys` then names what changed since.
    pub replaced: bool,
    /// Keys set, changed or removed.
    pub keys: BTreeSet<String>,
}

/// Numbers independent contexts (clones share one).
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl Default for Context {
    fn default() -> Self {
        Context::from_values(BTreeMap::new())
    }
}

impl Context {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// A context holding `values`.
    pub fn from_values(values: BTreeMap<String, Json>) -> Self {
        Context {
            values: Arc::new(RwLock::new(Values {
                map: values,
                changes: ContextChanges::default(),
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            })),
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Values> {
        self.values
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Values> {
        self.values
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Identifies this context: clones share it, a [`Context::deep_copy`] gets its own.
    pub fn id(&self) -> u64 {
        self.read().id
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<Json> {
        self.read().map.get(key).cloned()
    }

    /// The value under `key` as text (strings as they are, other JSON printed).
    pub fn get_text(&self, key: &str) -> Option<String> {
        self.read().map.get(key).map(|v| match v {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        })
    }

    /// Stores `value` under `key`.
    pub fn set(&self, key: impl Into<String>, value: impl Into<Json>) {
        let key = key.into();
        let mut values = self.write();
        values.changes.keys.insert(key.clone());
        values.map.insert(key, value.into());
    }

    /// Removes `key`.
    pub fn remove(&self, key: &str) {
        let mut values = self.write();
        if values.map.remove(key).is_some() {
            values.changes.keys.insert(key.to_string());
        }
    }

    /// Stores every entry of `updates`.
    pub fn merge(&self, updates: &BTreeMap<String, Json>) {
        let mut values = self.write();
        for (key, value) in updates {
            values.changes.keys.insert(key.clone());
            values.map.insert(key.clone(), value.clone());
        }
    }

    /// Replaces every value with `values` (a `loop_restart`'s fresh start).
    pub fn replace(&self, values: BTreeMap<String, Json>) {
        let mut current = self.write();
        current.map = values;
        current.changes = ContextChanges {
            replaced: true,
            keys: BTreeSet::new(),
        };
    }

    /// What changed since the last call (since the context was made, the first time), and
    /// starts noting afresh.
    pub fn take_changes(&self) -> ContextChanges {
        std::mem::take(&mut self.write().changes)
    }

    /// A copy of every value, sorted by key.
    pub fn snapshot(&self) -> BTreeMap<String, Json> {
        self.read().map.clone()
    }

    /// An independent context with the same values (what a parallel branch gets).
    pub fn deep_copy(&self) -> Context {
        Context::from_values(self.snapshot())
    }

    /// Runs `f` with the values borrowed, e.g. to evaluate a condition without copying.
    pub fn with_values<R>(&self, f: impl FnOnce(&BTreeMap<String, Json>) -> R) -> R {
        f(&self.read().map)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_name_the_keys_set_or_removed_since_they_were_last_taken() {
        let context = Context::new();
        context.set("a", 1);
        context.set("b", 2);
        let clone = context.clone();
        assert_eq!(clone.id(), context.id());
        assert_ne!(context.deep_copy().id(), context.id());
        assert_eq!(
            context.take_changes().keys,
            ["a".to_string(), "b".to_string()].into()
        );
        clone.remove("a");
        clone.remove("missing");
        clone.merge(&[("c".to_string(), Json::from(3))].into());
        let changes = context.take_changes();
        assert!(!changes.replaced);
        assert_eq!(changes.keys, ["a".to_string(), "c".to_string()].into());
        context.set("d", 4);
        context.replace([("e".to_string(), Json::from(5))].into());
        let changes = context.take_changes();
        assert!(changes.replaced);
        assert!(changes.keys.is_empty());
        assert_eq!(context.take_changes(), ContextChanges::default());
    }
}
