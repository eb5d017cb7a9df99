//! Setting and removing attributes inside a statement's `[...]` lists, and graph
//! attributes (`key = value` statements and `graph [...]`).

use super::Ctx;
use super::text::{Src, Tail, TextEdit};
use crate::quote::{quote_if_needed, write_like};
use crate::token::TokenKind;
use crate::{Attr, AttrStmt, AttrTarget, EdgeStmt, NodeStmt, Span, Stmt};

/// One `[...]` list of a statement.
struct List {
    /// Byte offset of `[`.
    open: usize,
    /// Offset just past `]`.
    close_end: usize,
    /// Its attributes: `attrs[first..first + len]`.
    first: usize,
    len: usize,
}

/// A statement's attributes and where its lists are.
pub(crate) struct StmtAttrs<'g> {
    attrs: &'g [Attr],
    lists: Vec<List>,
    /// Where a new ` [..]` list goes when the statement has none.
    list_anchor: usize,
}

impl<'g> StmtAttrs<'g> {
    fn new(src: &Src, attrs: &'g [Attr], from: usize, end: usize) -> Self {
        let mut lists = Vec::new();
        let mut open = None;
        let mut offset = from;
        while let Some(t) = src.next_sig(offset).filter(|t| t.start() < end) {
            match t.kind {
                TokenKind::LBracket => open = Some(t.start()),
                TokenKind::RBracket => {
                    if let Some(open) = open.take() {
                        let first = attrs.partition_point(|a| a.span.start < open);
                        let len = attrs
                            .get(first..)
                            .unwrap_or(&[])
                            .partition_point(|a| a.span.start < t.start());
                        lists.push(List {
                            open,
                            close_end: t.end(),
                            first,
                            len,
                        });
                    }
                }
                _ => {}
            }
            offset = t.end();
        }
        StmtAttrs {
            attrs,
            lists,
            list_anchor: from,
        }
    }

    pub(crate) fn node(src: &Src, s: &'g NodeStmt) -> Self {
        Self::new(src, &s.attrs, s.node.span.end, s.span.end)
    }

    pub(crate) fn edge(src: &Src, s: &'g EdgeStmt) -> Self {
        let from = s.operands.last().map_or(s.span.start, |o| o.span().end);
        Self::new(src, &s.attrs, from, s.span.end)
    }

    pub(crate) fn attr_stmt(src: &Src, s: &'g AttrStmt) -> Self {
        let from = src.next_sig(s.span.start).map_or(s.span.start, |t| t.end());
        Self::new(src, &s.attrs, from, s.span.end)
    }

    /// Text from the first `[` to the last `]`, if there is a list.
    pub(crate) fn lists_range(&self) -> Option<(usize, usize)> {
        Some((self.lists.first()?.open, self.lists.last()?.close_end))
    }
}

/// Replaces an attribute's value, keeping its quoting style when the new value allows it.
/// Nothing changes when the value already reads as `value`.
pub(crate) fn replace_value(attr: &Attr, value: &str) -> Vec<TextEdit> {
    if attr.value.unescaped() == value {
        return Vec::new();
    }
    vec![TextEdit {
        start: attr.value.span.start,
        end: attr.value.span.end,
        text: write_like(attr.value.kind, value),
    }]
}

/// `key=value` written with the spacing around `=` that `like` uses.
pub(crate) fn key_value(src: &Src, like: Option<&Attr>, key: &str, value: &str) -> String {
    let eq = like
        .map(|a| src.get(a.key.span.end, a.value.span.start))
        .filter(|s| s.trim() == "=" && !s.contains('\n'))
        .unwrap_or("=");
    format!("{}{eq}{}", quote_if_needed(key), quote_if_needed(value))
}

/// Sets `key` on the statement: replaces the last value it has, else appends to its last
/// list (or adds a list).
pub(crate) fn set_in_stmt(src: &Src, sa: &StmtAttrs, key: &str, value: &str) -> Vec<TextEdit> {
    if let Some(attr) = sa.attrs.iter().rev().find(|a| a.key.value == key) {
        return replace_value(attr, value);
    }
    let Some(list) = sa.lists.last() else {
        let kv = key_value(src, None, key, value);
        return vec![TextEdit::insert(sa.list_anchor, format!(" [{kv}]"))];
    };
    let Some(last) = list
        .len
        .checked_sub(1)
        .and_then(|i| sa.attrs.get(list.first + i))
    else {
        let kv = key_value(src, None, key, value);
        return vec![TextEdit::insert(list.open + 1, kv)];
    };
    let kv = key_value(src, Some(last), key, value);
    let prev = list
        .len
        .checked_sub(2)
        .and_then(|i| sa.attrs.get(list.first + i));
    let trailing = src.next_sig_is(last.span.end, &[TokenKind::Comma, TokenKind::Semi]);
    if src.starts_line(last.span.start) {
        let indent = src.indent(last.span.start);
        let nl = src.newline();
        if let Some(sep) = trailing {
            let sep_text = src.get(sep.start(), sep.end());
            return vec![TextEdit::insert(
                sep.end(),
                format!("{nl}{indent}{kv}{sep_text}"),
            )];
        }
        let sep = prev
            .and_then(|p| src.next_sig_is(p.span.end, &[TokenKind::Comma, TokenKind::Semi]))
            .map_or("", |t| src.get(t.start(), t.end()));
        return vec![TextEdit::insert(
            last.span.end,
            format!("{sep}{nl}{indent}{kv}"),
        )];
    }
    let sep = prev
        .map(|p| src.get(p.span.end, last.span.start))
        .filter(|s| !s.is_empty() && s.bytes().all(|b| matches!(b, b' ' | b'\t' | b',' | b';')))
        .unwrap_or(", ");
    vec![TextEdit::insert(last.span.end, format!("{sep}{kv}"))]
}

