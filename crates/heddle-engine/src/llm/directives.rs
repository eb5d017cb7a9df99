//! Routing directives in LLM replies: the last balanced `{...}` JSON object that holds a
//! routing field, found in prose, in code fences or alone.
//!
//! Candidates are found with one string-aware brace matcher that runs from every `{`, right to
//! left, and jumps over nested objects it already matched, so a reply is scanned about once.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde_json::{Map, Value as Json};

use crate::outcome::{FailureClass, Outcome, StageStatus};

/// The fields a routing directive may hold.
pub const DIRECTIVE_FIELDS: &[&str] = &[
    "outcome",
    "failure_reason",
    "preferred_next_label",
    "suggested_next_ids",
    "context_updates",
];

/// What a reply asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoutingDirective {
    /// The stage status the reply reports (`success`, `fail`, `retry`… or an alias); `None`
    /// counts as success.
    pub outcome: Option<String>,
    /// Why it failed or asks to retry, in the reply's words.
    pub failure_reason: Option<String>,
    /// The label of the edge the reply wants taken next.
    pub preferred_next_label: Option<String>,
    /// Node ids the reply suggests going to, most wanted first.
    pub suggested_next_ids: Vec<String>,
    /// Keys and values to set in the run's context.
    pub context_updates: BTreeMap<String, Json>,
}

impl RoutingDirective {
    /// The directive an object holds (a reply's JSON, a `status.json`), or `None` when it has
    /// none of the recognised fields (`outcome`, `failure_reason`, `preferred_next_label`, `suggested_next_ids`, `context_updates`). Scalars are taken as text; `suggested_next_ids` may
    /// be an array or a single string; a `context_updates` that is not an object is ignored.
    pub fn from_object(object: &Map<String, Json>) -> Option<Self> {
        if !DIRECTIVE_FIELDS.iter().any(|f| object.contains_key(*f)) {
            return None;
        }
        let suggested_next_ids = match object.get("suggested_next_ids") {
            Some(Json::Array(items)) => items.iter().filter_map(scalar_text).collect(),
            Some(other) => scalar_text(other).into_iter().collect(),
            None => Vec::new(),
        };
        let context_updates = match object.get("context_updates") {
            Some(Json::Object(map)) => map.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
            _ => BTreeMap::new(),
        };
        Some(RoutingDirective {
            outcome: object.get("outcome").and_then(scalar_text),
            failure_reason: object.get("failure_reason").and_then(scalar_text),
            preferred_next_label: object.get("preferred_next_label").and_then(scalar_text),
            suggested_next_ids,
            context_updates,
        })
    }

    /// The directive a JSON file holds (`status.json`, a file an agent wrote); `None` when
    /// the file is missing, is not a JSON object or has no routing field.
    pub fn from_file(path: &Path) -> Option<Self> {
        let text = std::fs::read_to_string(path).ok()?;
        match serde_json::from_str::<Json>(&text).ok()? {
            Json::Object(object) => RoutingDirective::from_object(&object),
            _ => None,
        }
    }

    /// The outcome the directive asks for at `node`: its status (success when it names none),
    /// failure reason, preferred label, suggested ids and context updates. An outcome that is
    /// no outcome name fails (deterministic) with a reason listing the allowed ones.
    pub fn into_outcome(self, node: &str) -> Outcome {
        let status = match self.outcome.as_deref() {
            None => StageStatus::Success,
            Some(name) => match StageStatus::parse(name) {
                Some(status) => status,
                None => return unknown_outcome(node, name),
            },
        };
        let mut outcome = Outcome::new(status);
        outcome.failure_reason = self.failure_reason;
        match status {
            StageStatus::Fail => {
                outcome.failure_class = Some(FailureClass::Deterministic);
                if outcome.failure_reason.is_none() {
                    outcome.failure_reason = Some(format!(
                        "{node}: the reply reported outcome `fail` without a failure_reason"
                    ));
                }
            }
            StageStatus::Retry if outcome.failure_reason.is_none() => {
                outcome.failure_reason = Some(format!("{node}: the reply asked to retry"));
            }
            _ => {}
        }
        outcome.preferred_label = self.preferred_next_label;
        outcome.suggested_next_ids = self.suggested_next_ids;
        outcome.context_updates = self.context_updates;
        outcome
    }
}

