//! Why a workflow edit was refused: a typed reason naming the node, edge or attribute.

use heddle_dot::EdgeKey;

use crate::HandlerKind;

/// Why a [`super::WorkflowEdit`] was refused. The document is unchanged when an edit fails.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorkflowEditError {
    /// The text does not parse; structured edits need a parsed graph.
    #[error("the file has {count} syntax error(s); fix them before editing the graph")]
    HasSyntaxErrors {
        /// How many syntax errors the parse reported.
        count: usize,
    },
    /// The file holds no graph to edit.
    #[error("the file holds no graph to edit")]
    NoGraph,
    /// The edit names a node the workflow does not have.
    #[error("there is no node `{node}` in the workflow")]
    NodeNotFound {
        /// The id asked for.
        node: String,
    },
    /// The edit names an edge the workflow does not have.
    #[error("there is no edge `{} -> {}` (#{}) in the workflow", .edge.from, .edge.to, .edge.occurrence)]
    EdgeNotFound {
        /// The edge asked for.
        edge: EdgeKey,
    },
    /// A node id outside `[A-Za-z_][A-Za-z0-9_]*` (node ids become file names).
    #[error(
        "`{node}` is not a valid node id: use letters, digits and `_`, not starting with a digit"
    )]
    InvalidId {
        /// The id asked for.
        node: String,
    },
    /// A DOT keyword, which cannot be a bare node id.
    #[error("`{node}` is a DOT keyword and cannot be a node id")]
    ReservedId {
        /// The id asked for.
        node: String,
    },
    /// Another node has the id, or one differing only in case (they would share files).
    #[error("a node `{existing}` already exists{}", if .existing == .node { "" } else { " (ids that differ only in case would share files)" })]
    IdTaken {
        /// The id asked for.
        node: String,
        /// The node that has it.
        existing: String,
    },
    /// A second start node (the dialect wants exactly one).
    #[error("the workflow already starts at `{start}`; it can have only one start")]
    StartExists {
        /// Id of the node that already starts the workflow.
        start: String,
    },
    /// A second exit when the edit did not allow one.
    #[error("the workflow already has an exit, `{exit}`")]
    ExitExists {
        /// Id of an exit node the workflow already has.
        exit: String,
    },
    /// Deleting the only start node.
    #[error("`{node}` is the only start node; a workflow needs one")]
    OnlyStart {
        /// Id of the start node the edit would delete.
        node: String,
    },
    /// Deleting the last exit node.
    #[error("`{node}` is the last exit node; a workflow needs one")]
    LastExit {
        /// Id of the exit node the edit would delete.
        node: String,
    },
    /// An edge into the start node.
    #[error("`{node}` is the start node; no edge may lead into it")]
    IntoStart {
        /// Id of the start node the new edge would enter.
        node: String,
    },
    /// An edge out of an exit node.
    #[error("`{node}` is an exit; a run ends there, so no edge may leave it")]
    OutOfExit {
        /// Id of the exit node the new edge would leave.
        node: String,
    },
    /// An edge exactly like an existing one (no attributes of its own, same endpoints).
    #[error("there is already an edge `{from} -> {to}`")]
    DuplicateEdge {
        /// Id of the node the edge leaves.
        from: String,
        /// Id of the node the edge enters.
        to: String,
    },
    /// A rename that would change what the node does (`start`, `exit`, `end` imply kinds).
    #[error("renaming `{node}` to `{to}` would make it a {} node; give it an explicit shape or type first", .kind.type_name())]
    KindChange {
        /// The node's id before the rename.
        node: String,
        /// The id asked for.
        to: String,
        /// The kind the new id would give it.
        kind: HandlerKind,
    },
    /// A node named by an attribute that no edit can remove on its own (a default or an
    /// edge attribute): deleting the node would leave the reference dangling.
    #[error("`{node}` is named by `{key}` in {place}; change that first")]
    StillNamed {
        /// The node being deleted.
        node: String,
        /// The attribute whose value names the node, e.g. `retry_target`.
        key: String,
        /// Where that attribute is written.
        place: &'static str,
    },
    /// An empty attribute key.
    #[error("an attribute key cannot be empty")]
    EmptyKey,
    /// The text-level edit failed.
    #[error(transparent)]
    Dot(#[from] heddle_dot::EditError),
}

impl WorkflowEditError {
    /// The node the refusal is about, when there is one (for a taken id, the node that
    /// has it).
    pub fn node(&self) -> Option<&str> {
        use WorkflowEditError as E;
        match self {
            E::NodeNotFound { node }
            | E::InvalidId { node }
            | E::ReservedId { node }
            | E::OnlyStart { node }
            | E::LastExit { node }
            | E::IntoStart { node }
            | E::OutOfExit { node }
            | E::KindChange { node, .. }
            | E::StillNamed { node, .. } => Some(node),
            E::IdTaken { existing, .. } => Some(existing),
            E::StartExists { start } => Some(start),
            E::ExitExists { exit } => Some(exit),
            E::DuplicateEdge { from, .. } => Some(from),
            E::EdgeNotFound { edge } => Some(&edge.from),
            E::HasSyntaxErrors { .. } | E::NoGraph | E::EmptyKey | E::Dot(_) => None,
        }
    }
}
