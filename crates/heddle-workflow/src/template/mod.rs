//! Variables in workflow text: Fabro's templates `{{ goal }}` and `{{ inputs.NAME }}`
//! (MiniJinja, strict undefined, `{% raw %}` to escape) and the Attractor spec's `$goal`.
//!
//! Which attributes are templates is declared once here ([`TEMPLATED`]). Validation checks
//! them ([`crate::lint`]'s `template_*` rules, told what is known about the inputs by
//! [`Inputs`]); [`expand`] renders them into the workflow a run executes.

mod expand;
mod render;

use std::collections::{BTreeMap, BTreeSet};

pub use expand::{ExpandError, effective_goal, expand};
pub use render::is_template;
pub(crate) use render::{Problem, ProblemKind, Scope, check};

use crate::Severity;
use crate::catalog::Scope as AttrScope;

/// The attributes (canonical names) whose values are templates, and where. The goal is
/// rendered first, with only `inputs` in scope; the others see the rendered goal.
pub const TEMPLATED: &[(AttrScope, &str)] = &[
    (AttrScope::Graph, "goal"),
    (AttrScope::Graph, "label"),
    (AttrScope::Node, "prompt"),
    (AttrScope::Node, "label"),
    (AttrScope::Node, "script"),
    (AttrScope::Edge, "label"),
    (AttrScope::Edge, "condition"),
];

/// Whether attribute `canonical` in `scope` is a template.
pub fn is_templated(scope: AttrScope, canonical: &str) -> bool {
    TEMPLATED
        .iter()
        .any(|(s, name)| *s == scope && *name == canonical)
}

/// Where `$goal` (Attractor style) is expanded: prompts only, as the spec and Fabro do. In a
/// `script`, `$goal` is the shell's own variable.
pub const DOLLAR_GOAL_KEY: &str = "prompt";

/// What validation knows about the inputs a run will get.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Inputs {
    /// None were given (editing, `heddle validate` with no run config): each input the
    /// workflow uses is listed as a note, not flagged.
    #[default]
    Unknown,
    /// These values will be used; an input without one is reported with `missing`
    /// (a warning for `heddle validate`, an error before a run starts).
    Given {
        /// Value of each `inputs.NAME`, keyed by `NAME`.
        values: BTreeMap<String, String>,
        /// How an input without a value is reported.
        missing: Severity,
    },
}

impl Inputs {
    /// The values known (none when unknown).
    pub fn values(&self) -> BTreeMap<String, String> {
        match self {
            Inputs::Unknown => BTreeMap::new(),
            Inputs::Given { values, .. } => values.clone(),
        }
    }
}

/// The input names a workflow's templates use (`@file` prompts included), sorted: what a
/// Start-run form asks for.
pub fn input_names(workflow: &crate::Workflow, files: &dyn crate::FileSource) -> Vec<String> {
    let none = BTreeMap::new();
    let mut names = BTreeSet::new();
    let mut add = |text: &str, goal: Option<&str>, script: bool| {
        let scope = Scope {
            goal,
            inputs: &none,
            script,
        };
        for problem in check(text, &scope) {
            if let ProblemKind::MissingInput(name) = problem.kind {
                names.insert(name);
            }
        }
    };
    if let Some(goal) = &workflow.goal {
        add(goal, None, false);
    }
    let entries = workflow
        .attrs
        .iter()
        .map(|e| (AttrScope::Graph, e))
        .chain(
            workflow
                .nodes
                .iter()
                .flat_map(|n| n.attrs.iter().map(|e| (AttrScope::Node, e))),
        )
        .chain(
            workflow
                .edges
                .iter()
                .flat_map(|e| e.attrs.iter().map(|a| (AttrScope::Edge, a))),
        );
    for (scope, entry) in entries {
        if !is_templated(scope, &entry.canonical) || entry.canonical == "goal" {
            continue;
        }
        match &entry.value {
            crate::Value::FileRef {
                resolved: Some(path),
                ..
            } => {
                if let Ok(text) = files.read_to_string(std::path::Path::new(path)) {
                    add(&text, Some(""), false);
                }
            }
            _ => add(&entry.raw, Some(""), entry.canonical == "script"),
        }
    }
    names.into_iter().collect()
}
