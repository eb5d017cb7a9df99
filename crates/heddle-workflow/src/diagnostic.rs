//! Diagnostics: what validation reports, with enough to find and fix the problem.

use heddle_dot::{EdgeKey, Span};
use serde::{Deserialize, Serialize};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The workflow cannot run.
    Error,
    /// Probably a mistake; the workflow can still run.
    Warning,
    /// A note, not a problem (e.g. the inputs a run must be given).
    Info,
}

/// One finding of the parser or a lint rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Diagnostic {
    /// Rule id (`syntax` for parse errors, else the lint rule's id, e.g. `start_node`).
    pub rule: String,
    /// Whether it stops a run (error), is probably a mistake (warning) or a note (info).
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// How to fix it, when there is a useful suggestion.
    pub hint: Option<String>,
    /// Where, when the problem has a place in the source.
    pub span: Option<Span>,
    /// The file the span is in when it is not the workflow itself (an `@file` reference).
    pub file: Option<String>,
    /// The node concerned, so the UI can select it.
    pub node: Option<String>,
    /// The edge concerned, so the UI can select it.
    pub edge: Option<EdgeKey>,
}

impl Diagnostic {
    /// A diagnostic of `rule` with no location yet.
    pub fn new(rule: impl Into<String>, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            rule: rule.into(),
            severity,
            message: message.into(),
            hint: None,
            span: None,
            file: None,
            node: None,
            edge: None,
        }
    }

    /// Sets where it is.
    #[must_use]
    pub fn at(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }

    /// Sets how to fix it.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Sets the node concerned.
    #[must_use]
    pub fn for_node(mut self, node: impl Into<String>) -> Self {
        self.node = Some(node.into());
        self
    }

    /// Sets the edge concerned.
    #[must_use]
    pub fn for_edge(mut self, edge: EdgeKey) -> Self {
        self.edge = Some(edge);
        self
    }

    /// Sets the file the span is in, when not the workflow itself.
    #[must_use]
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }
}

impl Severity {
    /// `error`, `warning` or `info`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}
