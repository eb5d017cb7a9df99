//! Parse, build and validate in one call.

use std::path::Path;

use heddle_dot::{Document, ParseError};

use crate::files::FileSource;
use crate::lint::{self, NOT_TEXT, SYNTAX};
use crate::locate::LineIndex;
use crate::template::Inputs;
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
    load_source_with(source, path, files, &Inputs::Unknown)
}

/// [`load_source`] knowing what the run's inputs will be: `{{ inputs.NAME }}` without a value
/// is then reported with the severity `inputs` says, not as a note.
pub fn load_source_with(
    source: &str,
    path: &Path,
    files: &dyn FileSource,
    inputs: &Inputs,
) -> Loaded {
    let parse = heddle_dot::parse(source);
    let mut diagnostics = Vec::new();
    let lines = LineIndex::new(source);
    let text_problem = not_text(source, &lines);
    if let Some(problem) = &text_problem {
        diagnostics.push(problem.clone());
    }
    let limit = if text_problem.is_some() {
        3
    } else {
        MAX_SYNTAX_ERRORS
    };
    diagnostics.extend(parse.errors.iter().take(limit).map(syntax));
    if let Some(next) = parse.errors.get(limit) {
        let more = parse.errors.len() - limit;
        diagnostics.push(
            SYNTAX
                .diag(format!("{more} more syntax error(s) not shown"))
                .at(next.span)
                .with_hint("fix the errors above first; later ones are often caused by them"),
        );
    }
    let document = parse.document;
    let structural = parse.errors.is_empty();
    let workflow = match document.graph() {
        Some(graph) => {
            let built = build::build(graph, source, &lines, path, files);
            let input = lint::Input {
                source,
                lines: &lines,
                path,
                files,
                inputs,
            };
            let found = lint::run(document.graphs(), &built, &input, structural);
            diagnostics.extend(found);
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

/// At most this many syntax errors are listed (fewer for binary files).
const MAX_SYNTAX_ERRORS: usize = 20;

/// A NUL byte or a replacement character (left by reading invalid UTF-8 lossily) means the
/// file is not text.
fn not_text(source: &str, lines: &LineIndex) -> Option<Diagnostic> {
    let nul = source.find('\0').map(|i| (i, "a NUL byte"));
    let replacement = source
        .find('\u{FFFD}')
        .map(|i| (i, "bytes that are not UTF-8"));
    let (offset, what) = match (nul, replacement) {
        (Some(a), Some(b)) => Some(if a.0 < b.0 { a } else { b }),
        (a, b) => a.or(b),
    }?;
    let span = lines.span(source, offset, offset + 1);
    Some(
        NOT_TEXT
            .diag(format!("the file is not UTF-8 text: it contains {what}"))
            .at(span)
            .with_hint("a workflow is a UTF-8 text file holding `digraph Name { ... }`"),
    )
}

fn syntax(error: &ParseError) -> Diagnostic {
    SYNTAX
        .diag(format!(
            "expected {}, found {}",
            error.expected, error.found
        ))
        .at(error.span)
}
