//! Rewriting edge statements: cutting links out of a chain `a -> b -> c`, splitting a link
//! out into a statement of its own, and keeping nodes that would otherwise disappear.

use super::Ctx;
use super::attrs::{StmtAttrs, remove_stmt};
use super::find::mentions;
use super::text::{TextEdit, render};
use crate::{EdgeOperand, EdgeStmt, EditError, Stmt};

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
    /// The statement list holding `edge`: whether a node stays a member of it (and so of
    /// the subgraphs around it) decides which singles are kept.
    pub body: &'g [Stmt],
    pub pieces: Vec<Piece>,
}

impl<'g> Rewrite<'g> {
    /// Cuts the links for which `link_removed` holds; operands for which `dropped` holds
    /// disappear, the others survive in chains or (for now) as singles.
    pub(crate) fn cut(
        edge: &'g EdgeStmt,
        body: &'g [Stmt],
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
        Rewrite { edge, body, pieces }
    }

    /// Splits link `link` out of the chain into a statement of its own.
    pub(crate) fn split_out(edge: &'g EdgeStmt, body: &'g [Stmt], link: usize) -> Self {
        let last = edge.operands.len().saturating_sub(1);
        let mut pieces = Vec::new();
        if link > 0 {
            pieces.push(Piece::Chain(0, link));
        }
        pieces.push(Piece::Chain(link, link + 1));
        if link + 1 < last {
            pieces.push(Piece::Chain(link + 1, last));
        }
        Rewrite { edge, body, pieces }
    }
}

fn node_id(op: Option<&EdgeOperand>) -> Option<&str> {
    match op {
        Some(EdgeOperand::Node(n)) => Some(&n.id.value),
        _ => None,
    }
}

/// Decides which single nodes to keep: a single stays (as a node statement) when nothing
/// else in the body around its statement would mention the node once every rewrite is
/// done, so the node keeps existing and stays a member of the same subgraphs. The
/// `removed` node and subgraph singles are settled (dropped, kept) without counting.
pub(crate) fn keep_lost_nodes(rewrites: &mut [Rewrite], removed: Option<&str>) {
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for (i, rw) in rewrites.iter().enumerate() {
        for piece in &rw.pieces {
            let Piece::Single(k) = *piece else { continue };
            let Some(id) = node_id(rw.edge.operands.get(k)) else {
                continue;
            };
            if removed == Some(id) {
                continue;
            }
            if surviving(rewrites, &kept, rw.body, id) <= 0 {
                kept.push((i, k));
            }
        }
    }
    for (i, rw) in rewrites.iter_mut().enumerate() {
        let edge = rw.edge;
        rw.pieces.retain(|piece| match *piece {
            Piece::Single(k) if node_id(edge.operands.get(k)).is_some() => kept.contains(&(i, k)),
            _ => true,
        });
    }
}

/// Mentions of `id` left in `body` after the rewrites inside it (with the singles kept
/// so far).
fn surviving(rewrites: &[Rewrite], kept: &[(usize, usize)], body: &[Stmt], id: &str) -> isize {
    let (Some(first), Some(last)) = (body.first(), body.last()) else {
        return 0;
    };
    let (start, end) = (first.span().start, last.span().end);
    let count = |ops: &[EdgeOperand]| {
        ops.iter()
            .filter(|op| node_id(Some(op)) == Some(id))
            .count()
    };
    let mut left = mentions(body, id);
    let mut gone = 0;
    for (j, rw) in rewrites.iter().enumerate() {
        if rw.edge.span.start < start || rw.edge.span.end > end {
            continue;
        }
        gone += count(&rw.edge.operands);
        for piece in &rw.pieces {
            if let Piece::Chain(a, b) = *piece {
                left += count(rw.edge.operands.get(a..=b).unwrap_or(&[]));
            }
        }
        left += kept
            .iter()
            .filter(|&&(kj, kk)| kj == j && node_id(rw.edge.operands.get(kk)) == Some(id))
            .count();
    }
    isize::try_from(left).unwrap_or(isize::MAX) - isize::try_from(gone).unwrap_or(isize::MAX)
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
    let lists_range = StmtAttrs::edge(src, rw.edge).lists_range();
    let lists = lists_range.map_or("", |(s, e)| src.get(s, e));
    // What stood between the last endpoint and the first `[`: usually one space, but it may
    // hold a comment. The piece that still ends at the last endpoint keeps it as written (or
    // the last piece with attributes, when that link is gone); the others get one space.
    let original_gap = lists_range.map_or("", |(s, _)| src.get(op_span(last).end, s));
    let keeper = rw
        .pieces
        .iter()
        .rposition(|p| matches!(p, Piece::Chain(_, b) if *b == last))
        .or_else(|| {
            rw.pieces
                .iter()
                .rposition(|p| matches!(p, Piece::Chain(..)))
        });
    let mut texts = Vec::new();
    for (index, piece) in rw.pieces.iter().enumerate() {
        texts.push(match *piece {
            Piece::Chain(a, b) => {
                let chain = render(src.text, op_span(a).start, op_span(b).end, inner)?;
                let gap = if lists.is_empty() {
                    ""
                } else if keeper == Some(index) {
                    original_gap
                } else {
                    " "
                };
                format!("{chain}{gap}{lists}")
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
