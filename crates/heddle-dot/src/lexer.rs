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

const SPACE: u8 = 1;
const IDENT_START: u8 = 2;
const IDENT_CONTINUE: u8 = 4;

/// Byte classes, looked up instead of compared in the hot loops.
const CLASSES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            table[b] = SPACE;
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            table[b] = IDENT_START | IDENT_CONTINUE;
        } else if c.is_ascii_digit() {
            table[b] = IDENT_CONTINUE;
        }
        b += 1;
    }
    table
};

fn class(b: u8) -> u8 {
    CLASSES[b as usize]
}

fn is_ident_start(b: u8) -> bool {
    class(b) & IDENT_START != 0
}

fn is_ident_continue(b: u8) -> bool {
    class(b) & IDENT_CONTINUE != 0
}

fn is_space(b: u8) -> bool {
    class(b) & SPACE != 0
}

fn keyword(text: &[u8]) -> TokenKind {
    // Most identifiers are not keywords: rule them out by length and first letter.
    let candidate = match (text.len(), text.first().map(u8::to_ascii_lowercase)) {
        (4, Some(b'n')) => 3,
        (4, Some(b'e')) => 4,
        (5, Some(b'g')) => 1,
        (6, Some(b's')) => 0,
        (7, Some(b'd')) => 2,
        (8, Some(b's')) => 5,
        _ => return TokenKind::Ident,
    };
    match KEYWORDS.get(candidate) {
        Some(&(kw, kind)) if text.eq_ignore_ascii_case(kw) => kind,
        _ => TokenKind::Ident,
    }
}

fn at(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(0)
}

/// Index of the end of the line starting the scan at `i`: the position of `\n`, or of the
/// `\r` of a `\r\n`, or the end of the input.
fn line_end(bytes: &[u8], i: usize) -> usize {
    let j = bytes
        .get(i..)
        .and_then(|rest| memchr::memchr(b'\n', rest))
        .map_or(bytes.len(), |k| i + k);
    if j > i && bytes.get(j - 1) == Some(&b'\r') && j < bytes.len() {
        j - 1
    } else {
        j
    }
}

/// Characters (not bytes) in `text`.
fn char_count(text: &[u8]) -> u32 {
    let n = if text.is_ascii() {
        text.len()
    } else {
        text.iter().filter(|&&b| b & 0xC0 != 0x80).count()
    };
    u32::try_from(n).unwrap_or(u32::MAX)
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
            while let Some(k) = bytes
                .get(j..)
                .and_then(|rest| memchr::memchr2(b'"', b'\\', rest))
            {
                let p = j + k;
                if bytes[p] == b'"' {
                    return (TokenKind::Quoted, p + 1);
                }
                j = p + 2;
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
        b'/' if next == b'*' => match bytes
            .get(i + 2..)
            .and_then(|rest| memchr::memmem::find(rest, b"*/"))
        {
            Some(k) => (TokenKind::BlockComment, i + 2 + k + 2),
            None => (TokenKind::UnterminatedComment, bytes.len()),
        },
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
fn lexical_error<'a>(kind: TokenKind, text: impl FnOnce() -> &'a str) -> Option<(String, String)> {
    let eof = || "end of file".to_owned();
    match kind {
        TokenKind::UnterminatedString => Some(("`\"` to close the string".to_owned(), eof())),
        TokenKind::UnterminatedComment => Some(("`*/` to close the comment".to_owned(), eof())),
        TokenKind::UnterminatedHtml => Some(("`>` to close the HTML string".to_owned(), eof())),
        TokenKind::Unknown => {
            let found = text();
            let expected = if found == "#" {
                // Graphviz reads `#` as a comment only where a line starts.
                "a DOT token (`#` starts a comment only at the start of a line; use `//` after code)"
            } else {
                "a DOT token"
            };
            Some((expected.to_owned(), crate::parser::describe_text(found)))
        }
        _ => None,
    }
}

/// Largest input the lexer tokenizes (offsets are `u32`).
pub(crate) const MAX_LEN: usize = u32::MAX as usize;

/// A byte offset as stored in a token (inputs are at most [`MAX_LEN`] bytes).
pub(crate) fn offset(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Splits `src` into tokens covering every byte (none for inputs over [`MAX_LEN`]).
pub(crate) fn lex(src: &str) -> Lexed {
    let bytes = src.as_bytes();
    if bytes.len() > MAX_LEN {
        return Lexed {
            tokens: Vec::new(),
            errors: vec![ParseError {
                span: Span {
                    start: 0,
                    end: 0,
                    line: 1,
                    column: 1,
                },
                expected: "a file of at most 4 GiB".to_owned(),
                found: "a larger file".to_owned(),
            }],
            eof: (1, 1),
        };
    }
    let mut tokens = Vec::with_capacity(bytes.len() / 4 + 4);
    let mut errors = Vec::new();
    let (mut line, mut col) = (1u32, 1u32);
    let mut i = 0usize;
    let mut at_line_start = true;
    let mut nl_pending = true;
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        tokens.push(Token {
            lo: 0,
            hi: 3,
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
            lo: offset(i),
            hi: offset(end),
            line,
            col,
            kind,
            nl_before: !trivia && nl_pending,
        });
        if let Some((expected, found)) = lexical_error(kind, || src.get(i..end).unwrap_or("")) {
            let err_end = if kind == TokenKind::Unknown {
                end
            } else {
                i + 1
            };
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
        let multiline = matches!(
            kind,
            TokenKind::Whitespace
                | TokenKind::Quoted
                | TokenKind::Html
                | TokenKind::BlockComment
                | TokenKind::UnterminatedString
                | TokenKind::UnterminatedHtml
                | TokenKind::UnterminatedComment
        );
        let last_newline = match text.len() {
            _ if !multiline => None,
            0..=32 => text.iter().rposition(|&c| c == b'\n'),
            _ => memchr::memrchr(b'\n', text),
        };
        match last_newline {
            Some(last) => {
                let count = text.iter().filter(|&&c| c == b'\n').count();
                line = line.saturating_add(u32::try_from(count).unwrap_or(u32::MAX));
                col = 1 + char_count(text.get(last + 1..).unwrap_or_default());
                saw_newline = true;
            }
            None => col = col.saturating_add(char_count(text)),
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
            .map(|t| (t.kind, &src[t.start()..t.end()]))
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
