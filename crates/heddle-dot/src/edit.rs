//! Minimal-edit operations on a [`crate::Document`].
//!
//! Each edit changes only the text it must: the rest of the file (comments, blank lines,
//! statement order, quoting style) stays byte-identical. Values Heddle writes are quoted
//! whenever Graphviz would need quotes (see [`crate::quote_if_needed`]).

use serde::{Deserialize, Serialize};

/// Identifies one edge `from -> to`. `occurrence` counts from 0 among edges with the same
/// endpoints, in document order (an edge chain `a -> b -> c` defines `a->b` and `b->c`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct EdgeKey {
    /// Tail node id.
    pub from: String,
    /// Head node id.
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
        /// Attribute key.
        key: String,
        /// New value (unquoted; the printer quotes it if needed).
        value: String,
    },
    /// Remove a graph attribute wherever the top level sets it.
    RemoveGraphAttr {
        /// Attribute key.
        key: String,
    },
    /// Set an attribute on a node's own statement (added to its first node statement, or a
    /// new node statement if the node only appears in edges).
    SetNodeAttr {
        /// Node id.
        node: String,
        /// Attribute key.
        key: String,
        /// New value.
        value: String,
    },
    /// Remove an attribute from every statement of the node.
    RemoveNodeAttr {
        /// Node id.
        node: String,
        /// Attribute key.
        key: String,
    },
    /// Set an attribute on one edge. An edge inside a chain is split out of the chain first
    /// only when that is unavoidable.
    SetEdgeAttr {
        /// Which edge.
        edge: EdgeKey,
        /// Attribute key.
        key: String,
        /// New value.
        value: String,
    },
    /// Remove an attribute from one edge.
    RemoveEdgeAttr {
        /// Which edge.
        edge: EdgeKey,
        /// Attribute key.
        key: String,
    },
    /// Add a node statement (after the last node statement of the top level, in its
    /// indentation).
    AddNode {
        /// New node id.
        id: String,
        /// Attributes in order.
        attrs: Vec<(String, String)>,
    },
    /// Remove a node's statements and every edge touching it.
    RemoveNode {
        /// Node id.
        id: String,
    },
    /// Rename a node everywhere it appears (its statements and its edges).
    RenameNode {
        /// Current id.
        from: String,
        /// New id.
        to: String,
    },
    /// Add an edge statement `from -> to [attrs]`.
    AddEdge {
        /// Tail node id.
        from: String,
        /// Head node id.
        to: String,
        /// Attributes in order.
        attrs: Vec<(String, String)>,
    },
    /// Remove one edge (splitting a chain if needed).
    RemoveEdge {
        /// Which edge.
        edge: EdgeKey,
    },
}

/// Why an edit could not be applied. The document is unchanged when an edit fails.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The document has syntax errors; fix them before structured edits.
    #[error("the file has {count} syntax error(s); fix them before editing the graph")]
    HasSyntaxErrors {
        /// Number of parse errors.
        count: usize,
    },
    /// No such node.
    #[error("no node `{0}` in the graph")]
    NodeNotFound(String),
    /// No such edge.
    #[error("no edge `{}` -> `{}` (occurrence {}) in the graph", .0.from, .0.to, .0.occurrence)]
    EdgeNotFound(EdgeKey),
    /// Adding or renaming to an id already used.
    #[error("a node `{0}` already exists")]
    NodeExists(String),
    /// An id or key that cannot be written as a DOT identifier.
    #[error("`{0}` is not a valid node id: use letters, digits and `_`, not starting with a digit")]
    InvalidId(String),
}
