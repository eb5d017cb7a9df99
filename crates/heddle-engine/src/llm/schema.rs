//! `output_schema`. (stub; being written)

use std::path::Path;

use serde_json::Value as Json;

/// A loaded output schema.
#[derive(Debug, Clone)]
pub struct OutputSchema {
    /// The schema document.
    pub schema: Json,
    /// `routing` or the file it came from.
    pub source: String,
}

/// A schema that cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SchemaError(pub String);

/// The result of validation with repairs.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaOutcome {
    /// The output (after `repairs` repair turns).
    Valid {
        /// The validated JSON.
        output: Json,
        /// Repair turns used.
        repairs: u32,
    },
    /// Still invalid after every repair turn.
    Invalid {
        /// The last validation errors.
        errors: Vec<String>,
        /// Repair turns used.
        repairs: u32,
    },
}

impl OutputSchema {
    /// Loads `routing` or `@path.schema.json` (relative to `workflow_path`).
    pub fn load(value: &str, workflow_path: &Path) -> Result<OutputSchema, SchemaError> {
        let _ = (value, workflow_path);
        Err(SchemaError("not yet".into()))
    }
}

/// Placeholder.
pub fn validate_with_repairs() {}
