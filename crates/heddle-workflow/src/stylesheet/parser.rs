//! Stylesheet parser with error recovery (a bad rule is skipped, the rest still parse).

use super::error::{StylesheetError, StylesheetErrorKind as Kind};
use super::{Declaration, Selector, SelectorKind, StyleRule, Stylesheet};

pub(super) fn parse(source: &str) -> (Stylesheet, Vec<StylesheetError>) {
    let mut cursor = Cursor {
        src: source,
        pos: 0,
        errors: Vec::new(),
    };
    let mut rules = Vec::new();
    loop {
        cursor.skip_trivia();
        if cursor.peek().is_none() {
            break;
        }
        let start = cursor.pos;
        match cursor.selectors() {
            Ok(selectors) => {
                let declarations = cursor.body(start);
                rules.push(StyleRule {
                    selectors,
                    declarations,
                    span: (start, cursor.pos),
                });
            }
            Err(error) => {
                cursor.errors.push(error);
                cursor.skip_past('}');
            }
        }
    }
    (Stylesheet { rules }, cursor.errors)
}

struct Cursor<'a> {
    src: &'a str,
    pos: usize,
    errors: Vec<StylesheetError>,
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-'
}

impl Cursor<'_> {
    fn peek(&self) -> Option<char> {
        self.src[self.pos..].chars().next()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    fn error(&self, kind: Kind, offset: usize, len: usize) -> StylesheetError {
        StylesheetError::new(self.src, kind, offset, len)
    }

    fn found(&self) -> String {
        self.peek().map_or_else(
            || "the end of the stylesheet".to_owned(),
            |c| format!("`{c}`"),
        )
    }

    /// Skips whitespace and `/* */` comments (line breaks too unless `keep_newlines`).
    fn skip_space(&mut self, keep_newlines: bool) {
        loop {
            match self.peek() {
                Some('\n') if keep_newlines => return,
                Some(c) if c.is_whitespace() => self.bump(),
                Some('/') if self.src[self.pos..].starts_with("/*") => {
                    let start = self.pos;
                    match self.src[self.pos + 2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => {
                            let error = self.error(Kind::UnterminatedComment, start, 2);
                            self.errors.push(error);
                            self.pos = self.src.len();
                        }
                    }
                }
                _ => return,
            }
        }
    }

    fn skip_trivia(&mut self) {
        self.skip_space(false);
    }

    /// Advances past the next `stop` (or to the end).
    fn skip_past(&mut self, stop: char) {
        match self.src[self.pos..].find(stop) {
            Some(i) => self.pos += i + stop.len_utf8(),
            None => self.pos = self.src.len(),
        }
    }

    /// Advances to the next `;` or `}` without consuming a `}`.
    fn skip_declaration(&mut self) {
        match self.src[self.pos..].find([';', '}']) {
            Some(i) => {
                self.pos += i;
                if self.peek() == Some(';') {
                    self.bump();
                }
            }
            None => self.pos = self.src.len(),
        }
    }

    fn name(&mut self) -> Option<(String, usize, usize)> {
        let start = self.pos;
        while self.peek().is_some_and(is_name_char) {
            self.bump();
        }
        (self.pos > start).then(|| (self.src[start..self.pos].to_owned(), start, self.pos))
    }

    fn selectors(&mut self) -> Result<Vec<Selector>, StylesheetError> {
        let mut selectors = Vec::new();
        loop {
            self.skip_trivia();
            selectors.push(self.selector()?);
            self.skip_trivia();
            match self.peek() {
                Some(',') => self.bump(),
                Some('{') => {
                    self.bump();
                    return Ok(selectors);
                }
                _ => {
                    let found = self.found();
                    return Err(self.error(Kind::ExpectedOpenBrace(found), self.pos, 1));
                }
            }
        }
    }

    fn selector(&mut self) -> Result<Selector, StylesheetError> {
        let start = self.pos;
        let kind = match self.peek() {
            Some('*') => {
                self.bump();
                SelectorKind::Universal
            }
            Some(mark @ ('.' | '#')) => {
                self.bump();
                let Some((name, _, _)) = self.name() else {
                    return Err(self.error(Kind::ExpectedName(mark), start, 1));
                };
                if mark == '.' {
                    SelectorKind::Class(name)
                } else {
                    SelectorKind::Id(name)
                }
            }
            _ => match self.name() {
                Some((name, _, _)) => SelectorKind::Shape(name),
                None => {
                    let found = self.found();
                    return Err(self.error(Kind::ExpectedSelector(found), start, 1));
                }
            },
        };
        Ok(Selector {
            kind,
            span: (start, self.pos),
        })
    }

    /// Parses declarations after `{` up to and including `}`.
    fn body(&mut self, rule_start: usize) -> Vec<Declaration> {
        let mut declarations = Vec::new();
        loop {
            self.skip_trivia();
            match self.peek() {
                None => {
                    let error = self.error(Kind::UnclosedRule, rule_start, 1);
                    self.errors.push(error);
                    return declarations;
                }
                Some('}') => {
                    self.bump();
                    return declarations;
                }
                Some(';') => self.bump(),
                Some(_) => match self.declaration() {
                    Ok(declaration) => declarations.push(declaration),
                    Err(error) => {
                        self.errors.push(error);
                        self.skip_declaration();
                    }
                },
            }
        }
    }

    fn declaration(&mut self) -> Result<Declaration, StylesheetError> {
        let Some((property, p_start, p_end)) = self.name() else {
            let found = self.found();
            return Err(self.error(Kind::ExpectedProperty(found), self.pos, 1));
        };
        self.skip_trivia();
        if self.peek() != Some(':') {
            return Err(self.error(Kind::ExpectedColon(property), p_start, p_end - p_start));
        }
        self.bump();
        self.skip_space(true);
        let v_start = self.pos;
        let value = if self.peek() == Some('"') {
            self.quoted()?
        } else {
            let rest = &self.src[self.pos..];
            let len = rest.find([';', '}', '\n']).unwrap_or(rest.len());
            self.pos += len;
            rest[..len].trim().to_owned()
        };
        if value.is_empty() && self.src[v_start..self.pos].trim().is_empty() {
            return Err(self.error(Kind::ExpectedValue(property), p_start, p_end - p_start));
        }
        let raw = &self.src[v_start..self.pos];
        let v_end = v_start + raw.trim_end().len();
        Ok(Declaration {
            property,
            value,
            property_span: (p_start, p_end),
            value_span: (v_start, v_end),
        })
    }

    fn quoted(&mut self) -> Result<String, StylesheetError> {
        let start = self.pos;
        self.bump();
        let mut text = String::new();
        while let Some(c) = self.peek() {
            self.bump();
            match c {
                '"' => return Ok(text),
                '\\' => {
                    if let Some(next) = self.peek() {
                        self.bump();
                        text.push(next);
                    }
                }
                _ => text.push(c),
            }
        }
        Err(self.error(Kind::UnterminatedString, start, 1))
    }
}
