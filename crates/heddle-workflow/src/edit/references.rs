//! Attribute values that name a node: every attribute the catalog types as a node id
//! (`retry_target`, `fallback_retry_target`, in any scope, as the `retry_target_exists` rule
//! reads them) and `#id` selectors of the model stylesheet. A rename rewrites them; a
//! deletion removes the attributes, or is refused where no edit can remove one alone.

use heddle_dot::{Edit, ValueSplice};

use super::{Current, WorkflowEditError};
use crate::build::{Occurrence, Owner};
use crate::catalog::{self, Scope};
use crate::locate::value_range;
use crate::stylesheet::{SelectorKind, Stylesheet};
use crate::value::ValueType;

/// Whether `key` names a node wherever it is written (by name or alias).
fn names_a_node(key: &str) -> bool {
    catalog::all().any(|spec| spec.ty == ValueType::NodeId && spec.matches(key))
}

/// The occurrences whose value names `id` (surrounding spaces ignored, as the engine reads
/// them).
fn naming<'a, 'g>(
    current: &'a Current<'_, 'g>,
    id: &'a str,
) -> impl Iterator<Item = &'a Occurrence<'g>> {
    current
        .built
        .occurrences
        .iter()
        .filter(move |o| names_a_node(&o.key()) && o.raw().trim() == id)
}

/// The value rewrites that point every reference to `from` at `to`.
pub(super) fn rename_splices(
    current: &Current,
    from: &str,
    to: &str,
) -> Result<Vec<ValueSplice>, WorkflowEditError> {
    let mut splices: Vec<ValueSplice> = naming(current, from)
        .map(|o| {
            let raw = o.raw();
            let lead = raw.len() - raw.trim_start().len();
            let value = format!("{}{to}{}", &raw[..lead], &raw[lead + from.len()..]);
            ValueSplice::whole(&o.attr.value, &value)
        })
        .collect();
    for o in &current.built.occurrences {
        if o.scope == Scope::Graph && o.canonical() == "model_stylesheet" {
            splices.extend(stylesheet_splices(current, o, from, to)?);
        }
    }
    Ok(splices)
}

/// Rewrites `#from` selectors of a stylesheet value: in place when their text maps back to
/// the file exactly, else the whole value.
fn stylesheet_splices(
    current: &Current,
    o: &Occurrence,
    from: &str,
    to: &str,
) -> Result<Vec<ValueSplice>, WorkflowEditError> {
    let text = o.raw();
    let (sheet, _) = Stylesheet::parse_recovering(&text);
    let mut ranges = Vec::new();
    for selector in sheet.rules.iter().flat_map(|r| &r.selectors) {
        if !matches!(&selector.kind, SelectorKind::Id(id) if id == from) {
            continue;
        }
        let (start, end) = selector.span;
        let at = text
            .get(start..end)
            .and_then(|s| s.rfind(from))
            .map(|i| start + i);
        if let Some(at) = at {
            ranges.push((at, at + from.len()));
        }
    }
    if ranges.is_empty() {
        return Ok(Vec::new());
    }
    let value = &o.attr.value;
    let mapped: Vec<(usize, usize)> = ranges
        .iter()
        .map(|&(s, e)| value_range(current.source, value, s, e))
        .collect();
    if mapped
        .iter()
        .all(|&(s, e)| current.source.get(s..e) == Some(from))
    {
        return mapped
            .into_iter()
            .map(|(s, e)| ValueSplice::part(value, s, e, to).map_err(WorkflowEditError::from))
            .collect();
    }
    let mut rewritten = text.to_string();
    for &(s, e) in ranges.iter().rev() {
        rewritten.replace_range(s..e, to);
    }
    Ok(vec![ValueSplice::whole(value, &rewritten)])
}

/// Removes the attributes naming `id`, which is being deleted along with `deleting`.
pub(super) fn removal_edits(
    current: &Current,
    id: &str,
    deleting: &[&str],
) -> Result<Vec<Edit>, WorkflowEditError> {
    let mut edits = Vec::new();
    for o in naming(current, id) {
        let key = o.key().into_owned();
        let edit = match o.owner {
            Owner::Graph => Edit::RemoveGraphAttr { key },
            Owner::Node(n) => {
                let Some(node) = current.built.workflow.nodes.get(n) else {
                    continue;
                };
                if deleting.contains(&node.id.as_str()) {
                    continue;
                }
                Edit::RemoveNodeAttr {
                    node: node.id.clone(),
                    key,
                }
            }
            Owner::Subgraph(_) | Owner::NodeDefaults | Owner::EdgeDefaults | Owner::Edge(_) => {
                return Err(WorkflowEditError::StillNamed {
                    node: id.to_owned(),
                    key,
                    place: match o.owner {
                        Owner::Subgraph(_) => "a subgraph's attributes",
                        Owner::NodeDefaults => "a `node [..]` default",
                        Owner::EdgeDefaults => "an `edge [..]` default",
                        _ => "an edge's attributes",
                    },
                });
            }
        };
        if !edits.contains(&edit) {
            edits.push(edit);
        }
    }
    Ok(edits)
}
