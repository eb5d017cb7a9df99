//! heddle-api owns the one application API: every operation Heddle offers, with serde
//! request/response types and stable error codes. The CLI calls it in-process, src-tauri
//! wraps each operation in a one-line command, and heddle-server exposes it over HTTP.
//! TypeScript bindings for the UI are generated from these types.

mod error;
pub mod runs;
mod types;
mod workflows;

pub use error::{ApiError, ErrorCode};
pub use types::*;
pub use workflows::{MAX_WORKFLOW_BYTES, check_workflow, list_workflows, open_workflow};
