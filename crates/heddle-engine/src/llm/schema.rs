//! `output_schema`: loading the schema (`routing` or a JSON Schema file), validating a reply
//! against it and asking the model to repair its output in the same conversation.

use std::path::Path;
use std::sync::Arc;

use serde_json::{Value as Json, json};
use tokio_util::sync::CancellationToken;

use super::directives::{describe_missing_object, last_json_object, strip_position};
use super::{LlmConversation, LlmError, LlmEvent, LlmEventSink, LlmReply};

/// The `output_schema` value that selects the built-in routing schema.
pub const ROUTING_SCHEMA: &str = "routing";

/// A loaded output schema, compiled once.
#[derive(Clone)]
pub struct OutputSchema {
    /// The schema document.
    pub schema: Json,
    /// `routing` or the file it came from.
    pub source: String,
    /// Always set except if the built-in routing schema failed to compile (a bug).
    validator: Option<Arc<jsonschema::Validator>>,
}

impl std::fmt::Debug for OutputSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OutputSchema")
            .field("source", &self.source)
            .field("schema", &self.schema)
            .finish_non_exhaustive()
    }
}

/// A schema that cannot be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SchemaError(pub String);

/// The result of validation with repairs.
#[derive(Debug, Clone, PartialEq)]
pub enum SchemaOutcome {
    /// The output (after `repairs` repair turns).
    Valid {
        /// The validated JSON.
        output: Json,
        /// Repair turns used.
        repairs: u32,
    },
    /// Still invalid after every repair turn.
    Invalid {
        /// The last validation errors.
        errors: Vec<String>,
        /// Repair turns used.
        repairs: u32,
    },
}

impl SchemaOutcome {
    /// Repair turns used.
    pub fn repairs(&self) -> u32 {
        match self {
            SchemaOutcome::Valid { repairs, .. } | SchemaOutcome::Invalid { repairs, .. } => {
                *repairs
            }
        }
    }
}

impl OutputSchema {
    /// Loads `routing` (the built-in routing schema) or a JSON Schema file, written
    /// `@path.schema.json` or as a bare path, relative to `workflow_path`. The error names the
    /// file and what is wrong with it (unreadable, JSON line:column, not a schema).
    pub fn load(value: &str, workflow_path: &Path) -> Result<OutputSchema, SchemaError> {
        let value = value.trim();
        if value.eq_ignore_ascii_case(ROUTING_SCHEMA) {
            return Ok(OutputSchema::routing());
        }
        let reference = value.strip_prefix('@').unwrap_or(value).trim();
        if reference.is_empty() {
            return Err(SchemaError(
                "output_schema is empty: write `routing` or `@path/to/file.schema.json`".into(),
            ));
        }
        let path = heddle_workflow::resolve_reference(workflow_path, reference);
        let shown = path.display().to_string();
        let text = std::fs::read_to_string(&path).map_err(|e| {
            SchemaError(format!(
                "output_schema `{value}`: cannot read {shown}: {}",
                crate::describe_io(&e)
            ))
        })?;
        let schema: Json = serde_json::from_str(&text).map_err(|e| {
            SchemaError(format!(
                "{shown}:{}:{}: output schema is not valid JSON: {}",
                e.line(),
                e.column(),
                strip_position(&e)
            ))
        })?;
        OutputSchema::from_json(schema, shown)
    }

    /// The built-in schema of a routing directive: `outcome` required.
    pub fn routing() -> OutputSchema {
        let schema = routing_schema();
        OutputSchema {
            validator: jsonschema::validator_for(&schema).ok().map(Arc::new),
            schema,
            source: ROUTING_SCHEMA.to_string(),
        }
    }

    /// Compiles `schema`; `source` names it in messages.
    pub fn from_json(schema: Json, source: impl Into<String>) -> Result<Self, SchemaError> {
        let source = source.into();
        let validator = jsonschema::validator_for(&schema).map_err(|e| {
            let at = e.instance_path().to_string();
            let at = if at.is_empty() {
                String::new()
            } else {
                format!(" (at {at})")
            };
            SchemaError(format!("{source}: not a valid JSON Schema: {e}{at}"))
        })?;
        Ok(OutputSchema {
            schema,
            source,
            validator: Some(Arc::new(validator)),
        })
    }

    /// The validation errors of `instance`, each as `PATH: message` (`(root)` for the
    /// instance itself); empty when it is valid.
    pub fn validate(&self, instance: &Json) -> Vec<String> {
        let Some(validator) = &self.validator else {
            return vec![format!("{}: the schema did not compile", self.source)];
        };
        validator
            .iter_errors(instance)
            .map(|error| {
                let path = error.instance_path().to_string();
                let path = if path.is_empty() { "(root)" } else { &path };
                format!("{path}: {error}")
            })
            .collect()
    }

    /// The JSON a reply holds and whether it matches: `Ok(output)`, or the problems (no JSON
    /// found, validation errors).
    pub fn check_reply(&self, text: &str) -> Result<Json, Vec<String>> {
        let Some(output) = reply_output(text) else {
            return Err(vec![describe_missing_object(text)]);
        };
        let errors = self.validate(&output);
        if errors.is_empty() {
            Ok(output)
        } else {
            Err(errors)
        }
    }