/// The failure of a directive whose outcome is no outcome name.
fn unknown_outcome(node: &str, name: &str) -> Outcome {
    let aliases: Vec<&str> = heddle_workflow::OUTCOME_ALIASES
        .iter()
        .map(|(alias, _)| *alias)
        .collect();
    Outcome::fail(
        FailureClass::Deterministic,
        format!(
            "{node}: the reply's routing directive has outcome `{name}`, which is not one of {} \
             (or {})",
            heddle_workflow::OUTCOMES.join(", "),
            aliases.join(", ")
        ),
    )
}

/// A string as it is, numbers and booleans printed; `None` for null, arrays and objects.
fn scalar_text(value: &Json) -> Option<String> {
    match value {
        Json::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Json::Number(n) => Some(n.to_string()),
        Json::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// The last balanced JSON object in `text` holding a recognised routing field. Objects nested
/// in a larger object are part of it, not candidates of their own; when the last object has no
/// routing field an earlier one that has is used.
pub fn extract_directive(text: &str) -> Option<RoutingDirective> {
    let mut found = None;
    for_each_object(text, |object| {
        found = RoutingDirective::from_object(object);
        found.is_some()
    });
    found
}

/// The JSON object `text` holds: the whole trimmed text when it is one, else the last balanced
/// `{...}` that parses as an object (in prose or a code fence).
pub fn last_json_object(text: &str) -> Option<Map<String, Json>> {
    if let Ok(Json::Object(map)) = serde_json::from_str::<Json>(text.trim()) {
        return Some(map);
    }
    let mut found = None;
    for_each_object(text, |object| {
        found = Some(object.clone());
        true
    });
    found
}

/// Why `text` holds no JSON object, for a repair message: the parser's complaint about the
/// last `{...}` (with line:column inside it), or that there is no `{` at all.
pub fn describe_missing_object(text: &str) -> String {
    let spans = balanced_spans(text.as_bytes());
    let candidate = match spans.first() {
        Some(&(start, end)) => text.get(start..=end),
        None => text.find('{').and_then(|start| text.get(start..)),
    };
    match candidate {
        None => "the reply contains no JSON object (no `{` at all)".to_string(),
        Some(candidate) => match serde_json::from_str::<Json>(candidate) {
            Ok(_) => "the reply's last `{...}` is not a JSON object".to_string(),
            Err(error) => format!(
                "the reply's last `{{...}}` is not valid JSON: {} (line {}, column {} of it)",
                strip_position(&error),
                error.line(),
                error.column()
            ),
        },
    }
}

/// A serde_json message without its trailing ` at line L column C`.
pub(crate) fn strip_position(error: &serde_json::Error) -> String {
    let message = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    message
        .strip_suffix(&suffix)
        .map(str::to_string)
        .unwrap_or(message)
}

/// Calls `visit` with each top-level JSON object of `text`, last first, until it returns
/// true. An object inside one already visited is not visited again.
fn for_each_object(text: &str, mut visit: impl FnMut(&Map<String, Json>) -> bool) {
    let mut parsed: Vec<(usize, usize)> = Vec::new();
    for (start, end) in balanced_spans(text.as_bytes()) {
        if parsed.iter().any(|&(s, e)| s <= start && end <= e) {
            continue;
        }
        let Some(candidate) = text.get(start..=end) else {
            continue;
        };
        if !looks_like_object(candidate) {
            continue;
        }
        if let Ok(Json::Object(object)) = serde_json::from_str::<Json>(candidate) {
            if visit(&object) {
                return;
            }
            parsed.push((start, end));
        }
    }
}

/// A cheap test before parsing: `{` then whitespace then `"` or `}`.
fn looks_like_object(candidate: &str) -> bool {
    matches!(
        candidate[1..].trim_start().as_bytes().first(),
        Some(b'"' | b'}')
    )
}

/// Every `{` with its matching `}` (byte offsets, inclusive), ordered by end descending, then
/// start ascending (an outer object before the objects it ends with).
///
/// A match follows JSON strings (escapes included), so braces in strings do not count; a raw
/// newline inside a string means the text is not JSON and the `{` has no match. Starts are
/// matched right to left and a nested `{` already matched is jumped over, so the scan is linear
/// for ordinary text.
fn balanced_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let opens: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'{')
        .map(|(i, _)| i)
        .collect();
    let mut matched: HashMap<usize, Option<usize>> = HashMap::with_capacity(opens.len());
    let mut spans = Vec::new();
    for &start in opens.iter().rev() {
        let end = match_from(bytes, start, &matched);
        matched.insert(start, end);
        if let Some(end) = end {
            spans.push((start, end));
        }
    }
    spans.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    spans
}

