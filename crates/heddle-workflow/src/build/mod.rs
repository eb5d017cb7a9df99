//! Building the typed [`Workflow`] from a parsed DOT graph.
//!
//! Graphviz semantics: a node gets the `node [..]` defaults in scope where it first appears
//! (a node statement or an edge); later node statements add to its attributes. An edge gets
//! the `edge [..]` defaults in scope at its statement. Defaults set inside a subgraph stay
//! inside it. Subgraph operands of an edge stand for every node inside them.

mod entries;
mod finish;
mod walk;

pub use finish::{class_from_label, split_classes};

use std::path::Path;

use heddle_dot::{Attr, EdgeKey, Graph};

pub(crate) use walk::MAX_NESTING;

use crate::catalog::Scope;
use crate::condition::{Condition, ConditionError};
use crate::files::FileSource;
use crate::locate::LineIndex;
use crate::{AttrEntry, Workflow};

/// What an attribute occurrence belongs to.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Owner {
    /// The top-level graph.
    Graph,
    /// A subgraph (index into [`Workflow::subgraphs`]).
    Subgraph(usize),
    /// `node [..]` defaults.
    NodeDefaults,
    /// `edge [..]` defaults.
    EdgeDefaults,
    /// A node statement.
    Node(String),
    /// An edge statement; the first edge it made, if any.
    Edge(Option<EdgeKey>),
}

/// One `key=value` as written in the file, typed for its scope.
#[derive(Debug, Clone)]
pub(crate) struct Occurrence<'g> {
    /// Where it is written.
    pub scope: Scope,
    /// What it belongs to.
    pub owner: Owner,
    /// The syntax.
    pub attr: &'g Attr,
    /// Counts statements: occurrences in the same attribute list share it.
    pub stmt: usize,
    /// The typed entry (file references resolved).
    pub entry: AttrEntry,
    /// For `condition`-typed attributes, the parse result.
    pub condition: Option<Result<Condition, ConditionError>>,
}

/// The model plus what validation needs beyond it.
pub(crate) struct Built<'g> {
    /// The model.
    pub workflow: Workflow,
    /// Every attribute as written.
    pub occurrences: Vec<Occurrence<'g>>,
    /// Per node (same order as `workflow.nodes`): declared by a node statement.
    pub declared: Vec<bool>,
    /// Per node: the id in its first node statement (else its first edge), for carets.
    pub id_spans: Vec<heddle_dot::Span>,
    /// The deepest subgraph nesting that was cut off, if any (see [`walk::MAX_NESTING`]).
    pub too_deep: Option<heddle_dot::Span>,
}

/// Builds the model of `graph` (parsed from `source`, the file at `path`).
pub(crate) fn build<'g>(
    graph: &'g Graph,
    source: &str,
    path: &Path,
    files: &dyn FileSource,
) -> Built<'g> {
    let lines = LineIndex::new(source);
    let mut builder = walk::Builder::new(source, &lines, path, files, graph);
    builder.run(graph);
    builder.finish()
}
