//! The typed workflow model: what `heddle graph --json` prints and the UI draws.
//!
//! Field names here are a contract with the UI (TypeScript types are generated from them).
//! Add fields freely; rename or remove only together with the UI.

use std::borrow::Cow;

use heddle_dot::Span;
use serde::{Deserialize, Serialize};

/// A workflow read from one DOT file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Workflow {
    /// The digraph's name (`digraph Name { .. }`), empty when anonymous.
    pub name: String,
    /// The `goal` graph attribute as written (decoded); `None` when unset.
    pub goal: Option<String>,
    /// The `label` graph attribute as written (decoded); `None` when unset.
    pub label: Option<String>,
    /// `rankdir`: `TB`, `LR`, `BT` or `RL`; `TB` when unset or not one of those.
    pub rankdir: String,
    /// Every graph attribute, typed.
    pub attrs: Vec<AttrEntry>,
    /// Nodes in order of first appearance.
    pub nodes: Vec<Node>,
    /// Edges in document order (a chain contributes one per link).
    pub edges: Vec<Edge>,
    /// Subgraphs in document order (index = position in this list).
    pub subgraphs: Vec<SubgraphInfo>,
    /// The parsed `model_stylesheet` (runtime only; not serialized).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub stylesheet: Option<crate::Stylesheet>,
}

/// What runs a node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum HandlerKind {
    /// Entry point (shape Mdiamond, or id `start`).
    Start,
    /// End (shape Msquare, or id `exit`/`end`).
    Exit,
    /// Multi-turn LLM agent with tools (`codergen`; shape box, the default).
    Agent,
    /// One LLM call (shape tab).
    Prompt,
    /// Runs `script`/`tool_command` (`tool`; shape parallelogram).
    Command,
    /// Asks a person (`wait.human`; shape hexagon).
    Human,
    /// Routes on conditions only (shape diamond).
    Conditional,
    /// Fans out to every outgoing edge (shape component).
    Parallel,
    /// Joins parallel branches (`parallel.fan_in`; shape tripleoctagon).
    FanIn,
    /// Sleeps `duration` (shape insulator).
    Wait,
    /// Supervises a child workflow (`stack.manager_loop`; shape house).
    ManagerLoop,
}

/// A node with its effective attributes (own, then scoped `node [..]` defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Node {
    /// The node's id in the DOT file, e.g. `plan`; unique in the workflow.
    pub id: String,
    /// Handler kind: explicit `type`, else shape, else id, else agent.
    pub kind: HandlerKind,
    /// `label`, or the id when unset.
    pub label: String,
    /// `shape` (box when unset).
    pub shape: String,
    /// Classes: the `class` attribute (comma separated) plus enclosing subgraphs' label classes.
    pub classes: Vec<String>,
    /// Effective attributes, typed.
    pub attrs: Vec<AttrEntry>,
    /// Index into [`Workflow::subgraphs`] of the innermost subgraph that declares it.
    pub subgraph: Option<usize>,
    /// The statement that first declares the node.
    pub span: Span,
}

/// One edge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Edge {
    /// Id of the node the edge leaves.
    pub from: String,
    /// Id of the node the edge enters.
    pub to: String,
    /// Among edges with the same endpoints, which one (document order, from 0).
    pub occurrence: usize,
    /// The edge's effective `label` (own or from `edge [..]` defaults); `None` when unset.
    pub label: Option<String>,
    /// The effective `condition` as written, e.g. `outcome=success`; `None` when unset or blank.
    pub condition: Option<String>,
    /// `weight` (0 when unset); whole or fractional, as Graphviz reads it.
    pub weight: f64,
    /// Effective attributes, typed.
    pub attrs: Vec<AttrEntry>,
    /// The whole edge statement (a chain's links share it).
    pub span: Span,
    /// The parsed `condition`, when it parses (runtime only; not serialized).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub parsed_condition: Option<crate::Condition>,
}

/// A subgraph (cluster or not).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SubgraphInfo {
    /// `name` in `subgraph name { .. }`; `None` for an anonymous subgraph.
    pub id: Option<String>,
    /// The subgraph's own `label` attribute; `None` when unset.
    pub label: Option<String>,
    /// The class derived from the label (lowercased, spaces to `-`, other symbols dropped).
    pub class: Option<String>,
    /// Index of the enclosing subgraph.
    pub parent: Option<usize>,
    /// Node ids declared directly or transitively inside.
    pub nodes: Vec<String>,
    /// From `subgraph` (or `{`) to the closing `}`.
    pub span: Span,
}

/// Where an effective attribute came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum AttrOrigin {
    /// Written on the element itself.
    Explicit,
    /// From a `node [..]`/`edge [..]`/`graph [..]` default in scope.
    Default,
    /// From the model stylesheet.
    Stylesheet,
}

/// One attribute with its typed value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AttrEntry {
    /// The key as written (`llm_model` or `model`). Borrowed from the attribute catalog
    /// when it is a known name, so the common case allocates nothing.
    pub key: Cow<'static, str>,
    /// The canonical key (Heddle's name, e.g. `model`); same as `key` for unknown keys.
    pub canonical: Cow<'static, str>,
    /// `raw` converted to the attribute's catalog type; text for unknown keys.
    pub value: Value,
    /// The value as written (decoded DOT string).
    pub raw: String,
    /// Where the value was set.
    pub origin: AttrOrigin,
    /// Span of the `key=value` that set it.
    pub span: Span,
}

/// A typed attribute value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "type", content = "value", rename_all = "snake_case")]
pub enum Value {
    /// Free text.
    String(String),
    /// A whole number (attributes typed integer in the catalog).
    Integer(i64),
    /// A decimal number (attributes typed float in the catalog, e.g. `weight`).
    Float(f64),
    /// `true`/`false`.
    Boolean(bool),
    /// A duration in milliseconds (`250ms 30s 15m 2h 1d`).
    Duration(u64),
    /// One of an enumeration's values (canonical spelling).
    Enum(String),
    /// An `@path` reference, resolved relative to the workflow file.
    FileRef {
        /// The path as written, without `@`.
        path: String,
        /// The resolved path, when the file exists.
        resolved: Option<String>,
    },
    /// A value that does not parse as its attribute's type (reported by `attribute_type`).
    Invalid(String),
}
