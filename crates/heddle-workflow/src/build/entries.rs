//! Typed attribute entries.

use std::borrow::Cow;

use heddle_dot::Attr;

use super::decoded;
use super::walk::Builder;
use crate::catalog::{self, AttrSpec, Scope};
use crate::files::resolve_reference;
use crate::value::typed_value;
use crate::{AttrEntry, AttrOrigin, Value};

impl Builder<'_, '_> {
    /// The typed entry for `attr` written in `scope`, and its catalog entry.
    pub(super) fn entry(
        &self,
        scope: Scope,
        attr: &Attr,
        origin: AttrOrigin,
    ) -> (AttrEntry, Option<&'static AttrSpec>) {
        let written = decoded(&attr.key);
        let raw = decoded(&attr.value).into_owned();
        let spec = catalog::lookup(scope, &written);
        let canonical: Cow<'static, str> = match spec {
            Some(spec) if !spec.name.ends_with('*') => Cow::Borrowed(spec.name),
            _ => Cow::Owned(written.clone().into_owned()),
        };
        let key = if written == canonical {
            canonical.clone()
        } else {
            Cow::Owned(written.into_owned())
        };
        let value = match spec {
            Some(spec) => self.resolve_files(typed_value(spec.ty, &raw)),
            None => Value::String(raw.clone()),
        };
        let entry = AttrEntry {
            key,
            canonical,
            value,
            raw,
            origin,
            span: attr.span,
        };
        (entry, spec)
    }

    /// Fills in `resolved` of a file reference when the file exists.
    fn resolve_files(&self, value: Value) -> Value {
        match value {
            Value::FileRef { path, .. } => {
                let full = resolve_reference(self.path, &path);
                let resolved = self.files.exists(&full).then(|| full.display().to_string());
                Value::FileRef { path, resolved }
            }
            other => other,
        }
    }
}

/// Sets `entry` in `attrs`, replacing an entry with the same canonical key.
pub(crate) fn set_entry(attrs: &mut Vec<AttrEntry>, entry: AttrEntry) {
    match attrs.iter_mut().find(|e| e.canonical == entry.canonical) {
        Some(existing) => *existing = entry,
        None => attrs.push(entry),
    }
}

/// Sets each of `entries` in `attrs`, in order (a later one wins). A list still empty takes
/// `entries` whole when no key repeats in it: a node's list is then allocated once, at its
/// size (a large workflow has a list per node).
pub(crate) fn set_entries(attrs: &mut Vec<AttrEntry>, entries: Vec<AttrEntry>) {
    let repeats = |entries: &[AttrEntry]| {
        (1..entries.len()).any(|i| find(&entries[..i], &entries[i].canonical).is_some())
    };
    if attrs.is_empty() && !repeats(&entries) {
        *attrs = entries;
        return;
    }
    for entry in entries {
        set_entry(attrs, entry);
    }
}

/// The entry with canonical key `key`.
pub(crate) fn find<'a>(attrs: &'a [AttrEntry], key: &str) -> Option<&'a AttrEntry> {
    attrs.iter().find(|e| e.canonical == key)
}
