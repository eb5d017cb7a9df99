//! Node edits: attributes, add, remove (with every edge touching the node), rename.

use super::attrs::{StmtAttrs, key_value, remove_in_stmt, remove_stmt, replace_value, set_in_stmt};
use super::chain::{Rewrite, apply_rewrites, keep_lost_nodes};
use super::find::{first_mention_stmt, first_ref, for_each_node_ref, node_stmts};
use super::text::TextEdit;
use super::{Ctx, check_key};
use crate::quote::{is_node_id, write_like};
use crate::{EdgeOperand, EditError, Stmt};

/// Statement kinds new statements are placed after, in order of preference.
pub(crate) fn is_node(s: &Stmt) -> bool {
    matches!(s, Stmt::Node(_))
}

pub(crate) fn is_edge(s: &Stmt) -> bool {
    matches!(s, Stmt::Edge(_))
}

pub(crate) fn is_setting(s: &Stmt) -> bool {
    matches!(s, Stmt::Attr(_) | Stmt::Assign(_))
}

/// `k1=v1, k2=v2` for new statements.
pub(crate) fn attr_list_text(ctx: &Ctx, attrs: &[(String, String)]) -> Result<String, EditError> {
    let mut parts = Vec::with_capacity(attrs.len());
    for (k, v) in attrs {
        check_key(k)?;
        parts.push(key_value(&ctx.src, None, k, v));
    }
    Ok(if parts.is_empty() {
        String::new()
    } else {
        format!(" [{}]", parts.join(", "))
    })
}

pub(crate) fn set_attr(
    ctx: &Ctx,
    node: &str,
    key: &str,
    value: &str,
) -> Result<Vec<TextEdit>, EditError> {
    check_key(key)?;
    let mut stmts = Vec::new();
    node_stmts(&ctx.graph.stmts, node, &mut stmts);
    let existing = stmts
        .iter()
        .flat_map(|s| s.attrs.iter())
        .rfind(|a| a.key.value == key);
    if let Some(attr) = existing {
        return Ok(replace_value(attr, value));
    }
    if let Some(first) = stmts.first() {
        return Ok(set_in_stmt(
            &ctx.src,
            &StmtAttrs::node(&ctx.src, first),
            key,
            value,
        ));
    }
    // Only mentioned in edges: a new node statement right after the first mention keeps
    // the node's creation point (and so the defaults it gets).
    let (Some(r), Some(anchor)) = (
        first_ref(&ctx.graph.stmts, node),
        first_mention_stmt(&ctx.graph.stmts, node),
    ) else {
        return Err(EditError::NodeNotFound(node.to_owned()));
    };
    let text = format!(
        "{} [{}]",
        ctx.src.get(r.id.span.start, r.id.span.end),
        key_value(&ctx.src, None, key, value)
    );
    Ok(vec![ctx.insert_after(anchor, &text)])
}

pub(crate) fn remove_attr(ctx: &Ctx, node: &str, key: &str) -> Result<Vec<TextEdit>, EditError> {
    if first_ref(&ctx.graph.stmts, node).is_none() {
        return Err(EditError::NodeNotFound(node.to_owned()));
    }
    let mut stmts = Vec::new();
    node_stmts(&ctx.graph.stmts, node, &mut stmts);
    Ok(stmts
        .iter()
        .flat_map(|s| remove_in_stmt(&ctx.src, &StmtAttrs::node(&ctx.src, s), key).0)
        .collect())
}

pub(crate) fn add(
    ctx: &Ctx,
    id: &str,
    attrs: &[(String, String)],
) -> Result<Vec<TextEdit>, EditError> {
    if !is_node_id(id) {
        return Err(EditError::InvalidId(id.to_owned()));
    }
    if first_ref(&ctx.graph.stmts, id).is_some() {
        return Err(EditError::NodeExists(id.to_owned()));
    }
    let text = format!("{id}{}", attr_list_text(ctx, attrs)?);
    Ok(vec![ctx.insert_top(&[is_node, is_setting], &text)])
}

pub(crate) fn rename(ctx: &Ctx, from: &str, to: &str) -> Result<Vec<TextEdit>, EditError> {
    if first_ref(&ctx.graph.stmts, from).is_none() {
        return Err(EditError::NodeNotFound(from.to_owned()));
    }
    if !is_node_id(to) {
        return Err(EditError::InvalidId(to.to_owned()));
    }
    if from == to {
        return Ok(Vec::new());
    }
    if first_ref(&ctx.graph.stmts, to).is_some() {
        return Err(EditError::NodeExists(to.to_owned()));
    }
    let mut edits = Vec::new();
    for_each_node_ref(&ctx.graph.stmts, &mut |r| {
        if r.id.value == from {
            edits.push(TextEdit {
                start: r.id.span.start,
                end: r.id.span.end,
                text: write_like(r.id.kind, to),
            });
        }
    });
    Ok(edits)
}

/// Removes the node's statements and every edge touching it. Chains through the node are
/// cut there; other nodes that would vanish with them stay as node statements.
pub(crate) fn remove(ctx: &Ctx, id: &str) -> Result<Vec<TextEdit>, EditError> {
    if first_ref(&ctx.graph.stmts, id).is_none() {
        return Err(EditError::NodeNotFound(id.to_owned()));
    }
    let mut edits = Vec::new();
    let mut rewrites = Vec::new();
    collect_removal(ctx, &ctx.graph.stmts, id, &mut edits, &mut rewrites);
    keep_lost_nodes(&mut rewrites, Some(id));
    apply_rewrites(ctx, rewrites, edits)
}

fn collect_removal<'g>(
    ctx: &Ctx,
    stmts: &'g [Stmt],
    id: &str,
    edits: &mut Vec<TextEdit>,
    rewrites: &mut Vec<Rewrite<'g>>,
) {
    for stmt in stmts {
        match stmt {
            Stmt::Node(n) if n.node.id.value == id => edits.push(remove_stmt(&ctx.src, n.span)),
            Stmt::Subgraph(s) => collect_removal(ctx, &s.stmts, id, edits, rewrites),
            Stmt::Edge(e) => {
                for op in &e.operands {
                    if let EdgeOperand::Subgraph(s) = op {
                        collect_removal(ctx, &s.stmts, id, edits, rewrites);
                    }
                }
                let is_id = |k: usize| matches!(e.operands.get(k), Some(EdgeOperand::Node(n)) if n.id.value == id);
                if (0..e.operands.len()).any(is_id) {
                    rewrites.push(Rewrite::cut(e, stmts, |k| is_id(k) || is_id(k + 1), is_id));
                }
            }
            _ => {}
        }
    }
}
