//! `write_file { path, content }`: creates or replaces a file of the work dir, creating its
//! missing parent folders.

use std::path::Path;

use super::ToolOutcome;
use super::arguments::Arguments;
use super::confine::confine;
use super::tool_error::ToolError;
use heddle_engine::atomic_file::replace_file;

/// Writes `content` to `path` (through a temporary file renamed over it).
pub(crate) fn write_file(root: &Path, args: &Arguments<'_>) -> Result<ToolOutcome, ToolError> {
    let path = args.required_str("path")?;
    let content = args.required_str("content")?;
    if path.trim().is_empty() {
        return Err(ToolError::Failed(
            "write_file: argument `path` is empty; give the file's path relative to the work \
             dir, such as `src/main.rs`"
                .to_string(),
        ));
    }
    let file = confine(root, path)?;
    if file.path.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{path}` is a folder; give the path of a file inside it"
        )));
    }
    let existed = file.path.exists();
    if let Some(parent) = file.path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            ToolError::Failed(format!("cannot create the folders for `{path}`: {e}"))
        })?;
    }
    replace_file(&file.path, content.as_bytes(), false)
        .map_err(|e| ToolError::Failed(format!("cannot write `{path}`: {e}")))?;
    let what = if existed {
        "replaced its previous content"
    } else {
        "new file"
    };
    Ok(ToolOutcome {
        output: format!(
            "wrote {} bytes to `{}` ({what})",
            content.len(),
            file.relative
        ),
        is_error: false,
        touched: vec![file.relative],
    })
}
