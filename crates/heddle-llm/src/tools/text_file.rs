//! Reading an existing file of the work dir for `read_file` and `edit_file`, with the
//! messages for a missing file, a folder, a file too large and binary content.

use std::io::ErrorKind;

use super::confine::Confined;
use super::tool_error::ToolError;

/// The largest file read whole.
pub(crate) const MAX_FILE_BYTES: u64 = 32 * 1024 * 1024;
/// How many leading bytes are looked at to tell a binary file.
const SNIFF_BYTES: usize = 8 * 1024;

/// Whether `bytes` look like binary content (a NUL byte near the start).
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(SNIFF_BYTES).any(|b| *b == 0)
}

/// The bytes of the existing regular file at `file`; `shown` is the path as the model gave
/// it. Refuses folders, missing files, files over [`MAX_FILE_BYTES`] and binary files.
pub(crate) fn read_existing(file: &Confined, shown: &str) -> Result<Vec<u8>, ToolError> {
    let meta = std::fs::metadata(&file.path).map_err(|e| match e.kind() {
        ErrorKind::NotFound | ErrorKind::NotADirectory => ToolError::Failed(format!(
            "file `{shown}` does not exist (paths are relative to the work dir); use glob \
             to find the right path"
        )),
        _ => ToolError::Failed(format!("cannot read `{shown}`: {e}")),
    })?;
    if meta.is_dir() {
        return Err(ToolError::Failed(format!(
            "`{shown}` is a folder, not a file; use glob with path `{shown}` to list its files"
        )));
    }
    if !meta.is_file() {
        return Err(ToolError::Failed(format!(
            "`{shown}` is not a regular file (a device, socket or pipe), so it is not read"
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ToolError::Failed(format!(
            "`{shown}` has {} bytes, more than the {} bytes read_file and edit_file handle; \
             use grep, or shell with head, tail or sed",
            meta.len(),
            MAX_FILE_BYTES
        )));
    }
    let bytes = std::fs::read(&file.path)
        .map_err(|e| ToolError::Failed(format!("cannot read `{shown}`: {e}")))?;
    if looks_binary(&bytes) {
        return Err(ToolError::Failed(format!(
            "`{shown}` looks like a binary file ({} bytes, with NUL bytes), so its content is \
             not shown; inspect it with shell (for example `file {shown}` or `xxd {shown} | head`)",
            bytes.len()
        )));
    }
    Ok(bytes)
}
