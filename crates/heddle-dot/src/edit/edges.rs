//! Edge edits: attributes on one edge (splitting it out of a chain when the whole chain
//! cannot take the change), add and remove.

use super::Ctx;
use super::attrs::{StmtAttrs, remove_in_stmt, set_in_stmt};
use super::chain::{Rewrite, apply_rewrites, keep_lost_nodes};
use super::find::{EdgeLoc, find_edge, first_ref};
use super::nodes::{attr_list_text, is_edge, is_node, is_setting};
use super::text::TextEdit;
use crate::{EdgeKey, EdgeOperand, EdgeStmt, EditError, parse};

fn locate<'g>(ctx: &Ctx<'g>, key: &EdgeKey) -> Result<EdgeLoc<'g>, EditError> {
    find_edge(ctx.graph, key).ok_or_else(|| EditError::EdgeNotFound(key.clone()))
}

/// Both endpoints of the link are plain nodes (not subgraphs).
fn plain_link(edge: &EdgeStmt, link: usize) -> bool {
    matches!(
        (edge.operands.get(link), edge.operands.get(link + 1)),
        (Some(EdgeOperand::Node(_)), Some(EdgeOperand::Node(_)))
    )
}

fn unsupported(what: &str, key: &EdgeKey) -> EditError {
    EditError::Unsupported(format!(
        "{what} `{}` -> `{}` alone: it is one of several edges to or from a subgraph in one statement",
        key.from, key.to
    ))
}

fn set_or_remove(ctx: &Ctx, edge: &EdgeStmt, key: &str, value: Option<&str>) -> Vec<TextEdit> {
    let sa = StmtAttrs::edge(&ctx.src, edge);
    match value {
        Some(v) => set_in_stmt(&ctx.src, &sa, key, v),
        None => remove_in_stmt(&ctx.src, &sa, key).0,
    }
}

/// Sets (`Some`) or removes (`None`) an attribute on one edge. Returns the new text.
pub(crate) fn set_attr(
    ctx: &Ctx,
    edge: &EdgeKey,
    key: &str,
    value: Option<&str>,
) -> Result<Option<String>, EditError> {
    let loc = locate(ctx, edge)?;
    if loc.edges_in_stmt == 1 {
        return ctx.finish(&set_or_remove(ctx, loc.stmt, key, value));
    }
    // The statement defines several edges: a change that leaves it as it is needs no split.
    let current = loc.stmt.attrs.iter().rev().find(|a| a.key.value == key);
    let unchanged = match value {
        Some(v) => current.is_some_and(|a| a.value.unescaped() == v),
        None => current.is_none(),
    };
    if unchanged {
        return Ok(None);
    }
    if !plain_link(loc.stmt, loc.link) {
        return Err(unsupported("cannot change the edge", edge));
    }
    let split = apply_rewrites(
        ctx,
        vec![Rewrite::split_out(loc.stmt, loc.body, loc.link)],
        Vec::new(),
    )?;
    let Some(text) = ctx.finish(&split)? else {
        return Ok(None);
    };
    let reparsed = parse(&text);
    let graph = reparsed
        .document
        .graph()
        .filter(|_| reparsed.errors.is_empty())
        .ok_or_else(|| EditError::Unsupported("internal: splitting the chain failed".to_owned()))?;
    let ctx = Ctx::new(&reparsed.document, graph);
    let loc = locate(&ctx, edge)?;
    if loc.edges_in_stmt != 1 {
        return Err(EditError::Unsupported(
            "internal: splitting the chain failed".to_owned(),
        ));
    }
    Ok(ctx
        .finish(&set_or_remove(&ctx, loc.stmt, key, value))?
        .or(Some(text)))
}

pub(crate) fn add(
    ctx: &Ctx,
    from: &str,
    to: &str,
    attrs: &[(String, String)],
) -> Result<Vec<TextEdit>, EditError> {
    let written = |id: &str| {
        first_ref(&ctx.graph.stmts, id)
            .map(|r| ctx.src.get(r.id.span.start, r.id.span.end))
            .ok_or_else(|| EditError::NodeNotFound(id.to_owned()))
    };
    let (tail, head) = (written(from)?, written(to)?);
    let op = if ctx.graph.directed { "->" } else { "--" };
    let text = format!("{tail} {op} {head}{}", attr_list_text(ctx, attrs)?);
    Ok(vec![ctx.insert_top(&[is_edge, is_node, is_setting], &text)])
}

/// Removes one edge. In a chain the link is cut out; endpoints that would vanish with it
/// stay as node statements.
pub(crate) fn remove(ctx: &Ctx, edge: &EdgeKey) -> Result<Vec<TextEdit>, EditError> {
    let loc = locate(ctx, edge)?;
    if loc.edges_in_stmt > 1 && !plain_link(loc.stmt, loc.link) {
        return Err(unsupported("cannot remove the edge", edge));
    }
    let mut rewrites = vec![Rewrite::cut(
        loc.stmt,
        loc.body,
        |k| k == loc.link,
        |_| false,
    )];
    keep_lost_nodes(&mut rewrites, None);
    apply_rewrites(ctx, rewrites, Vec::new())
}