/// Removes every `key` attribute of the statement. Returns the edits and whether the
/// statement is left without attributes.
pub(crate) fn remove_in_stmt(src: &Src, sa: &StmtAttrs, key: &str) -> (Vec<TextEdit>, bool) {
    let mut edits = Vec::new();
    let left = sa.attrs.iter().filter(|a| a.key.value != key).count();
    if left == sa.attrs.len() {
        return (edits, false);
    }
    for list in &sa.lists {
        let items = sa
            .attrs
            .get(list.first..list.first + list.len)
            .unwrap_or(&[]);
        let gone: Vec<bool> = items.iter().map(|a| a.key.value == key).collect();
        if !gone.contains(&true) {
            continue;
        }
        if gone.iter().all(|&g| g) {
            edits.push(TextEdit::delete(
                src.spaces_around(list.open, list.close_end),
            ));
            continue;
        }
        let mut i = 0;
        while i < items.len() {
            if !gone[i] {
                i += 1;
                continue;
            }
            let mut j = i;
            while gone.get(j + 1) == Some(&true) {
                j += 1;
            }
            if let (Some(first), Some(last)) = (items.get(i), items.get(j)) {
                let prev_kept = i.checked_sub(1).and_then(|p| items.get(p));
                edits.push(remove_run(src, first, last, prev_kept, j + 1 < items.len()));
            }
            i = j + 1;
        }
    }
    (edits, left == 0)
}

/// Removes attributes `first..=last` of one list.
fn remove_run(src: &Src, first: &Attr, last: &Attr, prev: Option<&Attr>, more: bool) -> TextEdit {
    let start = first.span.start;
    let end = src.with_sep(last.span.end);
    let whole_line = src.starts_line(start) && !matches!(src.tail(end), Tail::Code(_));
    match prev {
        _ if whole_line => TextEdit::delete(src.removal(start, end)),
        _ if more => TextEdit::delete((start, src.spaces_after(end))),
        // The last attributes of a list: take the separator before them along, unless a
        // comment or a line break sits there.
        Some(p)
            if src
                .get(p.span.end, start)
                .bytes()
                .all(|b| b" \t,;".contains(&b)) =>
        {
            TextEdit::delete((p.span.end, last.span.end))
        }
        _ => TextEdit::delete(src.spaces_around(start, end)),
    }
}

/// Removes a whole statement (with its `;`, and its line when it is alone on it).
pub(crate) fn remove_stmt(src: &Src, span: Span) -> TextEdit {
    TextEdit::delete(src.removal(span.start, src.with_semi(span.end)))
}

/// Top-level graph attributes `key`, in order: `key = v` statements and `graph [key=v]`.
fn graph_attrs<'g>(ctx: &Ctx<'g>, key: &str) -> Vec<&'g Attr> {
    let mut out = Vec::new();
    for stmt in &ctx.graph.stmts {
        match stmt {
            Stmt::Assign(a) if a.key.value == key => out.push(a),
            Stmt::Attr(s) if s.target == AttrTarget::Graph => {
                out.extend(s.attrs.iter().filter(|a| a.key.value == key));
            }
            _ => {}
        }
    }
    out
}

pub(crate) fn set_graph_attr(ctx: &Ctx, key: &str, value: &str) -> Vec<TextEdit> {
    if let Some(attr) = graph_attrs(ctx, key).last() {
        return replace_value(attr, value);
    }
    let last_graph_stmt = ctx.graph.stmts.iter().rev().find(|s| match s {
        Stmt::Assign(_) => true,
        Stmt::Attr(a) => a.target == AttrTarget::Graph,
        _ => false,
    });
    match last_graph_stmt {
        Some(Stmt::Attr(s)) => {
            set_in_stmt(&ctx.src, &StmtAttrs::attr_stmt(&ctx.src, s), key, value)
        }
        Some(stmt @ Stmt::Assign(a)) => {
            let text = key_value(&ctx.src, Some(a), key, value);
            vec![ctx.insert_after(stmt, &text)]
        }
        _ => vec![ctx.insert_first(&key_value(&ctx.src, None, key, value))],
    }
}

pub(crate) fn remove_graph_attr(ctx: &Ctx, key: &str) -> Vec<TextEdit> {
    let mut edits = Vec::new();
    for stmt in &ctx.graph.stmts {
        match stmt {
            Stmt::Assign(a) if a.key.value == key => edits.push(remove_stmt(&ctx.src, stmt.span())),
            Stmt::Attr(s) if s.target == AttrTarget::Graph => {
                let (mut e, empty) =
                    remove_in_stmt(&ctx.src, &StmtAttrs::attr_stmt(&ctx.src, s), key);
                if empty {
                    e = vec![remove_stmt(&ctx.src, stmt.span())];
                }
                edits.extend(e);
            }
            _ => {}
        }
    }
    edits
}
