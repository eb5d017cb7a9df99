//! Edges indexed by node, built once, so graph walks are linear.

use std::collections::HashMap;

use crate::Workflow;

/// Node positions and, per node, the positions of its outgoing and incoming edges.
#[derive(Debug, Clone, Default)]
pub struct Adjacency {
    ids: HashMap<String, usize>,
    outgoing: Vec<Vec<usize>>,
    incoming: Vec<Vec<usize>>,
}

impl Adjacency {
    /// Indexes `workflow` (O(nodes + edges)).
    pub fn new(workflow: &Workflow) -> Self {
        let ids: HashMap<String, usize> = workflow
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id.clone(), i))
            .collect();
        let mut outgoing = vec![Vec::new(); workflow.nodes.len()];
        let mut incoming = vec![Vec::new(); workflow.nodes.len()];
        for (e, edge) in workflow.edges.iter().enumerate() {
            if let Some(&from) = ids.get(&edge.from) {
                outgoing[from].push(e);
            }
            if let Some(&to) = ids.get(&edge.to) {
                incoming[to].push(e);
            }
        }
        Adjacency {
            ids,
            outgoing,
            incoming,
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

    /// Positions in [`Workflow::edges`] of the edges entering node `node` (a position).
    pub fn incoming(&self, node: usize) -> &[usize] {
        self.incoming.get(node).map_or(&[], Vec::as_slice)
    }
}
