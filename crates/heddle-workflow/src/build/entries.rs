//! Typed attribute entries.

use heddle_dot::Attr;

use super::walk::Builder;
use crate::catalog::{self, Scope};
use crate::files::resolve_reference;
use crate::value::{ValueType, typed_value};
use crate::{AttrEntry, AttrOrigin, Value};

impl Builder<'_, '_> {
    /// The typed entry for `attr` written in `scope`.
    pub(super) fn entry(&self, scope: Scope, attr: &Attr, origin: AttrOrigin) -> AttrEntry {
        let key = attr.key.unescaped();
        let raw = attr.value.unescaped();
        let spec = catalog::lookup(scope, &key);
        let canonical = match spec {
            Some(spec) if !spec.name.ends_with('*') => spec.name.to_owned(),
            _ => key.clone(),
        };
        let value = match spec {
            Some(spec) => self.resolve_files(typed_value(spec.ty, &raw)),
            None => Value::String(raw.clone()),
        };
        AttrEntry {
            key,
            canonical,
            value,
            raw,
            origin,
            span: attr.span,
        }
    }

    /// Fills in `resolved` of a file reference when the file exists.
    fn resolve_files(&self, value: Value) -> Value {
        match value {
            Value::FileRef { path, .. } => {
                let full = resolve_reference(self.path, &path);
                let resolved = self
                    .files
                    .exists(&full)
                    .then(|| full.display().to_string());
                Value::FileRef { path, resolved }
            }
            other => other,
        }
    }
}

/// Whether a spec's values are conditions.
pub(super) fn is_condition(scope: Scope, key: &str) -> bool {
    catalog::lookup(scope, key).is_some_and(|s| s.ty == ValueType::Condition)
}

/// Sets `entry` in `attrs`, replacing an entry with the same canonical key.
pub(crate) fn set_entry(attrs: &mut Vec<AttrEntry>, entry: AttrEntry) {
    match attrs.iter_mut().find(|e| e.canonical == entry.canonical) {
        Some(existing) => *existing = entry,
        None => attrs.push(entry),
    }
}

/// The entry with canonical key `key`.
pub(crate) fn find<'a>(attrs: &'a [AttrEntry], key: &str) -> Option<&'a AttrEntry> {
    attrs.iter().find(|e| e.canonical == key)
}
