//! `grep { pattern, path?, glob?, case_insensitive?, max_results? }`: regular-expression
//! search over the text files under a path of the work dir.

use std::path::Path;

use regex::RegexBuilder;
use tokio_util::sync::CancellationToken;

use super::ToolOutcome;
use super::arguments::Arguments;
use super::confine::confine;
use super::file_walk::walk_files;
use super::glob_pattern::GlobPattern;
use super::text_file::{MAX_FILE_BYTES, looks_binary};
use super::tool_error::ToolError;

/// Matching lines returned when the model gives no `max_results`.
const DEFAULT_MAX_RESULTS: u64 = 100;
/// Longer matching lines are cut to this many characters.
const MAX_LINE_CHARS: usize = 300;

/// Searches; results are `path:line: text`, in path and line order.
pub(crate) fn grep(
    root: &Path,
    args: &Arguments<'_>,
    cancel: &CancellationToken,
) -> Result<ToolOutcome, ToolError> {
    let pattern = args.required_str("pattern")?;
    let path = args.optional_str("path")?.unwrap_or(".");
    let glob = args.optional_str("glob")?;
    let case_insensitive = args.optional_bool("case_insensitive")?.unwrap_or(false);
    let max_results = args
        .optional_count("max_results")?
        .unwrap_or(DEFAULT_MAX_RESULTS);
    let max_results = usize::try_from(max_results).unwrap_or(usize::MAX);

    let regex = RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .build()
        .map_err(|e| {
            ToolError::Failed(format!(
                "grep: `pattern` is not a valid regular expression (Rust regex syntax; escape \
                 special characters such as `(`, `[`, `.` or `{{` with `\\` to match them \
                 literally):\n{e}"
            ))
        })?;
    let filter = glob
        .map(|g| {
            GlobPattern::new(g)
                .map(|compiled| (compiled, g.contains('/')))
                .map_err(|e| ToolError::Failed(format!("grep: `glob` {g:?} is not valid: {e}")))
        })
        .transpose()?;
    let start = confine(root, path)?;
    if !start.path.exists() {
        return Err(ToolError::Failed(format!(
            "grep: path `{path}` does not exist (paths are relative to the work dir); use \
             glob to find the right path"
        )));
    }

    let mut shown: Vec<String> = Vec::new();
    let mut total = 0usize;
    let completed = walk_files(root, &start, None, cancel, &mut |file| {
        if let Some((glob, by_path)) = &filter {
            let subject = if *by_path {
                file.within
            } else {
                file.within.rsplit('/').next().unwrap_or(file.within)
            };
            if !glob.is_match(subject) {
                return true;
            }
        }
        let readable = std::fs::metadata(file.path).is_ok_and(|m| m.len() <= MAX_FILE_BYTES);
        let Some(bytes) = readable.then(|| std::fs::read(file.path).ok()).flatten() else {
            return true;
        };
        if looks_binary(&bytes) {
            return true;
        }
        let text = String::from_utf8_lossy(&bytes);
        for (number, line) in (1..).zip(text.lines()) {
            if regex.is_match(line) {
                total += 1;
                if shown.len() < max_results {
                    shown.push(format!("{}:{number}: {}", file.relative, cut_line(line)));
                }
            }
        }
        true
    });
    if !completed {
        return Err(ToolError::Failed("grep was cancelled".to_string()));
    }
    if total == 0 {
        let within = glob
            .map(|g| format!(" (files matching `{g}`)"))
            .unwrap_or_default();
        return Ok(ToolOutcome::success(format!(
            "no matches for `{pattern}` in `{path}`{within}"
        )));
    }
    let mut output = shown.join("\n");
    if total > shown.len() {
        output.push_str(&format!(
            "\n[showing the first {} of {total} matching lines; narrow the pattern, path or \
             glob, or raise max_results]",
            shown.len()
        ));
    }
    Ok(ToolOutcome::success(output))
}

/// `line` without surrounding whitespace at the end, cut to [`MAX_LINE_CHARS`] characters.
fn cut_line(line: &str) -> String {
    let line = line.trim_end();
    match line.char_indices().nth(MAX_LINE_CHARS) {
        None => line.to_string(),
        Some((end, _)) => format!("{}… [line cut]", &line[..end]),
    }
}
