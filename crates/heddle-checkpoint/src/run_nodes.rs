//! What a checkpoint session needs to know of its run's nodes, read once from the run's
//! graph.dot: each node's label (for shadow commit messages) and which nodes leave the work
//! tree alone ([`crate::grouping::is_quiet`]), so that a checkpoint made before one of them
//! may wait to be published.

use std::collections::{BTreeMap, HashSet};

use heddle_engine::RunDir;

use crate::grouping::is_quiet;

/// The run's nodes, as the session uses them.
#[derive(Debug, Default)]
pub struct RunNodes {
    labels: BTreeMap<String, String>,
    quiet: HashSet<String>,
}

impl RunNodes {
    /// The nodes of the graph in `run_dir`; none when it cannot be read or loaded (a new
    /// run's graph.dot is written after its session opened).
    pub fn read(run_dir: &RunDir) -> RunNodes {
        let Ok(source) = std::fs::read_to_string(run_dir.graph()) else {
            return RunNodes::default();
        };
        let loaded =
            heddle_workflow::load_source(&source, &run_dir.graph(), &heddle_workflow::OsFiles);
        let Some(workflow) = loaded.workflow else {
            return RunNodes::default();
        };
        RunNodes {
            // The model keeps `label` (or the id when unset) in its own field.
            labels: workflow
                .nodes
                .iter()
                .map(|n| (n.id.clone(), n.label.clone()))
                .collect(),
            quiet: workflow
                .nodes
                .iter()
                .filter(|n| is_quiet(n.kind))
                .map(|n| n.id.clone())
                .collect(),
        }
    }

    /// Whether nothing was read.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Node `id`'s label, if the graph has the node.
    pub fn label(&self, id: &str) -> Option<&str> {
        self.labels.get(id).map(String::as_str)
    }

    /// Whether node `id` leaves the work tree alone (unknown nodes do not).
    pub fn is_quiet(&self, id: &str) -> bool {
        self.quiet.contains(id)
    }
}
