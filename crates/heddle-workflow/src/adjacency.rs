//! Edges indexed by node, built once, so graph walks are linear.

use crate::Workflow;
use crate::hash::FxHashMap;

/// Node positions and, per node, the positions of its outgoing and incoming edges. Borrows
/// the workflow's ids.
#[derive(Debug, Clone, Default)]
pub struct Adjacency<'w> {
    ids: FxHashMap<&'w str, usize>,
    outgoing: Vec<Vec<usize>>,
    incoming: Vec<Vec<usize>>,
    /// Per edge: positions of its tail and head nodes.
    ends: Vec<(usize, usize)>,
}

impl<'w> Adjacency<'w> {
    /// Indexes `workflow` (O(nodes + edges)).
    pub fn new(workflow: &'w Workflow) -> Self {
        let mut ids: FxHashMap<&'w str, usize> = FxHashMap::default();
        ids.reserve(workflow.nodes.len());
        for (i, node) in workflow.nodes.iter().enumerate() {
            ids.entry(node.id.as_str()).or_insert(i);
        }
        let mut outgoing = vec![Vec::new(); workflow.nodes.len()];
        let mut incoming = vec![Vec::new(); workflow.nodes.len()];
        let mut ends = Vec::with_capacity(workflow.edges.len());
        for (e, edge) in workflow.edges.iter().enumerate() {
            // Every edge endpoint is a node of the model (edges create their nodes).
            let from = ids.get(edge.from.as_str()).copied().unwrap_or(usize::MAX);
            let to = ids.get(edge.to.as_str()).copied().unwrap_or(usize::MAX);
            if let Some(list) = outgoing.get_mut(from) {
                list.push(e);
            }
            if let Some(list) = incoming.get_mut(to) {
                list.push(e);
            }
            ends.push((from, to));
        }
        Adjacency {
            ids,
            outgoing,
            incoming,
            ends,
        }
    }

    /// The position of node `id` in [`Workflow::nodes`].
    pub fn node(&self, id: &str) -> Option<usize> {
        self.ids.get(id).copied()
    }

    /// Positions in [`Workflow::edges`] of the edges leaving node `node` (a position).
    pub fn outgoing(&self, node: usize) -> &[usize] {
        self.outgoing.get(node).map_or(&[], Vec::as_slice)
    }

    /// The positions of edge `edge`'s tail and head nodes.
    pub fn ends(&self, edge: usize) -> Option<(usize, usize)> {
        self.ends
            .get(edge)
            .copied()
            .filter(|(from, to)| *from != usize::MAX && *to != usize::MAX)
    }

    /// Positions in [`Workflow::edges`] of the edges entering node `node` (a position).
    pub fn incoming(&self, node: usize) -> &[usize] {
        self.incoming.get(node).map_or(&[], Vec::as_slice)
    }
}
