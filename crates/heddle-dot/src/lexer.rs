//! Byte-level lexer producing the lossless token list.
//!
//! Token boundaries always fall on ASCII bytes or the end of the input (every byte >= 0x80
//! belongs to an identifier, a string, a comment or whitespace), so slicing the source at
//! token boundaries never splits a UTF-8 character.

use crate::token::{Token, TokenKind};
use crate::{ParseError, Span};

/// The token list and the lexical errors found.
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub errors: Vec<ParseError>,
    /// Line and column just past the last byte (where "end of file" is reported).
    pub eof: (u32, u32),
}

const KEYWORDS: [(&[u8], TokenKind); 6] = [
    (b"strict", TokenKind::KwStrict),
    (b"graph", TokenKind::KwGraph),
    (b"digraph", TokenKind::KwDigraph),
    (b"node", TokenKind::KwNode),
    (b"edge", TokenKind::KwEdge),
    (b"subgraph", TokenKind::KwSubgraph),
];

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

fn keyword(text: &[u8]) -> TokenKind {
    if (4..=8).contains(&text.len()) {
        for (kw, kind) in KEYWORDS {
            if text.eq_ignore_ascii_case(kw) {
                return kind;
            }
        }
    }
    TokenKind::Ident
}

fn at(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(0)
}

/// Index of the end of the line starting the scan at `i`: the position of `\n`, or of the
/// `\r` of a `\r\n`, or the end of the input.
fn line_end(bytes: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < bytes.len() && bytes[j] != b'\n' {
        j += 1;
    }
    if j < bytes.len() && j > i && bytes[j - 1] == b'\r' {
        j - 1
    } else {
        j
    }
}

/// End of a numeral starting at `i` (which holds `-`, `.` or a digit), if it is one.
fn numeral_end(bytes: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    if at(bytes, j) == b'-' {
        j += 1;
    }
    if at(bytes, j).is_ascii_digit() {
        while at(bytes, j).is_ascii_digit() {
            j += 1;
        }
        if at(bytes, j) == b'.' {
            j += 1;
            while at(bytes, j).is_ascii_digit() {
                j += 1;
            }
        }
        Some(j)
    } else if at(bytes, j) == b'.' && at(bytes, j + 1).is_ascii_digit() {
        j += 1;
        while at(bytes, j).is_ascii_digit() {
            j += 1;
        }
        Some(j)
    } else {
        None
    }
}

/// Scans one token at `i` (not at the end). Returns its kind and end.
fn scan(bytes: &[u8], i: usize, at_line_start: bool) -> (TokenKind, usize) {
    let b = at(bytes, i);
    let next = at(bytes, i + 1);
    match b {
        b if is_space(b) => {
            let mut j = i + 1;
            while j < bytes.len() && is_space(bytes[j]) {
                j += 1;
            }
            (TokenKind::Whitespace, j)
        }
        b if is_ident_start(b) => {
            let mut j = i + 1;
            while j < bytes.len() && is_ident_continue(bytes[j]) {
                j += 1;
            }
            (keyword(bytes.get(i..j).unwrap_or_default()), j)
        }
        b'"' => {
            let mut j = i + 1;
            while j < bytes.len() {
                match bytes[j] {
                    b'"' => return (TokenKind::Quoted, j + 1),
                    b'\\' => j += 2,
                    _ => j += 1,
                }
            }
            (TokenKind::UnterminatedString, bytes.len())
        }
        b'<' => {
            let mut depth = 0usize;
            for (j, &c) in bytes.iter().enumerate().skip(i) {
                if c == b'<' {
                    depth += 1;
                } else if c == b'>' {
                    depth -= 1;
                    if depth == 0 {
                        return (TokenKind::Html, j + 1);
                    }
                }
            }
            (TokenKind::UnterminatedHtml, bytes.len())
        }
        b'/' if next == b'/' => (TokenKind::LineComment, line_end(bytes, i)),
        b'/' if next == b'*' => {
            let mut j = i + 2;
            while j + 1 < bytes.len() {
                if bytes[j] == b'*' && bytes[j + 1] == b'/' {
                    return (TokenKind::BlockComment, j + 2);
                }
                j += 1;
            }
            (TokenKind::UnterminatedComment, bytes.len())
        }
        b'#' if at_line_start => (TokenKind::Preproc, line_end(bytes, i)),
        b'-' if next == b'>' => (TokenKind::Arrow, i + 2),
        b'-' if next == b'-' => (TokenKind::DashDash, i + 2),
        b'-' | b'.' | b'0'..=b'9' => match numeral_end(bytes, i) {
            Some(end) => (TokenKind::Numeral, end),
            None if b == b'-' => (TokenKind::Minus, i + 1),
            None => (TokenKind::Dot, i + 1),
        },
        b'{' => (TokenKind::LBrace, i + 1),
        b'}' => (TokenKind::RBrace, i + 1),
        b'[' => (TokenKind::LBracket, i + 1),
        b']' => (TokenKind::RBracket, i + 1),
        b';' => (TokenKind::Semi, i + 1),
        b',' => (TokenKind::Comma, i + 1),
        b'=' => (TokenKind::Eq, i + 1),
        b':' => (TokenKind::Colon, i + 1),
        b'+' => (TokenKind::Plus, i + 1),
        b'/' => (TokenKind::Slash, i + 1),
        b'@' => (TokenKind::At, i + 1),
        _ => (TokenKind::Unknown, i + 1),
    }
}

