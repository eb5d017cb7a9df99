//! Connecting two nodes and deleting a selection of nodes and edges, keeping the shape the
//! dialect requires: no edge into the start or out of an exit, one start, an exit.

use heddle_dot::{EdgeKey, Edit};

use super::references::removal_edits;
use super::{Current, WorkflowEditError};
use crate::{AttrOrigin, HandlerKind};

/// Adds `from -> to`. Refused: unknown nodes, an edge into the start or out of an exit,
/// and a second `from -> to` without attributes when one without attributes of its own
/// exists (parallel edges that differ, such as labelled choices, are fine).
pub(crate) fn connect(
    current: &Current,
    from: &str,
    to: &str,
    attrs: &[(String, String)],
) -> Result<Vec<Edit>, WorkflowEditError> {
    let tail = current.node(from)?;
    let head = current.node(to)?;
    if tail.kind == HandlerKind::Exit {
        return Err(WorkflowEditError::OutOfExit {
            node: from.to_owned(),
        });
    }
    if head.kind == HandlerKind::Start {
        return Err(WorkflowEditError::IntoStart {
            node: to.to_owned(),
        });
    }
    let bare = attrs.is_empty()
        && current.built.workflow.edges.iter().any(|e| {
            e.from == from
                && e.to == to
                && !e.attrs.iter().any(|a| a.origin == AttrOrigin::Explicit)
        });
    if bare {
        return Err(WorkflowEditError::DuplicateEdge {
            from: from.to_owned(),
            to: to.to_owned(),
        });
    }
    Ok(vec![Edit::AddEdge {
        from: from.to_owned(),
        to: to.to_owned(),
        attrs: attrs.to_vec(),
    }])
}

/// Deletes `edges`, then `nodes` (each with its edges and the attributes naming it).
/// Parallel edges go from the last occurrence down, so removing one does not renumber
/// those still to remove; edges touching a deleted node go with it.
pub(crate) fn delete(
    current: &Current,
    nodes: &[String],
    edges: &[EdgeKey],
) -> Result<Vec<Edit>, WorkflowEditError> {
    let mut ids: Vec<&str> = Vec::new();
    for id in nodes {
        current.node(id)?;
        if !ids.contains(&id.as_str()) {
            ids.push(id);
        }
    }
    let mut keys: Vec<&EdgeKey> = Vec::new();
    for key in edges {
        current.edge(key)?;
        let touches = ids.contains(&key.from.as_str()) || ids.contains(&key.to.as_str());
        if !touches && !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys.sort_by_key(|k| std::cmp::Reverse(k.occurrence));
    check_keeps_ends(current, &ids)?;
    let mut out: Vec<Edit> = keys
        .into_iter()
        .map(|edge| Edit::RemoveEdge { edge: edge.clone() })
        .collect();
    for id in &ids {
        out.extend(removal_edits(current, id, &ids)?);
    }
    out.extend(ids.iter().map(|id| Edit::RemoveNode {
        id: (*id).to_owned(),
    }));
    Ok(out)
}

/// Refuses deleting every start or every exit the workflow has.
fn check_keeps_ends(current: &Current, ids: &[&str]) -> Result<(), WorkflowEditError> {
    let nodes = &current.built.workflow.nodes;
    for kind in [HandlerKind::Start, HandlerKind::Exit] {
        let of_kind: Vec<&str> = nodes
            .iter()
            .filter(|n| n.kind == kind)
            .map(|n| n.id.as_str())
            .collect();
        let Some(last) = of_kind.iter().find(|id| ids.contains(id)) else {
            continue;
        };
        if of_kind.iter().all(|id| ids.contains(id)) {
            let node = (*last).to_owned();
            return Err(match kind {
                HandlerKind::Start => WorkflowEditError::OnlyStart { node },
                _ => WorkflowEditError::LastExit { node },
            });
        }
    }
    Ok(())
}
