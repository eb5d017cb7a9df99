//! `edit_file { path, old_string, new_string, replace_all? }`: exact-match replacement in
//! an existing text file of the work dir.

use std::path::Path;

use super::ToolOutcome;
use super::arguments::Arguments;
use super::confine::confine;
use super::text_file::read_existing;
use super::tool_error::ToolError;
use heddle_engine::atomic_file::replace_file;

/// The most line numbers listed in a message.
const MAX_LINES_LISTED: usize = 20;

/// Replaces `old_string` by `new_string`: it must occur exactly once, or at least once with
/// `replace_all`. In a file with CRLF line endings, `\n` in both strings stands for `\r\n`
/// when the text as given is not found.
pub(crate) fn edit_file(root: &Path, args: &Arguments<'_>) -> Result<ToolOutcome, ToolError> {
    let path = args.required_str("path")?;
    let old = args.required_str("old_string")?;
    let new = args.required_str("new_string")?;
    let replace_all = args.optional_bool("replace_all")?.unwrap_or(false);
    if old.is_empty() {
        return Err(ToolError::Failed(
            "edit_file: `old_string` is empty; give the exact text to replace (to create a \
             file or replace all of it, use write_file)"
                .to_string(),
        ));
    }
    if old == new {
        return Err(ToolError::Failed(
            "edit_file: `old_string` and `new_string` are identical, so there is nothing to \
             change"
                .to_string(),
        ));
    }
    let file = confine(root, path)?;
    let bytes = read_existing(&file, path)?;
    let content = String::from_utf8(bytes).map_err(|_| {
        ToolError::Failed(format!(
            "`{path}` is not valid UTF-8 text, so it cannot be edited safely; use write_file \
             to replace it whole"
        ))
    })?;

    let crlf_only = !content.contains(old)
        && content.contains("\r\n")
        && old.contains('\n')
        && !old.contains("\r\n");
    let (old, new) = if crlf_only {
        (old.replace('\n', "\r\n"), new.replace('\n', "\r\n"))
    } else {
        (old.to_string(), new.to_string())
    };
    let lines = match_lines(&content, &old);
    if lines.is_empty() {
        return Err(ToolError::Failed(format!(
            "`old_string` was not found in `{path}`. It must match the file exactly, \
             including whitespace, indentation and line breaks. Read the file again with \
             read_file and copy the text exactly as it is now (without the line-number prefixes)."
        )));
    }
    if lines.len() > 1 && !replace_all {
        return Err(ToolError::Failed(format!(
            "`old_string` occurs {} times in `{path}` ({}), so it is not clear which to \
             replace. Include more surrounding lines in `old_string` so that it matches \
             exactly one place, or set `replace_all` to true to replace every occurrence.",
            lines.len(),
            describe_lines(&lines)
        )));
    }
    let updated = if replace_all {
        content.replace(&old, &new)
    } else {
        content.replacen(&old, &new, 1)
    };
    replace_file(&file.path, updated.as_bytes(), false)
        .map_err(|e| ToolError::Failed(format!("cannot write `{path}`: {e}")))?;
    let count = lines.len();
    let occurrences = if count == 1 {
        "1 occurrence".to_string()
    } else {
        format!("{count} occurrences")
    };
    Ok(ToolOutcome {
        output: format!(
            "replaced {occurrences} in `{}` ({})",
            file.relative,
            describe_lines(&lines)
        ),
        is_error: false,
        touched: vec![file.relative],
    })
}

/// The 1-based line number where each (non-overlapping) occurrence of `needle` starts.
fn match_lines(content: &str, needle: &str) -> Vec<usize> {
    let mut lines = Vec::new();
    let mut line = 1;
    let mut scanned = 0;
    for (start, _) in content.match_indices(needle) {
        line += content[scanned..start].matches('\n').count();
        scanned = start;
        lines.push(line);
    }
    lines
}

/// `at line 4` or `at lines 4, 10 and 22`, listing at most [`MAX_LINES_LISTED`].
fn describe_lines(lines: &[usize]) -> String {
    let shown: Vec<String> = lines
        .iter()
        .take(MAX_LINES_LISTED)
        .map(ToString::to_string)
        .collect();
    match shown.as_slice() {
        [one] => format!("at line {one}"),
        [first @ .., last] if lines.len() <= MAX_LINES_LISTED => {
            format!("at lines {} and {last}", first.join(", "))
        }
        _ => format!(
            "at lines {}, and {} more",
            shown.join(", "),
            lines.len() - shown.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_of_matches() {
        assert_eq!(match_lines("a\nx\nb\nx x\n", "x"), vec![2, 4, 4]);
        assert_eq!(match_lines("abc", "z"), Vec::<usize>::new());
    }

    #[test]
    fn line_lists() {
        assert_eq!(describe_lines(&[3]), "at line 3");
        assert_eq!(describe_lines(&[3, 5, 9]), "at lines 3, 5 and 9");
        let many: Vec<usize> = (1..=25).collect();
        assert!(describe_lines(&many).ends_with("20, and 5 more"));
    }
}
