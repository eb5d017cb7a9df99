//! Parse errors and their rendering with the source line and a caret.

use crate::Span;

/// A syntax error. The parser recovers, so one parse can report several.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: expected {expected}, found {found}", line = span.line, column = span.column)]
pub struct ParseError {
    /// Where the unexpected text is.
    pub span: Span,
    /// What the parser expected, e.g. "`]` or an attribute".
    pub expected: String,
    /// What it found, e.g. "`;`" or "end of file".
    pub found: String,
}

/// Renders `source`'s line containing `span` with a caret line under the span, e.g.
///
/// ```text
///  --> flow.dot:3:12
///   |
/// 3 |   a -> b [label="x"
///   |          ^^^^^^^^^^^
/// ```
///
/// `path` is shown in the `-->` line. Tabs are kept so the caret lines up. A span that runs
/// past its line is underlined to the end of the line; an empty span gets one caret. Never
/// panics, whatever the span.
pub fn snippet(source: &str, path: &str, span: Span) -> String {
    let mut start = span.start.min(source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    let before = source.get(..start).unwrap_or("");
    let after = source.get(start..).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = after.find('\n').map_or(source.len(), |i| start + i);
    let line_text = source
        .get(line_start..line_end)
        .unwrap_or("")
        .trim_end_matches('\r');
    let prefix: String = source
        .get(line_start..start)
        .unwrap_or("")
        .chars()
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let end = span.end.min(line_start + line_text.len()).max(start);
    let width = source
        .get(start..end)
        .map_or(1, |s| s.chars().count().max(1));
    let gutter = span.line.to_string().len();
    let pad = " ".repeat(gutter);
    format!(
        "{pad}--> {path}:{line}:{col}\n{pad} |\n{line} | {line_text}\n{pad} | {prefix}{carets}\n",
        line = span.line,
        col = span.column,
        carets = "^".repeat(width),
    )
}
