//! Conditions parse; outcome comparisons name real outcomes.

use super::{LintContext, RuleInfo};
use crate::condition::{ConditionErrorKind, Op};
use crate::locate::value_range;
use crate::outcome::{OUTCOME_ALIASES, OUTCOMES};
use crate::suggest::closest;
use crate::{Diagnostic, Severity};

const CONDITION_SYNTAX: RuleInfo = RuleInfo {
    id: "condition_syntax",
    severity: Severity::Error,
    summary: "Every `condition` parses.",
};

const CONDITION_OUTCOME: RuleInfo = RuleInfo {
    id: "condition_outcome",
    severity: Severity::Warning,
    summary: "`outcome=...` compares with a known outcome name.",
};

pub(super) const RULES: &[RuleInfo] = &[CONDITION_SYNTAX, CONDITION_OUTCOME];

pub(super) fn check(ctx: &LintContext<'_, '_>, out: &mut Vec<Diagnostic>) {
    for occurrence in &ctx.built.occurrences {
        let Some(result) = &occurrence.condition else {
            continue;
        };
        let value = &occurrence.attr.value;
        let raw = occurrence.raw();
        // Parsing trimmed the text; offsets are relative to the trimmed start.
        let lead = raw.len() - raw.trim_start().len();
        match result {
            Err(error) => {
                let start = lead + error.offset;
                let (s, e) = value_range(ctx.source, value, start, start + error.len);
                let diagnostic = CONDITION_SYNTAX
                    .diag(format!(
                        "condition `{}` does not parse: {} (column {})",
                        raw.trim(),
                        error.kind,
                        error.column
                    ))
                    .at(ctx.span(s, e))
                    .with_hint(hint(&error.kind));
                out.push(ctx.owned(diagnostic, occurrence));
            }
            Ok(condition) => {
                for clause in condition.clauses() {
                    let Some(test) = &clause.test else { continue };
                    if !crate::condition::is_outcome_key(&clause.key)
                        || !matches!(test.op, Op::Eq | Op::Ne)
                        || test.outcome().is_some()
                    {
                        continue;
                    }
                    let names = OUTCOMES
                        .iter()
                        .copied()
                        .chain(OUTCOME_ALIASES.iter().map(|(alias, _)| *alias));
                    let hint = match closest(&test.value, names) {
                        Some(similar) => format!("did you mean `{similar}`?"),
                        None => format!("outcomes are {}", crate::value::format_allowed(OUTCOMES)),
                    };
                    let start = lead + test.value_span.0;
                    let (s, e) = value_range(ctx.source, value, start, lead + test.value_span.1);
                    let diagnostic = CONDITION_OUTCOME
                        .diag(format!(
                            "`{}` is not an outcome, so `{} {} {}` is always {}",
                            test.value,
                            clause.key,
                            test.op.as_str(),
                            test.value,
                            if test.op == Op::Eq { "false" } else { "true" }
                        ))
                        .at(ctx.span(s, e))
                        .with_hint(hint);
                    out.push(ctx.owned(diagnostic, occurrence));
                }
            }
        }
    }
}

fn hint(kind: &ConditionErrorKind) -> String {
    match kind {
        ConditionErrorKind::SingleOperator(c) => format!("write `{c}{c}`"),
        ConditionErrorKind::InvalidRegex(_) => {
            "`matches` takes a regular expression; quote it if it has spaces or symbols".to_owned()
        }
        _ => "conditions look like `outcome=success && context.tests_passed=true`".to_owned(),
    }
}
