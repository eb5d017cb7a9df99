//! Condition parse errors, located within the condition text.

/// What is wrong with a condition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConditionErrorKind {
    /// Nothing but whitespace.
    #[error("the condition is empty")]
    Empty,
    /// A character that starts no token.
    #[error("unexpected `{0}`")]
    UnexpectedChar(char),
    /// `&` or `|` alone.
    #[error("`{0}` is not an operator; write `{0}{0}`")]
    SingleOperator(char),
    /// A quoted value without its closing quote.
    #[error("unterminated string")]
    UnterminatedString,
    /// Something other than a key where a clause starts.
    #[error("expected a key, found {0}")]
    ExpectedKey(String),
    /// A word that cannot be a key.
    #[error("`{0}` is not a valid key; keys are letters, digits, `_`, `-` and `.`")]
    InvalidKey(String),
    /// An operator without a value after it.
    #[error("expected a value after `{op}`, found {found}")]
    ExpectedValue {
        /// The operator as written, e.g. `!=`.
        op: String,
        /// What came instead, the token in backticks, or `the end of the condition`.
        found: String,
    },
    /// `(` without `)`.
    #[error("expected `)`, found {0}")]
    ExpectedCloseParen(String),
    /// Text after a complete expression.
    #[error("expected `&&`, `||` or the end of the condition, found {0}")]
    Trailing(String),
    /// A `matches` pattern that is not a valid regular expression.
    #[error("invalid regular expression: {0}")]
    InvalidRegex(String),
    /// Parentheses or `!` nested too deeply.
    #[error("nested more than {0} levels deep")]
    TooDeep(usize),
}

/// A condition that does not parse, with where in the condition text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {kind}")]
pub struct ConditionError {
    /// What is wrong.
    pub kind: ConditionErrorKind,
    /// Byte offset of the problem in the condition text.
    pub offset: usize,
    /// Length in bytes of the offending text (0 at the end).
    pub len: usize,
    /// 1-based column of the problem, in characters.
    pub column: usize,
}

impl ConditionError {
    pub(super) fn new(source: &str, kind: ConditionErrorKind, offset: usize, len: usize) -> Self {
        let offset = offset.min(source.len());
        let column = source
            .get(..offset)
            .map_or(offset, |prefix| prefix.chars().count())
            + 1;
        ConditionError {
            kind,
            offset,
            len,
            column,
        }
    }
}
