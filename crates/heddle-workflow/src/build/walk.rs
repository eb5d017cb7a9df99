//! Walking statements in document order with scoped defaults.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use heddle_dot::{Attr, AttrTarget, EdgeKey, EdgeOperand, Graph, NodeRef, Span, Stmt, Subgraph};

use super::entries::{is_condition, set_entry};
use super::{Built, Occurrence, Owner};
use crate::catalog::Scope;
use crate::condition::Condition;
use crate::files::FileSource;
use crate::locate::LineIndex;
use crate::{AttrEntry, AttrOrigin, Edge};

/// Subgraphs nested deeper than this are not entered (their content is ignored).
pub(crate) const MAX_NESTING: usize = 100;

/// A node while the walk is under way.
pub(super) struct NodeDraft {
    pub id: String,
    pub attrs: Vec<AttrEntry>,
    pub subgraph: Option<usize>,
    pub member_of: Vec<usize>,
    pub span: Span,
    pub id_span: Span,
    pub declared: bool,
}

/// A subgraph while the walk is under way.
pub(super) struct SubgraphDraft {
    pub id: Option<String>,
    pub attrs: Vec<AttrEntry>,
    pub parent: Option<usize>,
    pub nodes: Vec<usize>,
    pub members: HashSet<usize>,
    pub span: Span,
}

/// The defaults in force in one (sub)graph body.
#[derive(Clone, Default)]
struct Frame {
    node_defaults: Vec<AttrEntry>,
    edge_defaults: Vec<AttrEntry>,
    /// Open subgraphs, outermost first.
    ancestors: Vec<usize>,
}

pub(crate) struct Builder<'g, 's> {
    pub(super) source: &'s str,
    pub(super) lines: &'s LineIndex,
    pub(super) path: &'s Path,
    pub(super) files: &'s dyn FileSource,
    pub(super) graph_name: String,
    pub(super) graph_attrs: Vec<AttrEntry>,
    pub(super) nodes: Vec<NodeDraft>,
    node_index: HashMap<String, usize>,
    pub(super) edges: Vec<Edge>,
    edge_counts: HashMap<(usize, usize), usize>,
    pub(super) subgraphs: Vec<SubgraphDraft>,
    pub(super) occurrences: Vec<Occurrence<'g>>,
    stmt_counter: usize,
    pub(super) too_deep: Option<Span>,
}

impl<'g, 's> Builder<'g, 's> {
    pub(super) fn new(
        source: &'s str,
        lines: &'s LineIndex,
        path: &'s Path,
        files: &'s dyn FileSource,
        graph: &Graph,
    ) -> Self {
        Builder {
            source,
            lines,
            path,
            files,
            graph_name: graph.id.as_ref().map(|id| id.unescaped()).unwrap_or_default(),
            graph_attrs: Vec::new(),
            nodes: Vec::new(),
            node_index: HashMap::new(),
            edges: Vec::new(),
            edge_counts: HashMap::new(),
            subgraphs: Vec::new(),
            occurrences: Vec::new(),
            stmt_counter: 0,
            too_deep: None,
        }
    }

    pub(super) fn run(&mut self, graph: &'g Graph) {
        let mut frame = Frame::default();
        self.walk(&graph.stmts, &mut frame);
    }

    /// Per node: declared by a node statement, and the span of its id there.
    pub(super) fn declarations(&self) -> (Vec<bool>, Vec<Span>) {
        self.nodes.iter().map(|n| (n.declared, n.id_span)).unzip()
    }

