//! [`RunWorkflow`]: the workflow a run keeps in its folder (`graph.dot`) as the run screen
//! draws it. The screen needs the graph's shape, each node's look and the few attributes a
//! node's card shows; the file's text, the Start-run form's fields and every other attribute
//! are for the editor. Left out, a 20,000-node chain's graph is 6.7 MB rather than 15.6 MB,
//! and the server serializes and the page parses that much less.

use heddle_workflow::{AttrEntry, Diagnostic, Workflow};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::types::OpenedWorkflow;

/// The canonical keys of the node attributes a node's card on the canvas shows (the line
/// under its label: an LLM node's model, a command's language, a wait's duration, a
/// manager's child workflow; see the UI's `nodeSubtitle`). A run's graph keeps only these.
pub const CARD_ATTRIBUTES: &[&str] = &["model", "language", "duration", "stack.child_workflow"];

/// A run's workflow as the run screen draws it (`run_graph`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct RunWorkflow {
    /// Absolute path of the run's `graph.dot`.
    pub path: String,
    /// The typed model as the run parsed it, every graph attribute kept, but each node keeping
    /// only the attributes its card shows (`CARD_ATTRIBUTES`) and each edge none (its label and
    /// condition are fields of their own). `None` only when no graph could be parsed at all.
    pub workflow: Option<Workflow>,
    /// Syntax errors and lint findings, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl RunWorkflow {
    /// The run screen's part of a workflow as opened.
    pub fn of(opened: OpenedWorkflow) -> Self {
        let workflow = opened.workflow.map(|mut workflow| {
            for node in &mut workflow.nodes {
                keep_card_attributes(&mut node.attrs);
            }
            for edge in &mut workflow.edges {
                edge.attrs = Vec::new();
            }
            workflow
        });
        RunWorkflow {
            path: opened.path,
            workflow,
            diagnostics: opened.diagnostics,
        }
    }
}

fn keep_card_attributes(attrs: &mut Vec<AttrEntry>) {
    attrs.retain(|attr| CARD_ATTRIBUTES.contains(&attr.canonical.as_ref()));
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;
    use crate::OpenWorkflowRequest;

    fn opened(source: &str) -> OpenedWorkflow {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("graph.dot");
        std::fs::write(&path, source).unwrap();
        crate::open_workflow(&OpenWorkflowRequest {
            path: path.display().to_string(),
        })
        .unwrap()
    }

    #[test]
    fn nodes_keep_only_what_their_card_shows() {
        let whole = opened(
            r#"digraph Run {
  graph [max_cost_usd=2.5, goal="Ship"];
  start [shape=Mdiamond];
  plan [shape=box, model="claude-sonnet", prompt="Plan it", timeout="30s"];
  build [shape=parallelogram, script="make", language="bash"];
  exit [shape=Msquare];
  start -> plan;
  plan -> build [label="ok", condition="outcome=success", weight=2];
  build -> exit;
}
"#,
        );
        let run = RunWorkflow::of(whole.clone());
        let workflow = run.workflow.unwrap();
        let keys = |id: &str| -> Vec<String> {
            let node = workflow.nodes.iter().find(|n| n.id == id).unwrap();
            node.attrs.iter().map(|a| a.canonical.to_string()).collect()
        };
        assert_eq!(keys("plan"), ["model"]);
        assert_eq!(keys("build"), ["language"]);
        assert_eq!(keys("start"), Vec::<String>::new());
        // What the canvas draws of a node and an edge is unchanged.
        let whole_workflow = whole.workflow.unwrap();
        let plan = workflow.nodes.iter().find(|n| n.id == "plan").unwrap();
        let whole_plan = whole_workflow
            .nodes
            .iter()
            .find(|n| n.id == "plan")
            .unwrap();
        assert_eq!(
            (&plan.kind, &plan.label, &plan.shape),
            (&whole_plan.kind, &whole_plan.label, &whole_plan.shape)
        );
        let edge = &workflow.edges[1];
        assert_eq!(edge.label.as_deref(), Some("ok"));
        assert_eq!(edge.condition.as_deref(), Some("outcome=success"));
        assert!((edge.weight - 2.0).abs() < f64::EPSILON);
        assert!(edge.attrs.is_empty());
        // The graph's attributes (its budget) stay whole.
        assert_eq!(workflow.attrs, whole_workflow.attrs);
        assert_eq!(workflow.nodes.len(), whole_workflow.nodes.len());
        assert_eq!(workflow.edges.len(), whole_workflow.edges.len());
        assert_eq!(run.diagnostics, whole.diagnostics);
    }

    #[test]
    fn a_graph_with_errors_keeps_its_diagnostics() {
        let whole = opened("digraph { start -> ");
        let run = RunWorkflow::of(whole.clone());
        assert!(!run.diagnostics.is_empty());
        assert_eq!(run.diagnostics, whole.diagnostics);
    }
}
