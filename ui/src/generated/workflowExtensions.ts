// Generated from heddle_workflow::WORKFLOW_EXTENSIONS by crates/heddle-api/tests/bindings.rs. Do not edit.

/** File extensions (without the dot) of workflow files; the first is the default. */
export const WORKFLOW_EXTENSIONS = ['dot', 'fabro'] as const;
