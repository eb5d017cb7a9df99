//! Parse, build and validate in one call.

use std::path::Path;

use heddle_dot::{Document, ParseError};

use crate::files::FileSource;
use crate::lint::{self, SYNTAX};
use crate::{Diagnostic, Workflow, build};

/// Everything known about one workflow file.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The lossless document (for edits and printing).
    pub document: Document,
    /// The model; `Some` whenever a graph could be parsed, even partially.
    pub workflow: Option<Workflow>,
    /// Syntax errors and lint findings, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    /// Whether any diagnostic is an error (the workflow must not run).
    pub fn has_errors(&self) -> bool {
        self.diagnostics
            .iter()
            .any(|d| d.severity == crate::Severity::Error)
    }
}

/// Parses `source` (the content of the file at `path`), builds the [`Workflow`] and runs
/// every lint rule. `@file` references are resolved relative to `path` through `files`.
/// Never panics.
pub fn load_source(source: &str, path: &Path, files: &dyn FileSource) -> Loaded {
    let parse = heddle_dot::parse(source);
    let mut diagnostics: Vec<Diagnostic> = parse.errors.iter().map(syntax).collect();
    let document = parse.document;
    let structural = diagnostics.is_empty();
    let workflow = match document.graph() {
        Some(graph) => {
            let built = build::build(graph, source, path, files);
            diagnostics.extend(lint::run(graph, &built, source, path, files, structural));
            Some(built.workflow)
        }
        None => {
            if diagnostics.is_empty() {
                diagnostics.push(
                    SYNTAX
                        .diag("the file holds no graph")
                        .with_hint("a workflow file holds one `digraph Name { ... }`"),
                );
            }
            None
        }
    };
    lint::sort(&mut diagnostics);
    Loaded {
        document,
        workflow,
        diagnostics,
    }
}

fn syntax(error: &ParseError) -> Diagnostic {
    SYNTAX
        .diag(format!("expected {}, found {}", error.expected, error.found))
        .at(error.span)
}
