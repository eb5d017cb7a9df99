//! Evaluating a parsed condition against run context.

use std::collections::{BTreeMap, HashMap};

use serde_json::Value as Json;

use super::{Clause, Comparison, Expr, Op, is_failure_class_key, is_outcome_key};
use crate::outcome::canonical_outcome;

/// Where a condition reads its keys from: the run context.
///
/// A key `context.X` is looked up as `X` first, then as written; every other key
/// (`outcome`, `preferred_label`, `tests_passed`, ...) as written. A missing key reads as
/// the empty string (and is false as a bare key).
///
/// Implemented for `HashMap<String, serde_json::Value>`, `BTreeMap<String, serde_json::Value>`
/// and `serde_json::Map`; the engine's context implements it over its own store.
pub trait ConditionContext {
    /// The value stored under `key`.
    fn get(&self, key: &str) -> Option<&Json>;
}

impl ConditionContext for HashMap<String, Json> {
    fn get(&self, key: &str) -> Option<&Json> {
        HashMap::get(self, key)
    }
}

impl ConditionContext for BTreeMap<String, Json> {
    fn get(&self, key: &str) -> Option<&Json> {
        BTreeMap::get(self, key)
    }
}

impl ConditionContext for serde_json::Map<String, Json> {
    fn get(&self, key: &str) -> Option<&Json> {
        serde_json::Map::get(self, key)
    }
}

pub(super) fn evaluate(expr: &Expr, context: &dyn ConditionContext) -> bool {
    match expr {
        Expr::Or(items) => items.iter().any(|e| evaluate(e, context)),
        Expr::And(items) => items.iter().all(|e| evaluate(e, context)),
        Expr::Not(inner) => !evaluate(inner, context),
        Expr::Clause(clause) => clause_holds(clause, context),
    }
}

fn lookup<'c>(context: &'c dyn ConditionContext, key: &str) -> Option<&'c Json> {
    match key.strip_prefix("context.") {
        Some(short) => context.get(short).or_else(|| context.get(key)),
        None => context.get(key),
    }
}

fn clause_holds(clause: &Clause, context: &dyn ConditionContext) -> bool {
    let value = lookup(context, &clause.key);
    match &clause.test {
        None => truthy(value),
        Some(test) => compare(&clause.key, value, test),
    }
}

/// Missing, null, `false`, `0`, `""`, `"false"`, `"0"`, `[]` and `{}` are false.
fn truthy(value: Option<&Json>) -> bool {
    match value {
        None | Some(Json::Null) => false,
        Some(Json::Bool(b)) => *b,
        Some(Json::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Json::String(s)) => {
            let s = s.trim();
            !(s.is_empty() || s.eq_ignore_ascii_case("false") || s == "0")
        }
        Some(Json::Array(items)) => !items.is_empty(),
        Some(Json::Object(map)) => !map.is_empty(),
    }
}

/// The text a context value compares as.
fn text(value: Option<&Json>) -> String {
    match value {
        None | Some(Json::Null) => String::new(),
        Some(Json::String(s)) => s.clone(),
        Some(Json::Bool(b)) => b.to_string(),
        Some(Json::Number(n)) => n.to_string(),
        Some(other) => other.to_string(),
    }
}

fn number(value: Option<&Json>) -> Option<f64> {
    match value {
        Some(Json::Number(n)) => n.as_f64(),
        Some(Json::String(s)) => s.trim().parse::<f64>().ok().filter(|n| n.is_finite()),
        _ => None,
    }
}

fn compare(key: &str, value: Option<&Json>, test: &Comparison) -> bool {
    match test.op {
        Op::Eq => equals(key, value, test),
        Op::Ne => !equals(key, value, test),
        Op::Lt | Op::Gt | Op::Le | Op::Ge => {
            // Numbers compare as numbers and text as text; an unset key, or a number
            // against text, is not ordered at all, so every ordering test on it is false
            // (`retries < 3` must not hold before anything sets `retries`).
            let ordering = match (value, number(value), test.number()) {
                (None | Some(Json::Null), _, _) => None,
                (_, Some(a), Some(b)) => a.partial_cmp(&b),
                (_, None, None) => Some(text(value).as_str().cmp(test.value.as_str())),
                _ => None,
            };
            ordering.is_some_and(|o| match test.op {
                Op::Lt => o.is_lt(),
                Op::Gt => o.is_gt(),
                Op::Le => o.is_le(),
                _ => o.is_ge(),
            })
        }
        Op::Contains => match value {
            Some(Json::Array(items)) => items.iter().any(|item| text(Some(item)) == test.value),
            Some(Json::Object(map)) => map.contains_key(&test.value),
            other => text(other).contains(&test.value),
        },
        Op::Matches => test.regex().is_some_and(|re| re.is_match(&text(value))),
    }
}

fn equals(key: &str, value: Option<&Json>, test: &Comparison) -> bool {
    if let Some(expected) = test.outcome()
        && is_outcome_key(key)
    {
        return canonical_outcome(&text(value)) == Some(expected);
    }
    if is_failure_class_key(key) {
        return crate::outcome::failure_class_matches(&text(value), &test.value);
    }
    match (number(value), test.number()) {
        (Some(a), Some(b)) => a == b,
        _ => text(value) == test.value,
    }
}