    pub(super) fn into_built(
        self,
        workflow: crate::Workflow,
        (declared, id_spans): (Vec<bool>, Vec<Span>),
    ) -> Built<'g> {
        Built {
            workflow,
            declared,
            id_spans,
            occurrences: self.occurrences,
            too_deep: self.too_deep,
        }
    }

    fn walk(&mut self, stmts: &'g [Stmt], frame: &mut Frame) {
        for stmt in stmts {
            match stmt {
                Stmt::Node(node) => {
                    let index = self.touch(&node.node, frame);
                    if !self.nodes[index].declared {
                        self.nodes[index].declared = true;
                        self.nodes[index].span = node.span;
                        self.nodes[index].id_span = node.node.span;
                    }
                    let owner = Owner::Node(self.nodes[index].id.clone());
                    for entry in self.record(Scope::Node, owner, &node.attrs) {
                        set_entry(&mut self.nodes[index].attrs, entry);
                    }
                }
                Stmt::Edge(edge) => self.edge_stmt(edge, frame),
                Stmt::Attr(attr_stmt) => match attr_stmt.target {
                    AttrTarget::Graph => self.graph_attrs(&attr_stmt.attrs, frame),
                    AttrTarget::Node => {
                        for entry in self.record(Scope::Node, Owner::NodeDefaults, &attr_stmt.attrs) {
                            set_entry(&mut frame.node_defaults, default_origin(entry));
                        }
                    }
                    AttrTarget::Edge => {
                        for entry in self.record(Scope::Edge, Owner::EdgeDefaults, &attr_stmt.attrs) {
                            set_entry(&mut frame.edge_defaults, default_origin(entry));
                        }
                    }
                },
                Stmt::Assign(attr) => self.graph_attrs(std::slice::from_ref(attr), frame),
                Stmt::Subgraph(subgraph) => {
                    self.subgraph(subgraph, frame);
                }
            }
        }
    }

    fn graph_attrs(&mut self, attrs: &'g [Attr], frame: &Frame) {
        match frame.ancestors.last() {
            None => {
                for entry in self.record(Scope::Graph, Owner::Graph, attrs) {
                    set_entry(&mut self.graph_attrs, entry);
                }
            }
            Some(&index) => {
                for entry in self.record(Scope::Subgraph, Owner::Subgraph(index), attrs) {
                    set_entry(&mut self.subgraphs[index].attrs, entry);
                }
            }
        }
    }

    /// Walks a subgraph in a child scope; returns its index (`None` when nested too deep).
    fn subgraph(&mut self, subgraph: &'g Subgraph, frame: &Frame) -> Option<usize> {
        if frame.ancestors.len() >= MAX_NESTING {
            self.too_deep.get_or_insert(subgraph.span);
            return None;
        }
        let index = self.subgraphs.len();
        self.subgraphs.push(SubgraphDraft {
            id: subgraph.id.as_ref().map(|id| id.unescaped()),
            attrs: Vec::new(),
            parent: frame.ancestors.last().copied(),
            nodes: Vec::new(),
            members: HashSet::new(),
            span: subgraph.span,
        });
        let mut inner = frame.clone();
        inner.ancestors.push(index);
        self.walk(&subgraph.stmts, &mut inner);
        Some(index)
    }

    /// Types the attributes of one statement and records them as occurrences.
    fn record(&mut self, scope: Scope, owner: Owner, attrs: &'g [Attr]) -> Vec<AttrEntry> {
        self.stmt_counter += 1;
        let mut entries = Vec::with_capacity(attrs.len());
        for attr in attrs {
            let entry = self.entry(scope, attr, AttrOrigin::Explicit);
            let condition = is_condition(scope, &entry.key)
                .then(|| entry.raw.trim())
                .filter(|text| !text.is_empty())
                .map(Condition::parse);
            self.occurrences.push(Occurrence {
                scope,
                owner: owner.clone(),
                attr,
                stmt: self.stmt_counter,
                entry: entry.clone(),
                condition,
            });
            entries.push(entry);
        }
        entries
    }

    /// The node's index, creating it (with the defaults in scope) on first appearance.
    fn touch(&mut self, node: &NodeRef, frame: &Frame) -> usize {
        let index = match self.node_index.get(node.id.value.as_str()) {
            Some(&index) => index,
            None => {
                let index = self.nodes.len();
                self.node_index.insert(node.id.value.clone(), index);
                self.nodes.push(NodeDraft {
                    id: node.id.value.clone(),
                    attrs: frame.node_defaults.clone(),
                    subgraph: frame.ancestors.last().copied(),
                    member_of: Vec::new(),
                    span: node.span,
                    id_span: node.span,
                    declared: false,
                });
                index
            }
        };
        for &sub in &frame.ancestors {
            if self.subgraphs[sub].members.insert(index) {
                self.subgraphs[sub].nodes.push(index);
                self.nodes[index].member_of.push(sub);
            }
        }
        index
    }

    fn edge_stmt(&mut self, edge: &'g heddle_dot::EdgeStmt, frame: &mut Frame) {
        let mut ends: Vec<Vec<usize>> = Vec::with_capacity(edge.operands.len());
        for operand in &edge.operands {
            match operand {
                EdgeOperand::Node(node) => ends.push(vec![self.touch(node, frame)]),
                EdgeOperand::Subgraph(subgraph) => {
                    let nodes = self
                        .subgraph(subgraph, frame)
                        .map(|i| self.subgraphs[i].nodes.clone())
                        .unwrap_or_default();
                    ends.push(nodes);
                }
            }
        }
        let mut explicit = Vec::new();
        let mut record_later = true;
        for pair in ends.windows(2) {
            for &from in &pair[0] {
                for &to in &pair[1] {
                    if record_later {
                        // Type the attributes once the first edge (the owner) exists.
                        record_later = false;
                        let key = self.edge_key(from, to, false);
                        explicit = self.record(Scope::Edge, Owner::Edge(Some(key)), &edge.attrs);
                    }
                    self.push_edge(from, to, frame, &explicit, edge.span);
                }
            }
        }
        if record_later {
            let _ = self.record(Scope::Edge, Owner::Edge(None), &edge.attrs);
        }
    }

    fn edge_key(&mut self, from: usize, to: usize, count: bool) -> EdgeKey {
        let counter = self.edge_counts.entry((from, to)).or_insert(0);
        let occurrence = *counter;
        if count {
            *counter += 1;
        }
        EdgeKey {
            from: self.nodes[from].id.clone(),
            to: self.nodes[to].id.clone(),
            occurrence,
        }
    }

    fn push_edge(&mut self, from: usize, to: usize, frame: &Frame, explicit: &[AttrEntry], span: Span) {
        let key = self.edge_key(from, to, true);
        let mut attrs = frame.edge_defaults.clone();
        for entry in explicit {
            set_entry(&mut attrs, entry.clone());
        }
        self.edges.push(Edge {
            from: key.from,
            to: key.to,
            occurrence: key.occurrence,
            label: None,
            condition: None,
            weight: 0,
            attrs,
            span,
            parsed_condition: None,
        });
    }
}

fn default_origin(mut entry: AttrEntry) -> AttrEntry {
    entry.origin = AttrOrigin::Default;
    entry
}
