//! The model stylesheet (`model_stylesheet`): CSS-like rules that give nodes a model,
//! provider, reasoning effort or backend.
//!
//! ```text
//! * { model: claude-sonnet-4-5; provider: anthropic }
//! box, .review { reasoning_effort: high; }
//! #final_check { model: "gpt-5.2" }
//! ```
//!
//! Selectors, weakest first: `*`, a shape name, `.class`, `#node_id`. Among rules of equal
//! specificity the later one wins. Values are bare text up to `;`/`}` or quoted strings.
//! `/* comments */` are allowed.

mod apply;
mod error;
mod parser;

pub use error::{StylesheetError, StylesheetErrorKind};

use crate::catalog::{self, Scope};

/// The properties a stylesheet may set (canonical names).
pub const PROPERTIES: &[&str] = &["model", "provider", "reasoning_effort", "backend"];

/// A parsed stylesheet.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Stylesheet {
    /// Rules in source order.
    pub rules: Vec<StyleRule>,
}

/// `selectors { declarations }`.
#[derive(Debug, Clone, PartialEq)]
pub struct StyleRule {
    /// One or more selectors (comma separated in the source).
    pub selectors: Vec<Selector>,
    /// Declarations in source order.
    pub declarations: Vec<Declaration>,
    /// Byte range of the rule in the stylesheet text.
    pub span: (usize, usize),
}

/// What a selector matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelectorKind {
    /// `*`: every node.
    Universal,
    /// A shape name: nodes with that shape.
    Shape(String),
    /// `.name`: nodes with that class.
    Class(String),
    /// `#id`: the node with that id.
    Id(String),
}

/// One selector.
#[derive(Debug, Clone, PartialEq)]
pub struct Selector {
    /// Every node, a shape, a class or one node id.
    pub kind: SelectorKind,
    /// Byte range in the stylesheet text.
    pub span: (usize, usize),
}

impl Selector {
    /// `*` 0, shape 1, class 2, id 3.
    pub fn specificity(&self) -> u8 {
        match self.kind {
            SelectorKind::Universal => 0,
            SelectorKind::Shape(_) => 1,
            SelectorKind::Class(_) => 2,
            SelectorKind::Id(_) => 3,
        }
    }

    /// Whether the selector matches a node with this id, shape and classes.
    pub fn matches(&self, id: &str, shape: &str, classes: &[String]) -> bool {
        match &self.kind {
            SelectorKind::Universal => true,
            SelectorKind::Shape(s) => s.eq_ignore_ascii_case(shape),
            SelectorKind::Class(c) => classes.iter().any(|k| k == c),
            SelectorKind::Id(i) => i == id,
        }
    }
}

/// `property: value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Declaration {
    /// The property as written.
    pub property: String,
    /// The value, quotes removed.
    pub value: String,
    /// Byte range of the property name.
    pub property_span: (usize, usize),
    /// Byte range of the value (quotes included).
    pub value_span: (usize, usize),
}

impl Declaration {
    /// The canonical property (`llm_model` gives `model`), or `None` when a stylesheet may
    /// not set it.
    pub fn canonical(&self) -> Option<&'static str> {
        let name = catalog::canonical(Scope::Node, &self.property);
        PROPERTIES.iter().find(|p| **p == name).copied()
    }
}

impl Stylesheet {
    /// Parses a stylesheet, stopping at the first error.
    pub fn parse(source: &str) -> Result<Stylesheet, StylesheetError> {
        let (sheet, mut errors) = parser::parse(source);
        if errors.is_empty() {
            Ok(sheet)
        } else {
            Err(errors.remove(0))
        }
    }

    /// Parses a stylesheet, skipping past errors: the rules that parsed, and every error.
    pub fn parse_recovering(source: &str) -> (Stylesheet, Vec<StylesheetError>) {
        parser::parse(source)
    }
}
