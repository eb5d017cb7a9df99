//! Adding and renaming nodes: ids the dialect accepts, fresh ids for new nodes, one start,
//! and renames that keep every reference and the node's kind.

use heddle_dot::Edit;

use super::references::rename_splices;
use super::{Current, Plan, WorkflowEditError};
use crate::HandlerKind;
use crate::catalog::{self, Scope};

/// DOT keywords; Graphviz reads them in any case, so they cannot be bare ids.
const KEYWORDS: [&str; 6] = ["strict", "graph", "digraph", "node", "edge", "subgraph"];

fn is_keyword(id: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(id))
}

/// Accepts `id` if it can be a node id: `[A-Za-z_][A-Za-z0-9_]*`, not a DOT keyword.
pub(crate) fn check_id(id: &str) -> Result<(), WorkflowEditError> {
    let mut bytes = id.bytes();
    let shaped = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !shaped {
        return Err(WorkflowEditError::InvalidId {
            node: id.to_owned(),
        });
    }
    if is_keyword(id) {
        return Err(WorkflowEditError::ReservedId {
            node: id.to_owned(),
        });
    }
    Ok(())
}

/// Refuses `id` when another node (other than `except`) has it, compared without case:
/// node ids become file names, and `Plan` and `plan` would share one on some disks.
fn check_free(current: &Current, id: &str, except: Option<&str>) -> Result<(), WorkflowEditError> {
    let clash = current
        .built
        .workflow
        .nodes
        .iter()
        .find(|n| Some(n.id.as_str()) != except && n.id.eq_ignore_ascii_case(id));
    match clash {
        Some(n) => Err(WorkflowEditError::IdTaken {
            node: id.to_owned(),
            existing: n.id.clone(),
        }),
        None => Ok(()),
    }
}

/// `base` if no node uses it (without case), else `base_2`, `base_3`, ...
pub fn fresh_node_id<'a>(base: &str, existing: impl IntoIterator<Item = &'a str>) -> String {
    let taken: Vec<String> = existing.into_iter().map(str::to_ascii_lowercase).collect();
    let free = |id: &str| !is_keyword(id) && !taken.iter().any(|t| *t == id.to_ascii_lowercase());
    if free(base) {
        return base.to_owned();
    }
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|id| free(id))
        .unwrap_or_else(|| base.to_owned())
}

/// The title the editor gives a kind (a new node's label).
fn title(kind: HandlerKind) -> &'static str {
    match kind {
        HandlerKind::Start => "Start",
        HandlerKind::Exit => "Exit",
        HandlerKind::Agent => "Agent",
        HandlerKind::Prompt => "Prompt",
        HandlerKind::Command => "Command",
        HandlerKind::Human => "Human",
        HandlerKind::Conditional => "Condition",
        HandlerKind::Parallel => "Parallel",
        HandlerKind::FanIn => "Fan-in",
        HandlerKind::Wait => "Wait",
        HandlerKind::ManagerLoop => "Manager loop",
    }
}

/// `N` of an id `base_N`.
fn numbered<'a>(id: &'a str, base: &str) -> Option<&'a str> {
    id.strip_prefix(base)?
        .strip_prefix('_')
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What [`super::WorkflowEdit::AddNode`] asks for.
pub(super) struct NewNode<'a> {
    pub id: Option<&'a str>,
    pub kind: Option<HandlerKind>,
    pub label: Option<&'a str>,
    pub attrs: &'a [(String, String)],
    pub allow_another_exit: bool,
}

/// The value of the first attribute among `attrs` whose key means `canonical` on a node.
fn attr_value<'a>(attrs: &'a [(String, String)], canonical: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(k, _)| catalog::lookup(Scope::Node, k).is_some_and(|s| s.name == canonical))
        .map(|(_, v)| v.as_str())
}

pub(super) fn add(current: &Current, new: &NewNode) -> Result<Vec<Edit>, WorkflowEditError> {
    let nodes = &current.built.workflow.nodes;
    let base = new.kind.map_or("node", HandlerKind::type_name);
    let id = match new.id {
        Some(id) => {
            check_id(id)?;
            check_free(current, id, None)?;
            id.to_owned()
        }
        None => fresh_node_id(base, nodes.iter().map(|n| n.id.as_str())),
    };
    let kind = new.kind.unwrap_or_else(|| {
        HandlerKind::resolve(
            attr_value(new.attrs, "type"),
            attr_value(new.attrs, "shape"),
            &id,
        )
    });
    let existing = nodes.iter().find(|n| n.kind == kind);
    match (kind, existing) {
        (HandlerKind::Start, Some(start)) => {
            return Err(WorkflowEditError::StartExists {
                start: start.id.clone(),
            });
        }
        (HandlerKind::Exit, Some(exit)) if !new.allow_another_exit => {
            return Err(WorkflowEditError::ExitExists {
                exit: exit.id.clone(),
            });
        }
        _ => {}
    }
    let mut attrs = Vec::new();
    if let Some(kind) = new.kind {
        let label = match new.label {
            Some(label) => label.to_owned(),
            None => match numbered(&id, base) {
                Some(n) => format!("{} {n}", title(kind)),
                None => title(kind).to_owned(),
            },
        };
        attrs.push(("label".to_owned(), label));
        attrs.push(("shape".to_owned(), kind.shape().to_owned()));
    } else if let Some(label) = new.label {
        attrs.push(("label".to_owned(), label.to_owned()));
    }
    attrs.extend(new.attrs.iter().cloned());
    Ok(vec![Edit::AddNode { id, attrs }])
}

/// Renames `from` to `to`, rewriting every attribute that names it. Refused: an unknown
/// node, an id that cannot be written or is taken, and a rename that changes the node's
/// kind (`start`, `exit` and `end` imply kinds for nodes whose shape or type do not).
pub(super) fn rename(current: &Current, from: &str, to: &str) -> Result<Plan, WorkflowEditError> {
    let node = current.node(from)?;
    if from == to {
        return Ok(Plan::default());
    }
    check_id(to)?;
    check_free(current, to, Some(from))?;
    let type_attr = node
        .attrs
        .iter()
        .find(|a| a.canonical == "type")
        .map(|a| a.raw.as_str());
    let kind = HandlerKind::resolve(type_attr, Some(&node.shape), to);
    if kind != node.kind {
        return Err(WorkflowEditError::KindChange {
            node: from.to_owned(),
            to: to.to_owned(),
            kind,
        });
    }
    Ok(Plan {
        splices: rename_splices(current, from, to)?,
        edits: vec![Edit::RenameNode {
            from: from.to_owned(),
            to: to.to_owned(),
        }],
    })
}
