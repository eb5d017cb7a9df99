//! Recursive-descent parser over the token list, building the semantic view with spans.
//!
//! The parser skips trivia, reports what it expected and what it found, recovers at
//! statement and attribute boundaries, and never indexes out of bounds. Nesting of
//! subgraphs is capped at [`MAX_DEPTH`].

mod id;
mod stmt;

use crate::token::{Token, TokenKind};
use crate::{Graph, ParseError, Span};

/// Deepest allowed subgraph nesting.
pub(crate) const MAX_DEPTH: usize = 256;

/// Shown as "found" for a token's text: quoted in backticks, one line, at most 24 chars.
pub(crate) fn describe_text(text: &str) -> String {
    if text == "`" {
        return "a backtick".to_owned();
    }
    let mut out = String::from("`");
    for (n, c) in text.chars().enumerate() {
        if n == 24 {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out.push('`');
    out
}

pub(crate) struct Parser<'a> {
    src: &'a str,
    toks: &'a [Token],
    /// Index of the next token to look at (possibly trivia).
    pos: usize,
    /// End offset of the last consumed non-trivia token.
    prev_end: usize,
    errors: Vec<ParseError>,
    depth: usize,
    directed: bool,
    eof: (u32, u32),
    /// Expected statement count for the first graph body (then 0).
    line_hint: Option<usize>,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a str, toks: &'a [Token], eof: (u32, u32)) -> Self {
        Parser {
            src,
            toks,
            pos: 0,
            prev_end: 0,
            errors: Vec::new(),
            depth: 0,
            directed: true,
            eof,
            line_hint: None,
        }
    }

    /// The token at `i`; past the end, an empty whitespace token at the end of the source.
    fn tok(&self, i: usize) -> Token {
        self.toks.get(i).copied().unwrap_or(Token {
            lo: crate::lexer::offset(self.src.len()),
            hi: crate::lexer::offset(self.src.len()),
            line: self.eof.0,
            col: self.eof.1,
            kind: TokenKind::Whitespace,
            nl_before: true,
        })
    }

    fn text(&self, t: Token) -> &'a str {
        self.src.get(t.start()..t.end()).unwrap_or("")
    }

    /// Skips trivia and returns the index of the current token, `None` at the end.
    fn cur(&mut self) -> Option<usize> {
        while let Some(t) = self.toks.get(self.pos) {
            if !t.kind.is_trivia() {
                return Some(self.pos);
            }
            self.pos += 1;
        }
        None
    }

    fn cur_kind(&mut self) -> Option<TokenKind> {
        self.cur().map(|i| self.tok(i).kind)
    }

    fn at(&mut self, kind: TokenKind) -> bool {
        self.cur_kind() == Some(kind)
    }

    /// Consumes the current token; returns its index.
    fn bump(&mut self) -> Option<usize> {
        let i = self.cur()?;
        self.pos = i + 1;
        self.prev_end = self.tok(i).end();
        Some(i)
    }

    fn eat(&mut self, kind: TokenKind) -> Option<usize> {
        if self.at(kind) { self.bump() } else { None }
    }

    /// The next non-trivia token after index `i`, without moving.
    fn peek_after(&self, i: usize) -> Option<usize> {
        let mut j = i + 1;
        while let Some(t) = self.toks.get(j) {
            if !t.kind.is_trivia() {
                return Some(j);
            }
            j += 1;
        }
        None
    }

    fn kind_after(&self, i: usize) -> Option<TokenKind> {
        self.peek_after(i).map(|j| self.tok(j).kind)
    }

    fn eof_span(&self) -> Span {
        Span {
            start: self.src.len(),
            end: self.src.len(),
            line: self.eof.0,
            column: self.eof.1,
        }
    }

    fn tok_span(&self, i: usize) -> Span {
        let t = self.tok(i);
        Span {
            start: t.start(),
            end: t.end(),
            line: t.line,
            column: t.col,
        }
    }

    /// From the start of token `first` to the end of the last consumed token.
    fn span_from(&self, first: usize) -> Span {
        let t = self.tok(first);
        Span {
            start: t.start(),
            end: self.prev_end.max(t.end()),
            line: t.line,
            column: t.col,
        }
    }

    /// Reports an error at the current token (or the end of the file).
    fn error_at_cur(&mut self, expected: &str) {
        let (span, found) = match self.cur() {
            Some(i) => (self.tok_span(i), describe_text(self.text(self.tok(i)))),
            None => (self.eof_span(), "end of file".to_owned()),
        };
        self.error(span, expected, found);
    }

    /// Records an error, unless one was already reported at the same place (a cascade).
    fn error(&mut self, span: Span, expected: &str, found: String) {
        if self
            .errors
            .last()
            .is_some_and(|e| e.span.start == span.start)
        {
            return;
        }
        self.errors.push(ParseError {
            span,
            expected: expected.to_owned(),
            found,
        });
    }

    /// `graph*` to the end of the file.
    pub(crate) fn parse_file(mut self) -> (Vec<Graph>, Vec<ParseError>) {
        let mut graphs = Vec::new();
        while let Some(i) = self.cur() {
            match self.tok(i).kind {
                TokenKind::KwStrict | TokenKind::KwGraph | TokenKind::KwDigraph => {
                    if let Some(g) = self.parse_graph() {
                        graphs.push(g);
                    }
                    if self.pos <= i {
                        self.bump();
                    }
                }
                _ => {
                    self.error_at_cur("`digraph` or `graph`");
                    self.bump();
                    while let Some(k) = self.cur_kind() {
                        if matches!(
                            k,
                            TokenKind::KwStrict | TokenKind::KwGraph | TokenKind::KwDigraph
                        ) {
                            break;
                        }
                        self.bump();
                    }
                }
            }
        }
        if graphs.is_empty() && self.errors.is_empty() {
            self.error_at_cur("`digraph` or `graph`");
        }
        (graphs, self.errors)
    }

    /// `[strict] (graph|digraph) [id] { stmts }`
    fn parse_graph(&mut self) -> Option<Graph> {
        let start = self.cur()?;
        let strict = self.eat(TokenKind::KwStrict).is_some();
        self.directed = match self.cur_kind() {
            Some(TokenKind::KwDigraph) => true,
            Some(TokenKind::KwGraph) => false,
            _ => {
                self.error_at_cur("`graph` or `digraph`");
                return None;
            }
        };
        self.bump();
        let id = if self.at(TokenKind::LBrace) {
            None
        } else {
            let id = self.parse_node_id();
            if id.is_none() {
                self.error_at_cur("`{` or a graph name");
                return None;
            }
            id
        };
        if self.eat(TokenKind::LBrace).is_none() {
            self.error_at_cur("`{`");
            return None;
        }
        // Most statements start a line: size the first graph's body for that many.
        let capacity = match self.line_hint.replace(0) {
            Some(n) => n,
            None => self.toks.iter().filter(|t| t.nl_before).count(),
        };
        let mut stmts = Vec::with_capacity(capacity.min(1 << 20));
        self.parse_stmt_list(&mut stmts);
        if self.eat(TokenKind::RBrace).is_none() {
            self.error_at_cur("`}`");
        }
        Some(Graph {
            strict,
            directed: self.directed,
            id,
            stmts,
            span: self.span_from(start),
        })
    }
}
