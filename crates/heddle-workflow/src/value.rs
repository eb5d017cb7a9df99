//! Typed attribute values: what each attribute's text must look like, and the conversion
//! from the text as written to a [`Value`].

use crate::Value;
use crate::duration::{DurationError, bare_seconds, parse_duration};

/// The type of an attribute's value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ValueType {
    /// Any text.
    String,
    /// A whole number, at least `min`.
    Integer {
        /// Smallest allowed value, inclusive.
        min: i64,
    },
    /// A decimal number, at least `min`.
    Float {
        /// Smallest allowed value, inclusive.
        min: f64,
    },
    /// `true` or `false` (any case).
    Boolean,
    /// `true` or `false` (any case); other text reads as `true`, with a warning
    /// (`boolean_text`), as Fabro reads `goal_gate`.
    Flag,
    /// A duration such as `30s` (see [`crate::parse_duration`]).
    Duration,
    /// One of the listed words (compared without case; stored in the listed spelling).
    Enum(&'static [&'static str]),
    /// Text, or `@path` naming a file whose content is the text (`prompt`).
    TextOrFile,
    /// The word `routing`, or `@path` naming a JSON Schema file (`output_schema`).
    Schema,
    /// The id of a node in the same workflow (`retry_target`).
    NodeId,
    /// A condition expression (see [`crate::Condition`]).
    Condition,
    /// A model stylesheet (see [`crate::Stylesheet`]).
    Stylesheet,
}

/// Why a value does not fit its attribute's type.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ValueError {
    /// Not a whole number.
    #[error("`{0}` is not a whole number")]
    NotInteger(String),
    /// Not a number.
    #[error("`{0}` is not a number")]
    NotFloat(String),
    /// A number smaller than its type's `min`.
    #[error("`{raw}` is below the minimum of {min}")]
    BelowMinimum {
        /// The value as written.
        raw: String,
        /// The type's `min`, formatted for the message.
        min: String,
    },
    /// Not `true`/`false`.
    #[error("`{0}` is not a boolean; write `true` or `false`")]
    NotBoolean(String),
    /// Not a duration.
    #[error(transparent)]
    Duration(#[from] DurationError),
    /// Not one of the allowed words.
    #[error("`{raw}` is not one of {allowed}")]
    NotInEnum {
        /// The value as written.
        raw: String,
        /// The allowed words, formatted for a message.
        allowed: String,
    },
    /// `@` with no path after it.
    #[error("`@` must be followed by a file path")]
    EmptyFileRef,
}

impl ValueType {
    /// A short description for messages, e.g. "a duration such as `30s`".
    pub fn describe(&self) -> String {
        match self {
            ValueType::String => "text".to_owned(),
            ValueType::Integer { min } => format!("a whole number ≥ {min}"),
            ValueType::Float { min } => format!("a number ≥ {min}"),
            ValueType::Boolean | ValueType::Flag => "`true` or `false`".to_owned(),
            ValueType::Duration => {
                "a duration such as `250ms`, `30s`, `15m`, `2h` or `1d`".to_owned()
            }
            ValueType::Enum(values) => format!("one of {}", format_allowed(values)),
            ValueType::TextOrFile => "text or `@path/to/file`".to_owned(),
            ValueType::Schema => "`routing` or `@path/to/schema.json`".to_owned(),
            ValueType::NodeId => "a node id".to_owned(),
            ValueType::Condition => "a condition such as `outcome=success`".to_owned(),
            ValueType::Stylesheet => "a model stylesheet".to_owned(),
        }
    }
}

/// Formats enum values for messages: `` `a`, `b` or `c` ``.
pub fn format_allowed(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// Converts `raw` (the decoded text as written) to a value of type `ty`.
///
/// File references come back with `resolved: None`; resolving them needs file access and
/// happens when the model is built.
pub fn parse_value(ty: ValueType, raw: &str) -> Result<Value, ValueError> {
    let text = raw.trim();
    match ty {
        ValueType::String | ValueType::NodeId | ValueType::Condition | ValueType::Stylesheet => {
            Ok(Value::String(raw.to_owned()))
        }
        ValueType::Integer { min } => {
            let n: i64 = text
                .parse()
                .map_err(|_| ValueError::NotInteger(raw.to_owned()))?;
            if n < min {
                return Err(ValueError::BelowMinimum {
                    raw: raw.to_owned(),
                    min: min.to_string(),
                });
            }
            Ok(Value::Integer(n))
        }
        ValueType::Float { min } => {
            let n: f64 = text
                .parse()
                .ok()
                .filter(|n: &f64| n.is_finite())
                .ok_or_else(|| ValueError::NotFloat(raw.to_owned()))?;
            if n < min {
                return Err(ValueError::BelowMinimum {
                    raw: raw.to_owned(),
                    min: min.to_string(),
                });
            }
            Ok(Value::Float(n))
        }
        ValueType::Boolean => match text.to_ascii_lowercase().as_str() {
            "true" => Ok(Value::Boolean(true)),
            "false" => Ok(Value::Boolean(false)),
            _ => Err(ValueError::NotBoolean(raw.to_owned())),
        },
        ValueType::Flag => match text.to_ascii_lowercase().as_str() {
            "false" => Ok(Value::Boolean(false)),
            _ => Ok(Value::Boolean(true)),
        },
        ValueType::Duration => match bare_seconds(text) {
            Some(millis) => Ok(Value::Duration(millis)),
            None => Ok(Value::Duration(parse_duration(text)?)),
        },
        ValueType::Enum(values) => enum_value(values, raw),
        ValueType::TextOrFile => match file_ref(text)? {
            Some(value) => Ok(value),
            None => Ok(Value::String(raw.to_owned())),
        },
        ValueType::Schema => match file_ref(text)? {
            Some(value) => Ok(value),
            None => enum_value(&["routing"], raw),
        },
    }
}

/// Parses `raw`, or keeps it as [`Value::Invalid`] when it does not fit.
pub fn typed_value(ty: ValueType, raw: &str) -> Value {
    parse_value(ty, raw).unwrap_or_else(|_| Value::Invalid(raw.to_owned()))
}

fn enum_value(values: &[&'static str], raw: &str) -> Result<Value, ValueError> {
    let text = raw.trim();
    values
        .iter()
        .find(|v| v.eq_ignore_ascii_case(text))
        .map(|v| Value::Enum((*v).to_owned()))
        .ok_or_else(|| ValueError::NotInEnum {
            raw: raw.to_owned(),
            allowed: format_allowed(values),
        })
}

/// `@path` becomes a file reference; anything else is `None`.
fn file_ref(text: &str) -> Result<Option<Value>, ValueError> {
    let Some(path) = text.strip_prefix('@') else {
        return Ok(None);
    };
    let path = path.trim();
    if path.is_empty() {
        return Err(ValueError::EmptyFileRef);
    }
    Ok(Some(Value::FileRef {
        path: path.to_owned(),
        resolved: None,
    }))
}
