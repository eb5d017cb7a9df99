//! The dry-run backend: replies without calling any model, says so in every reply, and
//! answers with JSON that passes the node's `output_schema` (or a plain success directive).

use async_trait::async_trait;
use serde_json::{Map, Value as Json, json};
use tokio_util::sync::CancellationToken;

use super::{
    LlmBackend, LlmConversation, LlmError, LlmErrorKind, LlmEvent, LlmEventSink, LlmReply,
    LlmRequest,
};
use crate::outcome::Usage;

/// The model name simulated replies carry.
pub const SIMULATED_MODEL: &str = "simulated";

/// How deep [`minimal_instance`] follows nested schemas and `$ref`s.
const MAX_DEPTH: usize = 32;

/// The most items [`minimal_instance`] puts in an array, whatever `minItems` says.
const MAX_ITEMS: usize = 1000;

/// Replies without calling any model; every reply says so.
#[derive(Debug, Default, Clone, Copy)]
pub struct SimulatedBackend;

#[async_trait]
impl LlmBackend for SimulatedBackend {
    fn simulated(&self) -> bool {
        true
    }

    async fn open(&self, request: &LlmRequest) -> Result<Box<dyn LlmConversation>, LlmError> {
        let output = match &request.output_schema {
            Some(schema) => minimal_instance(schema),
            None => json!({"outcome": "success"}),
        };
        Ok(Box::new(SimulatedConversation {
            node_id: request.node_id.clone(),
            kind: request.kind.type_name(),
            output,
        }))
    }
}

/// A simulated conversation: every turn answers with the same JSON.
#[derive(Debug)]
struct SimulatedConversation {
    node_id: String,
    kind: &'static str,
    output: Json,
}

#[async_trait]
impl LlmConversation for SimulatedConversation {
    async fn send(
        &mut self,
        message: &str,
        events: &dyn LlmEventSink,
        cancel: &CancellationToken,
    ) -> Result<LlmReply, LlmError> {
        if cancel.is_cancelled() {
            return Err(LlmError::new(
                LlmErrorKind::Cancelled,
                "the run was cancelled before the simulated reply",
            ));
        }
        let json = serde_json::to_string_pretty(&self.output).unwrap_or_else(|_| "{}".into());
        let text = format!(
            "[simulated] Dry run: no model was called. Stand-in reply for node `{}` ({}), \
             prompt of {} characters.\n\n```json\n{json}\n```\n",
            self.node_id,
            self.kind,
            message.chars().count(),
        );
        events.emit(LlmEvent::TextDelta(text.clone()));
        events.emit(LlmEvent::Usage {
            model: SIMULATED_MODEL.into(),
            usage: Usage::default(),
        });
        Ok(LlmReply {
            text,
            model: SIMULATED_MODEL.into(),
            usage: Usage::default(),
            cost_usd: None,
            files_touched: Vec::new(),
            simulated: true,
        })
    }
}

/// A small instance of `schema`, made to pass it: required properties only, the first
/// `enum`/`const` value, `"simulated"` for strings, the minimum (or 0) for numbers, `true`,
/// `minItems` copies of the item, the first `oneOf`/`anyOf` alternative, local `$ref`s
/// followed. Best effort: `pattern`, `not` and the like are not honoured.
pub fn minimal_instance(schema: &Json) -> Json {
    instance(schema, schema, 0)
}

fn instance(schema: &Json, root: &Json, depth: usize) -> Json {
    let Json::Object(s) = schema else {
        return Json::Null;
    };
    if depth > MAX_DEPTH {
        return Json::Null;
    }
    if let Some(value) = s.get("const") {
        return value.clone();
    }
    if let Some(first) = s
        .get("enum")
        .and_then(Json::as_array)
        .and_then(|e| e.first())
    {
        return first.clone();
    }
    if let Some(target) = s.get("$ref").and_then(Json::as_str) {
        let resolved = target
            .strip_prefix('#')
            .and_then(|pointer| root.pointer(pointer));
        return instance(resolved.unwrap_or(&Json::Null), root, depth + 1);
    }
    let mut value = match schema_type(s) {
        Some("object") => object_instance(s, root, depth),
        Some("array") => array_instance(s, root, depth),
        Some("string") => string_instance(s),
        Some("integer") => number_instance(s, true),
        Some("number") => number_instance(s, false),
        Some("boolean") => Json::Bool(true),
        Some(_) => Json::Null,
        None => first_alternative(s)
            .map(|alt| instance(alt, root, depth + 1))
            .unwrap_or(Json::Null),
    };
    if let Some(all) = s.get("allOf").and_then(Json::as_array) {
        for part in all {
            merge(&mut value, instance(part, root, depth + 1));
        }
    }
    value
}

/// The schema's type: `type` (the first non-null one of a list), else what its keywords imply.
fn schema_type(s: &Map<String, Json>) -> Option<&str> {
    match s.get("type") {
        Some(Json::String(t)) => return Some(t),
        Some(Json::Array(types)) => {
            let names: Vec<&str> = types.iter().filter_map(Json::as_str).collect();
            return names
                .iter()
                .find(|t| **t != "null")
                .or(names.first())
                .copied();
        }
        _ => {}
    }
    if ["properties", "required", "additionalProperties"]
        .iter()
        .any(|k| s.contains_key(*k))
    {
        Some("object")
    } else if ["items", "prefixItems", "minItems"]
        .iter()
        .any(|k| s.contains_key(*k))
    {
        Some("array")
    } else {
        None
    }
}

