//! Text-level building blocks of edits: replacements, and where statements and list items
//! start and end once trivia (indentation, trailing comments, newlines) is considered.

use crate::EditError;
use crate::token::{Token, TokenKind};

/// Replace `start..end` of the current text by `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextEdit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl TextEdit {
    pub(crate) fn insert(at: usize, text: String) -> Self {
        TextEdit {
            start: at,
            end: at,
            text,
        }
    }

    pub(crate) fn delete((start, end): (usize, usize)) -> Self {
        TextEdit {
            start,
            end,
            text: String::new(),
        }
    }
}

/// Applies edits to `src`, keeping only those inside `start..end`. Deletions may overlap
/// (they merge); any other overlap is refused.
pub(crate) fn render(
    src: &str,
    start: usize,
    end: usize,
    edits: &[TextEdit],
) -> Result<String, EditError> {
    let mut inside: Vec<&TextEdit> = edits
        .iter()
        .filter(|e| e.start >= start && e.end <= end)
        .collect();
    inside.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(end.saturating_sub(start));
    let mut pos = start;
    for e in inside {
        if e.start < pos && e.text.is_empty() {
            // Overlapping deletions (say, the spaces between two removed statements) merge.
            pos = pos.max(e.end);
        } else if e.start < pos || e.end < e.start {
            return Err(EditError::Unsupported(
                "internal: two changes of this edit overlap".to_owned(),
            ));
        } else {
            out.push_str(slice(src, pos, e.start)?);
            push_unfused(&mut out, src, e);
            pos = e.end;
        }
        // Checked after a merged deletion too: it may end next to a different token.
        let next = src.as_bytes().get(pos).copied();
        if e.text.is_empty() && out.bytes().last().is_some_and(glues) && next.is_some_and(glues) {
            // Deleting what separated two tokens must not fuse them (`42 graph [..];x`).
            out.push(' ');
        }
    }
    out.push_str(slice(src, pos, end)?);
    Ok(out)
}

/// Appends `e`'s text to `out` with a space on either side where it would otherwise fuse
/// with its new neighbour into one token (`b -> c"x" -> subgraph s {}` without `"x"` must
/// not become `b -> csubgraph s {}`). A side that touched a fusing byte in the source
/// already (a renamed id after `->`) is left as written.
fn push_unfused(out: &mut String, src: &str, e: &TextEdit) {
    let glues_at = |i: usize| src.as_bytes().get(i).copied().is_some_and(glues);
    let (Some(first), Some(last)) = (e.text.bytes().next(), e.text.bytes().last()) else {
        return;
    };
    // What the text's first byte takes the place of: the first byte replaced, or for an
    // insertion the byte it goes before.
    if glues(first) && out.bytes().last().is_some_and(glues) && !glues_at(e.start) {
        out.push(' ');
    }
    out.push_str(&e.text);
    let replaced_last = if e.end > e.start {
        glues_at(e.end - 1)
    } else {
        e.start > 0 && glues_at(e.start - 1)
    };
    if glues(last) && glues_at(e.end) && !replaced_last {
        out.push(' ');
    }
}

/// Bytes that can fuse with a neighbour into one token (identifiers, numerals, the
/// dialect's bare runs, `->`, `//`, `/*`).
fn glues(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b >= 0x80 || b"_.-:/@*>".contains(&b)
}

fn slice(src: &str, start: usize, end: usize) -> Result<&str, EditError> {
    src.get(start..end).ok_or_else(|| {
        EditError::Unsupported("internal: an edit range is out of bounds".to_owned())
    })
}

/// What follows a position on its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tail {
    /// Only whitespace and comments, then the newline at `nl` (`\n` or `\r\n`); `after` is
    /// just past it.
    Newline { nl: usize, after: usize },
    /// Only whitespace and comments, then the end of the file.
    Eof,
    /// More code (or a multi-line comment) starting at the offset.
    Code(usize),
}

/// The document's text and tokens, with position queries.
pub(crate) struct Src<'a> {
    pub text: &'a str,
    pub toks: &'a [Token],
}

