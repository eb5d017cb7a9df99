//! Templates (`{{ goal }}`, `{{ inputs.NAME }}`) parse and name what a run will have. An
//! input is a note while inputs are unknown (editing a workflow), a warning or an error once
//! values are given (see [`crate::template::Inputs`]).

use std::collections::BTreeMap;
use std::path::Path;

use super::{LintContext, RuleInfo};
use crate::build::Owner;
use crate::locate::{LineIndex, value_range};
use crate::template::{Inputs, Problem, ProblemKind, Scope, check, is_templated};
use crate::{Diagnostic, Severity};

const TEMPLATE_SYNTAX: RuleInfo = RuleInfo {
    id: "template_syntax",
    severity: Severity::Error,
    summary: "A value holding `{{` or `{%` is a valid template (wrap literal braces in `{% raw %}...{% endraw %}`); in a script, another tool's template is a warning and runs as written.",
};

const TEMPLATE_INPUT: RuleInfo = RuleInfo {
    id: "template_input",
    severity: Severity::Info,
    summary: "Lists each `{{ inputs.NAME }}` a run must be given; without a value it is a warning (`heddle validate` with inputs) or an error (`heddle run`).",
};

const TEMPLATE_VARIABLE: RuleInfo = RuleInfo {
    id: "template_variable",
    severity: Severity::Error,
    summary: "Templates use only `goal` and `inputs.NAME`; the goal does not use itself.",
};

const DOLLAR_GOAL_IN_SCRIPT: RuleInfo = RuleInfo {
    id: "dollar_goal_in_script",
    severity: Severity::Warning,
    summary: "`$goal` in a `script` is the shell's variable `goal`, not the workflow's goal.",
};

pub(super) const RULES: &[RuleInfo] = &[
    TEMPLATE_SYNTAX,
    TEMPLATE_INPUT,
    TEMPLATE_VARIABLE,
    DOLLAR_GOAL_IN_SCRIPT,
];

pub(super) fn check_all(ctx: &LintContext<'_, '_>, inputs: &Inputs, out: &mut Vec<Diagnostic>) {
    let values: BTreeMap<String, String> = inputs.values();
    let mut reported = std::collections::BTreeSet::new();
    for occurrence in &ctx.built.occurrences {
        if !is_templated(occurrence.scope, occurrence.canonical()) {
            continue;
        }
        let in_goal = occurrence.owner == Owner::Graph && occurrence.canonical() == "goal";
        let scope = Scope {
            goal: (!in_goal).then_some(""),
            inputs: &values,
            script: occurrence.canonical() == "script",
        };
        match &occurrence.typed {
            crate::build::Typed::File {
                path,
                resolved: Some(resolved),
            } => {
                let Ok(text) = ctx.files.read_to_string(Path::new(resolved)) else {
                    continue;
                };
                let lines = LineIndex::new(&text);
                for problem in check(&text, &scope) {
                    let span = lines.span(&text, problem.range.start, problem.range.end);
                    if let Some(d) = diagnostic(&problem, &scope, inputs, &mut reported, path) {
                        out.push(ctx.owned(d.at(span).in_file(path.clone()), occurrence));
                    }
                }
            }
            crate::build::Typed::File { .. } => {}
            _ => {
                let raw = occurrence.raw();
                if occurrence.canonical() == "script"
                    && let Some(at) = dollar_goal(&raw)
                {
                    let (s, e) = value_range(ctx.source, &occurrence.attr.value, at, at + 5);
                    let d = DOLLAR_GOAL_IN_SCRIPT
                        .diag("`$goal` in a script is the shell's variable `goal`, which is unset")
                        .with_hint(
                            "the workflow's goal is `{{ goal }}` in a script (`$goal` is expanded \
                             in prompts only)",
                        )
                        .at(ctx.span(s, e));
                    out.push(ctx.owned(d, occurrence));
                }
                for problem in check(&raw, &scope) {
                    let (s, e) = value_range(
                        ctx.source,
                        &occurrence.attr.value,
                        problem.range.start,
                        problem.range.end,
                    );
                    let what = format!("`{}`", occurrence.key());
                    if let Some(d) = diagnostic(&problem, &scope, inputs, &mut reported, &what) {
                        out.push(ctx.owned(d.at(ctx.span(s, e)), occurrence));
                    }
                }
            }
        }
    }
}

/// The finding for one problem; an input is reported once per workflow while inputs are
/// unknown (it is a note about the workflow, not about each use).
fn diagnostic(
    problem: &Problem,
    scope: &Scope<'_>,
    inputs: &Inputs,
    reported: &mut std::collections::BTreeSet<String>,
    place: &str,
) -> Option<Diagnostic> {
    if problem.foreign_in_script(scope) {
        let mut d = TEMPLATE_SYNTAX
            .diag(format!(
                "{place} holds `{{{{` that is not a Heddle template, so it runs as written \
                 (without expanding any `{{{{ goal }}}}` or `{{{{ inputs.NAME }}}}` in it)"
            ))
            .with_hint(
                "wrap the other tool's `{{ ... }}` in `{% raw %}...{% endraw %}` to use Heddle's \
                 variables in this script too, or to silence this",
            );
        d.severity = Severity::Warning;
        return Some(d);
    }
    let d = match &problem.kind {
        ProblemKind::Syntax(detail) => TEMPLATE_SYNTAX
            .diag(format!("template in {place} does not parse: {detail}"))
            .with_hint(
                "to keep `{{` or `{%` as they are (a Go template, say), wrap them in \
                 `{% raw %}...{% endraw %}`",
            ),
        ProblemKind::Render(detail) => {
            TEMPLATE_SYNTAX.diag(format!("template in {place} cannot render: {detail}"))
        }
        ProblemKind::MissingInput(name) => {
            let how = format!(
                "pass `-V {name}=...` to `heddle run`, or set `{name}` under `[run.inputs]` in \
                 run.toml next to the workflow"
            );
            match inputs {
                Inputs::Unknown => {
                    if !reported.insert(name.clone()) {
                        return None;
                    }
                    TEMPLATE_INPUT
                        .diag(format!("the workflow takes input `{name}`"))
                        .with_hint(how)
                }
                Inputs::Given { missing, .. } => {
                    let mut d =
                        TEMPLATE_INPUT.diag(format!("input `{name}` is not given a value"));
                    d.severity = *missing;
                    d.with_hint(how)
                }
            }
        }
        ProblemKind::GoalInGoal => TEMPLATE_VARIABLE
            .diag("the goal cannot use `{{ goal }}` (it is the goal)")
            .with_hint("prompts, scripts and labels can use `{{ goal }}`; the goal can use `{{ inputs.NAME }}`"),
        ProblemKind::UnknownVariable(name) => TEMPLATE_VARIABLE
            .diag(format!("`{name}` is not a template variable"))
            .with_hint(format!(
                "templates know `goal` and `inputs.NAME` (did you mean `inputs.{name}`?); \
                 wrap literal `{{{{ }}}}` in `{{% raw %}}...{{% endraw %}}`"
            )),
    };
    Some(d)
}

/// Where `$goal` (not `$goals`, not `${goal}`) first appears in `text`.
fn dollar_goal(text: &str) -> Option<usize> {
    text.match_indices("$goal").map(|(at, _)| at).find(|at| {
        !text[at + 5..]
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}
