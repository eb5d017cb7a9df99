//! Identifiers (plain, numeral, quoted with `+` concatenation, HTML, the dialect's bare
//! runs), ports and attribute lists.

use super::{Parser, describe_text};
use crate::token::TokenKind;
use crate::{Attr, Id, IdKind, Port, Span};

const COMPASS: [&str; 10] = ["n", "ne", "e", "se", "s", "sw", "w", "nw", "c", "_"];

/// Appends the Graphviz value of a quoted string's inside: `\"` becomes `"`,
/// backslash-newline disappears, every other escape (`\\` included) is kept verbatim.
pub(crate) fn push_quoted_value(raw: &str, out: &mut String) {
    let bytes = raw.as_bytes();
    let (mut last, mut i) = (0, 0);
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        match bytes.get(i + 1) {
            Some(b'"') => {
                out.push_str(raw.get(last..i).unwrap_or(""));
                out.push('"');
                i += 2;
                last = i;
            }
            Some(b'\n') => {
                out.push_str(raw.get(last..i).unwrap_or(""));
                i += 2;
                last = i;
            }
            Some(b'\\') => i += 2,
            _ => i += 1,
        }
    }
    out.push_str(raw.get(last..).unwrap_or(""));
}

fn is_string(kind: TokenKind) -> bool {
    matches!(kind, TokenKind::Quoted | TokenKind::UnterminatedString)
}

fn is_html(kind: TokenKind) -> bool {
    matches!(kind, TokenKind::Html | TokenKind::UnterminatedHtml)
}