impl<'a> Src<'a> {
    pub(crate) fn get(&self, start: usize, end: usize) -> &'a str {
        self.text.get(start..end).unwrap_or("")
    }

    /// Index of the first token starting at or after `offset`.
    fn first_at(&self, offset: usize) -> usize {
        self.toks.partition_point(|t| t.start() < offset)
    }

    /// The first non-trivia token starting at or after `offset`.
    pub(crate) fn next_sig(&self, offset: usize) -> Option<Token> {
        self.toks
            .iter()
            .skip(self.first_at(offset))
            .find(|t| !t.kind.is_trivia())
            .copied()
    }

    /// The first token of `kind` starting at or after `offset`.
    pub(crate) fn find_kind(&self, offset: usize, kind: TokenKind) -> Option<Token> {
        self.toks
            .iter()
            .skip(self.first_at(offset))
            .find(|t| t.kind == kind)
            .copied()
    }

    pub(crate) fn next_sig_is(&self, offset: usize, kinds: &[TokenKind]) -> Option<Token> {
        self.next_sig(offset).filter(|t| kinds.contains(&t.kind))
    }

    /// End of a statement whose span ends at `end`, including a trailing `;`.
    pub(crate) fn with_semi(&self, end: usize) -> usize {
        self.next_sig_is(end, &[TokenKind::Semi])
            .map_or(end, |t| t.end())
    }

    /// End of a list item ending at `end`, including a trailing `,` or `;`.
    pub(crate) fn with_sep(&self, end: usize) -> usize {
        self.next_sig_is(end, &[TokenKind::Comma, TokenKind::Semi])
            .map_or(end, |t| t.end())
    }

    /// `\r\n` when the file's first line break is one, else `\n`.
    pub(crate) fn newline(&self) -> &'static str {
        match self.text.find('\n') {
            Some(i) if i > 0 && self.text.as_bytes().get(i - 1) == Some(&b'\r') => "\r\n",
            _ => "\n",
        }
    }

    pub(crate) fn line_start(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let upto = bytes.get(..offset).unwrap_or(bytes);
        upto.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
    }

    /// Only spaces and tabs between the start of the line and `offset`.
    pub(crate) fn starts_line(&self, offset: usize) -> bool {
        self.get(self.line_start(offset), offset)
            .bytes()
            .all(|b| b == b' ' || b == b'\t')
    }

    /// The leading spaces and tabs of the line containing `offset`.
    pub(crate) fn indent(&self, offset: usize) -> &'a str {
        let start = self.line_start(offset);
        let line = self.get(start, self.text.len());
        let len = line
            .bytes()
            .take_while(|&b| b == b' ' || b == b'\t')
            .count();
        self.get(start, start + len)
    }

    /// One level of indentation as the file writes it: a tab if indented lines start with
    /// one, else the smallest run of leading spaces; four spaces when nothing is indented.
    pub(crate) fn indent_unit(&self) -> String {
        let mut smallest: Option<usize> = None;
        for line in self.text.lines() {
            let lead = line.len() - line.trim_start_matches([' ', '\t']).len();
            if lead == 0 || lead == line.len() {
                continue;
            }
            if line.starts_with('\t') {
                return "\t".to_owned();
            }
            smallest = Some(smallest.map_or(lead, |s| s.min(lead)));
        }
        " ".repeat(smallest.unwrap_or(4))
    }

    /// What follows `offset` (a token boundary) on its line.
    pub(crate) fn tail(&self, offset: usize) -> Tail {
        for t in self.toks.iter().skip(self.first_at(offset)) {
            let text = self.get(t.start(), t.end());
            match t.kind {
                TokenKind::Whitespace => {
                    if let Some(i) = text.find('\n') {
                        let nl = t.start() + i;
                        let cr = i > 0 && text.as_bytes().get(i - 1) == Some(&b'\r');
                        return Tail::Newline {
                            nl: if cr { nl - 1 } else { nl },
                            after: nl + 1,
                        };
                    }
                }
                TokenKind::LineComment | TokenKind::Preproc => {}
                TokenKind::BlockComment if !text.contains('\n') => {}
                _ => return Tail::Code(t.start()),
            }
        }
        Tail::Eof
    }

    /// Start of the spaces and tabs right before `offset` (on the same line).
    fn spaces_before(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut i = offset.min(bytes.len());
        while i > 0 && matches!(bytes.get(i - 1), Some(b' ' | b'\t')) {
            i -= 1;
        }
        i
    }

    /// End of the spaces and tabs right after `offset`.
    pub(crate) fn spaces_after(&self, offset: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut i = offset;
        while matches!(bytes.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    }

    /// `start..end` widened by the spaces and tabs before it, or when there are none, by
    /// those after it. Line breaks are never included (one may end a `//` comment).
    pub(crate) fn spaces_around(&self, start: usize, end: usize) -> (usize, usize) {
        let before = self.spaces_before(start);
        if before < start {
            (before, end)
        } else {
            (start, self.spaces_after(end))
        }
    }

    /// The range to delete to remove the item `start..end` (separator included): its whole
    /// line(s) with a trailing comment when nothing else is on them, else the item and the
    /// spaces next to it.
    pub(crate) fn removal(&self, start: usize, end: usize) -> (usize, usize) {
        let first_on_line = self.starts_line(start);
        match self.tail(end) {
            Tail::Newline { after, .. } if first_on_line => (self.line_start(start), after),
            Tail::Eof if first_on_line => {
                let line = self.line_start(start);
                // Also drop the line break that ended the previous line.
                let prev = self.text.get(..line).map_or(line, |before| {
                    before
                        .strip_suffix("\r\n")
                        .or_else(|| before.strip_suffix('\n'))
                        .map_or(line, str::len)
                });
                (prev, self.text.len())
            }
            _ if first_on_line => (start, self.spaces_after(end)),
            _ => self.spaces_around(start, end),
        }
    }

    /// Inserts the statement `stmt` after the statement `start..end` (`end` past its `;`):
    /// on a new line with the indentation of that statement's line when the line ends
    /// there (comments aside), otherwise on the same line. `semi` ends it with `;` like its neighbour.
    pub(crate) fn insert_after(
        &self,
        start: usize,
        end: usize,
        stmt: &str,
        semi: bool,
    ) -> TextEdit {
        let term = if semi { ";" } else { "" };
        let line = format!("{}{}{stmt}{term}", self.newline(), self.indent(start));
        match self.tail(end) {
            Tail::Newline { nl, .. } => TextEdit::insert(nl, line),
            Tail::Eof => TextEdit::insert(self.text.len(), line),
            Tail::Code(_) => {
                let sep = if semi { " " } else { "; " };
                TextEdit::insert(end, format!("{sep}{stmt}{term}"))
            }
        }
    }

    /// Inserts `stmt` as the first statement of a body `{ ... }` whose `{` ends at
    /// `open_end` and whose `}` starts at `close`. `first` is the span start of the first
    /// statement and whether it ends with `;`.
    pub(crate) fn insert_first(
        &self,
        open_end: usize,
        close: usize,
        first: Option<(usize, bool)>,
        stmt: &str,
    ) -> TextEdit {
        let nl = self.newline();
        match first {
            Some((start, semi)) if self.starts_line(start) => {
                let term = if semi { ";" } else { "" };
                let indent = self.indent(start);
                TextEdit::insert(self.line_start(start), format!("{indent}{stmt}{term}{nl}"))
            }
            Some(_) => TextEdit::insert(open_end, format!(" {stmt};")),
            None => {
                let outer = self.indent(close);
                let inner = format!("{outer}{}", self.indent_unit());
                let between = self.get(open_end, close);
                if !between.contains('\n') && between.trim().is_empty() {
                    TextEdit {
                        start: open_end,
                        end: close,
                        text: format!("{nl}{inner}{stmt}{nl}{outer}"),
                    }
                } else if self.starts_line(close) {
                    TextEdit::insert(self.line_start(close), format!("{inner}{stmt}{nl}"))
                } else {
                    TextEdit::insert(close, format!("{nl}{inner}{stmt}{nl}{outer}"))
                }
            }
        }
    }
}
