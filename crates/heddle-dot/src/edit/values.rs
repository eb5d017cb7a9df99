//! Rewriting parts of attribute values in place: what a dialect needs when a value names
//! something that changed (a node id in `retry_target`, a `#id` selector inside a
//! stylesheet). The caller finds the values; this checks that each change stays inside one
//! attribute value and writes it.

use super::text::TextEdit;
use crate::quote::write_like;
use crate::{EdgeOperand, EditError, Id, Span, Stmt};

/// A change inside one attribute value's source text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueSplice {
    /// The value being changed, as the syntax tree spans it (quotes included).
    value: Span,
    /// Source byte range inside `value` that is replaced.
    start: usize,
    end: usize,
    /// The new source text for that range.
    text: String,
}

impl ValueSplice {
    /// Replaces the whole value of `id` so that it reads `value`, written in the style `id`
    /// already has (quoted stays quoted).
    pub fn whole(id: &Id, value: &str) -> Self {
        ValueSplice {
            value: id.span,
            start: id.span.start,
            end: id.span.end,
            text: write_like(id.kind, value),
        }
    }

    /// Replaces source bytes `start..end` inside the value `id` by `text`, which must need
    /// no escaping where it lands: letters, digits, `_`, `#` and `.` only.
    pub fn part(id: &Id, start: usize, end: usize, text: &str) -> Result<Self, EditError> {
        let plain = text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_#.".contains(&b));
        if !plain || start > end || start < id.span.start || end > id.span.end {
            return Err(EditError::Unsupported(format!(
                "internal: `{text}` cannot replace bytes {start}..{end} of a value"
            )));
        }
        Ok(ValueSplice {
            value: id.span,
            start,
            end,
            text: text.to_owned(),
        })
    }
}

/// Every attribute value span of `stmts`, subgraphs included.
fn value_spans(stmts: &[Stmt], out: &mut Vec<Span>) {
    for stmt in stmts {
        match stmt {
            Stmt::Node(n) => out.extend(n.attrs.iter().map(|a| a.value.span)),
            Stmt::Edge(e) => {
                out.extend(e.attrs.iter().map(|a| a.value.span));
                for op in &e.operands {
                    if let EdgeOperand::Subgraph(s) = op {
                        value_spans(&s.stmts, out);
                    }
                }
            }
            Stmt::Attr(a) => out.extend(a.attrs.iter().map(|a| a.value.span)),
            Stmt::Assign(a) => out.push(a.value.span),
            Stmt::Subgraph(s) => value_spans(&s.stmts, out),
        }
    }
}

/// The text edits of `splices`, refused when one is not inside an attribute value.
pub(crate) fn plan(stmts: &[Stmt], splices: &[ValueSplice]) -> Result<Vec<TextEdit>, EditError> {
    let mut spans = Vec::new();
    value_spans(stmts, &mut spans);
    splices
        .iter()
        .map(|s| {
            if spans.contains(&s.value) {
                Ok(TextEdit {
                    start: s.start,
                    end: s.end,
                    text: s.text.clone(),
                })
            } else {
                Err(EditError::Unsupported(
                    "internal: a value change is not inside an attribute value".to_owned(),
                ))
            }
        })
        .collect()
}
