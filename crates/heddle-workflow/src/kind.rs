//! Handler kinds: how `type`, `shape` and the node id select one.

use std::sync::LazyLock;

use crate::HandlerKind;
use crate::hash::FxHashSet;

/// Every accepted `type` value with its kind: Attractor's names first, then Heddle's.
pub const TYPE_NAMES: &[(&str, HandlerKind)] = &[
    ("start", HandlerKind::Start),
    ("exit", HandlerKind::Exit),
    ("codergen", HandlerKind::Agent),
    ("agent", HandlerKind::Agent),
    ("prompt", HandlerKind::Prompt),
    ("tool", HandlerKind::Command),
    ("command", HandlerKind::Command),
    ("wait.human", HandlerKind::Human),
    ("human", HandlerKind::Human),
    ("conditional", HandlerKind::Conditional),
    ("parallel", HandlerKind::Parallel),
    ("parallel.fan_in", HandlerKind::FanIn),
    ("fan_in", HandlerKind::FanIn),
    ("wait", HandlerKind::Wait),
    ("stack.manager_loop", HandlerKind::ManagerLoop),
    ("manager_loop", HandlerKind::ManagerLoop),
];

/// Shapes that select a kind.
pub const KIND_SHAPES: &[(&str, HandlerKind)] = &[
    ("Mdiamond", HandlerKind::Start),
    ("Msquare", HandlerKind::Exit),
    ("box", HandlerKind::Agent),
    ("tab", HandlerKind::Prompt),
    ("parallelogram", HandlerKind::Command),
    ("hexagon", HandlerKind::Human),
    ("diamond", HandlerKind::Conditional),
    ("component", HandlerKind::Parallel),
    ("tripleoctagon", HandlerKind::FanIn),
    ("insulator", HandlerKind::Wait),
    ("house", HandlerKind::ManagerLoop),
];

/// Every Graphviz node shape (the ones without a kind run as agents).
pub const GRAPHVIZ_SHAPES: &[&str] = &[
    "box",
    "polygon",
    "ellipse",
    "oval",
    "circle",
    "point",
    "egg",
    "triangle",
    "plaintext",
    "plain",
    "diamond",
    "trapezium",
    "parallelogram",
    "house",
    "pentagon",
    "hexagon",
    "septagon",
    "octagon",
    "doublecircle",
    "doubleoctagon",
    "tripleoctagon",
    "invtriangle",
    "invtrapezium",
    "invhouse",
    "Mdiamond",
    "Msquare",
    "Mcircle",
    "rect",
    "rectangle",
    "square",
    "star",
    "none",
    "underline",
    "cylinder",
    "note",
    "tab",
    "folder",
    "box3d",
    "component",
    "promoter",
    "cds",
    "terminator",
    "utr",
    "primersite",
    "restrictionsite",
    "fivepoverhang",
    "threepoverhang",
    "noverhang",
    "assembly",
    "signature",
    "insulator",
    "ribosite",
    "rnastab",
    "proteasesite",
    "proteinstab",
    "rpromoter",
    "rarrow",
    "larrow",
    "lpromoter",
    "record",
    "Mrecord",
];

impl HandlerKind {
    /// The kind a `type` value names (exact, lowercase names).
    pub fn from_type(value: &str) -> Option<HandlerKind> {
        let value = value.trim();
        TYPE_NAMES
            .iter()
            .find(|(name, _)| *name == value)
            .map(|(_, kind)| *kind)
    }

    /// The kind a shape selects (shape names compared without case).
    pub fn from_shape(shape: &str) -> Option<HandlerKind> {
        let shape = shape.trim();
        KIND_SHAPES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(shape))
            .map(|(_, kind)| *kind)
    }

    /// The kind a node id implies: `start` is a start, `exit` and `end` are exits
    /// (compared without case).
    pub fn from_id(id: &str) -> Option<HandlerKind> {
        if id.eq_ignore_ascii_case("start") {
            Some(HandlerKind::Start)
        } else if id.eq_ignore_ascii_case("exit") || id.eq_ignore_ascii_case("end") {
            Some(HandlerKind::Exit)
        } else {
            None
        }
    }

    /// Resolves a node's kind: explicit `type`, else a shape other than the default `box`,
    /// else the id, else agent. (A `box` shape, often set by `node [shape=box]`, does not
    /// hide the id's meaning.) An unknown `type` falls through to the shape.
    pub fn resolve(type_attr: Option<&str>, shape: Option<&str>, id: &str) -> HandlerKind {
        if let Some(kind) = type_attr.and_then(HandlerKind::from_type) {
            return kind;
        }
        if let Some(kind) = shape.and_then(HandlerKind::from_shape)
            && kind != HandlerKind::Agent
        {
            return kind;
        }
        HandlerKind::from_id(id).unwrap_or(HandlerKind::Agent)
    }

    /// Heddle's `type` name for the kind (`agent`, `human`, `fan_in`, ...).
    pub fn type_name(self) -> &'static str {
        match self {
            HandlerKind::Start => "start",
            HandlerKind::Exit => "exit",
            HandlerKind::Agent => "agent",
            HandlerKind::Prompt => "prompt",
            HandlerKind::Command => "command",
            HandlerKind::Human => "human",
            HandlerKind::Conditional => "conditional",
            HandlerKind::Parallel => "parallel",
            HandlerKind::FanIn => "fan_in",
            HandlerKind::Wait => "wait",
            HandlerKind::ManagerLoop => "manager_loop",
        }
    }

    /// The shape that draws the kind.
    pub fn shape(self) -> &'static str {
        KIND_SHAPES
            .iter()
            .find(|(_, kind)| *kind == self)
            .map_or("box", |(shape, _)| shape)
    }

    /// Whether the kind calls an LLM (agent or prompt).
    pub fn uses_llm(self) -> bool {
        matches!(self, HandlerKind::Agent | HandlerKind::Prompt)
    }
}

/// Whether Graphviz knows `shape` (compared without case).
pub fn is_graphviz_shape(shape: &str) -> bool {
    let shape = shape.trim();
    SHAPE_SET.contains(shape)
        || GRAPHVIZ_SHAPES
            .iter()
            .any(|s| s.eq_ignore_ascii_case(shape))
}

static SHAPE_SET: LazyLock<FxHashSet<&'static str>> =
    LazyLock::new(|| GRAPHVIZ_SHAPES.iter().copied().collect());
