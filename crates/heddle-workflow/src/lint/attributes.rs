//! Attributes as written: known, well-typed, set once per statement.

use super::{LintContext, RuleInfo};
use crate::build::{Occurrence, Typed};
use crate::catalog::{self, AttrSpec};
use crate::kind::{GRAPHVIZ_SHAPES, TYPE_NAMES, is_graphviz_shape};
use crate::suggest::closest;
use crate::value::{ValueType, format_allowed, parse_value};
use crate::{Diagnostic, HandlerKind, Severity};

const ATTRIBUTE_TYPE: RuleInfo = RuleInfo {
    id: "attribute_type",
    severity: Severity::Error,
    summary: "Each value parses as its attribute's type (duration, integer, boolean, enum, ...).",
};

const UNKNOWN_ATTRIBUTE: RuleInfo = RuleInfo {
    id: "unknown_attribute",
    severity: Severity::Warning,
    summary: "Each attribute is known to the dialect or Graphviz where it is written.",
};

const DUPLICATE_ATTRIBUTE: RuleInfo = RuleInfo {
    id: "duplicate_attribute",
    severity: Severity::Warning,
    summary: "An attribute list does not set the same attribute twice.",
};

const FIDELITY_VALID: RuleInfo = RuleInfo {
    id: "fidelity_valid",
    severity: Severity::Error,
    summary: "`fidelity` and `default_fidelity` name a fidelity mode.",
};

const TYPE_KNOWN: RuleInfo = RuleInfo {
    id: "type_known",
    severity: Severity::Error,
    summary: "A node's `type` names a handler.",
};

const SHAPE_KNOWN: RuleInfo = RuleInfo {
    id: "shape_known",
    severity: Severity::Warning,
    summary: "A node's `shape` is a Graphviz shape.",
};

const DURATION_UNIT: RuleInfo = RuleInfo {
    id: "duration_unit",
    severity: Severity::Warning,
    summary: "A duration has a unit; a bare number is read as seconds.",
};

const BOOLEAN_TEXT: RuleInfo = RuleInfo {
    id: "boolean_text",
    severity: Severity::Warning,
    summary: "`goal_gate` is `true` or `false`; other text reads as `true`.",
};

/// `join_policy` values; also warns (in `routing.rs`) when one can never be met.
pub(super) const JOIN_POLICY_VALID: RuleInfo = RuleInfo {
    id: "join_policy_valid",
    severity: Severity::Error,
    summary: "`join_policy` is `wait_all`, `first_success`, `k_of_n(N)` or `quorum(F)` (warning when it asks for more branches than there are).",
};

pub(super) const RULES: &[RuleInfo] = &[
    ATTRIBUTE_TYPE,
    DURATION_UNIT,
    BOOLEAN_TEXT,
    UNKNOWN_ATTRIBUTE,
    DUPLICATE_ATTRIBUTE,
    FIDELITY_VALID,
    JOIN_POLICY_VALID,
    TYPE_KNOWN,
    SHAPE_KNOWN,
];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    let occurrences = &ctx.built.occurrences;
    for (i, occurrence) in occurrences.iter().enumerate() {
        if let Some(diagnostic) = check_one(occurrence) {
            out.push(ctx.owned(diagnostic, occurrence));
        }
        // Occurrences of one statement are adjacent: look ahead within it.
        let later = occurrences[i + 1..]
            .iter()
            .take_while(|o| o.stmt == occurrence.stmt)
            .find(|o| o.canonical() == occurrence.canonical());
        if let Some(later) = later {
            let diagnostic = DUPLICATE_ATTRIBUTE
                .diag(format!(
                    "`{}` is set again later in this attribute list (to `{}`), so `{}` is ignored",
                    occurrence.key(),
                    later.raw(),
                    occurrence.raw()
                ))
                .at(occurrence.attr.span)
                .with_hint("remove one of the two");
            out.push(ctx.owned(diagnostic, occurrence));
        }
    }
}

