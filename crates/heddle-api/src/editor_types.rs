//! Request and response types of the operations the workflow editor uses besides open, edit
//! and save: the layout sidecar, `@file` previews, expression checks, templates and watching
//! a workflow file for changes made elsewhere.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Names a workflow file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowPathRequest {
    /// Path of the `.dot` file.
    pub path: String,
}

/// The node positions a person set for a workflow, kept beside it (never in the `.dot`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowLayout {
    /// Where the sidecar lives: the workflow's path plus `.heddle-layout.json`.
    pub sidecar_path: String,
    /// The sidecar's JSON text; `None` when there is no sidecar yet.
    pub text: Option<String>,
}

/// Save the layout sidecar of a workflow.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SaveLayoutRequest {
    /// Path of the `.dot` file (not of the sidecar).
    pub path: String,
    /// The sidecar's JSON text.
    pub text: String,
}

/// Read the file an `@path` attribute value refers to, for a preview.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReadReferenceRequest {
    /// Path of the `.dot` file the reference is written in.
    pub path: String,
    /// The reference as written, without `@` (relative to the workflow's folder).
    pub reference: String,
}

/// A referenced file's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ReferencedFile {
    /// The absolute path the reference resolved to.
    pub path: String,
    /// Its text (the start of it when `truncated`).
    pub text: String,
    /// Whether the file was longer than a preview shows.
    pub truncated: bool,
}

/// Which small language an expression is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ExpressionKind {
    /// An edge `condition`.
    Condition,
    /// A graph `model_stylesheet`.
    Stylesheet,
}

/// Check an expression while it is being typed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CheckExpressionRequest {
    /// Whether `text` is an edge condition or a model stylesheet.
    pub kind: ExpressionKind,
    /// The expression alone (not the whole DOT attribute), unquoted.
    pub text: String,
}

/// One problem in an expression.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExpressionProblem {
    /// What is wrong, and how to fix it.
    pub message: String,
    /// Start of the offending text, in UTF-16 code units (what an editor counts).
    pub start: usize,
    /// End of the offending text, in UTF-16 code units (equal to `start` at the end).
    pub end: usize,
    /// 1-based line within the expression.
    pub line: usize,
    /// 1-based column within that line, in characters.
    pub column: usize,
}

/// A workflow to start a new one from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowTemplate {
    /// Stable name (`plan-implement-test`).
    pub name: String,
    /// The workflow's goal, or its graph name when it has none.
    pub summary: String,
    /// Handler nodes in the workflow.
    pub node_count: usize,
    /// Other files the template brings along (`prompts/plan.md`), relative to the new file.
    pub extra_files: Vec<String>,
}

/// Create a workflow file from a template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CreateWorkflowRequest {
    /// A [`WorkflowTemplate::name`], e.g. `plan-implement-test`.
    pub template: String,
    /// Where to write the new `.dot` file; it must not exist yet.
    pub path: String,
}

/// Watch a workflow file for changes made outside the editor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WatchWorkflowRequest {
    /// Path of the `.dot` file.
    pub path: String,
    /// The caller's name for this watch, to stop it with `unwatch_workflow` (Tauri only;
    /// over HTTP closing the stream stops it).
    #[serde(default)]
    pub watch_id: String,
}

/// The watched file changed on disk (written, replaced, removed or created again).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowChanged {
    /// Absolute path of the watched file.
    pub path: String,
    /// Whether it is a file now (`false` after a removal).
    pub exists: bool,
}
