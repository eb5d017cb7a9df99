//! heddle-workflow owns the workflow dialect: the typed model built from a DOT document,
//! handler kinds, typed attribute values, the condition language, the model stylesheet and
//! the validation (lint) rules.

mod diagnostic;
mod model;

pub use diagnostic::{Diagnostic, Severity};
pub use model::*;
