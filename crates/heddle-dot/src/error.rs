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
///   --> flow.dot:3:12
///    |
///  3 |   a -> b [label="x"
///    |            ^^^^^^^^^
/// ```
///
/// `path` is shown in the `-->` line. Tabs are kept so the caret lines up.
pub fn snippet(source: &str, path: &str, span: Span) -> String {
    let line_start = source[..span.start.min(source.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let line_end = source[line_start..]
        .find('\n')
        .map_or(source.len(), |i| line_start + i);
    let line_text = source[line_start..line_end].trim_end_matches('\r');
    let prefix: String = line_text
        .chars()
        .take(span.column.saturating_sub(1) as usize)
        .map(|c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let span_end_on_line = span.end.min(line_start + line_text.len()).max(span.start);
    let width = source
        .get(span.start.min(source.len())..span_end_on_line.min(source.len()))
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
