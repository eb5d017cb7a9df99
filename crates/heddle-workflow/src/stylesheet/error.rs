//! Stylesheet parse errors.

/// What is wrong with a stylesheet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StylesheetErrorKind {
    /// Something other than a selector where a rule starts.
    #[error("expected a selector (`*`, a shape, `.class` or `#id`), found {0}")]
    ExpectedSelector(String),
    /// `.` or `#` without a name.
    #[error("expected a name after `{0}`")]
    ExpectedName(char),
    /// Selectors not followed by `{`.
    #[error("expected `{{` or `,` after the selector, found {0}")]
    ExpectedOpenBrace(String),
    /// Something other than a property name in a rule body.
    #[error("expected a property name or `}}`, found {0}")]
    ExpectedProperty(String),
    /// A property name not followed by `:`.
    #[error("expected `:` after `{0}`")]
    ExpectedColon(String),
    /// `property:` with nothing after it.
    #[error("expected a value for `{0}`")]
    ExpectedValue(String),
    /// A rule body that never closes.
    #[error("unclosed `{{`: expected `}}` before the end of the stylesheet")]
    UnclosedRule,
    /// A quoted value that never closes.
    #[error("unterminated string")]
    UnterminatedString,
    /// A `/*` comment that never closes.
    #[error("unterminated comment")]
    UnterminatedComment,
}

/// A stylesheet error with its place in the stylesheet text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct StylesheetError {
    /// What is wrong.
    pub kind: StylesheetErrorKind,
    /// Byte offset in the stylesheet text.
    pub offset: usize,
    /// Length in bytes of the offending text (0 at the end).
    pub len: usize,
    /// 1-based line within the stylesheet.
    pub line: usize,
    /// 1-based column within that line, in characters.
    pub column: usize,
}

impl StylesheetError {
    pub(super) fn new(source: &str, kind: StylesheetErrorKind, offset: usize, len: usize) -> Self {
        let offset = offset.min(source.len());
        let before = source.get(..offset).unwrap_or_default();
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        StylesheetError {
            kind,
            offset,
            len,
            line,
            column,
        }
    }
}
