//! Turning the drafts into the final model: labels, shapes, kinds, classes, stylesheet.

use super::Built;
use super::entries::{find, set_entry};
use super::walk::Builder;
use crate::catalog::{self, Scope};
use crate::condition::Condition;
use crate::hash::FxHashMap;
use crate::locate::value_range;
use crate::stylesheet::{Declaration, Stylesheet};
use crate::value::typed_value;
use crate::{AttrEntry, AttrOrigin, HandlerKind, Node, SubgraphInfo, Value, Workflow};

/// The class a subgraph label gives its nodes: lowercase, runs of whitespace to `-`, only
/// letters, digits, `-` and `_` kept. `None` when nothing is left.
pub fn class_from_label(label: &str) -> Option<String> {
    let mut class = String::new();
    for word in label.split_whitespace() {
        let cleaned: String = word
            .chars()
            .flat_map(char::to_lowercase)
            .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if cleaned.is_empty() {
            continue;
        }
        if !class.is_empty() {
            class.push('-');
        }
        class.push_str(&cleaned);
    }
    (!class.is_empty()).then_some(class)
}

/// Splits a `class` attribute on commas and whitespace.
pub fn split_classes(value: &str) -> impl Iterator<Item = &str> {
    value
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
}

/// Defaults (cloned) overlaid with the node's own entries: an own entry takes the place of
/// the default it overrides; the others follow in order.
fn effective(defaults: &[AttrEntry], mut own: Vec<AttrEntry>) -> Vec<AttrEntry> {
    if defaults.is_empty() {
        return own;
    }
    let mut attrs = Vec::with_capacity(defaults.len() + own.len());
    for default in defaults {
        match own.iter().position(|e| e.canonical == default.canonical) {
            Some(i) => attrs.push(own.remove(i)),
            None => attrs.push(default.clone()),
        }
    }
    attrs.append(&mut own);
    attrs
}

