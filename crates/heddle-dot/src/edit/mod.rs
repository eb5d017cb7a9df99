//! Minimal-edit operations on a [`crate::Document`].
//!
//! Each edit changes only the text it must: the rest of the file (comments, blank lines,
//! statement order, quoting style) stays byte-identical. Values Heddle writes are quoted
//! whenever Graphviz would need quotes (see [`crate::quote_if_needed`]).

mod attrs;
mod chain;
mod edges;
pub(crate) mod find;
mod nodes;
mod text;
mod values;

use serde::{Deserialize, Serialize};

use crate::token::TokenKind;
use crate::{Document, Graph, Stmt};
use text::{Src, TextEdit, render};
pub use values::ValueSplice;

/// Identifies one edge `from -> to`. `occurrence` counts from 0 among edges with the same
/// endpoints, in document order (an edge chain `a -> b -> c` defines `a->b` and `b->c`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EdgeKey {
    /// Id of the node the edge leaves (left of `->`).
    pub from: String,
    /// Id of the node the edge enters (right of `->`).
    pub to: String,
    /// Which of several parallel `from -> to` edges, in document order.
    #[serde(default)]
    pub occurrence: usize,
}

/// One edit. Serializable so the UI can send edits over the API.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Edit {
    /// Set (add or replace) a graph attribute.
    SetGraphAttr {
        /// Attribute key as written without quotes, e.g. `label`.
        key: String,
        /// New value (unquoted; the printer quotes it if needed).
        value: String,
    },
    /// Remove a graph attribute wherever the top level sets it.
    RemoveGraphAttr {
        /// Attribute key as written without quotes, e.g. `label`.
        key: String,
    },
    /// Set an attribute on a node's own statement (added to its first node statement, or a
    /// new node statement if the node only appears in edges).
    SetNodeAttr {
        /// Id of a node already in the graph.
        node: String,
        /// Attribute key as written without quotes, e.g. `label`.
        key: String,
        /// New value, unquoted; quoted on writing only if DOT needs it.
        value: String,
    },
    /// Remove an attribute from every statement of the node.
    RemoveNodeAttr {
        /// Id of a node already in the graph.
        node: String,
        /// Attribute key as written without quotes, e.g. `label`.
        key: String,
    },
    /// Set an attribute on one edge. An edge inside a chain is split out of the chain first
    /// only when that is unavoidable.
    SetEdgeAttr {
        /// The edge to change; it must be in the graph.
        edge: EdgeKey,
        /// Attribute key as written without quotes, e.g. `label`.
        key: String,
        /// New value, unquoted; quoted on writing only if DOT needs it.
        value: String,
    },
    /// Remove an attribute from one edge.
    RemoveEdgeAttr {
        /// The edge to change; it must be in the graph.
        edge: EdgeKey,
        /// Attribute key as written without quotes, e.g. `label`.
        key: String,
    },
    /// Add a node statement (after the last node statement of the top level, in its
    /// indentation).
    AddNode {
        /// Letters, digits and `_`, not starting with a digit, not used yet.
        id: String,
        /// `(key, value)` pairs written in this order; values unquoted.
        attrs: Vec<(String, String)>,
    },
    /// Remove a node's statements and every edge touching it.
    RemoveNode {
        /// Id of a node already in the graph.
        id: String,
    },
    /// Rename a node everywhere it appears (its statements and its edges).
    RenameNode {
        /// The node's id now.
        from: String,
        /// Letters, digits and `_`, not starting with a digit, not used yet.
        to: String,
    },
    /// Add an edge statement `from -> to [attrs]`.
    AddEdge {
        /// Id of the existing node the edge leaves.
        from: String,
        /// Id of the existing node the edge enters.
        to: String,
        /// `(key, value)` pairs written in this order; values unquoted.
        attrs: Vec<(String, String)>,
    },
    /// Remove one edge (splitting a chain if needed).
    RemoveEdge {
        /// The edge to change; it must be in the graph.
        edge: EdgeKey,
    },
}

/// Why an edit could not be applied. The document is unchanged when an edit fails.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The document has syntax errors; fix them before structured edits.
    #[error("the file has {count} syntax error(s); fix them before editing the graph")]
    HasSyntaxErrors {
        /// How many syntax errors the parse reported.
        count: usize,
    },
    /// No node has this id.
    #[error("no node `{0}` in the graph")]
    NodeNotFound(String),
    /// The graph has no edge with this key.
    #[error("no edge `{}` -> `{}` (occurrence {}) in the graph", .0.from, .0.to, .0.occurrence)]
    EdgeNotFound(EdgeKey),
    /// Adding or renaming to an id already used.
    #[error("a node `{0}` already exists")]
    NodeExists(String),
    /// An id or key that cannot be written as a DOT identifier.
    #[error("`{0}` is not a valid node id: use letters, digits and `_`, not starting with a digit")]
    InvalidId(String),
    /// The edit cannot be expressed by a minimal change of this file, e.g. removing one of
    /// the edges that `a -> {b c}` defines. (Messages starting with `internal:` report a
    /// bug: the edit would have produced invalid DOT and was refused.)
    #[error("unsupported edit: {0}")]
    Unsupported(String),
}

