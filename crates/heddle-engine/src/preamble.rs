//! The preamble: what an LLM stage is told about the run so far. (stub; being written)

use std::collections::BTreeMap;

use heddle_workflow::{Edge, Node, Workflow};
use serde_json::Value as Json;

use crate::checkpoint::StageRecord;
use crate::fidelity::Fidelity;
use crate::rundir::RunDir;

/// Reads a stage's saved files (stdout.log, response.md, ...).
pub trait StageOutputs {
    /// The content of `file` in `stage`'s folder, if it exists.
    fn read(&self, stage: &StageRecord, file: &str) -> Option<String>;
}

/// Reads stage files from a run directory.
#[derive(Debug, Clone, Copy)]
pub struct RunDirOutputs<'a>(pub &'a RunDir);

impl StageOutputs for RunDirOutputs<'_> {
    fn read(&self, stage: &StageRecord, file: &str) -> Option<String> {
        std::fs::read_to_string(self.0.root().join(&stage.stage_dir).join(file)).ok()
    }
}

/// Everything a preamble is built from.
pub struct PreambleInput<'a> {
    /// The run's goal.
    pub goal: Option<&'a str>,
    /// The run id.
    pub run_id: &'a str,
    /// The stage's fidelity.
    pub fidelity: Fidelity,
    /// Completed stages, in order.
    pub stages: &'a [StageRecord],
    /// The context.
    pub context: &'a BTreeMap<String, Json>,
    /// Stage files.
    pub outputs: &'a dyn StageOutputs,
}

/// The preamble text (empty for `full`).
pub fn build_preamble(input: &PreambleInput<'_>) -> String {
    let _ = input;
    String::new()
}

/// Fidelity of a stage entered through `edge`: edge, then node, then the graph's
/// `default_fidelity`, then `compact`.
pub fn resolve_fidelity(edge: Option<&Edge>, node: &Node, workflow: &Workflow) -> Fidelity {
    let _ = (edge, node, workflow);
    Fidelity::Compact
}

/// Thread of a stage: edge `thread_id`, then node, then the graph's `default_thread`.
pub fn resolve_thread(edge: Option<&Edge>, node: &Node, workflow: &Workflow) -> Option<String> {
    let _ = (edge, node, workflow);
    None
}