impl Parser<'_> {
    /// Index of the last token of the id starting at token `i` (a bare run or a `+` chain).
    pub(super) fn id_end(&self, i: usize) -> usize {
        let kind = self.tok(i).kind;
        let mut last = i;
        if kind.in_bare_run() {
            while self
                .toks
                .get(last + 1)
                .is_some_and(|t| t.kind.in_bare_run())
            {
                last += 1;
            }
        } else if is_string(kind) {
            while let Some(plus) = self.peek_after(last) {
                if self.tok(plus).kind != TokenKind::Plus {
                    break;
                }
                match self.peek_after(plus) {
                    Some(next) if is_string(self.tok(next).kind) => last = next,
                    _ => break,
                }
            }
        }
        last
    }

    fn make_id(&self, kind: IdKind, first: usize, value: String) -> Id {
        Id {
            kind,
            value,
            span: self.span_from(first),
        }
    }

    /// A node or graph id: identifier, numeral, quoted string or HTML string.
    pub(super) fn parse_node_id(&mut self) -> Option<Id> {
        let i = self.cur()?;
        match self.tok(i).kind {
            TokenKind::Ident => self.single(IdKind::Identifier),
            TokenKind::Numeral => {
                self.report_glued_number(i);
                self.single(IdKind::Numeral)
            }
            k if is_string(k) => self.parse_quoted(),
            k if is_html(k) => self.parse_html(),
            _ => None,
        }
    }

    /// A numeral with an identifier glued to it (`2fast`) reads as two ids, as in Graphviz;
    /// that is almost never what the author meant, so it is reported (and parsing goes on).
    fn report_glued_number(&mut self, numeral: usize) {
        let number = self.tok(numeral);
        let next = self.tok(numeral + 1);
        if next.kind != TokenKind::Ident || next.lo != number.hi {
            return;
        }
        let glued = self.src.get(number.start()..next.end()).unwrap_or("");
        let expected = format!(
            "a space or quotes (`\"{glued}\"`) after the number `{}`",
            self.text(number)
        );
        let span = Span {
            start: number.start(),
            end: next.end(),
            line: number.line,
            column: number.col,
        };
        self.error(span, &expected, describe_text(glued));
    }

    /// A key or value: like a node id, plus the dialect's bare runs (`gpt-5.2`, `a.b`).
    pub(super) fn parse_relaxed_id(&mut self) -> Option<Id> {
        let i = self.cur()?;
        match self.tok(i).kind {
            k if is_string(k) => self.parse_quoted(),
            k if is_html(k) => self.parse_html(),
            k if k.in_bare_run() => self.parse_run(),
            _ => None,
        }
    }

    fn single(&mut self, kind: IdKind) -> Option<Id> {
        let i = self.bump()?;
        let value = self.text(self.tok(i)).to_owned();
        Some(self.make_id(kind, i, value))
    }

    fn parse_run(&mut self) -> Option<Id> {
        let first = self.cur()?;
        let last = self.id_end(first);
        let first_tok = self.tok(first);
        let last_tok = self.tok(last);
        self.pos = last + 1;
        self.prev_end = last_tok.end();
        let kind = match first_tok.kind {
            _ if last != first => IdKind::Bare,
            TokenKind::Ident => IdKind::Identifier,
            TokenKind::Numeral => IdKind::Numeral,
            _ => IdKind::Bare,
        };
        let value = self
            .src
            .get(first_tok.start()..last_tok.end())
            .unwrap_or("")
            .to_owned();
        Some(self.make_id(kind, first, value))
    }

    fn parse_html(&mut self) -> Option<Id> {
        let i = self.bump()?;
        let t = self.tok(i);
        let close = usize::from(t.kind == TokenKind::Html);
        let value = self
            .src
            .get(t.start() + 1..t.end() - close)
            .unwrap_or("")
            .to_owned();
        Some(self.make_id(IdKind::Html, i, value))
    }

    /// `"a"` or `"a" + "b" + ...`.
    fn parse_quoted(&mut self) -> Option<Id> {
        let first = self.bump()?;
        let mut value = String::with_capacity(self.tok(first).end() - self.tok(first).start());
        let mut part = first;
        loop {
            let t = self.tok(part);
            let close = usize::from(t.kind == TokenKind::Quoted);
            push_quoted_value(
                self.src.get(t.start() + 1..t.end() - close).unwrap_or(""),
                &mut value,
            );
            if !self.at(TokenKind::Plus) {
                break;
            }
            self.bump();
            match self.cur_kind() {
                Some(k) if is_string(k) => part = self.bump().unwrap_or(part),
                _ => {
                    self.error_at_cur("a quoted string after `+`");
                    break;
                }
            }
        }
        Some(self.make_id(IdKind::Quoted, first, value))
    }

    /// `:port`, `:port:compass` or `:compass`, when the current token is `:`.
    pub(super) fn parse_port(&mut self) -> Option<Box<Port>> {
        let start = self.eat(TokenKind::Colon)?;
        let Some(first) = self.parse_node_id() else {
            self.error_at_cur("a port name or compass point");
            return None;
        };
        let mut compass = None;
        if self.eat(TokenKind::Colon).is_some() {
            compass = self.parse_node_id();
            if compass.is_none() {
                self.error_at_cur("a compass point");
            }
        }
        let (name, compass) = match compass {
            Some(c) => (Some(first), Some(c)),
            None if first.kind == IdKind::Identifier && COMPASS.contains(&first.value.as_str()) => {
                (None, Some(first))
            }
            None => (Some(first), None),
        };
        Some(Box::new(Port {
            name,
            compass,
            span: self.span_from(start),
        }))
    }

    /// Zero or more `[...]` lists, their attributes flattened. The `=` signs ahead are
    /// counted first so the vector is allocated once, at its size.
    pub(super) fn parse_attr_lists(&mut self) -> Vec<Attr> {
        let Some(first) = self.cur().filter(|_| self.at(TokenKind::LBracket)) else {
            return Vec::new();
        };
        let mut attrs = Vec::with_capacity(self.count_attrs_from(first));
        while self.at(TokenKind::LBracket) {
            if !self.parse_attr_list(&mut attrs) {
                break;
            }
        }
        attrs
    }

    /// How many `=` the attribute lists starting at token `i` hold: an estimate, from at
    /// most 512 tokens ahead.
    fn count_attrs_from(&self, i: usize) -> usize {
        let (mut count, mut depth) = (0, 0usize);
        let ahead = self
            .toks
            .iter()
            .skip(i)
            .take(512)
            .filter(|t| !t.kind.is_trivia());
        for t in ahead {
            match t.kind {
                TokenKind::LBracket => depth += 1,
                TokenKind::RBracket => depth = depth.saturating_sub(1),
                TokenKind::Eq if depth > 0 => count += 1,
                TokenKind::LBrace | TokenKind::RBrace => break,
                _ if depth == 0 => break,
                _ => {}
            }
        }
        count
    }

    /// One `[...]` list. Returns false when the list was left unterminated.
    fn parse_attr_list(&mut self, attrs: &mut Vec<Attr>) -> bool {
        self.bump();
        loop {
            let Some(i) = self.cur() else {
                self.error_at_cur("`]`");
                return false;
            };
            let t = self.tok(i);
            match t.kind {
                TokenKind::RBracket => {
                    self.bump();
                    return true;
                }
                TokenKind::RBrace => {
                    self.error_at_cur("`]`");
                    return false;
                }
                k if is_string(k) || is_html(k) || k.in_bare_run() => {
                    let eq_follows = self.kind_after(self.id_end(i)) == Some(TokenKind::Eq);
                    if t.nl_before && !eq_follows {
                        // Most likely a missing `]` before the next statement.
                        self.error_at_cur("`]`");
                        return false;
                    }
                    if !self.parse_attr(attrs) && !self.recover_in_list() {
                        return false;
                    }
                }
                _ => {
                    self.error_at_cur("`]` or an attribute");
                    if !self.recover_in_list() {
                        return false;
                    }
                }
            }
        }
    }

    /// `key = value [,;]`. Returns false after reporting an error.
    fn parse_attr(&mut self, attrs: &mut Vec<Attr>) -> bool {
        let Some(key) = self.parse_relaxed_id() else {
            self.error_at_cur("an attribute");
            return false;
        };
        if self.eat(TokenKind::Eq).is_none() {
            self.error_at_cur("`=`");
            return false;
        }
        let Some(value) = self.parse_relaxed_id() else {
            self.error_at_cur("a value");
            return false;
        };
        attrs.push(attr(key, value));
        if matches!(self.cur_kind(), Some(TokenKind::Comma | TokenKind::Semi)) {
            self.bump();
        }
        true
    }

    /// Skips to the next attribute. Returns true to go on with the list, false when it ended.
    fn recover_in_list(&mut self) -> bool {
        let mut first = true;
        while let Some(i) = self.cur() {
            let t = self.tok(i);
            match t.kind {
                TokenKind::Comma | TokenKind::Semi => {
                    self.bump();
                    return true;
                }
                TokenKind::RBracket => {
                    self.bump();
                    return false;
                }
                TokenKind::RBrace => return false,
                _ if t.nl_before && !first => return false,
                _ => {
                    self.bump();
                }
            }
            first = false;
        }
        false
    }
}

/// An attribute spanning from its key to its value.
pub(super) fn attr(key: Id, value: Id) -> Attr {
    let span = Span {
        start: key.span.start,
        end: value.span.end,
        line: key.span.line,
        column: key.span.column,
    };
    Attr { key, value, span }
}
