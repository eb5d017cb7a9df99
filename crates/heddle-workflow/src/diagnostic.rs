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
    /// Worth knowing.
    Info,
}

/// One finding of the parser or a lint rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Diagnostic {
    /// Rule id (`syntax` for parse errors, else the lint rule's id, e.g. `start_node`).
    pub rule: String,
    /// Severity.
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
