//! The attribute catalog: every attribute the dialect gives meaning to, plus the standard
//! Graphviz attributes people put on workflow graphs, each with where it applies, its value
//! type, its canonical name and its aliases.

mod dialect;
mod graphviz;

use std::sync::LazyLock;

use crate::hash::FxHashMap;
use crate::suggest::closest;
use crate::value::ValueType;

/// Where an attribute is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    /// On the top-level graph (`graph [..]` or `key=value` at top level).
    Graph,
    /// On a subgraph or cluster.
    Subgraph,
    /// On a node (or in `node [..]` defaults).
    Node,
    /// On an edge (or in `edge [..]` defaults).
    Edge,
}

impl Scope {
    fn letter(self) -> char {
        match self {
            Scope::Graph => 'G',
            Scope::Subgraph => 'S',
            Scope::Node => 'N',
            Scope::Edge => 'E',
        }
    }

    /// The word for messages: "graph", "subgraph", "node", "edge".
    pub fn noun(self) -> &'static str {
        match self {
            Scope::Graph => "graph",
            Scope::Subgraph => "subgraph",
            Scope::Node => "node",
            Scope::Edge => "edge",
        }
    }
}

/// Who defines an attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The workflow dialect: the engine reads it.
    Dialect,
    /// Graphviz: only drawing uses it.
    Graphviz,
}

/// One catalog entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AttrSpec {
    /// Heddle's name for it.
    pub name: &'static str,
    /// Other accepted names (Attractor/Fabro spellings).
    pub aliases: &'static [&'static str],
    /// Where it applies: letters `G` graph, `S` subgraph, `N` node, `E` edge.
    pub scopes: &'static str,
    /// The type its value must have.
    pub ty: ValueType,
    /// Whether the dialect or Graphviz defines the attribute.
    pub source: Source,
    /// The lint rule that checks its values, when it is not `attribute_type`.
    pub checked_by: Option<&'static str>,
    /// One line on what it does.
    pub summary: &'static str,
}

impl AttrSpec {
    /// Whether the attribute applies in `scope`.
    pub fn applies_to(&self, scope: Scope) -> bool {
        self.scopes.contains(scope.letter())
    }

    /// Whether `key` is this attribute's name or one of its aliases. A name ending in `.*`
    /// matches every key with that prefix.
    pub fn matches(&self, key: &str) -> bool {
        if let Some(prefix) = self.name.strip_suffix('*') {
            return key.len() > prefix.len() && key.starts_with(prefix);
        }
        self.name == key || self.aliases.contains(&key)
    }
}

/// Every entry: dialect first, so it wins where a Graphviz attribute has the same name.
pub fn all() -> impl Iterator<Item = &'static AttrSpec> {
    dialect::SPECS.iter().chain(graphviz::SPECS.iter())
}

struct Index {
    by_key: FxHashMap<&'static str, Vec<&'static AttrSpec>>,
    wildcards: Vec<&'static AttrSpec>,
}

static INDEX: LazyLock<Index> = LazyLock::new(|| {
    let mut by_key: FxHashMap<&'static str, Vec<&'static AttrSpec>> = FxHashMap::default();
    let mut wildcards = Vec::new();
    for spec in all() {
        if spec.name.ends_with('*') {
            wildcards.push(spec);
            continue;
        }
        for key in std::iter::once(&spec.name).chain(spec.aliases.iter()) {
            by_key.entry(key).or_default().push(spec);
        }
    }
    Index { by_key, wildcards }
});

/// The entry for `key` written in `scope`, if the catalog knows it there.
pub fn lookup(scope: Scope, key: &str) -> Option<&'static AttrSpec> {
    let index = &*INDEX;
    if let Some(specs) = index.by_key.get(key)
        && let Some(spec) = specs.iter().find(|s| s.applies_to(scope))
    {
        return Some(spec);
    }
    index
        .wildcards
        .iter()
        .find(|s| s.applies_to(scope) && s.matches(key))
        .copied()
}

/// The scopes other than `scope` where `key` is known, for "this is an edge attribute"
/// messages.
pub fn other_scopes(scope: Scope, key: &str) -> Vec<Scope> {
    [Scope::Graph, Scope::Node, Scope::Edge]
        .into_iter()
        .filter(|s| *s != scope && lookup(*s, key).is_some())
        .collect()
}

/// Heddle's name for `key` in `scope` (`llm_model` gives `model`); `key` itself when unknown.
pub fn canonical(scope: Scope, key: &str) -> &str {
    match lookup(scope, key) {
        Some(spec) if !spec.name.ends_with('*') => spec.name,
        _ => key,
    }
}

/// The known name in `scope` closest to `key` by edit distance, when close enough to be a
/// plausible typo.
pub fn suggest(scope: Scope, key: &str) -> Option<&'static str> {
    let names = all()
        .filter(|s| s.applies_to(scope) && !s.name.ends_with('*'))
        .flat_map(|s| std::iter::once(s.name).chain(s.aliases.iter().copied()));
    closest(key, names)
}