fn check_one(occurrence: &Occurrence<'_>) -> Option<Diagnostic> {
    let Some(spec) = occurrence.spec else {
        return Some(unknown(occurrence));
    };
    if let Some(diagnostic) = lenient(spec, occurrence) {
        return Some(diagnostic);
    }
    if spec.checked_by.is_none() && occurrence.typed != Typed::Invalid {
        return None;
    }
    let key = occurrence.key();
    let key = key.as_ref();
    let raw = occurrence.raw();
    let raw = raw.as_ref();
    let value_span = occurrence.attr.value.span;
    match spec.checked_by {
        Some("fidelity_valid") => {
            let ValueType::Enum(modes) = spec.ty else {
                return None;
            };
            parse_value(spec.ty, raw).err()?;
            Some(
                FIDELITY_VALID
                    .diag(format!("`{raw}` is not a fidelity mode"))
                    .at(value_span)
                    .with_hint(enum_hint(raw, modes)),
            )
        }
        Some("join_policy_valid") => {
            let problem = crate::JoinPolicy::parse(raw).err()?;
            Some(
                JOIN_POLICY_VALID
                    .diag(problem)
                    .at(value_span)
                    .with_hint("`k_of_n(2)`: go on once 2 branches succeeded; `quorum(0.5)`: once half of them did"),
            )
        }
        Some("type_known") => {
            HandlerKind::from_type(raw).is_none().then_some(())?;
            let names = TYPE_NAMES.iter().map(|(n, _)| *n);
            let hint = match closest(raw.trim(), names) {
                Some(similar) => format!("did you mean `{similar}`?"),
                None => format!(
                    "handler types are {}",
                    format_allowed(&TYPE_NAMES.iter().map(|(n, _)| *n).collect::<Vec<_>>())
                ),
            };
            Some(
                TYPE_KNOWN
                    .diag(format!("unknown handler type `{raw}`"))
                    .at(value_span)
                    .with_hint(hint),
            )
        }
        Some("shape_known") => {
            (!is_graphviz_shape(raw)).then_some(())?;
            let hint = match closest(raw.trim(), GRAPHVIZ_SHAPES.iter().copied()) {
                Some(similar) => format!("did you mean `{similar}`?"),
                None => "see the shape table in docs/dialect.md".to_owned(),
            };
            Some(
                SHAPE_KNOWN
                    .diag(format!(
                        "`{raw}` is not a Graphviz shape; the node runs as an agent"
                    ))
                    .at(value_span)
                    .with_hint(hint),
            )
        }
        Some(_) => None,
        None => type_error(spec, key, raw).map(|d| d.at(value_span)),
    }
}

fn type_error(spec: &AttrSpec, key: &str, raw: &str) -> Option<Diagnostic> {
    let error = parse_value(spec.ty, raw).err()?;
    let hint = match spec.ty {
        ValueType::Enum(values) => enum_hint(raw, values),
        _ => format!("`{key}` takes {}", spec.ty.describe()),
    };
    Some(
        ATTRIBUTE_TYPE
            .diag(format!("invalid value for `{key}`: {error}"))
            .with_hint(hint),
    )
}

fn enum_hint(raw: &str, values: &[&str]) -> String {
    match closest(raw.trim(), values.iter().copied()) {
        Some(similar) => format!("did you mean `{similar}`?"),
        None => format!("use {}", format_allowed(values)),
    }
}

fn unknown(occurrence: &Occurrence<'_>) -> Diagnostic {
    let key = occurrence.key();
    let key = key.as_ref();
    let scope = occurrence.scope;
    let elsewhere = catalog::other_scopes(scope, key);
    let hint = if let Some(other) = elsewhere.first() {
        Some(format!(
            "`{key}` is {} attribute; it has no effect on {}",
            with_article(other.noun()),
            with_article(scope.noun())
        ))
    } else {
        catalog::suggest(scope, key).map(|similar| format!("did you mean `{similar}`?"))
    };
    let diagnostic = UNKNOWN_ATTRIBUTE
        .diag(format!("unknown {} attribute `{key}`", scope.noun()))
        .at(occurrence.attr.key.span);
    match hint {
        Some(hint) => diagnostic.with_hint(hint),
        None => diagnostic,
    }
}

fn with_article(noun: &str) -> String {
    if noun.starts_with('e') {
        format!("an {noun}")
    } else {
        format!("a {noun}")
    }
}

/// Values Fabro accepts and Heddle reads the same way, with a warning that says how it read
/// them: a bare number as a duration (seconds), other text as a `goal_gate` (true).
fn lenient(spec: &AttrSpec, occurrence: &Occurrence<'_>) -> Option<Diagnostic> {
    let key = occurrence.key();
    let raw = occurrence.raw();
    let raw = raw.trim();
    let span = occurrence.attr.value.span;
    match spec.ty {
        ValueType::Duration => {
            crate::duration::bare_seconds(raw)?;
            Some(
                DURATION_UNIT
                    .diag(format!(
                        "`{key}={raw}` has no unit; it is read as `{raw}s` (seconds)"
                    ))
                    .at(span)
                    .with_hint(format!(
                        "write `{raw}s` (or `{raw}ms` if milliseconds were meant)"
                    )),
            )
        }
        ValueType::Flag => {
            let lower = raw.to_ascii_lowercase();
            (lower != "true" && lower != "false").then_some(())?;
            Some(
                BOOLEAN_TEXT
                    .diag(format!(
                        "`{key}=\"{raw}\"` is not `true` or `false`; it is read as `true`"
                    ))
                    .at(span)
                    .with_hint(format!("write `{key}=true`")),
            )
        }
        _ => None,
    }
}
