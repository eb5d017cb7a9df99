//! Rendering one attribute value as a MiniJinja template with strict undefined, and checking
//! one without the values it will get: every problem with its byte range in the text.

use std::collections::BTreeMap;
use std::ops::Range;

use minijinja::{Environment, ErrorKind, UndefinedBehavior, Value};

/// What a template may refer to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    /// `goal`, when it is in scope (it is not inside the goal itself).
    pub goal: Option<&'a str>,
    /// Value of each `inputs.NAME`, keyed by `NAME`.
    pub inputs: &'a BTreeMap<String, String>,
    /// A shell or Python script: `{#` is the shell's (`${#array[@]}`), not a comment.
    pub script: bool,
}

/// One thing wrong with a template, located in its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub kind: ProblemKind,
    /// Bytes of the template text.
    pub range: Range<usize>,
}

impl Problem {
    /// Whether a script holding this problem is someone else's template (`docker --format
    /// '{{.Names}}'`, Helm's `{{ .Values.x }}`, Ansible's `{{ item }}`): it runs as written,
    /// with a warning, rather than stopping the run. Missing inputs still stop it.
    pub(crate) fn foreign_in_script(&self, scope: &Scope<'_>) -> bool {
        scope.script
            && matches!(
                self.kind,
                ProblemKind::Syntax(_) | ProblemKind::UnknownVariable(_)
            )
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ProblemKind {
    /// The template does not parse (`{{ unterminated`).
    Syntax(String),
    /// `inputs.NAME` without a value.
    MissingInput(String),
    /// `{{ goal }}` where there is no goal in scope (the goal itself).
    GoalInGoal,
    /// A name that is neither `goal` nor `inputs`.
    UnknownVariable(String),
    /// Anything else MiniJinja refused while rendering.
    Render(String),
}

/// Comment delimiters no script can hold (DOT text has no NUL), so `{#` stays the shell's.
const NO_COMMENT: (&str, &str) = ("\u{0}{#", "#}\u{0}");

/// The environment every value is rendered in: strict undefined, text kept as written
/// (trailing newline included), no autoescaping; no comments in scripts.
fn environment(script: bool) -> Environment<'static> {
    let mut env = Environment::new();
    if script
        && let Ok(syntax) = minijinja::syntax::SyntaxConfig::builder()
            .comment_delimiters(NO_COMMENT.0, NO_COMMENT.1)
            .build()
    {
        env.set_syntax(syntax);
    }
    env.set_undefined_behavior(UndefinedBehavior::Strict);
    env.set_keep_trailing_newline(true);
    env.set_debug(true);
    env
}

/// Whether `text` is a template: it holds `{{` or `{%`. Other text (a shell's `${#array}`,
/// JSON, CSS) is used as written and never parsed.
pub fn is_template(text: &str) -> bool {
    text.contains("{{") || text.contains("{%")
}

fn context(scope: &Scope<'_>, extra: &BTreeMap<String, String>) -> Value {
    let mut map: BTreeMap<String, Value> = extra
        .iter()
        .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
        .collect();
    map.insert("inputs".into(), Value::from_serialize(scope.inputs));
    if let Some(goal) = scope.goal {
        map.insert("goal".into(), Value::from(goal));
    }
    Value::from_serialize(&map)
}

/// Renders `text` (a template or not) in `scope`.
pub(crate) fn render(text: &str, scope: &Scope<'_>) -> Result<String, Problem> {
    if !is_template(text) {
        return Ok(text.to_string());
    }
    let env = environment(scope.script);
    let template = env.template_from_str(text).map_err(|e| syntax(text, &e))?;
    template
        .render(context(scope, &BTreeMap::new()))
        .map_err(|e| problem(text, &e, scope))
}

/// Every problem of `text` in `scope`: each missing input and unknown name once (rendering
/// again with a stand-in value after each), or the first syntax or render error.
pub(crate) fn check(text: &str, scope: &Scope<'_>) -> Vec<Problem> {
    if !is_template(text) {
        return Vec::new();
    }
    let env = environment(scope.script);
    let template = match env.template_from_str(text) {
        Ok(template) => template,
        Err(error) => return vec![syntax(text, &error)],
    };
    let mut inputs = scope.inputs.clone();
    let mut extra = BTreeMap::new();
    let mut found = Vec::new();
    // Each round adds a stand-in for one name; a template names few.
    for _ in 0..64 {
        let current = Scope {
            goal: scope.goal,
            inputs: &inputs,
            script: scope.script,
        };
        let Err(error) = template.render(context(&current, &extra)) else {
            break;
        };
        let found_one = problem(text, &error, &current);
        match &found_one.kind {
            ProblemKind::MissingInput(name) => {
                inputs.insert(name.clone(), String::new());
            }
            ProblemKind::UnknownVariable(name) => {
                extra.insert(name.clone(), String::new());
            }
            ProblemKind::GoalInGoal => {
                extra.insert("goal".into(), String::new());
            }
            _ => {
                found.push(found_one);
                break;
            }
        }
        found.push(found_one);
    }
    found
}

fn range_of(text: &str, error: &minijinja::Error) -> Range<usize> {
    error
        .range()
        .filter(|r| r.end <= text.len() && r.start <= r.end)
        .unwrap_or(0..text.len())
}

fn syntax(text: &str, error: &minijinja::Error) -> Problem {
    Problem {
        kind: ProblemKind::Syntax(error.detail().unwrap_or("syntax error").to_string()),
        range: range_of(text, error),
    }
}

/// Classifies a render error: which name was undefined, from the failing expression.
fn problem(text: &str, error: &minijinja::Error, scope: &Scope<'_>) -> Problem {
    let range = range_of(text, error);
    if error.kind() == ErrorKind::SyntaxError {
        return syntax(text, error);
    }
    if error.kind() != ErrorKind::UndefinedError {
        let detail = error
            .detail()
            .map_or_else(|| error.to_string(), str::to_string);
        return Problem {
            kind: ProblemKind::Render(detail),
            range,
        };
    }
    let expression = text.get(range.clone()).unwrap_or_default().trim();
    let first = identifier(expression);
    let kind = if first == "inputs" {
        let rest = expression["inputs".len()..].trim_start();
        let name = rest
            .strip_prefix('.')
            .map(|r| identifier(r.trim_start()))
            .or_else(|| {
                rest.strip_prefix('[')
                    .map(|r| r.trim_start().trim_start_matches(['"', '\'']))
                    .map(identifier)
            })
            .unwrap_or_default();
        if name.is_empty() || scope.inputs.contains_key(name) {
            ProblemKind::Render(format!("`{expression}` is undefined"))
        } else {
            ProblemKind::MissingInput(name.to_string())
        }
    } else if first == "goal" && scope.goal.is_none() {
        ProblemKind::GoalInGoal
    } else if !first.is_empty() && first != "goal" {
        ProblemKind::UnknownVariable(first.to_string())
    } else {
        ProblemKind::Render(format!("`{expression}` is undefined"))
    };
    Problem { kind, range }
}

/// The identifier `text` starts with.
fn identifier(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Replaces `$goal` (not followed by a name character) with `goal`, as the Attractor spec
/// expands it in prompts.
pub(crate) fn expand_dollar_goal(text: &str, goal: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("$goal") {
        let after = &rest[at + 5..];
        let continues = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        out.push_str(&rest[..at]);
        out.push_str(if continues { "$goal" } else { goal });
        rest = after;
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;

    fn inputs(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn renders_goal_and_inputs() {
        let values = inputs(&[("repo", "heddle")]);
        let scope = Scope {
            goal: Some("ship it"),
            inputs: &values,
            script: false,
        };
        let out = render("Plan {{ goal }} for {{ inputs.repo }}\n", &scope).unwrap();
        assert_eq!(out, "Plan ship it for heddle\n");
    }

    #[test]
    fn text_without_template_markers_is_untouched() {
        let values = inputs(&[]);
        let scope = Scope {
            goal: None,
            inputs: &values,
            script: false,
        };
        let script = "n=${#items[@]}; echo {{oops";
        let shell = Scope {
            script: true,
            ..scope
        };
        assert_eq!(
            render(
                "n=${#items[@]} {{ goal }}",
                &Scope {
                    goal: Some("g"),
                    ..shell
                }
            )
            .unwrap(),
            "n=${#items[@]} g"
        );
        assert!(!is_template("n=${#items[@]}"));
        assert_eq!(render("n=${#items[@]}", &scope).unwrap(), "n=${#items[@]}");
        assert!(matches!(
            render(script, &scope).unwrap_err().kind,
            ProblemKind::Syntax(_)
        ));
    }

    #[test]
    fn raw_blocks_are_literal() {
        let values = inputs(&[]);
        let scope = Scope {
            goal: Some("g"),
            inputs: &values,
            script: false,
        };
        let out = render("{% raw %}{{ inputs.x }}{% endraw %} {{ goal }}", &scope).unwrap();
        assert_eq!(out, "{{ inputs.x }} g");
    }

    #[test]
    fn check_finds_each_missing_input_with_its_place() {
        let values = inputs(&[("b", "1")]);
        let scope = Scope {
            goal: Some(""),
            inputs: &values,
            script: false,
        };
        let text = "x {{ inputs.a }} {{ inputs.b }} {{ inputs.c }} {{ inputs.a }}";
        let problems = check(text, &scope);
        let names: Vec<_> = problems
            .iter()
            .map(|p| match &p.kind {
                ProblemKind::MissingInput(n) => n.as_str(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(&text[problems[0].range.clone()], "inputs.a");
        assert_eq!(&text[problems[1].range.clone()], "inputs.c");
    }

    #[test]
    fn check_names_unknown_variables_and_goal_in_goal() {
        let values = inputs(&[]);
        let scope = Scope {
            goal: None,
            inputs: &values,
            script: false,
        };
        let problems = check("{{ goal }} {{ repo }}", &scope);
        assert_eq!(problems[0].kind, ProblemKind::GoalInGoal);
        assert_eq!(
            problems[1].kind,
            ProblemKind::UnknownVariable("repo".into())
        );
    }

    #[test]
    fn dollar_goal_expands_only_as_a_whole_word() {
        assert_eq!(
            expand_dollar_goal("do $goal, not $goals or $goal_x: $goal", "X"),
            "do X, not $goals or $goal_x: X"
        );
    }
}
