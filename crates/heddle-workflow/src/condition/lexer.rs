//! Splits condition text into tokens.

use super::error::{ConditionError, ConditionErrorKind};

/// A token's kind.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    /// A bare word: key, number or value.
    Word(String),
    /// A quoted value, escapes decoded.
    Str(String),
    /// `=`, `==`, `!=`, `<`, `>`, `<=`, `>=`.
    Cmp(&'static str),
    And,
    Or,
    Not,
    Open,
    Close,
}

/// A token with its byte range in the condition text.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    pub tok: Tok,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// How messages name the token.
    pub fn describe(&self, source: &str) -> String {
        format!("`{}`", source.get(self.start..self.end).unwrap_or_default())
    }
}

fn is_word_char(c: char) -> bool {
    !c.is_whitespace()
        && !matches!(
            c,
            '(' | ')' | '!' | '=' | '<' | '>' | '&' | '|' | '"' | '\''
        )
}

/// Tokenizes `source`.
pub(super) fn lex(source: &str) -> Result<Vec<Token>, ConditionError> {
    let mut tokens = Vec::new();
    let mut chars = source.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        let next = chars.peek().map(|(_, c)| *c);
        let mut two = |tok: Tok, tokens: &mut Vec<Token>| {
            chars.next();
            tokens.push(Token {
                tok,
                start,
                end: start + 2,
            });
        };
        match (c, next) {
            (c, _) if c.is_whitespace() => {}
            ('&', Some('&')) => two(Tok::And, &mut tokens),
            ('|', Some('|')) => two(Tok::Or, &mut tokens),
            ('!', Some('=')) => two(Tok::Cmp("!="), &mut tokens),
            ('=', Some('=')) => two(Tok::Cmp("=="), &mut tokens),
            ('<', Some('=')) => two(Tok::Cmp("<="), &mut tokens),
            ('>', Some('=')) => two(Tok::Cmp(">="), &mut tokens),
            ('&' | '|', _) => {
                return Err(ConditionError::new(
                    source,
                    ConditionErrorKind::SingleOperator(c),
                    start,
                    1,
                ));
            }
            _ => {
                let single = match c {
                    '=' => Some(Tok::Cmp("=")),
                    '<' => Some(Tok::Cmp("<")),
                    '>' => Some(Tok::Cmp(">")),
                    '!' => Some(Tok::Not),
                    '(' => Some(Tok::Open),
                    ')' => Some(Tok::Close),
                    _ => None,
                };
                if let Some(tok) = single {
                    tokens.push(Token {
                        tok,
                        start,
                        end: start + 1,
                    });
                } else if c == '"' || c == '\'' {
                    let (text, end) = string(source, start, c, &mut chars)?;
                    tokens.push(Token {
                        tok: Tok::Str(text),
                        start,
                        end,
                    });
                } else {
                    let mut end = start + c.len_utf8();
                    while let Some((i, w)) = chars.peek().copied() {
                        if !is_word_char(w) {
                            break;
                        }
                        end = i + w.len_utf8();
                        chars.next();
                    }
                    tokens.push(Token {
                        tok: Tok::Word(source[start..end].to_owned()),
                        start,
                        end,
                    });
                }
            }
        }
    }
    Ok(tokens)
}

/// Reads a quoted string whose opening `quote` is at `start`; returns the decoded text and
/// the end offset.
fn string(
    source: &str,
    start: usize,
    quote: char,
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
) -> Result<(String, usize), ConditionError> {
    let mut text = String::new();
    while let Some((i, c)) = chars.next() {
        if c == quote {
            return Ok((text, i + 1));
        }
        if c == '\\' {
            match chars.next() {
                Some((_, 'n')) => text.push('\n'),
                Some((_, 't')) => text.push('\t'),
                Some((_, escaped)) if escaped == quote || escaped == '\\' => text.push(escaped),
                Some((_, other)) => {
                    text.push('\\');
                    text.push(other);
                }
                None => break,
            }
        } else {
            text.push(c);
        }
    }
    Err(ConditionError::new(
        source,
        ConditionErrorKind::UnterminatedString,
        start,
        source.len() - start,
    ))
}
