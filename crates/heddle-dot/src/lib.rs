//! heddle-dot owns DOT syntax: a lossless lexer and recursive-descent parser for the whole
//! Graphviz DOT language (plus the workflow dialect's relaxations), the printer, spans, and
//! a minimal-edit API. It does no I/O.
//!
//! ```
//! let parsed = heddle_dot::parse("digraph { a -> b [label=\"go\"] }");
//! assert!(parsed.errors.is_empty());
//! let mut doc = parsed.document;
//! doc.apply(&heddle_dot::Edit::SetNodeAttr {
//!     node: "a".into(),
//!     key: "shape".into(),
//!     value: "box".into(),
//! })
//! .unwrap();
//! assert_eq!(doc.text(), "digraph { a -> b [label=\"go\"]; a [shape=box] }");
//! ```

mod ast;
mod document;
mod edit;
mod error;
mod lexer;
mod parser;
mod quote;
mod span;
#[doc(hidden)]
pub mod testing;
mod token;

pub use ast::*;
pub use document::{Document, Parse, parse};
pub use edit::{EdgeKey, Edit, EditError, ValueSplice};
pub use error::{ParseError, snippet};
pub use quote::quote_if_needed;
pub use span::Span;
