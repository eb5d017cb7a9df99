//! Why a tool call failed, worded for the model.

use super::arguments::ArgumentError;
use super::confine::ConfineError;

/// A failed tool call; its text is what the model reads.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ToolError {
    /// The model asked for a tool that does not exist.
    #[error("unknown tool `{name}`; the available tools are: {available}")]
    UnknownTool {
        /// The name it used.
        name: String,
        /// The tool names, comma-separated.
        available: String,
    },
    /// Missing or mistyped arguments.
    #[error(transparent)]
    Arguments(#[from] ArgumentError),
    /// A path outside the work dir, or one that could not be resolved.
    #[error(transparent)]
    Path(#[from] ConfineError),
    /// Anything else, already worded for the model.
    #[error("{0}")]
    Failed(String),
}
