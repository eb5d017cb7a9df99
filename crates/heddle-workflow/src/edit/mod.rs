//! Editing a workflow as the editor means it. Each [`WorkflowEdit`] is decided here, against
//! the dialect (one start, exits that end a run, attributes that name nodes, aliases), and
//! carried out with heddle-dot's minimal text edits, so every other line and comment stays
//! byte-identical. The canvas, the CLI, the HTTP API and scripts all send these edits; none
//! of them decides again what an edit means.

mod attrs;
mod error;
mod nodes;
mod references;
mod selection;

pub use error::WorkflowEditError;
pub use nodes::fresh_node_id;

use std::path::Path;

use heddle_dot::{Document, EdgeKey, Edit, ValueSplice};
use serde::{Deserialize, Serialize};

use crate::build::{self, Built};
use crate::locate::LineIndex;
use crate::{HandlerKind, MemoryFiles};

/// One change to a workflow. Serialized with an `op` tag, like heddle-dot's [`Edit`] (whose
/// JSON it accepts), but with the dialect's meaning: a rename rewrites the attributes that
/// name the node, attributes are written in the spelling the file already uses, and edits
/// that would break the workflow's shape are refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum WorkflowEdit {
    /// Sets a graph attribute; `key` may be Heddle's name or an alias, and the spelling the
    /// graph already uses is kept (`model` updates an existing `llm_model`).
    SetGraphAttr {
        /// Attribute key (name or alias).
        key: String,
        /// New value, unquoted.
        value: String,
    },
    /// Removes a graph attribute in every spelling.
    RemoveGraphAttr {
        /// Attribute key (name or alias).
        key: String,
    },
    /// Sets a node attribute, in the spelling the node already uses.
    SetNodeAttr {
        /// Id of a node already in the workflow.
        node: String,
        /// Attribute key (name or alias).
        key: String,
        /// New value, unquoted.
        value: String,
    },
    /// Removes a node attribute in every spelling, from every statement of the node.
    RemoveNodeAttr {
        /// Id of a node already in the workflow.
        node: String,
        /// Attribute key (name or alias).
        key: String,
    },
    /// Sets an attribute of one edge, in the spelling the edge already uses.
    SetEdgeAttr {
        /// The edge to change; it must be in the workflow.
        edge: EdgeKey,
        /// Attribute key (name or alias).
        key: String,
        /// New value, unquoted.
        value: String,
    },
    /// Removes an attribute of one edge in every spelling.
    RemoveEdgeAttr {
        /// The edge to change; it must be in the workflow.
        edge: EdgeKey,
        /// Attribute key (name or alias).
        key: String,
    },
    /// Adds a node. With `kind`, it gets the kind's shape and a label (`Agent 2`); without
    /// `id`, a fresh one named after the kind (`agent`, `agent_2`, ...). A second start is
    /// refused, and a second exit unless `allow_another_exit`.
    AddNode {
        /// The new id; a fresh one when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        id: Option<String>,
        /// What the node does; sets its shape.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        kind: Option<HandlerKind>,
        /// Its label; with `kind` and without a label, the kind's title numbered like the id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        label: Option<String>,
        /// Further `(key, value)` pairs, written in this order; values unquoted.
        #[serde(default)]
        attrs: Vec<(String, String)>,
        /// Add an exit even when there is one (the dialect accepts several).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        allow_another_exit: Option<bool>,
    },
    /// Removes a node, every edge touching it and the attributes naming it.
    RemoveNode {
        /// Id of the node to remove.
        id: String,
    },
    /// Renames a node everywhere: its statements, its edges, and every attribute value that
    /// names it (`retry_target`, `fallback_retry_target`, `#id` stylesheet selectors).
    RenameNode {
        /// The node's id now.
        from: String,
        /// Letters, digits and `_`, not starting with a digit, no DOT keyword, not used yet.
        to: String,
    },
    /// Adds an edge `from -> to`. Refused into the start, out of an exit, and when an edge
    /// without attributes of its own already joins the two.
    AddEdge {
        /// Id of the existing node the edge leaves.
        from: String,
        /// Id of the existing node the edge enters.
        to: String,
        /// `(key, value)` pairs written in this order; values unquoted.
        #[serde(default)]
        attrs: Vec<(String, String)>,
    },
    /// Removes one edge.
    RemoveEdge {
        /// The edge to change; it must be in the workflow.
        edge: EdgeKey,
    },
    /// Deletes a selection: its edges, then its nodes (with their edges and the attributes
    /// naming them). Refused when it would remove the only start or the last exit.
    Delete {
        /// Ids of the nodes to delete.
        #[serde(default)]
        nodes: Vec<String>,
        /// Edges (those touching a deleted node go with it).
        #[serde(default)]
        edges: Vec<EdgeKey>,
    },
}

