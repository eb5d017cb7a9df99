//! The run context: a thread-safe map from keys to JSON values that carries data between
//! stages, and the names of the keys the engine manages.

use std::collections::BTreeMap;
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
/// [`Context::deep_copy`] makes an independent one.
#[derive(Debug, Clone, Default)]
pub struct Context {
    values: Arc<RwLock<BTreeMap<String, Json>>>,
}

impl Context {
    /// An empty context.
    pub fn new() -> Self {
        Self::default()
    }

    /// A context holding `values`.
    pub fn from_values(values: BTreeMap<String, Json>) -> Self {
        Context {
            values: Arc::new(RwLock::new(values)),
        }
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, BTreeMap<String, Json>> {
        self.values
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, BTreeMap<String, Json>> {
        self.values
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<Json> {
        self.read().get(key).cloned()
    }

    /// The value under `key` as text (strings as they are, other JSON printed).
    pub fn get_text(&self, key: &str) -> Option<String> {
        self.read().get(key).map(|v| match v {
            Json::String(s) => s.clone(),
            other => other.to_string(),
        })
    }

    /// Stores `value` under `key`.
    pub fn set(&self, key: impl Into<String>, value: impl Into<Json>) {
        self.write().insert(key.into(), value.into());
    }

    /// Removes `key`.
    pub fn remove(&self, key: &str) {
        self.write().remove(key);
    }

    /// Stores every entry of `updates`.
    pub fn merge(&self, updates: &BTreeMap<String, Json>) {
        let mut values = self.write();
        for (key, value) in updates {
            values.insert(key.clone(), value.clone());
        }
    }

    /// Replaces every value with `values` (a `loop_restart`'s fresh start).
    pub fn replace(&self, values: BTreeMap<String, Json>) {
        *self.write() = values;
    }

    /// A copy of every value, sorted by key.
    pub fn snapshot(&self) -> BTreeMap<String, Json> {
        self.read().clone()
    }

    /// An independent context with the same values (what a parallel branch gets).
    pub fn deep_copy(&self) -> Context {
        Context::from_values(self.snapshot())
    }

    /// Runs `f` with the values borrowed, e.g. to evaluate a condition without copying.
    pub fn with_values<R>(&self, f: impl FnOnce(&BTreeMap<String, Json>) -> R) -> R {
        f(&self.read())
    }
}