    /// What to append to a stage's prompt so the model knows the output expected of it.
    pub fn prompt_instructions(&self) -> String {
        let schema = serde_json::to_string_pretty(&self.schema).unwrap_or_default();
        format!(
            "End your reply with a JSON object (in a ```json code fence) that matches this \
             JSON Schema ({}):\n```json\n{schema}\n```\n",
            self.source
        )
    }

    /// The message of a repair turn: the problems, then a request for only the JSON.
    pub fn repair_message(&self, errors: &[String]) -> String {
        let mut message = format!(
            "Your last reply does not match the required output schema ({}):\n",
            self.source
        );
        for error in errors {
            message.push_str("- ");
            message.push_str(error);
            message.push('\n');
        }
        let schema = serde_json::to_string_pretty(&self.schema).unwrap_or_default();
        message.push_str(
            "\nReply with only the corrected JSON, nothing else: no prose, no code fences. \
             It must match this JSON Schema:\n",
        );
        message.push_str(&schema);
        message.push('\n');
        message
    }
}

/// The routing directive schema.
fn routing_schema() -> Json {
    let outcomes: Vec<&str> = heddle_workflow::OUTCOMES
        .iter()
        .copied()
        .chain(
            heddle_workflow::OUTCOME_ALIASES
                .iter()
                .map(|(alias, _)| *alias),
        )
        .collect();
    json!({
        "type": "object",
        "required": ["outcome"],
        "properties": {
            "outcome": {"type": "string", "enum": outcomes},
            "preferred_next_label": {"type": "string"},
            "suggested_next_ids": {"type": "array", "items": {"type": "string"}},
            "context_updates": {"type": "object"},
            "failure_reason": {"type": "string"}
        }
    })
}

/// The output a reply holds: the whole trimmed text when it is JSON (any value), else the
/// last JSON object in it.
fn reply_output(text: &str) -> Option<Json> {
    let trimmed = text.trim();
    if let Ok(value) = serde_json::from_str::<Json>(trimmed) {
        return Some(value);
    }
    last_json_object(text).map(Json::Object)
}

/// Validates `first_reply` against `schema` and, while it does not match and repair turns
/// remain (`max_repairs`, the node's `output_retries`), asks for a corrected output in the
/// same `conversation`, quoting the problems. Each repair reply is pushed onto
/// `repair_replies` as it arrives, so the caller keeps them (usage, files) even when a later
/// turn fails or the stage times out. A failed send returns its [`LlmError`].
pub async fn validate_with_repairs(
    schema: &OutputSchema,
    first_reply: &str,
    conversation: &mut dyn LlmConversation,
    max_repairs: u32,
    events: &dyn LlmEventSink,
    cancel: &CancellationToken,
    repair_replies: &mut Vec<LlmReply>,
) -> Result<SchemaOutcome, LlmError> {
    let mut repairs = 0;
    let mut checked = schema.check_reply(first_reply);
    loop {
        let errors = match checked {
            Ok(output) => return Ok(SchemaOutcome::Valid { output, repairs }),
            Err(errors) => errors,
        };
        if repairs >= max_repairs {
            return Ok(SchemaOutcome::Invalid { errors, repairs });
        }
        repairs += 1;
        events.emit(LlmEvent::Note {
            kind: "schema.repair".into(),
            details: json!({
                "schema": schema.source,
                "attempt": repairs,
                "max": max_repairs,
                "errors": errors,
            }),
        });
        let reply = conversation
            .send(&schema.repair_message(&errors), events, cancel)
            .await?;
        checked = schema.check_reply(&reply.text);
        repair_replies.push(reply);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[test]
    fn routing_schema_accepts_both_spellings() {
        let schema = OutputSchema::routing();
        assert!(schema.validate(&json!({"outcome": "succeeded"})).is_empty());
        assert!(
            schema
                .validate(&json!({"outcome": "partial_success"}))
                .is_empty()
        );
        let errors = schema.validate(&json!({"outcome": "maybe"}));
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].starts_with("/outcome: "), "{errors:?}");
    }

    #[test]
    fn whole_reply_may_be_any_json() {
        let schema = OutputSchema::from_json(json!({"type": "array"}), "inline").unwrap();
        assert_eq!(schema.check_reply(" [1, 2] "), Ok(json!([1, 2])));
    }

    #[test]
    fn repair_message_quotes_errors_and_schema() {
        let schema = OutputSchema::routing();
        let message = schema.repair_message(&["(root): \"outcome\" is a required property".into()]);
        assert!(message.contains("- (root): \"outcome\" is a required property"));
        assert!(message.contains("\"required\""));
        assert!(message.contains("only the corrected JSON"));
        let instructions = schema.prompt_instructions();
        assert!(instructions.contains("(routing)") && instructions.contains("\"outcome\""));
    }
}