/// What an edit comes down to: value rewrites (against the current text), then text edits.
#[derive(Debug, Default)]
struct Plan {
    splices: Vec<ValueSplice>,
    edits: Vec<Edit>,
}

impl Plan {
    fn of(edits: Vec<Edit>) -> Self {
        Plan {
            splices: Vec::new(),
            edits,
        }
    }
}

/// Applies one edit to `doc`. On error `doc` is unchanged.
pub fn apply_edit(doc: &mut Document, edit: &WorkflowEdit) -> Result<(), WorkflowEditError> {
    if doc.error_count() > 0 {
        return Err(WorkflowEditError::HasSyntaxErrors {
            count: doc.error_count(),
        });
    }
    let graph = doc.graph().ok_or(WorkflowEditError::NoGraph)?;
    let source = doc.text();
    let lines = LineIndex::new(&source);
    let built = build::build(graph, &source, &lines, Path::new(""), &MemoryFiles::new());
    let current = Current {
        source: &source,
        built: &built,
    };
    let plan = decide(&current, edit)?;
    let mut next = doc.clone();
    next.splice_values(&plan.splices)?;
    for step in &plan.edits {
        next.apply(step)?;
    }
    *doc = next;
    Ok(())
}

/// Applies `edits` in order to `source`: the new text, or the index of the edit that was
/// refused and why (nothing is applied then).
pub fn edit_source(
    source: &str,
    edits: &[WorkflowEdit],
) -> Result<String, (usize, WorkflowEditError)> {
    let mut doc = heddle_dot::parse(source).document;
    for (n, edit) in edits.iter().enumerate() {
        apply_edit(&mut doc, edit).map_err(|e| (n, e))?;
    }
    Ok(doc.text())
}

/// The document an edit is decided against.
pub(crate) struct Current<'a, 'g> {
    source: &'a str,
    built: &'a Built<'g>,
}

impl Current<'_, '_> {
    fn node(&self, id: &str) -> Result<&crate::Node, WorkflowEditError> {
        self.built
            .workflow
            .nodes
            .iter()
            .find(|n| n.id == id)
            .ok_or_else(|| WorkflowEditError::NodeNotFound {
                node: id.to_owned(),
            })
    }

    fn edge(&self, key: &EdgeKey) -> Result<&crate::Edge, WorkflowEditError> {
        self.built
            .workflow
            .edges
            .iter()
            .find(|e| e.from == key.from && e.to == key.to && e.occurrence == key.occurrence)
            .ok_or_else(|| WorkflowEditError::EdgeNotFound { edge: key.clone() })
    }
}

fn decide(current: &Current, edit: &WorkflowEdit) -> Result<Plan, WorkflowEditError> {
    use WorkflowEdit as W;
    Ok(match edit {
        W::SetGraphAttr { .. }
        | W::RemoveGraphAttr { .. }
        | W::SetNodeAttr { .. }
        | W::RemoveNodeAttr { .. }
        | W::SetEdgeAttr { .. }
        | W::RemoveEdgeAttr { .. } => Plan::of(attrs::decide(current, edit)?),
        W::AddNode {
            id,
            kind,
            label,
            attrs,
            allow_another_exit,
        } => Plan::of(nodes::add(
            current,
            &nodes::NewNode {
                id: id.as_deref(),
                kind: *kind,
                label: label.as_deref(),
                attrs,
                allow_another_exit: allow_another_exit.unwrap_or(false),
            },
        )?),
        W::RemoveNode { id } => {
            Plan::of(selection::delete(current, std::slice::from_ref(id), &[])?)
        }
        W::Delete { nodes, edges } => Plan::of(selection::delete(current, nodes, edges)?),
        W::RenameNode { from, to } => nodes::rename(current, from, to)?,
        W::AddEdge { from, to, attrs } => Plan::of(selection::connect(current, from, to, attrs)?),
        W::RemoveEdge { edge } => {
            Plan::of(selection::delete(current, &[], std::slice::from_ref(edge))?)
        }
    })
}