impl<'g> Builder<'g, '_> {
    pub(super) fn finish(mut self) -> Built<'g> {
        let declarations = self.declarations();
        let subgraphs: Vec<SubgraphInfo> = self
            .subgraphs
            .iter()
            .map(|draft| {
                let label = find(&draft.attrs, "label").map(|e| e.raw.clone());
                SubgraphInfo {
                    id: draft.id.clone(),
                    class: label.as_deref().and_then(class_from_label),
                    label,
                    parent: draft.parent,
                    nodes: draft
                        .nodes
                        .iter()
                        .map(|&i| self.nodes[i].id.clone())
                        .collect(),
                    span: draft.span,
                }
            })
            .collect();
        let stylesheet = self.stylesheet();
        // One typed entry per stylesheet declaration, shared by every node it applies to.
        let mut sheet_entries: FxHashMap<usize, AttrEntry> = FxHashMap::default();
        let mut nodes = Vec::with_capacity(self.nodes.len());
        for mut draft in std::mem::take(&mut self.nodes) {
            draft.attrs = effective(&draft.defaults, std::mem::take(&mut draft.attrs));
            let shape_attr = find(&draft.attrs, "shape").map(|e| e.raw.trim().to_owned());
            let type_attr = find(&draft.attrs, "type").map(|e| e.raw.as_str());
            let kind = HandlerKind::resolve(type_attr, shape_attr.as_deref(), &draft.id);
            let label = match find(&draft.attrs, "label") {
                Some(entry) if entry.raw.contains('\\') => entry
                    .raw
                    .replace("\\N", &draft.id)
                    .replace("\\G", &self.graph_name),
                Some(entry) => entry.raw.clone(),
                None => draft.id.clone(),
            };
            let mut classes: Vec<String> = Vec::new();
            if let Some(entry) = find(&draft.attrs, "class") {
                for class in split_classes(&entry.raw) {
                    if !classes.iter().any(|c| c == class) {
                        classes.push(class.to_owned());
                    }
                }
            }
            for &sub in &draft.member_of {
                if let Some(class) = &subgraphs[sub].class
                    && !classes.contains(class)
                {
                    classes.push(class.clone());
                }
            }
            let mut node = Node {
                shape: shape_attr.unwrap_or_else(|| "box".to_owned()),
                id: draft.id,
                kind,
                label,
                classes,
                attrs: draft.attrs,
                subgraph: draft.subgraph,
                span: draft.span,
            };
            if let Some((sheet, value_id)) = &stylesheet {
                self.apply_stylesheet(&mut node, sheet, value_id, &mut sheet_entries);
            }
            nodes.push(node);
        }
        let conditions: FxHashMap<usize, &Condition> = self
            .occurrences
            .iter()
            .filter_map(|o| match &o.condition {
                Some(Ok(condition)) => Some((o.attr.span.start, condition)),
                _ => None,
            })
            .collect();
        let mut edges = std::mem::take(&mut self.edges);
        for edge in &mut edges {
            edge.label = find(&edge.attrs, "label").map(|e| e.raw.clone());
            if let Some(entry) = find(&edge.attrs, "condition")
                && !entry.raw.trim().is_empty()
            {
                edge.condition = Some(entry.raw.clone());
                edge.parsed_condition = conditions.get(&entry.span.start).map(|c| (*c).clone());
            }
            edge.weight = match find(&edge.attrs, "weight").map(|e| &e.value) {
                Some(Value::Float(n)) => *n,
                Some(Value::Integer(n)) => *n as f64,
                _ => 0.0,
            };
        }
        let graph_attrs = std::mem::take(&mut self.graph_attrs);
        let workflow = Workflow {
            name: self.graph_name.clone(),
            goal: find(&graph_attrs, "goal").map(|e| e.raw.clone()),
            label: find(&graph_attrs, "label").map(|e| e.raw.clone()),
            rankdir: match find(&graph_attrs, "rankdir").map(|e| &e.value) {
                Some(Value::Enum(dir)) => dir.clone(),
                _ => "TB".to_owned(),
            },
            attrs: graph_attrs,
            nodes,
            edges,
            subgraphs,
            stylesheet: stylesheet.map(|(sheet, _)| sheet),
        };
        self.into_built(workflow, declarations)
    }

    /// The graph's `model_stylesheet`, parsed (errors are reported by the lint), with the
    /// value it was written in.
    fn stylesheet(&self) -> Option<(Stylesheet, heddle_dot::Id)> {
        let entry = find(&self.graph_attrs, "model_stylesheet")?;
        let occurrence = self
            .occurrences
            .iter()
            .rev()
            .find(|o| o.scope == Scope::Graph && o.attr.span == entry.span)?;
        let (sheet, _errors) = Stylesheet::parse_recovering(&entry.raw);
        Some((sheet, occurrence.attr.value.clone()))
    }

    fn apply_stylesheet(
        &self,
        node: &mut Node,
        sheet: &Stylesheet,
        value_id: &heddle_dot::Id,
        entries: &mut FxHashMap<usize, AttrEntry>,
    ) {
        for (property, declaration) in sheet.resolve(&node.id, &node.shape, &node.classes) {
            if find(&node.attrs, property).is_some_and(|e| e.origin == AttrOrigin::Explicit) {
                continue;
            }
            let entry = entries
                .entry(declaration.value_span.0)
                .or_insert_with(|| self.stylesheet_entry(property, declaration, value_id));
            set_entry(&mut node.attrs, entry.clone());
        }
    }

    /// The attribute a stylesheet declaration sets, typed, with the span of its value inside
    /// the `model_stylesheet` string.
    fn stylesheet_entry(
        &self,
        property: &str,
        declaration: &Declaration,
        value_id: &heddle_dot::Id,
    ) -> AttrEntry {
        let (start, end) = value_range(
            self.source,
            value_id,
            declaration.value_span.0,
            declaration.value_span.1,
        );
        let (name, value): (std::borrow::Cow<'static, str>, Value) =
            match catalog::lookup(Scope::Node, property) {
                Some(spec) => (spec.name.into(), typed_value(spec.ty, &declaration.value)),
                None => (
                    property.to_owned().into(),
                    Value::String(declaration.value.clone()),
                ),
            };
        AttrEntry {
            key: name.clone(),
            canonical: name,
            value,
            raw: declaration.value.clone(),
            origin: AttrOrigin::Stylesheet,
            span: self.lines.span(self.source, start, end),
        }
    }
}
