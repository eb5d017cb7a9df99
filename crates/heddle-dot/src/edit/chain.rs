//! Rewriting edge statements: cutting links out of a chain `a -> b -> c`, splitting a link
//! out into a statement of its own, and keeping nodes that would otherwise disappear.

use std::collections::HashMap;

use super::Ctx;
use super::attrs::{StmtAttrs, remove_stmt};
use super::find::mentions;
use super::text::{TextEdit, render};
use crate::{EdgeOperand, EdgeStmt, EditError};

/// A part of a rewritten edge statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Piece {
    /// Operands `a..=b` with the links between them, and the statement's attributes.
    Chain(usize, usize),
    /// Operand `k` alone, as a node or subgraph statement.
    Single(usize),
}

/// How one edge statement is rewritten.
pub(crate) struct Rewrite<'g> {
    pub edge: &'g EdgeStmt,
    pub pieces: Vec<Piece>,
}

impl<'g> Rewrite<'g> {
    /// Cuts the links for which `link_removed` holds; operands for which `dropped` holds
    /// disappear, the others survive in chains or (for now) as singles.
    pub(crate) fn cut(
        edge: &'g EdgeStmt,
        link_removed: impl Fn(usize) -> bool,
        dropped: impl Fn(usize) -> bool,
    ) -> Self {
        let n = edge.operands.len();
        let mut pieces = Vec::new();
        let mut run_start = 0;
        for k in 0..n {
            if k + 1 == n || link_removed(k) {
                if k > run_start {
                    pieces.push(Piece::Chain(run_start, k));
                } else if !dropped(k) {
                    pieces.push(Piece::Single(k));
                }
                run_start = k + 1;
            }
        }
        Rewrite { edge, pieces }
    }

    /// Splits link `link` out of the chain into a statement of its own.
    pub(crate) fn split_out(edge: &'g EdgeStmt, link: usize) -> Self {
        let last = edge.operands.len().saturating_sub(1);
        let mut pieces = Vec::new();
        if link > 0 {
            pieces.push(Piece::Chain(0, link));
        }
        pieces.push(Piece::Chain(link, link + 1));
        if link + 1 < last {
            pieces.push(Piece::Chain(link + 1, last));
        }
        Rewrite { edge, pieces }
    }
}

fn node_id(op: Option<&EdgeOperand>) -> Option<&str> {
    match op {
        Some(EdgeOperand::Node(n)) => Some(&n.id.value),
        _ => None,
    }
}

/// Keeps a single node only when the node would otherwise vanish from the graph (and it
/// is not `removed`); subgraph singles are always kept.
pub(crate) fn keep_lost_nodes(ctx: &Ctx, rewrites: &mut [Rewrite], removed: Option<&str>) {
    let mut surviving: HashMap<&str, isize> = HashMap::new();
    for rw in rewrites.iter() {
        for op in &rw.edge.operands {
            if let Some(id) = node_id(Some(op)) {
                let count = surviving.entry(id).or_insert_with(|| {
                    isize::try_from(mentions(&ctx.graph.stmts, id)).unwrap_or(isize::MAX)
                });
                *count -= 1;
            }
        }
        for piece in &rw.pieces {
            if let Piece::Chain(a, b) = *piece {
                for op in rw.edge.operands.get(a..=b).unwrap_or(&[]) {
                    if let Some(id) = node_id(Some(op)) {
                        *surviving.entry(id).or_insert(0) += 1;
                    }
                }
            }
        }
    }
    for rw in rewrites.iter_mut() {
        let edge = rw.edge;
        rw.pieces.retain(|piece| {
            let Piece::Single(k) = *piece else {
                return true;
            };
            let Some(id) = node_id(edge.operands.get(k)) else {
                return true;
            };
            if removed == Some(id) {
                return false;
            }
            let count = surviving.entry(id).or_insert(0);
            if *count > 0 {
                return false;
            }
            *count += 1;
            true
        });
    }
}

/// Turns rewrites into text edits. `edits` are edits already planned; those inside a
/// rewritten statement are folded into its new text. Inner statements go first.
pub(crate) fn apply_rewrites(
    ctx: &Ctx,
    mut rewrites: Vec<Rewrite>,
    mut edits: Vec<TextEdit>,
) -> Result<Vec<TextEdit>, EditError> {
    rewrites.sort_by_key(|rw| rw.edge.span.end - rw.edge.span.start);
    for rw in rewrites {
        let span = rw.edge.span;
        let (inner, outer): (Vec<TextEdit>, Vec<TextEdit>) = edits
            .into_iter()
            .partition(|e| e.start >= span.start && e.end <= span.end);
        edits = outer;
        edits.extend(rewrite_edits(ctx, &rw, &inner)?);
    }
    Ok(edits)
}

fn rewrite_edits(ctx: &Ctx, rw: &Rewrite, inner: &[TextEdit]) -> Result<Vec<TextEdit>, EditError> {
    let src = &ctx.src;
    let ops = &rw.edge.operands;
    let last = ops.len().saturating_sub(1);
    let op_span = |k: usize| ops.get(k).map(EdgeOperand::span).unwrap_or(rw.edge.span);
    let outside = |(s, e): (usize, usize)| {
        inner
            .iter()
            .filter(move |x| x.end <= s || x.start >= e)
            .cloned()
    };
    match rw.pieces.as_slice() {
        [] => return Ok(vec![remove_stmt(src, rw.edge.span)]),
        [Piece::Chain(0, k)] if *k < last => {
            let cut = (op_span(*k).end, op_span(last).end);
            return Ok(outside(cut).chain([TextEdit::delete(cut)]).collect());
        }
        [Piece::Chain(k, end)] if *k > 0 && *end == last => {
            let cut = (op_span(0).start, op_span(*k).start);
            return Ok(outside(cut).chain([TextEdit::delete(cut)]).collect());
        }
        _ => {}
    }
    let lists = StmtAttrs::edge(src, rw.edge)
        .lists_range()
        .map(|(s, e)| format!(" {}", src.get(s, e)))
        .unwrap_or_default();
    let mut texts = Vec::new();
    for piece in &rw.pieces {
        texts.push(match *piece {
            Piece::Chain(a, b) => {
                let chain = render(src.text, op_span(a).start, op_span(b).end, inner)?;
                format!("{chain}{lists}")
            }
            Piece::Single(k) => match ops.get(k) {
                Some(EdgeOperand::Node(n)) => src.get(n.id.span.start, n.id.span.end).to_owned(),
                _ => render(src.text, op_span(k).start, op_span(k).end, inner)?,
            },
        });
    }
    let sep = if src.starts_line(rw.edge.span.start) {
        let semi = if src.with_semi(rw.edge.span.end) == rw.edge.span.end {
            ""
        } else {
            ";"
        };
        format!("{semi}{}{}", src.newline(), src.indent(rw.edge.span.start))
    } else {
        "; ".to_owned()
    };
    Ok(vec![TextEdit {
        start: rw.edge.span.start,
        end: rw.edge.span.end,
        text: texts.join(&sep),
    }])
}