/// The `}` closing the `{` at `start`, using the matches of later `{`s.
fn match_from(
    bytes: &[u8],
    start: usize,
    matched: &HashMap<usize, Option<usize>>,
) -> Option<usize> {
    let mut i = start + 1;
    let mut in_string = false;
    while i < bytes.len() {
        let byte = bytes[i];
        if in_string {
            match byte {
                b'\\' => i += 1,
                b'"' => in_string = false,
                b'\n' => return None,
                _ => {}
            }
        } else {
            match byte {
                b'"' => in_string = true,
                b'}' => return Some(i),
                b'{' => match matched.get(&i) {
                    Some(Some(end)) => i = *end,
                    _ => return None,
                },
                _ => {}
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use serde_json::json;

    #[test]
    fn spans_skip_braces_in_strings_and_nest() {
        let text = r#"x {"a": "}{", "b": {"c": 1}} y"#;
        let spans = balanced_spans(text.as_bytes());
        assert_eq!(spans.first(), Some(&(2, 27)));
        assert!(spans.contains(&(19, 26)));
    }

    #[test]
    fn unbalanced_open_has_no_span() {
        assert!(balanced_spans(b"{ never closed").is_empty());
    }

    #[test]
    fn raw_newline_in_string_breaks_a_match() {
        assert!(balanced_spans(b"{\"a\n\"}").is_empty());
    }

    #[test]
    fn from_object_reads_each_field() {
        let object = json!({
            "outcome": "fail",
            "failure_reason": "tests fail",
            "preferred_next_label": "Fix",
            "suggested_next_ids": "fix",
            "context_updates": {"k": [1]},
        });
        let Json::Object(map) = object else {
            unreachable!()
        };
        let directive = RoutingDirective::from_object(&map).unwrap();
        assert_eq!(directive.outcome.as_deref(), Some("fail"));
        assert_eq!(directive.failure_reason.as_deref(), Some("tests fail"));
        assert_eq!(directive.preferred_next_label.as_deref(), Some("Fix"));
        assert_eq!(directive.suggested_next_ids, vec!["fix".to_string()]);
        assert_eq!(directive.context_updates.get("k"), Some(&json!([1])));
    }

    #[test]
    fn from_object_without_fields_is_none() {
        let Json::Object(map) = json!({"verdict": "ok"}) else {
            unreachable!()
        };
        assert_eq!(RoutingDirective::from_object(&map), None);
    }

    #[test]
    fn missing_object_is_described() {
        assert!(describe_missing_object("no json here").contains("no `{`"));
        let described = describe_missing_object("see {\"a\": }");
        assert!(described.contains("line 1, column"), "{described}");
    }
}
