//! The model stylesheet parses, and sets only properties it may set, to valid values.

use super::{LintContext, RuleInfo};
use crate::catalog::{self, Scope};
use crate::locate::value_range;
use crate::stylesheet::{PROPERTIES, Stylesheet};
use crate::suggest::closest;
use crate::value::{ValueType, format_allowed, parse_value};
use crate::{Diagnostic, Severity};

const STYLESHEET_SYNTAX: RuleInfo = RuleInfo {
    id: "stylesheet_syntax",
    severity: Severity::Error,
    summary: "`model_stylesheet` parses and its values fit their properties.",
};

const STYLESHEET_PROPERTY: RuleInfo = RuleInfo {
    id: "stylesheet_property",
    severity: Severity::Warning,
    summary: "The stylesheet sets only `model`, `provider`, `reasoning_effort` and `backend`.",
};

pub(super) const RULES: &[RuleInfo] = &[STYLESHEET_SYNTAX, STYLESHEET_PROPERTY];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    for occurrence in &ctx.built.occurrences {
        if occurrence.scope != Scope::Graph || occurrence.canonical() != "model_stylesheet" {
            continue;
        }
        let value = &occurrence.attr.value;
        let text = occurrence.raw();
        let at = |start: usize, end: usize| {
            let (s, e) = value_range(ctx.source, value, start, end);
            ctx.span(s, e)
        };
        let (sheet, errors) = Stylesheet::parse_recovering(&text);
        for error in errors {
            out.push(
                STYLESHEET_SYNTAX
                    .diag(format!(
                        "model stylesheet does not parse: {} (stylesheet line {}, column {})",
                        error.kind, error.line, error.column
                    ))
                    .at(at(error.offset, error.offset + error.len))
                    .with_hint("rules look like `.review { model: claude-opus-4-1; reasoning_effort: high }`"),
            );
        }
        for declaration in sheet.rules.iter().flat_map(|r| &r.declarations) {
            let span = at(declaration.value_span.0, declaration.value_span.1);
            let Some(property) = declaration.canonical() else {
                let hint = match closest(&declaration.property, PROPERTIES.iter().copied()) {
                    Some(similar) => format!("did you mean `{similar}`?"),
                    None => format!("a stylesheet sets {}", format_allowed(PROPERTIES)),
                };
                out.push(
                    STYLESHEET_PROPERTY
                        .diag(format!(
                            "`{}` is not a stylesheet property; it is ignored",
                            declaration.property
                        ))
                        .at(at(declaration.property_span.0, declaration.property_span.1))
                        .with_hint(hint),
                );
                continue;
            };
            let Some(spec) = catalog::lookup(Scope::Node, property) else {
                continue;
            };
            if let Err(error) = parse_value(spec.ty, &declaration.value) {
                let mut diagnostic = STYLESHEET_SYNTAX
                    .diag(format!(
                        "invalid `{property}` in the model stylesheet: {error}"
                    ))
                    .at(span);
                if let ValueType::Enum(values) = spec.ty {
                    diagnostic = diagnostic.with_hint(
                        match closest(&declaration.value, values.iter().copied()) {
                            Some(similar) => format!("did you mean `{similar}`?"),
                            None => format!("use {}", format_allowed(values)),
                        },
                    );
                }
                out.push(diagnostic);
            }
        }
    }
}
