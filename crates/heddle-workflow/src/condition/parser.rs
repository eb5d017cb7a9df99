//! Recursive-descent parser from tokens to an [`Expr`].

use regex::RegexBuilder;

use super::error::{ConditionError, ConditionErrorKind};
use super::lexer::{Tok, Token, lex};
use super::{Clause, Comparison, Expr, MAX_DEPTH, Op, is_outcome_key};
use crate::outcome::canonical_outcome;

/// Largest compiled size of a `matches` pattern.
const REGEX_SIZE_LIMIT: usize = 1 << 20;

pub(super) fn parse(source: &str) -> Result<Expr, ConditionError> {
    let tokens = lex(source)?;
    if tokens.is_empty() {
        return Err(ConditionError::new(
            source,
            ConditionErrorKind::Empty,
            0,
            source.len(),
        ));
    }
    let mut parser = Parser {
        source,
        tokens,
        pos: 0,
        depth: 0,
    };
    let expr = parser.or()?;
    if let Some(token) = parser.peek() {
        let found = token.describe(source);
        return Err(parser.error_at(ConditionErrorKind::Trailing(found), parser.pos));
    }
    Ok(expr)
}

struct Parser<'a> {
    source: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn describe(&self, index: usize) -> String {
        self.tokens.get(index).map_or_else(
            || "the end of the condition".to_owned(),
            |t| t.describe(self.source),
        )
    }

    fn error_at(&self, kind: ConditionErrorKind, index: usize) -> ConditionError {
        match self.tokens.get(index) {
            Some(t) => ConditionError::new(self.source, kind, t.start, t.end - t.start),
            None => ConditionError::new(self.source, kind, self.source.len(), 0),
        }
    }

    fn or(&mut self) -> Result<Expr, ConditionError> {
        let mut items = vec![self.and()?];
        while self.peek().is_some_and(|t| t.tok == Tok::Or) {
            self.pos += 1;
            items.push(self.and()?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Expr::Or(items)
        })
    }

    fn and(&mut self) -> Result<Expr, ConditionError> {
        let mut items = vec![self.unary()?];
        while self.peek().is_some_and(|t| t.tok == Tok::And) {
            self.pos += 1;
            items.push(self.unary()?);
        }
        Ok(if items.len() == 1 {
            items.remove(0)
        } else {
            Expr::And(items)
        })
    }

    fn unary(&mut self) -> Result<Expr, ConditionError> {
        if self.depth >= MAX_DEPTH {
            return Err(self.error_at(ConditionErrorKind::TooDeep(MAX_DEPTH), self.pos));
        }
        let Some(token) = self.peek() else {
            let found = self.describe(self.pos);
            return Err(self.error_at(ConditionErrorKind::ExpectedKey(found), self.pos));
        };
        match token.tok {
            Tok::Not => {
                self.pos += 1;
                self.depth += 1;
                let inner = self.unary();
                self.depth -= 1;
                Ok(Expr::Not(Box::new(inner?)))
            }
            Tok::Open => {
                self.pos += 1;
                self.depth += 1;
                let inner = self.or();
                self.depth -= 1;
                let inner = inner?;
                if self.peek().is_some_and(|t| t.tok == Tok::Close) {
                    self.pos += 1;
                    Ok(inner)
                } else {
                    let found = self.describe(self.pos);
                    Err(self.error_at(ConditionErrorKind::ExpectedCloseParen(found), self.pos))
                }
            }
            Tok::Word(_) => self.clause(),
            _ => {
                let found = self.describe(self.pos);
                Err(self.error_at(ConditionErrorKind::ExpectedKey(found), self.pos))
            }
        }
    }

    fn clause(&mut self) -> Result<Expr, ConditionError> {
        let key_index = self.pos;
        let Some(Token {
            tok: Tok::Word(key),
            start,
            end,
        }) = self.tokens.get(key_index).cloned()
        else {
            let found = self.describe(key_index);
            return Err(self.error_at(ConditionErrorKind::ExpectedKey(found), key_index));
        };
        if !valid_key(&key) {
            return Err(self.error_at(ConditionErrorKind::InvalidKey(key), key_index));
        }
        self.pos += 1;
        let op = match self.peek().map(|t| &t.tok) {
            Some(Tok::Cmp(text)) => Some(cmp_op(text)),
            Some(Tok::Word(word)) if word == "contains" => Some(Op::Contains),
            Some(Tok::Word(word)) if word == "matches" => Some(Op::Matches),
            _ => None,
        };
        let test = match op {
            None => None,
            Some(op) => {
                self.pos += 1;
                Some(self.comparison(&key, op)?)
            }
        };
        Ok(Expr::Clause(Clause {
            key,
            key_span: (start, end),
            test,
        }))
    }

    fn comparison(&mut self, key: &str, op: Op) -> Result<Comparison, ConditionError> {
        let index = self.pos;
        let (value, quoted, span) = match self.tokens.get(index) {
            Some(Token {
                tok: Tok::Word(w),
                start,
                end,
            }) => (w.clone(), false, (*start, *end)),
            Some(Token {
                tok: Tok::Str(s),
                start,
                end,
            }) => (s.clone(), true, (*start, *end)),
            _ => {
                let found = self.describe(index);
                let kind = ConditionErrorKind::ExpectedValue {
                    op: op.as_str().to_owned(),
                    found,
                };
                return Err(self.error_at(kind, index));
            }
        };
        self.pos += 1;
        let regex = if op == Op::Matches {
            let compiled = RegexBuilder::new(&value)
                .size_limit(REGEX_SIZE_LIMIT)
                .build()
                .map_err(|e| {
                    let message = regex_message(&e);
                    self.error_at(ConditionErrorKind::InvalidRegex(message), index)
                })?;
            Some(compiled)
        } else {
            None
        };
        let outcome = if is_outcome_key(key) && matches!(op, Op::Eq | Op::Ne) {
            canonical_outcome(&value)
        } else {
            None
        };
        Ok(Comparison {
            op,
            number: value.trim().parse::<f64>().ok().filter(|n| n.is_finite()),
            value,
            quoted,
            value_span: span,
            outcome,
            regex,
        })
    }
}

/// The last line of the regex crate's message says what is wrong.
fn regex_message(error: &regex::Error) -> String {
    let text = error.to_string();
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map_or(text.clone(), |l| {
            l.trim().trim_start_matches("error: ").to_owned()
        })
}

fn cmp_op(text: &str) -> Op {
    match text {
        "!=" => Op::Ne,
        "<" => Op::Lt,
        ">" => Op::Gt,
        "<=" => Op::Le,
        ">=" => Op::Ge,
        _ => Op::Eq,
    }
}

fn valid_key(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

impl Comparison {
    pub(super) fn regex(&self) -> Option<&regex::Regex> {
        self.regex.as_ref()
    }
}
