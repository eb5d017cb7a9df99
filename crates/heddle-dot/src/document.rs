//! The lossless document: the token list (trivia and error tokens included) plus the
//! semantic view built over it.

use crate::lexer::lex;
use crate::parser::Parser;
use crate::token::Token;
use crate::{Edit, EditError, Graph, ParseError, ValueSplice};

/// The result of parsing: a document (always, even with errors) and the errors found.
#[derive(Debug, Clone)]
pub struct Parse {
    /// The tokens and syntax tree; built even when `errors` is not empty.
    pub document: Document,
    /// Syntax errors, in source order. Empty when the file parsed cleanly.
    pub errors: Vec<ParseError>,
}

/// Parses DOT source. Never panics; on errors it recovers and keeps going.
pub fn parse(source: &str) -> Parse {
    let lexed = lex(source);
    let (graphs, parse_errors) = Parser::new(source, &lexed.tokens, lexed.eof).parse_file();
    let mut errors = lexed.errors;
    errors.extend(parse_errors);
    errors.sort_by_key(|e| e.span.start);
    Parse {
        document: Document {
            buffer: source.to_owned(),
            tokens: lexed.tokens,
            graphs,
            error_count: errors.len(),
        },
        errors,
    }
}

/// A parsed DOT file that prints back byte for byte and accepts minimal edits.
#[derive(Debug, Clone)]
pub struct Document {
    /// Backing store of the tokens' text; tokens refer to it by byte range.
    buffer: String,
    /// Every token, trivia and errors included, covering the buffer without gaps.
    tokens: Vec<Token>,
    graphs: Vec<Graph>,
    error_count: usize,
}

impl Document {
    /// Prints the document by concatenating its tokens. Unedited, this is exactly the
    /// parsed input. (A file over 4 GiB is not tokenized: it is reported as an error and
    /// printed back as it came.)
    pub fn text(&self) -> String {
        if self.buffer.len() > crate::lexer::MAX_LEN {
            return self.buffer.clone();
        }
        let mut out = String::with_capacity(self.buffer.len());
        for t in &self.tokens {
            out.push_str(self.token_text(t));
        }
        out
    }

    pub(crate) fn token_text(&self, t: &Token) -> &str {
        self.buffer.get(t.start()..t.end()).unwrap_or("")
    }

    /// The source text the spans refer to.
    pub(crate) fn source(&self) -> &str {
        &self.buffer
    }

    pub(crate) fn tokens(&self) -> &[Token] {
        &self.tokens
    }

    /// The semantic view of the (first) graph, if one could be parsed.
    pub fn graph(&self) -> Option<&Graph> {
        self.graphs.first()
    }

    /// Every graph of the file (Graphviz allows several in one file), in order.
    pub fn graphs(&self) -> &[Graph] {
        &self.graphs
    }

    /// Number of syntax errors found when this document was parsed.
    pub fn error_count(&self) -> usize {
        self.error_count
    }

    /// Applies one edit to the first graph, changing only the text it must. On error
    /// nothing changes.
    pub fn apply(&mut self, edit: &Edit) -> Result<(), EditError> {
        self.check_editable()?;
        let new_text = crate::edit::plan(self, edit)?;
        self.take_text(new_text)
    }

    /// Rewrites parts of attribute values of the first graph (see [`ValueSplice`]),
    /// changing nothing else. On error nothing changes.
    pub fn splice_values(&mut self, splices: &[ValueSplice]) -> Result<(), EditError> {
        self.check_editable()?;
        let new_text = crate::edit::plan_splices(self, splices)?;
        self.take_text(new_text)
    }

    fn check_editable(&self) -> Result<(), EditError> {
        if self.error_count > 0 {
            return Err(EditError::HasSyntaxErrors {
                count: self.error_count,
            });
        }
        Ok(())
    }

    /// Becomes `new_text` (when there is one), refusing text that does not parse.
    fn take_text(&mut self, new_text: Option<String>) -> Result<(), EditError> {
        if let Some(text) = new_text {
            let reparsed = parse(&text);
            if !reparsed.errors.is_empty() {
                return Err(EditError::Unsupported(format!(
                    "internal: the edit would leave a syntax error: {}",
                    reparsed
                        .errors
                        .first()
                        .map_or(String::new(), |e| e.to_string())
                )));
            }
            *self = reparsed.document;
        }
        Ok(())
    }
}
