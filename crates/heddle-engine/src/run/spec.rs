//! What a run is, fixed when it is prepared: the engine it runs on, its ids and folders, the
//! workflow and an index of its graph, and the settings it was started with. Every walker
//! reads it without a lock; nothing in it changes while the run executes.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use heddle_workflow::{Adjacency, Attrs, Edge, Node, Workflow};

use super::Engine;
use crate::context::{Context, keys};
use crate::rundir::RunDir;

/// The fixed description of one run.
pub(crate) struct RunSpec {
    pub engine: Engine,
    pub workflow: Workflow,
    /// The file the workflow was read from; `output_schema` and child workflow paths are
    /// relative to it.
    pub workflow_path: PathBuf,
    pub run_id: String,
    pub run_dir: RunDir,
    /// Where stages run: the workspace, or the run's git worktree.
    pub work_dir: PathBuf,
    /// The run's goal (the request's, else the graph's).
    pub goal: Option<String>,
    /// `inputs.NAME` values (manager loop children get them too).
    pub inputs: BTreeMap<String, String>,
    /// LLM stages are simulated.
    pub dry_run: bool,
    /// Position of each node and its outgoing edges.
    pub graph: GraphIndex,
}

/// Where each node sits in the workflow and which edges leave it, for lookups by id.
pub(crate) struct GraphIndex {
    outgoing: Vec<Vec<usize>>,
    positions: HashMap<String, usize>,
}

impl GraphIndex {
    /// The index of `workflow`'s nodes and edges.
    pub fn new(workflow: &Workflow) -> Self {
        let adjacency = Adjacency::new(workflow);
        GraphIndex {
            outgoing: (0..workflow.nodes.len())
                .map(|i| adjacency.outgoing(i).to_vec())
                .collect(),
            positions: workflow
                .nodes
                .iter()
                .enumerate()
                .map(|(i, n)| (n.id.clone(), i))
                .collect(),
        }
    }
}

impl RunSpec {
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.graph
            .positions
            .get(id)
            .and_then(|&i| self.workflow.nodes.get(i))
    }

    /// The edges leaving `id` with their positions in the workflow's edges, in document order.
    pub fn outgoing_indexed(&self, id: &str) -> Vec<(usize, &Edge)> {
        self.graph
            .positions
            .get(id)
            .and_then(|&i| self.graph.outgoing.get(i))
            .map(|edges| {
                edges
                    .iter()
                    .filter_map(|&e| self.workflow.edges.get(e).map(|edge| (e, edge)))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The edges leaving `id`, in document order.
    pub fn outgoing(&self, id: &str) -> Vec<&Edge> {
        self.outgoing_indexed(id)
            .into_iter()
            .map(|(_, edge)| edge)
            .collect()
    }

    /// A fresh context: graph attributes mirrored as `graph.*`, the goal, the run id.
    pub fn fresh_context(&self) -> Context {
        let context = Context::new();
        for entry in &self.workflow.attrs {
            context.set(format!("graph.{}", entry.canonical), entry.raw.clone());
        }
        if let Some(goal) = &self.goal {
            context.set("graph.goal", goal.clone());
        }
        context.set(keys::RUN_ID, self.run_id.clone());
        context.set(keys::WORK_DIR, self.work_dir.to_string_lossy().into_owned());
        context
    }

    /// The text of a node attribute, when it is set and not empty.
    pub fn node_text(node: &Node, key: &str) -> Option<String> {
        node.attr_str(key)
            .map(str::to_string)
            .filter(|s| !s.is_empty())
    }
}
