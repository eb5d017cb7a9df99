//! Walking statements in document order with scoped defaults.

use crate::hash::{FxHashMap, FxHashSet};
use std::path::Path;
use std::rc::Rc;

use heddle_dot::{Attr, AttrTarget, EdgeOperand, Graph, NodeRef, Span, Stmt, Subgraph};

use super::entries::{set_entries, set_entry};
use super::{Built, Occurrence, Owner, Typed};
use crate::catalog::Scope;
use crate::condition::{Condition, ConditionError};
use crate::files::FileSource;
use crate::locate::LineIndex;
use crate::value::ValueType;
use crate::{AttrEntry, AttrOrigin, Edge, Value};

/// Subgraphs nested deeper than this are not entered (their content is ignored).
pub(crate) const MAX_NESTING: usize = 100;

/// A node while the walk is under way.
pub(super) struct NodeDraft {
    pub id: String,
    /// The `node [..]` defaults in scope where it first appeared (shared, not copied).
    pub defaults: Rc<Vec<AttrEntry>>,
    /// Its own attributes, in order, each key once.
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
    pub members: FxHashSet<usize>,
    pub span: Span,
}

/// The defaults in force in one (sub)graph body.
#[derive(Clone, Default)]
struct Frame {
    node_defaults: Rc<Vec<AttrEntry>>,
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
    node_index: FxHashMap<&'g str, usize>,
    pub(super) edges: Vec<Edge>,
    edge_counts: FxHashMap<(usize, usize), usize>,
    pub(super) subgraphs: Vec<SubgraphDraft>,
    pub(super) occurrences: Vec<Occurrence<'g>>,
    stmt_counter: usize,
    pub(super) too_deep: Option<Span>,
    /// Conditions by text: workflows repeat the same few (`outcome=success`).
    conditions: FxHashMap<String, Result<Condition, ConditionError>>,
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
            graph_name: graph
                .id
                .as_ref()
                .map(|id| id.unescaped())
                .unwrap_or_default(),
            graph_attrs: Vec::new(),
            nodes: Vec::new(),
            node_index: FxHashMap::default(),
            edges: Vec::new(),
            edge_counts: FxHashMap::default(),
            subgraphs: Vec::new(),
            occurrences: Vec::new(),
            stmt_counter: 0,
            too_deep: None,
            conditions: FxHashMap::default(),
        }
    }

    pub(super) fn run(&mut self, graph: &'g Graph) {
        let statements = graph.stmts.len();
        self.nodes.reserve(statements);
        self.edges.reserve(statements);
        self.occurrences.reserve(statements * 4);
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
                    let entries = self.record(Scope::Node, Owner::Node(index), &node.attrs);
                    set_entries(&mut self.nodes[index].attrs, entries);
                }
                Stmt::Edge(edge) => self.edge_stmt(edge, frame),
                Stmt::Attr(attr_stmt) => match attr_stmt.target {
                    AttrTarget::Graph => self.graph_attrs(&attr_stmt.attrs, frame),
                    AttrTarget::Node => {
                        for entry in self.record(Scope::Node, Owner::NodeDefaults, &attr_stmt.attrs)
                        {
                            set_entry(
                                Rc::make_mut(&mut frame.node_defaults),
                                default_origin(entry),
                            );
                        }
                    }
                    AttrTarget::Edge => {
                        for entry in self.record(Scope::Edge, Owner::EdgeDefaults, &attr_stmt.attrs)
                        {
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
            members: FxHashSet::default(),
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
            let (entry, spec) = self.entry(scope, attr, AttrOrigin::Explicit);
            let condition = spec
                .filter(|s| s.ty == ValueType::Condition)
                .map(|_| entry.raw.trim())
                .filter(|text| !text.is_empty())
                // A templated condition is parsed once rendered (see `template::expand`).
                .filter(|text| !crate::template::is_template(text))
                .map(|text| self.condition(text));
            let typed = match &entry.value {
                Value::Invalid(_) => Typed::Invalid,
                Value::FileRef { path, resolved } => Typed::File {
                    path: path.clone(),
                    resolved: resolved.clone(),
                },
                _ => Typed::Valid,
            };
            self.occurrences.push(Occurrence {
                scope,
                owner,
                attr,
                stmt: self.stmt_counter,
                spec,
                typed,
                condition,
            });
            entries.push(entry);
        }
        entries
    }

    /// Parses condition text, once per distinct text.
    fn condition(&mut self, text: &str) -> Result<Condition, ConditionError> {
        if let Some(parsed) = self.conditions.get(text) {
            return parsed.clone();
        }
        let parsed = Condition::parse(text);
        self.conditions.insert(text.to_owned(), parsed.clone());
        parsed
    }

    /// The node's index, creating it (with the defaults in scope) on first appearance.
    fn touch(&mut self, node: &'g NodeRef, frame: &Frame) -> usize {
        let index = match self.node_index.get(node.id.value.as_str()) {
            Some(&index) => index,
            None => {
                let index = self.nodes.len();
                self.node_index.insert(node.id.value.as_str(), index);
                self.nodes.push(NodeDraft {
                    id: node.id.value.clone(),
                    defaults: Rc::clone(&frame.node_defaults),
                    attrs: Vec::new(),
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
        // Every (tail, head) pair, link by link; subgraph operands stand for their nodes.
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut previous: Option<Ends> = None;
        for operand in &edge.operands {
            let ends = match operand {
                EdgeOperand::Node(node) => Ends::One(self.touch(node, frame)),
                EdgeOperand::Subgraph(subgraph) => Ends::Many(
                    self.subgraph(subgraph, frame)
                        .map(|i| self.subgraphs[i].nodes.clone())
                        .unwrap_or_default(),
                ),
            };
            if let Some(previous) = &previous {
                for &from in previous.as_slice() {
                    pairs.extend(ends.as_slice().iter().map(|&to| (from, to)));
                }
            }
            previous = Some(ends);
        }
        // The statement's attributes belong to its first edge.
        let owner = Owner::Edge((!pairs.is_empty()).then_some(self.edges.len()));
        let mut explicit = self.record(Scope::Edge, owner, &edge.attrs);
        let last = pairs.len().saturating_sub(1);
        for (i, (from, to)) in pairs.into_iter().enumerate() {
            let attrs = if i == last {
                std::mem::take(&mut explicit)
            } else {
                explicit.clone()
            };
            self.push_edge(from, to, frame, attrs, edge.span);
        }
    }

    fn push_edge(
        &mut self,
        from: usize,
        to: usize,
        frame: &Frame,
        explicit: Vec<AttrEntry>,
        span: Span,
    ) {
        let counter = self.edge_counts.entry((from, to)).or_insert(0);
        let occurrence = *counter;
        *counter += 1;
        let mut attrs = frame.edge_defaults.clone();
        set_entries(&mut attrs, explicit);
        self.edges.push(Edge {
            from: self.nodes[from].id.clone(),
            to: self.nodes[to].id.clone(),
            occurrence,
            label: None,
            condition: None,
            weight: 0.0,
            attrs,
            span,
            parsed_condition: None,
        });
    }
}

/// The nodes at one end of an edge link.
enum Ends {
    One(usize),
    Many(Vec<usize>),
}

impl Ends {
    fn as_slice(&self) -> &[usize] {
        match self {
            Ends::One(node) => std::slice::from_ref(node),
            Ends::Many(nodes) => nodes,
        }
    }
}

fn default_origin(mut entry: AttrEntry) -> AttrEntry {
    entry.origin = AttrOrigin::Default;
    entry
}
