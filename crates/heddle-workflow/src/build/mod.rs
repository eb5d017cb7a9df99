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

use std::borrow::Cow;

use heddle_dot::{Attr, Graph};

pub(crate) use walk::MAX_NESTING;

use crate::Workflow;
use crate::catalog::{AttrSpec, Scope};
use crate::condition::{Condition, ConditionError};
use crate::files::FileSource;
use crate::locate::LineIndex;

/// What an attribute occurrence belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Owner {
    /// The top-level graph.
    Graph,
    /// A subgraph (index into [`Workflow::subgraphs`]).
    Subgraph(usize),
    /// `node [..]` defaults.
    NodeDefaults,
    /// `edge [..]` defaults.
    EdgeDefaults,
    /// A node statement (index into [`Workflow::nodes`]).
    Node(usize),
    /// An edge statement: the first edge it made (index into [`Workflow::edges`]), if any.
    Edge(Option<usize>),
}

/// What the typed value of an occurrence tells validation.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Typed {
    /// Fits its type (or the attribute is unknown).
    Valid,
    /// Does not fit its type.
    Invalid,
    /// A file reference (resolved when the file exists).
    File {
        /// The path as written, without `@`.
        path: String,
        /// The resolved path; `None` when the file does not exist.
        resolved: Option<String>,
    },
}

/// One `key=value` as written in the file, with what building learnt about it. Kept light:
/// the text is read from the syntax tree when a rule needs it.
#[derive(Debug, Clone)]
pub(crate) struct Occurrence<'g> {
    /// Where it is written.
    pub scope: Scope,
    /// What it belongs to.
    pub owner: Owner,
    /// The `key=value` in the syntax tree.
    pub attr: &'g Attr,
    /// Counts statements: occurrences in the same attribute list share it.
    pub stmt: usize,
    /// The catalog entry, when the key is known in its scope.
    pub spec: Option<&'static AttrSpec>,
    /// Whether the value fits.
    pub typed: Typed,
    /// For `condition`-typed attributes, the parse result.
    pub condition: Option<Result<Condition, ConditionError>>,
}

impl Occurrence<'_> {
    /// The key as written.
    pub fn key(&self) -> Cow<'_, str> {
        decoded(&self.attr.key)
    }

    /// The value as written (decoded).
    pub fn raw(&self) -> Cow<'_, str> {
        decoded(&self.attr.value)
    }

    /// Heddle's name for the key (the key itself when unknown).
    pub fn canonical(&self) -> &str {
        match self.spec {
            Some(spec) if !spec.name.ends_with('*') => spec.name,
            _ => &self.attr.key.value,
        }
    }
}

/// An id's dialect value, borrowed when it has no escapes.
pub(crate) fn decoded(id: &heddle_dot::Id) -> Cow<'_, str> {
    if id.kind == heddle_dot::IdKind::Quoted && id.value.contains('\\') {
        Cow::Owned(id.unescaped())
    } else {
        Cow::Borrowed(&id.value)
    }
}

/// The model plus what validation needs beyond it.
pub(crate) struct Built<'g> {
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
    lines: &LineIndex,
    path: &Path,
    files: &dyn FileSource,
) -> Built<'g> {
    let mut builder = walk::Builder::new(source, lines, path, files, graph);
    builder.run(graph);
    builder.finish()
}
