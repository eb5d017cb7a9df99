//! Request and response types of every operation. TypeScript bindings are generated from
//! these into `ui/src/generated` (see `tests/bindings.rs`).

use heddle_workflow::{Diagnostic, Workflow};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Open a workflow file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OpenWorkflowRequest {
    /// Path of the `.dot` file.
    pub path: String,
}

/// Check unsaved workflow text as if it were the file at `path` (for `@file` resolution).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CheckWorkflowRequest {
    /// Where the text lives (or will live); `@file` references resolve relative to it.
    pub path: String,
    /// The unsaved DOT text, as in the editor.
    pub source: String,
}

/// A workflow as read and validated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
pub struct OpenedWorkflow {
    /// Absolute path of the file.
    pub path: String,
    /// The file's text, exactly as on disk.
    pub source: String,
    /// The typed model; `None` only when no graph could be parsed at all.
    pub workflow: Option<Workflow>,
    /// Syntax errors and lint findings, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// The `{{ inputs.NAME }}` the workflow uses, sorted by name: one field each in the
    /// Start-run form.
    pub inputs: Vec<WorkflowInput>,
    /// The cost limit (US dollars) a run gets when its caller gives none: the run config's
    /// `max_cost_usd`, else the graph's; the Start-run form's first value.
    pub default_max_cost_usd: Option<f64>,
    /// The token limit a run gets when its caller gives none (same sources).
    pub default_max_tokens: Option<u64>,
}

/// One input a workflow's templates use.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowInput {
    /// `NAME` of `{{ inputs.NAME }}`.
    pub name: String,
    /// Its value in the run config beside the workflow (`[run.inputs]`), if any.
    pub value: Option<String>,
}

/// List the workflows in a folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ListWorkflowsRequest {
    /// The folder to scan (recursively, skipping `node_modules`, `target` and hidden folders
    /// other than Fabro's `.fabro`).
    pub dir: String,
}

/// One workflow file found in a folder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct WorkflowEntry {
    /// Absolute path of the workflow file.
    pub path: String,
    /// Path relative to the scanned folder, with `/` separators.
    pub relative_path: String,
    /// Modification time in milliseconds since the Unix epoch, for "recent first".
    pub modified_ms: u64,
}

/// What the app was asked to show at start-up (a path on the command line).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
pub struct LaunchInfo {
    /// A workflow file to open right away.
    pub initial_file: Option<String>,
    /// A folder whose workflows to list.
    pub workspace_dir: Option<String>,
}

/// Apply structured edits to workflow text (nothing is written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct EditWorkflowRequest {
    /// Where the text lives; `@file` references resolve relative to it.
    pub path: String,
    /// The text to edit (the editor's current text).
    pub source: String,
    /// The edits, applied in order; if one is refused, none is applied.
    pub edits: Vec<heddle_workflow::WorkflowEdit>,
}

/// Save workflow text to its file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SaveWorkflowRequest {
    /// Path of the `.dot` file; relative paths are made absolute; it need not exist yet.
    pub path: String,
    /// The whole new content of the file.
    pub source: String,
    /// The text the file had when it was opened; the save is refused if the file on disk
    /// is no longer that (`None`: overwrite whatever is there).
    #[serde(default)]
    pub expected_disk: Option<String>,
}
