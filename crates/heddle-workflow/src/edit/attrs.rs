//! Setting and removing attributes by meaning: a key may be Heddle's name or an alias; a
//! set writes the spelling the element already uses (so `model` updates an existing
//! `llm_model` instead of adding a second, conflicting key), and a removal removes every
//! spelling.

use heddle_dot::Edit;

use super::{Current, WorkflowEdit, WorkflowEditError};
use crate::catalog::{self, Scope};
use crate::{AttrEntry, AttrOrigin};

/// Every spelling of `key` in `scope`: the catalog name and its aliases, or `key` alone.
fn spellings(scope: Scope, key: &str) -> Vec<String> {
    match catalog::lookup(scope, key) {
        Some(spec) if !spec.name.ends_with('*') => std::iter::once(spec.name)
            .chain(spec.aliases.iter().copied())
            .map(str::to_owned)
            .collect(),
        _ => vec![key.to_owned()],
    }
}

/// The spelling of `key` the element's own attributes use, else `key` as given.
fn written(entries: &[AttrEntry], scope: Scope, key: &str) -> String {
    let canonical = match catalog::lookup(scope, key) {
        Some(spec) if !spec.name.ends_with('*') => spec.name,
        _ => key,
    };
    entries
        .iter()
        .find(|e| e.origin == AttrOrigin::Explicit && e.canonical == canonical)
        .map_or_else(|| key.to_owned(), |e| e.key.to_string())
}

fn check_key(key: &str) -> Result<(), WorkflowEditError> {
    if key.is_empty() {
        Err(WorkflowEditError::EmptyKey)
    } else {
        Ok(())
    }
}

pub(super) fn decide(
    current: &Current,
    edit: &WorkflowEdit,
) -> Result<Vec<Edit>, WorkflowEditError> {
    use WorkflowEdit as W;
    let graph = &current.built.workflow.attrs;
    Ok(match edit {
        W::SetGraphAttr { key, value } => {
            check_key(key)?;
            vec![Edit::SetGraphAttr {
                key: written(graph, Scope::Graph, key),
                value: value.clone(),
            }]
        }
        W::RemoveGraphAttr { key } => {
            check_key(key)?;
            spellings(Scope::Graph, key)
                .into_iter()
                .map(|key| Edit::RemoveGraphAttr { key })
                .collect()
        }
        W::SetNodeAttr { node, key, value } => {
            check_key(key)?;
            let found = current.node(node)?;
            vec![Edit::SetNodeAttr {
                node: node.clone(),
                key: written(&found.attrs, Scope::Node, key),
                value: value.clone(),
            }]
        }
        W::RemoveNodeAttr { node, key } => {
            check_key(key)?;
            current.node(node)?;
            spellings(Scope::Node, key)
                .into_iter()
                .map(|key| Edit::RemoveNodeAttr {
                    node: node.clone(),
                    key,
                })
                .collect()
        }
        W::SetEdgeAttr { edge, key, value } => {
            check_key(key)?;
            let found = current.edge(edge)?;
            vec![Edit::SetEdgeAttr {
                edge: edge.clone(),
                key: written(&found.attrs, Scope::Edge, key),
                value: value.clone(),
            }]
        }
        W::RemoveEdgeAttr { edge, key } => {
            check_key(key)?;
            current.edge(edge)?;
            spellings(Scope::Edge, key)
                .into_iter()
                .map(|key| Edit::RemoveEdgeAttr {
                    edge: edge.clone(),
                    key,
                })
                .collect()
        }
        _ => Vec::new(),
    })
}
