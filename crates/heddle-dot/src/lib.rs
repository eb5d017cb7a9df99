//! heddle-dot owns DOT syntax: a lossless lexer and recursive-descent parser for the whole
//! Graphviz DOT language (plus the workflow dialect's relaxations), the printer, spans, and
//! a minimal-edit API. It does no I/O.

mod ast;
mod edit;
mod error;
mod span;

pub use ast::*;
pub use edit::{Edit, EdgeKey, EditError};
pub use error::{ParseError, snippet};
pub use span::Span;

/// The result of parsing: a document (always, even with errors) and the errors found.
#[derive(Debug, Clone)]
pub struct Parse {
    /// The lossless document.
    pub document: Document,
    /// Syntax errors, in source order. Empty when the file parsed cleanly.
    pub errors: Vec<ParseError>,
}

/// Parses DOT source. Never panics; on errors it recovers and keeps going.
pub fn parse(source: &str) -> Parse {
    // Placeholder until the parser lands.
    Parse {
        document: Document {
            source: source.to_owned(),
            graph: None,
            error_count: 0,
        },
        errors: Vec::new(),
    }
}

/// A parsed DOT file that prints back byte for byte and accepts minimal edits.
#[derive(Debug, Clone)]
pub struct Document {
    source: String,
    graph: Option<Graph>,
    error_count: usize,
}

impl Document {
    /// Prints the document. Unedited, this is exactly the parsed input.
    pub fn text(&self) -> String {
        self.source.clone()
    }

    /// The semantic view of the (first) graph, if one could be parsed.
    pub fn graph(&self) -> Option<&Graph> {
        self.graph.as_ref()
    }

    /// Applies one edit, changing only the text it must. On error nothing changes.
    pub fn apply(&mut self, edit: &Edit) -> Result<(), EditError> {
        if self.error_count > 0 {
            return Err(EditError::HasSyntaxErrors {
                count: self.error_count,
            });
        }
        let _ = edit;
        Ok(())
    }
}

/// Writes `value` as a DOT identifier: unchanged when Graphviz accepts it bare (an
/// identifier or numeral that is not a keyword), otherwise double-quoted with `"` and
/// trailing/lone backslashes escaped.
pub fn quote_if_needed(value: &str) -> String {
    let _ = value;
    String::new()
}
