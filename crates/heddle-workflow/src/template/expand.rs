//! Rendering a validated workflow's templates with a run's goal and inputs: the workflow the
//! engine executes, whose prompts are what the model sees and `prompt.md` holds.

use std::collections::BTreeMap;
use std::path::Path;

use super::render::{Problem, ProblemKind, Scope, expand_dollar_goal, render};
use super::{DOLLAR_GOAL_KEY, is_templated};
use crate::catalog::Scope as AttrScope;
use crate::{AttrEntry, Condition, FileSource, Value, Workflow};

/// Why a workflow's templates could not be rendered (validation normally catches these
/// first, with line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{owner}: {message}")]
pub struct ExpandError {
    /// The attribute (`node `plan` attribute `prompt``).
    pub owner: String,
    /// What went wrong.
    pub message: String,
}

fn describe(problem: &Problem) -> String {
    match &problem.kind {
        ProblemKind::Syntax(detail) => format!("template syntax error: {detail}"),
        ProblemKind::MissingInput(name) => format!(
            "input `{name}` has no value (pass `-V {name}=...` or set it in run.toml [run.inputs])"
        ),
        ProblemKind::GoalInGoal => "the goal cannot use `{{ goal }}`".into(),
        ProblemKind::UnknownVariable(name) => {
            format!("`{name}` is not a template variable (there are `goal` and `inputs.NAME`)")
        }
        ProblemKind::Render(detail) => detail.clone(),
    }
}

/// The run's goal: `goal` when given (a value, used as written), else the graph's `goal`
/// rendered with the inputs.
pub fn effective_goal(
    workflow: &Workflow,
    goal: Option<&str>,
    inputs: &BTreeMap<String, String>,
) -> Result<Option<String>, ExpandError> {
    if let Some(goal) = goal {
        return Ok(Some(goal.to_string()));
    }
    let Some(text) = &workflow.goal else {
        return Ok(None);
    };
    let scope = Scope {
        goal: None,
        inputs,
        script: false,
    };
    render(text, &scope).map(Some).map_err(|p| ExpandError {
        owner: "graph attribute `goal`".into(),
        message: describe(&p),
    })
}

/// `workflow` with every templated attribute rendered (see [`super::TEMPLATED`]), `@file`
/// prompts read and rendered in place, `$goal` expanded in prompts and
/// templated conditions parsed. `goal` overrides the graph's goal (from `--goal`, a run
/// config or the API).
pub fn expand(
    workflow: &Workflow,
    goal: Option<&str>,
    inputs: &BTreeMap<String, String>,
    files: &dyn FileSource,
) -> Result<Workflow, ExpandError> {
    let goal = effective_goal(workflow, goal, inputs)?;
    let goal_text = goal.clone().unwrap_or_default();
    let scope = Scope {
        goal: Some(&goal_text),
        inputs,
        script: false,
    };
    let mut out = workflow.clone();
    out.goal = goal;
    for entry in &mut out.attrs {
        if entry.canonical != "goal" {
            render_entry(entry, AttrScope::Graph, &scope, files, "graph")?;
        } else if let Some(goal) = &out.goal {
            entry.raw = goal.clone();
            entry.value = Value::String(goal.clone());
        }
    }
    out.label = out
        .attrs
        .iter()
        .find(|e| e.canonical == "label")
        .map(|e| e.raw.clone());
    for node in &mut out.nodes {
        let owner = format!("node `{}`", node.id);
        for entry in &mut node.attrs {
            render_entry(entry, AttrScope::Node, &scope, files, &owner)?;
        }
        if let Some(label) = node.attrs.iter().find(|e| e.canonical == "label") {
            node.label = label.raw.clone();
        }
    }
    for edge in &mut out.edges {
        let owner = format!("edge `{} -> {}`", edge.from, edge.to);
        let mut condition_changed = false;
        for entry in &mut edge.attrs {
            let before = entry.raw.clone();
            render_entry(entry, AttrScope::Edge, &scope, files, &owner)?;
            condition_changed |= entry.canonical == "condition" && before != entry.raw;
        }
        edge.label = edge
            .attrs
            .iter()
            .find(|e| e.canonical == "label")
            .map(|e| e.raw.clone());
        if let Some(entry) = edge.attrs.iter().find(|e| e.canonical == "condition")
            && (condition_changed || edge.parsed_condition.is_none())
        {
            let text = entry.raw.trim();
            edge.condition = Some(entry.raw.clone());
            edge.parsed_condition = if text.is_empty() {
                None
            } else {
                Some(Condition::parse(text).map_err(|e| ExpandError {
                    owner: format!("{owner} attribute `condition`"),
                    message: format!("condition `{text}` does not parse: {}", e.kind),
                })?)
            };
        }
    }
    Ok(out)
}

fn render_entry(
    entry: &mut AttrEntry,
    scope_kind: AttrScope,
    scope: &Scope<'_>,
    files: &dyn FileSource,
    owner: &str,
) -> Result<(), ExpandError> {
    if !is_templated(scope_kind, &entry.canonical) {
        return Ok(());
    }
    let fail = |p: Problem| ExpandError {
        owner: format!("{owner} attribute `{}`", entry.key),
        message: describe(&p),
    };
    let text = match &entry.value {
        Value::FileRef {
            resolved: Some(path),
            ..
        } => match files.read_to_string(Path::new(path)) {
            Ok(text) => text,
            // Left as a reference: the stage reports the unreadable file.
            Err(_) => return Ok(()),
        },
        Value::FileRef { resolved: None, .. } => return Ok(()),
        _ => entry.raw.clone(),
    };
    let scope = Scope {
        script: entry.canonical == "script",
        ..*scope
    };
    let mut rendered = match render(&text, &scope) {
        Ok(rendered) => rendered,
        // Someone else's template in a script: it runs as written (lint warns).
        Err(problem) if problem.foreign_in_script(&scope) => return Ok(()),
        Err(problem) => return Err(fail(problem)),
    };
    if entry.canonical == DOLLAR_GOAL_KEY {
        rendered = expand_dollar_goal(&rendered, scope.goal.unwrap_or_default());
    }
    if rendered != entry.raw {
        entry.value = Value::String(rendered.clone());
        entry.raw = rendered;
    }
    Ok(())
}