/// Describes a lexical error token, or `None` for valid tokens.
fn lexical_error(kind: TokenKind, text: &str) -> Option<(String, String)> {
    let eof = || "end of file".to_owned();
    match kind {
        TokenKind::UnterminatedString => Some(("`\"` to close the string".to_owned(), eof())),
        TokenKind::UnterminatedComment => Some(("`*/` to close the comment".to_owned(), eof())),
        TokenKind::UnterminatedHtml => Some(("`>` to close the HTML string".to_owned(), eof())),
        TokenKind::Unknown => Some(("a DOT token".to_owned(), crate::parser::describe_text(text))),
        _ => None,
    }
}

/// Splits `src` into tokens covering every byte.
pub(crate) fn lex(src: &str) -> Lexed {
    let bytes = src.as_bytes();
    let mut tokens = Vec::with_capacity(bytes.len() / 4 + 4);
    let mut errors = Vec::new();
    let (mut line, mut col) = (1u32, 1u32);
    let mut i = 0usize;
    let mut at_line_start = true;
    let mut nl_pending = true;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        tokens.push(Token {
            start: 0,
            end: 3,
            line,
            col,
            kind: TokenKind::Whitespace,
            nl_before: true,
        });
        col += 1;
        i = 3;
    }
    while i < bytes.len() {
        let (kind, end) = scan(bytes, i, at_line_start);
        let end = end.clamp(i + 1, bytes.len());
        let text = bytes.get(i..end).unwrap_or_default();
        let trivia = kind.is_trivia();
        tokens.push(Token {
            start: i,
            end,
            line,
            col,
            kind,
            nl_before: !trivia && nl_pending,
        });
        if let Some((expected, found)) = lexical_error(kind, src.get(i..end).unwrap_or("")) {
            let err_end = if kind == TokenKind::Unknown { end } else { i + 1 };
            errors.push(ParseError {
                span: Span {
                    start: i,
                    end: err_end,
                    line,
                    column: col,
                },
                expected,
                found,
            });
        }
        let mut saw_newline = false;
        for &c in text {
            if c == b'\n' {
                line = line.saturating_add(1);
                col = 1;
                saw_newline = true;
            } else if c & 0xC0 != 0x80 {
                col = col.saturating_add(1);
            }
        }
        if trivia {
            nl_pending |= saw_newline;
        } else {
            nl_pending = saw_newline;
        }
        at_line_start = kind == TokenKind::Whitespace && (at_line_start || saw_newline);
        i = end;
    }
    Lexed {
        tokens,
        errors,
        eof: (line, col),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn kinds(src: &str) -> Vec<(TokenKind, &str)> {
        lex(src)
            .tokens
            .iter()
            .filter(|t| t.kind != TokenKind::Whitespace)
            .map(|t| (t.kind, &src[t.start..t.end]))
            .collect()
    }

    #[test]
    fn numerals_and_bare_parts() {
        use TokenKind::*;
        assert_eq!(
            kinds("-.5 1. 42 gpt-5.2 30s a->b a--b"),
            vec![
                (Numeral, "-.5"),
                (Numeral, "1."),
                (Numeral, "42"),
                (Ident, "gpt"),
                (Numeral, "-5.2"),
                (Numeral, "30"),
                (Ident, "s"),
                (Ident, "a"),
                (Arrow, "->"),
                (Ident, "b"),
                (Ident, "a"),
                (DashDash, "--"),
                (Ident, "b"),
            ]
        );
    }

    #[test]
    fn preproc_only_at_line_start() {
        use TokenKind::*;
        assert_eq!(
            kinds("  # x\r\na # y"),
            vec![(Preproc, "# x"), (Ident, "a"), (Unknown, "#"), (Ident, "y")]
        );
    }

    #[test]
    fn keywords_any_case() {
        use TokenKind::*;
        assert_eq!(
            kinds("DiGraph NODE edges"),
            vec![(KwDigraph, "DiGraph"), (KwNode, "NODE"), (Ident, "edges")]
        );
    }
}
