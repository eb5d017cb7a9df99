//! Tokens of the lossless token list. Every byte of the source belongs to exactly one token,
//! trivia (whitespace, comments) and lexical errors included.

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenKind {
    /// Spaces, tabs, newlines (and a leading byte-order mark).
    Whitespace,
    /// `// ...` up to (not including) the end of the line.
    LineComment,
    /// `/* ... */`.
    BlockComment,
    /// `# ...` at the start of a line, up to the end of the line.
    Preproc,
    /// `[A-Za-z_\x80-][A-Za-z0-9_\x80-]*` that is not a keyword.
    Ident,
    /// `-?(\.[0-9]+|[0-9]+(\.[0-9]*)?)`
    Numeral,
    /// One `"..."` string.
    Quoted,
    /// `<...>` with balanced angle brackets.
    Html,
    /// `strict` (any case).
    KwStrict,
    /// `graph` (any case).
    KwGraph,
    /// `digraph` (any case).
    KwDigraph,
    /// `node` (any case).
    KwNode,
    /// `edge` (any case).
    KwEdge,
    /// `subgraph` (any case).
    KwSubgraph,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `;`
    Semi,
    /// `,`
    Comma,
    /// `=`
    Eq,
    /// `:`
    Colon,
    /// `+`
    Plus,
    /// `->`
    Arrow,
    /// `--`
    DashDash,
    /// A `.` that does not start a numeral.
    Dot,
    /// A `-` that starts neither a numeral nor an edge operator.
    Minus,
    /// A `/` that does not start a comment.
    Slash,
    /// `@` (only meaningful inside the dialect's bare values).
    At,
    /// A byte that starts no DOT token (reported by the lexer).
    Unknown,
    /// `"...` running to the end of the file (reported by the lexer).
    UnterminatedString,
    /// `/* ...` running to the end of the file (reported by the lexer).
    UnterminatedComment,
    /// `<...` running to the end of the file (reported by the lexer).
    UnterminatedHtml,
}

impl TokenKind {
    /// Tokens the parser skips: whitespace, comments and lexical errors that the lexer has
    /// already reported.
    pub(crate) fn is_trivia(self) -> bool {
        matches!(
            self,
            TokenKind::Whitespace
                | TokenKind::LineComment
                | TokenKind::BlockComment
                | TokenKind::Preproc
                | TokenKind::Unknown
                | TokenKind::UnterminatedComment
        )
    }

    /// `strict`, `graph`, `digraph`, `node`, `edge` or `subgraph`.
    pub(crate) fn is_keyword(self) -> bool {
        matches!(
            self,
            TokenKind::KwStrict
                | TokenKind::KwGraph
                | TokenKind::KwDigraph
                | TokenKind::KwNode
                | TokenKind::KwEdge
                | TokenKind::KwSubgraph
        )
    }

    /// Tokens that can be part of the dialect's bare run (`gpt-5.2`, `30s`, `a.b`, `x:y`).
    pub(crate) fn in_bare_run(self) -> bool {
        matches!(
            self,
            TokenKind::Ident
                | TokenKind::Numeral
                | TokenKind::Dot
                | TokenKind::Minus
                | TokenKind::Slash
                | TokenKind::Colon
                | TokenKind::At
        ) || self.is_keyword()
    }
}

/// One token: its kind and where it is. Offsets are `u32` to keep the token list small
/// (inputs over 4 GiB are not tokenized, see [`crate::parse`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    /// Byte offset of the first byte.
    pub lo: u32,
    /// Byte offset one past the last byte.
    pub hi: u32,
    /// 1-based line of `lo`.
    pub line: u32,
    /// 1-based column of `lo`, in characters.
    pub col: u32,
    pub kind: TokenKind,
    /// A newline (or the start of the file) lies between the previous non-trivia token and
    /// this one. Used for error recovery.
    pub nl_before: bool,
}

impl Token {
    /// Byte offset of the first byte.
    #[inline]
    pub(crate) fn start(&self) -> usize {
        self.lo as usize
    }

    /// Byte offset one past the last byte.
    #[inline]
    pub(crate) fn end(&self) -> usize {
        self.hi as usize
    }
}
