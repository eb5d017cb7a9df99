//! `glob { pattern, path? }`: the files of the work dir whose path matches a glob pattern.

use std::path::{Component, Path};

use tokio_util::sync::CancellationToken;

use super::ToolOutcome;
use super::arguments::Arguments;
use super::confine::confine;
use super::file_walk::walk_files;
use super::glob_pattern::GlobPattern;
use super::tool_error::ToolError;

/// The most paths listed.
const MAX_FILES: usize = 1000;

/// Lists the matching files, relative to the work dir, sorted.
pub(crate) fn glob(
    root: &Path,
    args: &Arguments<'_>,
    cancel: &CancellationToken,
) -> Result<ToolOutcome, ToolError> {
    let pattern = args.required_str("pattern")?;
    let path = args.optional_str("path")?.unwrap_or(".");
    let climbs = Path::new(pattern)
        .components()
        .any(|c| matches!(c, Component::ParentDir | Component::RootDir));
    if climbs {
        return Err(ToolError::Failed(format!(
            "glob: `pattern` {pattern:?} must be relative to `path`, without a leading `/` or \
             `..`; to list another folder of the work dir, set `path` to it"
        )));
    }
    let glob = GlobPattern::new(pattern)
        .map_err(|e| ToolError::Failed(format!("glob: `pattern` {pattern:?} is not valid: {e}")))?;
    let start = confine(root, path)?;
    if !start.path.is_dir() {
        let what = if start.path.exists() {
            "is not a folder"
        } else {
            "does not exist (paths are relative to the work dir)"
        };
        return Err(ToolError::Failed(format!("glob: path `{path}` {what}")));
    }
    // Without `**`, nothing deeper than the pattern's components can match.
    let max_depth = (!pattern.contains("**")).then(|| pattern.split('/').count());

    let mut found: Vec<String> = Vec::new();
    let completed = walk_files(root, &start, max_depth, cancel, &mut |file| {
        if glob.is_match(file.within) {
            found.push(file.relative.to_string());
        }
        true
    });
    if !completed {
        return Err(ToolError::Failed("glob was cancelled".to_string()));
    }
    if found.is_empty() {
        let hint = if !pattern.contains('/') && !pattern.contains("**") {
            format!(
                "; `{pattern}` matches only files directly in `{path}`: use `**/{pattern}` to \
                 include subfolders"
            )
        } else {
            String::new()
        };
        return Ok(ToolOutcome::success(format!(
            "no files match `{pattern}` in `{path}`{hint}"
        )));
    }
    found.sort();
    let total = found.len();
    found.truncate(MAX_FILES);
    let mut output = found.join("\n");
    if total > MAX_FILES {
        output.push_str(&format!(
            "\n[showing the first {MAX_FILES} of {total} files; narrow the pattern or the path]"
        ));
    }
    Ok(ToolOutcome::success(output))
}
