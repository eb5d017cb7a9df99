//! Convenient, typed reads of the model.

use heddle_dot::EdgeKey;

use crate::{AttrEntry, Edge, HandlerKind, Node, Value, Workflow};

fn find<'a>(attrs: &'a [AttrEntry], canonical: &str) -> Option<&'a AttrEntry> {
    attrs.iter().find(|e| e.canonical == canonical)
}

/// Typed reads shared by graphs, nodes and edges.
pub trait Attrs {
    /// The effective attributes.
    fn attr_entries(&self) -> &[AttrEntry];

    /// The entry with canonical key `key` (`model`, also when written `llm_model`).
    fn attr(&self, key: &str) -> Option<&AttrEntry> {
        find(self.attr_entries(), key)
    }

    /// The decoded text of attribute `key`.
    fn attr_str(&self, key: &str) -> Option<&str> {
        self.attr(key).map(|e| e.raw.as_str())
    }

    /// Attribute `key` as an integer, when it is one.
    fn attr_int(&self, key: &str) -> Option<i64> {
        match self.attr(key)?.value {
            Value::Integer(n) => Some(n),
            _ => None,
        }
    }

    /// Attribute `key` as a boolean, when it is one.
    fn attr_bool(&self, key: &str) -> Option<bool> {
        match self.attr(key)?.value {
            Value::Boolean(b) => Some(b),
            _ => None,
        }
    }

    /// Attribute `key` as a duration in milliseconds, when it is one.
    fn attr_duration_ms(&self, key: &str) -> Option<u64> {
        match self.attr(key)?.value {
            Value::Duration(ms) => Some(ms),
            _ => None,
        }
    }
}

impl Attrs for Workflow {
    fn attr_entries(&self) -> &[AttrEntry] {
        &self.attrs
    }
}

impl Attrs for Node {
    fn attr_entries(&self) -> &[AttrEntry] {
        &self.attrs
    }
}

impl Attrs for Edge {
    fn attr_entries(&self) -> &[AttrEntry] {
        &self.attrs
    }
}

impl Workflow {
    /// The node with id `id` (a linear search; use [`crate::Adjacency`] in loops).
    pub fn node(&self, id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// The start nodes (a valid workflow has exactly one).
    pub fn start_nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.kind == HandlerKind::Start)
    }

    /// The exit nodes.
    pub fn exit_nodes(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.kind == HandlerKind::Exit)
    }

    /// The edges leaving `id`, in document order (a linear search).
    pub fn outgoing<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a Edge> {
        self.edges.iter().filter(move |e| e.from == id)
    }

    /// The edge identified by `key`.
    pub fn edge(&self, key: &EdgeKey) -> Option<&Edge> {
        self.edges
            .iter()
            .find(|e| e.from == key.from && e.to == key.to && e.occurrence == key.occurrence)
    }
}

impl Edge {
    /// This edge's key for edits and the UI.
    pub fn key(&self) -> EdgeKey {
        EdgeKey {
            from: self.from.clone(),
            to: self.to.clone(),
            occurrence: self.occurrence,
        }
    }
}