fn first_alternative(s: &Map<String, Json>) -> Option<&Json> {
    ["oneOf", "anyOf"]
        .iter()
        .find_map(|k| s.get(*k).and_then(Json::as_array).and_then(|a| a.first()))
}

fn object_instance(s: &Map<String, Json>, root: &Json, depth: usize) -> Json {
    let mut object = Map::new();
    let properties = s.get("properties").and_then(Json::as_object);
    let required = s.get("required").and_then(Json::as_array);
    for name in required.into_iter().flatten().filter_map(Json::as_str) {
        let property = properties
            .and_then(|p| p.get(name))
            .or_else(|| s.get("additionalProperties").filter(|a| a.is_object()))
            .unwrap_or(&Json::Null);
        object.insert(name.to_string(), instance(property, root, depth + 1));
    }
    Json::Object(object)
}

fn array_instance(s: &Map<String, Json>, root: &Json, depth: usize) -> Json {
    let min = s.get("minItems").and_then(Json::as_u64).unwrap_or(0);
    let min = usize::try_from(min).unwrap_or(MAX_ITEMS).min(MAX_ITEMS);
    let mut items: Vec<Json> = Vec::with_capacity(min);
    let prefix = s.get("prefixItems").and_then(Json::as_array);
    for index in 0..min {
        let item_schema = prefix
            .and_then(|p| p.get(index))
            .or_else(|| s.get("items"))
            .unwrap_or(&Json::Null);
        items.push(instance(item_schema, root, depth + 1));
    }
    Json::Array(items)
}

fn string_instance(s: &Map<String, Json>) -> Json {
    let text = match s.get("format").and_then(Json::as_str) {
        Some("date-time") => "1970-01-01T00:00:00Z",
        Some("date") => "1970-01-01",
        Some("time") => "00:00:00Z",
        Some("email") => "simulated@example.com",
        Some("uri" | "url" | "iri") => "https://example.com/simulated",
        Some("uuid") => "00000000-0000-0000-0000-000000000000",
        _ => "simulated",
    };
    let mut text = text.to_string();
    let min = s.get("minLength").and_then(Json::as_u64).unwrap_or(0);
    while (text.chars().count() as u64) < min {
        text.push('x');
    }
    if let Some(max) = s.get("maxLength").and_then(Json::as_u64) {
        text = text
            .chars()
            .take(usize::try_from(max).unwrap_or(usize::MAX))
            .collect();
    }
    Json::String(text)
}

fn number_instance(s: &Map<String, Json>, integer: bool) -> Json {
    let bound = |key: &str| s.get(key).and_then(Json::as_f64);
    let mut value = match (bound("minimum"), bound("exclusiveMinimum")) {
        (Some(min), _) => min,
        (None, Some(min)) => min + 1.0,
        (None, None) => 0.0,
    };
    if let Some(max) = bound("maximum").filter(|max| *max < value) {
        value = max;
    }
    if let Some(max) = bound("exclusiveMaximum").filter(|max| *max <= value) {
        value = max - 1.0;
    }
    if integer || value.fract() == 0.0 {
        let value = if integer { value.ceil() } else { value };
        // Schemas' bounds are small; an out-of-range float saturates.
        return Json::from(value as i64);
    }
    json!(value)
}

/// Adds `extra`'s keys to `value` when both are objects; otherwise takes `extra` if `value`
/// is still null.
fn merge(value: &mut Json, extra: Json) {
    match (value, extra) {
        (Json::Object(into), Json::Object(from)) => {
            for (key, v) in from {
                into.entry(key).or_insert(v);
            }
        }
        (slot @ Json::Null, extra) => *slot = extra,
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn builds_required_properties_recursively() {
        let schema = json!({
            "type": "object",
            "required": ["name", "tags", "meta", "kind", "count"],
            "properties": {
                "name": {"type": "string", "minLength": 12},
                "tags": {"type": "array", "items": {"type": "string"}, "minItems": 2},
                "meta": {"$ref": "#/$defs/meta"},
                "kind": {"oneOf": [{"const": "a"}, {"const": "b"}]},
                "count": {"type": "integer", "exclusiveMinimum": 3},
                "optional": {"type": "string"}
            },
            "$defs": {"meta": {"type": "object", "required": ["ok"],
                "properties": {"ok": {"type": "boolean"}}}}
        });
        assert_eq!(
            minimal_instance(&schema),
            json!({
                "name": "simulatedxxx",
                "tags": ["simulated", "simulated"],
                "meta": {"ok": true},
                "kind": "a",
                "count": 4
            })
        );
    }

    #[test]
    fn enum_and_nullable_types() {
        assert_eq!(minimal_instance(&json!({"enum": ["x", "y"]})), json!("x"));
        assert_eq!(
            minimal_instance(&json!({"type": ["null", "number"], "minimum": 2.5})),
            json!(2.5)
        );
    }
}
