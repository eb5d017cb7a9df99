//! `read_file { path, offset?, limit? }`: a text file of the work dir with line numbers.

use std::path::Path;

use super::ToolOutcome;
use super::arguments::Arguments;
use super::confine::confine;
use super::text_file::read_existing;
use super::tool_error::ToolError;

/// Lines shown when the model gives no `limit`.
const DEFAULT_LINES: u64 = 2000;
/// Longer lines are cut to this many characters.
const MAX_LINE_CHARS: usize = 2000;

/// Reads the file: each line as `{number:>6}\t{text}`, from `offset` (1-based, default 1)
/// for `limit` lines (default [`DEFAULT_LINES`]), with a note when more follows.
pub(crate) fn read_file(root: &Path, args: &Arguments<'_>) -> Result<ToolOutcome, ToolError> {
    let path = args.required_str("path")?;
    let offset = args.optional_count("offset")?.unwrap_or(1);
    let limit = args.optional_count("limit")?.unwrap_or(DEFAULT_LINES);
    let file = confine(root, path)?;
    let bytes = read_existing(&file, path)?;
    let (text, lossy_note) = match String::from_utf8(bytes) {
        Ok(text) => (text, ""),
        Err(e) => (
            String::from_utf8_lossy(e.as_bytes()).into_owned(),
            "\n[the file is not valid UTF-8; invalid bytes are shown as \u{FFFD}]",
        ),
    };
    if text.is_empty() {
        return Ok(ToolOutcome::success(format!("(`{path}` is empty)")));
    }
    let total = text.lines().count() as u64;
    if offset > total {
        return Err(ToolError::Failed(format!(
            "offset {offset} is past the end of `{path}`, which has {total} line{}; use an \
             offset from 1 to {total}",
            if total == 1 { "" } else { "s" }
        )));
    }
    let mut output = String::new();
    let mut last = offset;
    let skip = usize::try_from(offset - 1).unwrap_or(usize::MAX);
    let take = usize::try_from(limit).unwrap_or(usize::MAX);
    for (number, line) in (offset..).zip(text.lines().skip(skip).take(take)) {
        last = number;
        output.push_str(&format!("{number:>6}\t{}\n", cut_line(line)));
    }
    if last < total {
        output.push_str(&format!(
            "[showing lines {offset}-{last} of {total}; call read_file with offset={} to read on]\n",
            last + 1
        ));
    }
    output.push_str(lossy_note);
    Ok(ToolOutcome::success(output))
}

/// `line`, cut to [`MAX_LINE_CHARS`] characters with a note when longer.
fn cut_line(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        None => line.to_string(),
        Some((end, _)) => format!(
            "{}… [line cut: {} characters in all]",
            &line[..end],
            line.chars().count()
        ),
    }
}
