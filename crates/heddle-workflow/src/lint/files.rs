//! `@file` references point at files; schema files are JSON.

use super::{LintContext, RuleInfo};
use crate::build::Typed;
use crate::files::resolve_reference;
use crate::{Diagnostic, Severity};

const UNRESOLVED_FILE_REF: RuleInfo = RuleInfo {
    id: "unresolved_file_ref",
    severity: Severity::Error,
    summary: "Each `@path` reference names an existing file (relative to the workflow file).",
};

const OUTPUT_SCHEMA_JSON: RuleInfo = RuleInfo {
    id: "output_schema_json",
    severity: Severity::Error,
    summary: "An `output_schema` file holds valid JSON.",
};

pub(super) const RULES: &[RuleInfo] = &[UNRESOLVED_FILE_REF, OUTPUT_SCHEMA_JSON];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    for occurrence in &ctx.built.occurrences {
        let Typed::File { path, resolved } = &occurrence.typed else {
            continue;
        };
        let span = occurrence.attr.value.span;
        let key = occurrence.key();
        let Some(resolved) = resolved else {
            let full = resolve_reference(ctx.path, path);
            let diagnostic = UNRESOLVED_FILE_REF
                .diag(format!(
                    "`{key}` refers to `@{path}`, but there is no file `{}`",
                    full.display()
                ))
                .at(span)
                .with_hint("paths are relative to the workflow file's directory");
            out.push(ctx.owned(diagnostic, occurrence));
            continue;
        };
        if occurrence.canonical() != "output_schema" {
            continue;
        }
        let problem = match ctx.files.read_to_string(std::path::Path::new(resolved)) {
            Ok(text) => serde_json::from_str::<serde_json::Value>(&text)
                .err()
                .map(|e| format!("is not valid JSON: {e}")),
            Err(e) => Some(format!("cannot be read: {e}")),
        };
        if let Some(problem) = problem {
            let diagnostic = OUTPUT_SCHEMA_JSON
                .diag(format!("output schema `{path}` {problem}"))
                .at(span)
                .with_hint("an output schema is a JSON Schema document");
            out.push(ctx.owned(diagnostic, occurrence));
        }
    }
}