/// Computes the new text for `edit`, or `None` when nothing changes.
pub(crate) fn plan(doc: &Document, edit: &Edit) -> Result<Option<String>, EditError> {
    let graph = doc
        .graph()
        .ok_or_else(|| EditError::Unsupported("cannot edit a file without a graph".to_owned()))?;
    let ctx = Ctx::new(doc, graph);
    let edits = match edit {
        Edit::SetGraphAttr { key, value } => {
            check_key(key)?;
            attrs::set_graph_attr(&ctx, key, value)
        }
        Edit::RemoveGraphAttr { key } => attrs::remove_graph_attr(&ctx, key),
        Edit::SetNodeAttr { node, key, value } => nodes::set_attr(&ctx, node, key, value)?,
        Edit::RemoveNodeAttr { node, key } => nodes::remove_attr(&ctx, node, key)?,
        Edit::AddNode { id, attrs } => nodes::add(&ctx, id, attrs)?,
        Edit::RemoveNode { id } => nodes::remove(&ctx, id)?,
        Edit::RenameNode { from, to } => nodes::rename(&ctx, from, to)?,
        Edit::AddEdge { from, to, attrs } => edges::add(&ctx, from, to, attrs)?,
        Edit::SetEdgeAttr { edge, key, value } => {
            check_key(key)?;
            return edges::set_attr(&ctx, edge, key, Some(value));
        }
        Edit::RemoveEdgeAttr { edge, key } => return edges::set_attr(&ctx, edge, key, None),
        Edit::RemoveEdge { edge } => edges::remove(&ctx, edge)?,
    };
    ctx.finish(&edits)
}

/// Computes the new text for `splices`, or `None` when there are none.
pub(crate) fn plan_splices(
    doc: &Document,
    splices: &[ValueSplice],
) -> Result<Option<String>, EditError> {
    let graph = doc
        .graph()
        .ok_or_else(|| EditError::Unsupported("cannot edit a file without a graph".to_owned()))?;
    let ctx = Ctx::new(doc, graph);
    let edits = values::plan(&graph.stmts, splices)?;
    ctx.finish(&edits)
}

/// Attribute keys must not be empty.
fn check_key(key: &str) -> Result<(), EditError> {
    if key.is_empty() {
        Err(EditError::InvalidId(key.to_owned()))
    } else {
        Ok(())
    }
}

/// What every edit works with: the text, its tokens and the graph being edited.
pub(crate) struct Ctx<'a> {
    pub src: Src<'a>,
    pub graph: &'a Graph,
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(doc: &'a Document, graph: &'a Graph) -> Self {
        Ctx {
            src: Src {
                text: doc.source(),
                toks: doc.tokens(),
            },
            graph,
        }
    }

    /// The new text with `edits` applied, or `None` when there are none.
    pub(crate) fn finish(&self, edits: &[TextEdit]) -> Result<Option<String>, EditError> {
        if edits.is_empty() {
            return Ok(None);
        }
        render(self.src.text, 0, self.src.text.len(), edits).map(Some)
    }

    /// Inserts a statement after `stmt`, in its indentation and `;` style.
    pub(crate) fn insert_after(&self, stmt: &Stmt, text: &str) -> TextEdit {
        let span = stmt.span();
        let end = self.src.with_semi(span.end);
        self.src
            .insert_after(span.start, end, text, end != span.end)
    }

    /// Inserts a statement at the start of the graph's body.
    pub(crate) fn insert_first(&self, text: &str) -> TextEdit {
        let open_end = self
            .src
            .find_kind(self.graph.span.start, TokenKind::LBrace)
            .map_or(self.graph.span.start, |t| t.end());
        let close = self.graph.span.end.saturating_sub(1);
        let first = self.graph.stmts.first().map(|s| {
            let span = s.span();
            (span.start, self.src.with_semi(span.end) != span.end)
        });
        self.src.insert_first(open_end, close, first, text)
    }

    /// Inserts a top-level statement after the last statement matching one of `prefer`
    /// (tried in order), or first in the body.
    pub(crate) fn insert_top(&self, prefer: &[fn(&Stmt) -> bool], text: &str) -> TextEdit {
        for matches in prefer {
            if let Some(stmt) = self.graph.stmts.iter().rev().find(|s| matches(s)) {
                return self.insert_after(stmt, text);
            }
        }
        self.insert_first(text)
    }
}
