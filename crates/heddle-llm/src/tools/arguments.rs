//! Reading a tool call's JSON arguments, with errors that name the argument, the type it
//! should have and what was given instead.

use serde_json::{Map, Value};

use super::specs::Tool;

/// A tool call's arguments were missing or of the wrong type.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ArgumentError {
    /// The arguments were not a JSON object.
    #[error("{tool}: the arguments must be a JSON object with named arguments, but got {found}")]
    NotObject {
        /// The tool called.
        tool: &'static str,
        /// What was given instead.
        found: String,
    },
    /// A required argument is absent.
    #[error("{tool}: missing required argument `{name}` ({expected}){given}")]
    Missing {
        /// The tool called.
        tool: &'static str,
        /// The argument's name, e.g. `path`.
        name: &'static str,
        /// What it must be, in words (`a string`).
        expected: &'static str,
        /// The names that were given, if any, as a sentence.
        given: String,
    },
    /// An argument has the wrong type or value.
    #[error("{tool}: argument `{name}` must be {expected}, but got {found}")]
    WrongType {
        /// The tool called.
        tool: &'static str,
        /// The argument's name, e.g. `path`.
        name: &'static str,
        /// What it must be, in words (`a string`).
        expected: &'static str,
        /// What was given instead.
        found: String,
    },
}

/// The arguments of one call to `tool`. `null` counts as no arguments.
pub(crate) struct Arguments<'a> {
    tool: &'static str,
    map: Option<&'a Map<String, Value>>,
}

impl<'a> Arguments<'a> {
    /// The arguments in `value`, which must be an object (or `null`).
    pub(crate) fn new(tool: Tool, value: &'a Value) -> Result<Self, ArgumentError> {
        let tool = tool.name();
        match value {
            Value::Object(map) => Ok(Arguments {
                tool,
                map: Some(map),
            }),
            Value::Null => Ok(Arguments { tool, map: None }),
            other => Err(ArgumentError::NotObject {
                tool,
                found: describe(other),
            }),
        }
    }

    /// The argument `name`, absent when missing or `null`.
    fn get(&self, name: &str) -> Option<&'a Value> {
        self.map?.get(name).filter(|v| !v.is_null())
    }

    fn wrong(&self, name: &'static str, expected: &'static str, found: &Value) -> ArgumentError {
        ArgumentError::WrongType {
            tool: self.tool,
            name,
            expected,
            found: describe(found),
        }
    }

    /// A required string argument.
    pub(crate) fn required_str(&self, name: &'static str) -> Result<&'a str, ArgumentError> {
        match self.optional_str(name)? {
            Some(text) => Ok(text),
            None => Err(ArgumentError::Missing {
                tool: self.tool,
                name,
                expected: "a string",
                given: self.given(),
            }),
        }
    }

    /// An optional string argument.
    pub(crate) fn optional_str(
        &self,
        name: &'static str,
    ) -> Result<Option<&'a str>, ArgumentError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::String(text)) => Ok(Some(text)),
            Some(other) => Err(self.wrong(name, "a string", other)),
        }
    }

    /// An optional boolean argument.
    pub(crate) fn optional_bool(&self, name: &'static str) -> Result<Option<bool>, ArgumentError> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Bool(flag)) => Ok(Some(*flag)),
            Some(other) => Err(self.wrong(name, "a boolean (true or false)", other)),
        }
    }

    /// An optional positive integer argument (1 or more).
    pub(crate) fn optional_count(&self, name: &'static str) -> Result<Option<u64>, ArgumentError> {
        const EXPECTED: &str = "a positive integer (1 or more)";
        match self.get(name) {
            None => Ok(None),
            Some(Value::Number(number)) => {
                let whole = number.as_u64().or_else(|| {
                    number
                        .as_f64()
                        .filter(|f| f.fract() == 0.0 && *f >= 1.0 && *f <= u64::MAX as f64)
                        .map(|f| f as u64)
                });
                match whole {
                    Some(count) if count >= 1 => Ok(Some(count)),
                    _ => Err(self.wrong(name, EXPECTED, &Value::Number(number.clone()))),
                }
            }
            Some(other) => Err(self.wrong(name, EXPECTED, other)),
        }
    }

    /// The names given, as a sentence for [`ArgumentError::Missing`].
    fn given(&self) -> String {
        let names: Vec<String> = self
            .map
            .map(|map| map.keys().map(|k| format!("`{k}`")).collect())
            .unwrap_or_default();
        if names.is_empty() {
            "; no arguments were given".to_string()
        } else {
            format!("; the arguments given were {}", names.join(", "))
        }
    }
}

/// A JSON value in words, short: `the string "abc"`, `the number 1.5`, `an array`.
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(flag) => format!("the boolean {flag}"),
        Value::Number(number) => format!("the number {number}"),
        Value::String(text) => {
            let short: String = text.chars().take(40).collect();
            let dots = if short.len() < text.len() { "…" } else { "" };
            format!("the string {:?}", format!("{short}{dots}"))
        }
        Value::Array(_) => "an array".to_string(),
        Value::Object(_) => "an object".to_string(),
    }
}
